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
// It hands the session whole lines only, and answers a line the session
// could not decode itself (malformed.go).
type pendingReader struct {
	r     io.ReadCloser
	p     *pending
	w     *pendingWriter // where refused lines are answered
	chunk []byte
	buf   []byte // read, not yet a whole line
	ready []byte // whole lines for the session
	err   error  // the input's end or failure, returned once ready is empty
}

func (r *pendingReader) Read(b []byte) (int, error) {
	for len(r.ready) == 0 && r.err == nil {
		n, err := r.r.Read(r.chunk)
		r.buf = append(r.buf, r.chunk[:n]...)
		for {
			i := bytes.IndexByte(r.buf, '\n')
			if i < 0 {
				break
			}
			r.take(r.buf[:i+1])
			r.buf = r.buf[i+1:]
		}
		if err != nil {
			if err == io.EOF && len(r.buf) > 0 { // a last line without its newline
				r.take(r.buf)
			}
			r.buf, r.err = nil, err
		}
	}
	if len(r.ready) == 0 {
		if r.err == io.EOF {
			r.p.wait()
		}
		return 0, r.err
	}
	n := copy(b, r.ready)
	r.ready = r.ready[n:]
	return n, nil
}

// take passes one line to the session, or answers it.
func (r *pendingReader) take(line []byte) {
	if blank(line) {
		return
	}
	if answer := refusal(bytes.TrimSpace(line)); answer != nil {
		r.w.Write(answer) // a client that stopped reading fails the session's own writes
		return
	}
	r.p.line(line, true)
	r.ready = append(r.ready, line...)
	if line[len(line)-1] != '\n' {
		r.ready = append(r.ready, '\n')
	}
}

func (r *pendingReader) Close() error { return r.r.Close() }

// pendingWriter is the server's output; it sees the answers go out. Its
// writes are whole lines, the session's and the reader's refusals, one at
// a time.
type pendingWriter struct {
	mu    sync.Mutex
	w     io.WriteCloser
	split splitter
}

func (w *pendingWriter) Write(b []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	n, err := w.w.Write(b)
	w.split.write(b[:n])
	return n, err
}

func (w *pendingWriter) Close() error { return w.w.Close() }

// waitingStdio wraps a session's input and output so that the input's EOF
// reaches the session only after every request read was answered.
func waitingStdio(ctx context.Context, in io.ReadCloser, out io.WriteCloser) (io.ReadCloser, io.WriteCloser) {
	p := newPending(ctx)
	w := &pendingWriter{w: out}
	w.split.fn = func(l []byte) { p.line(l, false) }
	return &pendingReader{r: in, p: p, w: w, chunk: make([]byte, 32<<10)}, w
}
