package engine

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run that asks for the sandbox is refused before Docker is asked when
// it would not be sandboxed whole: its inbox on a broker, a workflow file
// choosing its own image. Nothing runs (no module local).
func TestPlanRefusesSandbox(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".jaiph"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "main.jh")
	src := "config {\n  runtime.docker_enabled = true\n}\n\nlocal probe = \"$(touch local.txt)\"\n\nworkflow default {\n  touch ran.txt\n}\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	p, err := Load(file)
	if err != nil {
		t.Fatal(err)
	}
	run, err := p.Plan(context.Background(), []string{"PATH=/nonexistent", "JAIPH_INBOX_URL=nats://127.0.0.1:4222"})
	if !errors.Is(err, errSandboxBroker) || run != nil {
		t.Fatalf("broker inbox: got %v, %v", run, err)
	}
	run, err = p.Plan(context.Background(), []string{"PATH=/nonexistent"})
	if err == nil || !strings.HasPrefix(err.Error(), "E_DOCKER_NOT_FOUND ") {
		t.Fatalf("no docker: got %v", err)
	}
	if run != nil {
		t.Fatal("a refused run has no plan: nothing can execute it")
	}
	for _, f := range []string{"local.txt", "ran.txt"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Errorf("%s exists: something ran", f)
		}
	}
}
