package engine_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/jaiph-go/jaiph/internal/engine"
)

// RunOptions.Workflow calls another workflow of the entry as the root step
// (jaiph mcp); its return value comes back in the outcome, and a name that
// is not a workflow is an error of the run.
func TestExecuteNamedWorkflow(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".jaiph"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "w.jh")
	src := "workflow default {\n  echo default > picked.txt\n}\n\nexport workflow other {\n  echo \"other $1\" > picked.txt\n  return \"value-$1\"\n}\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, err := engine.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		workflow, picked, value string
		status                  int
	}{
		{"", "default\n", "", 0},
		{"other", "other x\n", "value-x", 0},
		{"nope", "", "", 1},
	} {
		os.Remove(filepath.Join(dir, "picked.txt"))
		out, err := prog.InProcess().Execute(context.Background(), engine.RunOptions{Environ: os.Environ(), Args: []string{"x"},
			Workflow: tc.workflow}, nil)
		if err != nil {
			t.Fatal(err)
		}
		picked, _ := os.ReadFile(filepath.Join(dir, "picked.txt"))
		if string(picked) != tc.picked || out.Value != tc.value || out.Status != tc.status {
			t.Errorf("workflow %q: picked %q, value %q, status %d; want %q, %q, %d", tc.workflow, picked, out.Value,
				out.Status, tc.picked, tc.value, tc.status)
		}
	}
}
