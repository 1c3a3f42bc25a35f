package engine

import (
	"testing"

	"github.com/jaiph-go/jaiph/internal/store/inbox"
)

// TestPending: --message matches the number with or without its zeros.
func TestPending(t *testing.T) {
	ls := []inbox.Letter{{Seq: "003"}, {Seq: "007"}, {Seq: "010", Done: true}, {Seq: "070"}}
	for seq, want := range map[string]int{"": 3, "7": 1, "007": 1, "10": 0, "70": 1, "0": 0} {
		if n := len(pending(ls, seq)); n != want {
			t.Errorf("pending(%q) = %d letters, want %d", seq, n, want)
		}
	}
}
