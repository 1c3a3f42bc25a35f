package runtime

// This file answers: how does an event reach run_summary.jsonl?

import (
	"os"
	"sync"

	"github.com/jaiph-go/jaiph/internal/event"
)

// summaryWriter appends whole lines to run_summary.jsonl. One process owns
// the file, so a mutex (not a file lock) keeps concurrent appends untorn.
type summaryWriter struct {
	mu     sync.Mutex
	f      *os.File
	failed func(error) // told about the first write error
}

func (s *summaryWriter) write(e *event.Event) {
	line := append(e.JSON(), '\n')
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.f != nil {
		if _, err := s.f.Write(line); err != nil && s.failed != nil {
			s.failed(err)
			s.failed = nil
		}
	}
}
