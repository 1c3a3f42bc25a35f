package engine

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jaiph-go/jaiph/internal/store/inboxlog"
)

// TestRemoveDelivered: a message's dead/ file goes only when every target
// it was dead for has been delivered.
func TestRemoveDelivered(t *testing.T) {
	dir := t.TempDir()
	dead := filepath.Join(dir, "inbox", "dead")
	if err := os.MkdirAll(dead, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"001-jobs.txt", "002-jobs.txt"} {
		if err := os.WriteFile(filepath.Join(dead, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	removeDelivered(dir, []inboxlog.Letter{
		{Seq: "001", Target: "m::a", File: "inbox/001-jobs.txt", Done: true},
		{Seq: "001", Target: "m::b", File: "inbox/001-jobs.txt"},
		{Seq: "002", Target: "m::a", File: "inbox/002-jobs.txt", Done: true},
		{Seq: "002", Target: "m::b", File: "inbox/002-jobs.txt", Done: true},
	})
	left, _ := os.ReadDir(dead)
	if len(left) != 1 || left[0].Name() != "001-jobs.txt" {
		t.Errorf("left in dead/: %v, want only 001-jobs.txt", left)
	}
}

// TestPending: --message matches the number with or without its zeros.
func TestPending(t *testing.T) {
	ls := []inboxlog.Letter{{Seq: "003"}, {Seq: "007"}, {Seq: "010", Done: true}, {Seq: "070"}}
	for seq, want := range map[string]int{"": 3, "7": 1, "007": 1, "10": 0, "70": 1, "0": 0} {
		if n := len(pending(ls, seq)); n != want {
			t.Errorf("pending(%q) = %d letters, want %d", seq, n, want)
		}
	}
}
