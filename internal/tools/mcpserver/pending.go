package mcpserver

// This file answers: how does `jaiph mcp` answer every request a client
// sent before it closed stdin (`printf '…initialize…\n…tools/call…\n' |
// jaiph mcp f.jh`)? The SDK ends the session at EOF, dropping the answers
// still being worked on; MCP stdio servers answer everything they read.

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"sync"
)

// pending counts the client's requests the server has not answered yet:
// the input and output streams are wrapped, each newline-delimited
// message (MCP stdio messages are one line each) is looked at, a request
// (method and id) is added, a response (id, no method) or a cancellation
// of the request removes it. At the input's EOF the reader waits until
// none is left (or ctx ends) before it reports EOF.
type pending struct {
	ctx  context.Context
	mu   sync.Mutex
	ids  map[string]bool
	none chan struct{} // closed while ids is empty; replaced when one is added
}

func newPending(ctx context.Context) *pending {
	p := &pending{ctx: ctx, ids: map[string]bool{}, none: make(chan struct{})}
	close(p.none)
	return p
}

// message is the part of a JSON-RPC message that tells requests,
// responses and cancellations apart.
type message struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params struct {
		RequestID json.RawMessage `json:"requestId"`
	} `json:"params"`
}

// line looks at one message line; in says which way it goes.
func (p *pending) line(l []byte, in bool) {
	var ms []message
	l = bytes.TrimSpace(l)
	switch {
	case len(l) == 0:
		return
	case l[0] == '[':
		if json.Unmarshal(l, &ms) != nil {
			return
		}
	default:
		var m message
		if json.Unmarshal(l, &m) != nil {
			return
		}
		ms = []message{m}
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, m := range ms {
		switch {
		case in && m.Method == "notifications/cancelled" && len(m.Params.RequestID) > 0:
			p.remove(string(m.Params.RequestID))
		case in && m.Method != "" && len(m.ID) > 0 && string(m.ID) != "null":
			if len(p.ids) == 0 {
				p.none = make(chan struct{})
			}
			p.ids[string(m.ID)] = true
		case !in && m.Method == "" && len(m.ID) > 0:
			p.remove(string(m.ID))
		}
	}
}

// remove forgets a request; p.mu is held.
func (p *pending) remove(id string) {
	if !p.ids[id] {
		return
	}
	delete(p.ids, id)
	if len(p.ids) == 0 {
		close(p.none)
	}
}

// wait returns once every request seen was answered or ctx ended.
func (p *pending) wait() {
	p.mu.Lock()
	none := p.none
	p.mu.Unlock()
	select {
	case <-none:
	case <-p.ctx.Done():
	}
}

// splitter feeds the complete lines of a stream to fn.
type splitter struct {
	buf []byte
	fn  func([]byte)
}

func (s *splitter) write(b []byte) {
	s.buf = append(s.buf, b...)
	for {
		i := bytes.IndexByte(s.buf, '\n')
		if i < 0 {
			return
		}
		s.fn(s.buf[:i])
		s.buf = s.buf[i+1:]
	}
}

// pendingReader is the client's input; at EOF it waits for the answers.
type pendingReader struct {
	r     io.ReadCloser
	p     *pending
	split splitter
}

func (r *pendingReader) Read(b []byte) (int, error) {
	n, err := r.r.Read(b)
	r.split.write(b[:n])
	if err == io.EOF {
		if len(r.split.buf) > 0 { // a last line without its newline
			r.p.line(r.split.buf, true)
			r.split.buf = nil
		}
		if n > 0 {
			return n, nil // the data first; EOF on the next call
		}
		r.p.wait()
	}
	return n, err
}

func (r *pendingReader) Close() error { return r.r.Close() }

// pendingWriter is the server's output; it sees the answers go out.
type pendingWriter struct {
	w     io.WriteCloser
	split splitter
}

func (w *pendingWriter) Write(b []byte) (int, error) {
	n, err := w.w.Write(b)
	w.split.write(b[:n])
	return n, err
}

func (w *pendingWriter) Close() error { return w.w.Close() }

// waitingStdio wraps a session's input and output so that the input's EOF
// reaches the session only after every request read was answered.
func waitingStdio(ctx context.Context, in io.ReadCloser, out io.WriteCloser) (io.ReadCloser, io.WriteCloser) {
	p := newPending(ctx)
	r := &pendingReader{r: in, p: p}
	r.split.fn = func(l []byte) { p.line(l, true) }
	w := &pendingWriter{w: out}
	w.split.fn = func(l []byte) { p.line(l, false) }
	return r, w
}
