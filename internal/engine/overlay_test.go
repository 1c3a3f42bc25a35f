package engine_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/internal/engine"
)

// With the file system as the overlay, CheckOverlay reports what Check
// reports for every example.
func TestCheckOverlayMatchesCheck(t *testing.T) {
	files, err := engine.SourceFiles([]string{"../../examples"})
	if err != nil || len(files) == 0 {
		t.Fatalf("examples: %v %d", err, len(files))
	}
	// A broken file too, so that the comparison is not of two empty lists.
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.jh")
	os.WriteFile(broken, []byte("workflow default {\n  run missing\n  ensure nope\n}\n"), 0o644)
	files = append(files, broken)
	want := diag.SortAndDedupe(engine.Check(files))
	got := diag.SortAndDedupe(engine.CheckOverlay(files, os.ReadFile))
	if len(want) != 2 || !reflect.DeepEqual(got, want) {
		t.Fatalf("CheckOverlay = %v, Check = %v", got, want)
	}
}

// An unsaved buffer wins over the disk, for the file and for its importers.
func TestCheckOverlayBufferWins(t *testing.T) {
	dir := t.TempDir()
	lib := filepath.Join(dir, "lib.jh")
	main := filepath.Join(dir, "main.jh")
	os.WriteFile(lib, []byte("workflow other {\n  echo hi\n}\n"), 0o644)
	os.WriteFile(main, []byte("import \"lib\" as lib\n\nworkflow default {\n  run lib.greet\n}\n"), 0o644)
	if ds := engine.Check([]string{main}); len(ds) != 1 {
		t.Fatalf("on disk: want one diagnostic, got %v", ds)
	}
	read := func(p string) ([]byte, error) {
		if p == lib {
			return []byte("workflow greet {\n  echo hi\n}\n"), nil
		}
		return os.ReadFile(p)
	}
	if ds := engine.CheckOverlay([]string{main}, read); len(ds) != 0 {
		t.Fatalf("with the buffer: want none, got %v", ds)
	}
}
