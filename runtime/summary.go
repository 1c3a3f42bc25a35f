package runtime

// This file answers: how does an event reach run_summary.jsonl?

import (
	"sync"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/redact"
)

// summaryWriter appends whole lines to run_summary.jsonl, through the
// run's chain (chain.go) or its RecordSink. One process owns the file, so
// a mutex (not a file lock) keeps concurrent appends untorn and their
// MACs in the file's order.
type summaryWriter struct {
	mu     sync.Mutex
	out    appender
	failed func(error) // told about the first write error
}

func (s *summaryWriter) write(e *event.Event) {
	s.append(append(e.JSON(), '\n'))
}

// writeAll appends the lines of es in one write.
func (s *summaryWriter) writeAll(es []*event.Event) {
	var lines []byte
	for _, e := range es {
		lines = append(append(lines, e.JSON()...), '\n')
	}
	s.append(lines)
}

func (s *summaryWriter) append(line []byte) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.out != nil {
		if err := s.out.Append(line); err != nil && s.failed != nil {
			s.failed(err)
			s.failed = nil
		}
	}
}

// redactEvent masks credentials in the parts of e a step's data reaches:
// arguments, log messages, captured output, message previews. Names,
// kinds and paths come from the program and the run.
func redactEvent(r *redact.Redactor, e *event.Event) {
	for i := range e.Params {
		e.Params[i][1] = r.String(e.Params[i][1])
	}
	e.Message = r.String(e.Message)
	e.PayloadPreview = r.String(e.PayloadPreview)
	for _, c := range []**string{&e.OutContent, &e.ErrContent} {
		if *c != nil {
			if v := r.String(**c); v != **c {
				*c = &v
			}
		}
	}
}

// close closes the summary: later events reach the observer only.
func (s *summaryWriter) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.out != nil {
		s.out.Close()
		s.out = nil
	}
}
