package serve

// This file answers: how does a client's notifications/cancelled reach the
// tool call it names, when stateless Streamable HTTP brings it in a POST of
// its own?

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"sync"
)

// callKey names a tools/call in progress: who sent it and its JSON-RPC id
// (as JSON: 7 and "7" are two ids).
type callKey struct{ principal, id string }

// mcpCalls are the tools/call requests in progress, each with the cancel
// of its context. A client's ids are unique among its own requests only:
// two calls of one principal may share one.
type mcpCalls struct {
	mu    sync.Mutex
	calls map[callKey][]*context.CancelFunc
}

// add records a call; the func it returns forgets it.
func (m *mcpCalls) add(k callKey, cancel context.CancelFunc) func() {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.calls == nil {
		m.calls = map[callKey][]*context.CancelFunc{}
	}
	e := &cancel
	m.calls[k] = append(m.calls[k], e)
	return func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		list := m.calls[k]
		for i, x := range list {
			if x == e {
				list = append(list[:i], list[i+1:]...)
				break
			}
		}
		if len(list) == 0 {
			delete(m.calls, k)
		} else {
			m.calls[k] = list
		}
	}
}

// cancel cancels the one call k names; with two or more of the
// principal's calls under that id it cannot tell which, and cancels none.
func (m *mcpCalls) cancel(k callKey) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if list := m.calls[k]; len(list) == 1 {
		(*list[0])()
		return true
	}
	return false
}

// rpcMessage is what routing needs of one JSON-RPC message.
type rpcMessage struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
	} `json:"params"`
}

// routeCancel reads r's body (ServeHTTP caps it) and puts it back. For a
// tools/call it returns a context that ends with the request or when the
// principal's notifications/cancelled names the call, and the func that
// forgets the call once it is over; for a notifications/cancelled it
// cancels the call named. ok is false when the body could not be read (the
// answer is written).
func (s *Server) routeCancel(w http.ResponseWriter, r *http.Request, principal string) (ctx context.Context, done func(), ok bool) {
	body, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, codeTooLarge, "the body is larger than 1 MiB")
		return nil, nil, false
	case err != nil:
		writeError(w, http.StatusBadRequest, codeBadArgs, "cannot read the body: "+err.Error())
		return nil, nil, false
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	var msg rpcMessage
	if json.Unmarshal(body, &msg) != nil {
		return r.Context(), func() {}, true // the SDK answers what is not one message
	}
	switch {
	case msg.Method == "tools/call" && len(msg.ID) > 0:
		ctx, cancel := context.WithCancel(r.Context())
		forget := s.mcpCalls.add(callKey{principal, string(compactJSON(msg.ID))}, cancel)
		return ctx, func() { forget(); cancel() }, true
	case msg.Method == "notifications/cancelled" && len(msg.Params.RequestID) > 0:
		s.mcpCalls.cancel(callKey{principal, string(compactJSON(msg.Params.RequestID))})
	}
	return r.Context(), func() {}, true
}

// compactJSON is raw without insignificant blanks.
func compactJSON(raw json.RawMessage) []byte {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}
