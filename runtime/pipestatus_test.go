package runtime_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// TestBodyStartPipestatus: a body starts with PIPESTATUS (0), as a bash
// function the reference's script calls after its `set -eo pipefail`; a
// managed call sees its caller's, as a bash function does (`! false; f`:
// f sees 1).
func TestBodyStartPipestatus(t *testing.T) {
	rt, _, dir := startRun(t, `function show {
  echo "callee [${PIPESTATUS[*]}]" >> out.txt
}
workflow default {
  echo "start [${PIPESTATUS[*]}]" >> out.txt
  run show
  ! false
  run show
}
`)
	if status, err := rt.Run(context.Background(), nil); status != 0 || err != nil {
		t.Fatalf("status %d, %v", status, err)
	}
	got, err := os.ReadFile(filepath.Join(dir, "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "start [0]\ncallee [0]\ncallee [1]\n"; string(got) != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
