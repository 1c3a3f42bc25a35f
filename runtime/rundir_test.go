package runtime

import (
	"os"
	"path/filepath"
	"testing"
)

// TestMakeRunDir: runs started in the same second get base, base-2, …; a
// name another process took is skipped; a new base starts again at base.
func TestMakeRunDir(t *testing.T) {
	root := t.TempDir()
	base := filepath.Join(root, "10-00-00-flow.jh")
	want := []string{base, base + "-2"}
	for _, w := range want {
		got, err := makeRunDir(base)
		if err != nil || got != w {
			t.Fatalf("makeRunDir: %q, %v; want %q", got, err, w)
		}
	}
	// Another process took -3 meanwhile.
	if err := os.Mkdir(base+"-3", 0o755); err != nil {
		t.Fatal(err)
	}
	if got, _ := makeRunDir(base); got != base+"-4" {
		t.Fatalf("after another process's -3: %q, want -4", got)
	}
	other := filepath.Join(root, "10-00-01-flow.jh")
	if got, _ := makeRunDir(other); got != other {
		t.Fatalf("a new second: %q, want %q", got, other)
	}
	// A name this process did not make (a run dir of another process,
	// the hint forgotten) is still skipped.
	clear(runDirNext)
	if got, _ := makeRunDir(base); got != base+"-5" {
		t.Fatalf("without the hint: %q, want -5", got)
	}
}
