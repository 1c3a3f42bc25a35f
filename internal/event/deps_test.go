package event_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDeps: event depends on no other jaiph package, and the event readers
// (progress, hooks) no longer depend on the runtime, which was the point of
// moving the event type out of it.
func TestDeps(t *testing.T) {
	const mod = "github.com/jaiph-go/jaiph/"
	for _, c := range []struct {
		pkg       string
		forbidden func(dep string) bool
	}{
		{".", func(dep string) bool { return strings.HasPrefix(dep, mod) && dep != mod+"internal/event" }},
		{"../observe/progress", func(dep string) bool { return dep == mod+"runtime" }},
		{"../observe/hooks", func(dep string) bool { return dep == mod+"runtime" }},
	} {
		out, err := exec.Command("go", "list", "-deps", c.pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", c.pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			if c.forbidden(dep) {
				t.Errorf("%s depends on %s", c.pkg, dep)
			}
		}
	}
}
