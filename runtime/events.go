package runtime

import (
	"os"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/jaiph-go/jaiph/event"
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

// trimContent is the out_content/err_content rule: trailing newlines removed,
// at most 1,048,576 characters then "\n[truncated]".
const contentMax = 1048576

func trimContent(s string) string {
	s = strings.TrimRight(s, "\n")
	if head, cut := cutRunes(s, contentMax); cut {
		s = head + "\n[truncated]"
	}
	return s
}

// cutRunes returns the first n characters of s when s has more, as
// string([]rune(s)[:n]) would (an invalid byte is one character, shown as
// U+FFFD), without the 4-bytes-per-character copy.
func cutRunes(s string, n int) (string, bool) {
	i := 0
	for k := 0; k < n; k++ {
		if i >= len(s) {
			return s, false
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	if i >= len(s) {
		return s, false
	}
	return validRunes([]byte(s[:i])), true
}
