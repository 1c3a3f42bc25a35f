package redact

import (
	"bytes"
	"io"
	"sync"
)

// Writer masks secrets in what passes through it. A secret split across
// writes is masked too: the last bytes of a write that could begin one
// are held back until the next write or Flush (and only those: output
// that cannot be part of a secret is never delayed).
type Writer struct {
	r    *Redactor
	w    io.Writer
	mu   sync.Mutex
	held []byte
}

// NewWriter returns a Writer masking r's secrets on their way to w (with
// a nil r, it passes everything on as it comes).
func NewWriter(r *Redactor, w io.Writer) *Writer { return &Writer{r: r, w: w} }

func (w *Writer) Write(p []byte) (int, error) {
	if w.r == nil {
		return w.w.Write(p)
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	buf := append(w.held, p...)
	out, end, _ := w.r.replaceUpTo(buf, w.r.partialStart(buf))
	var err error
	if len(out) > 0 {
		_, err = w.w.Write(out)
	}
	w.held = append(w.held[:0:0], buf[end:]...)
	if err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what is held back: nothing more is coming, so it is not
// the start of a secret.
func (w *Writer) Flush() error {
	if w.r == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if len(w.held) == 0 {
		return nil
	}
	_, err := w.w.Write(w.r.Bytes(w.held))
	w.held = nil
	return err
}

// partialStart is where the longest tail of b that is a proper prefix of
// a secret begins (the tail a later write may complete), len(b) when
// there is none.
func (r *Redactor) partialStart(b []byte) int {
	longest := len(r.needles[0])
	for i := max(0, len(b)-longest+1); i < len(b); i++ {
		for _, n := range r.needles {
			if len(b)-i < len(n) && bytes.HasPrefix(n, b[i:]) {
				return i
			}
		}
	}
	return len(b)
}
