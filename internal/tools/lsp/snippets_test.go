package lsp

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/internal/engine"
)

// Every snippet, filled in with its defaults, is a form jaiph check accepts.
func TestSnippetsCheckClean(t *testing.T) {
	names := map[string]string{"rule": "ok", "workflow": "w", "fix": "w", "channel": "ch", "path": "lib", "name": "thing"}
	placeholder := regexp.MustCompile(`\$\{\d+:([^}]*)\}|\$\d+`)
	fill := func(snippet string) string {
		return placeholder.ReplaceAllStringFunc(snippet, func(m string) string {
			def := placeholder.FindStringSubmatch(m)[1]
			if def == "" {
				return "true"
			}
			if n, ok := names[def]; ok {
				return n
			}
			return def
		})
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "lib.jh"), []byte("workflow x {\n  true\n}\n"), 0o644)
	var files []string
	for i, f := range topForms {
		p := filepath.Join(dir, "top"+string(rune('a'+i))+".jh")
		os.WriteFile(p, []byte(fill(f[1])+"\n"), 0o644)
		files = append(files, p)
	}
	var steps []string
	for _, f := range workflowForms {
		steps = append(steps, "  "+strings.ReplaceAll(fill(f[1]), "\n", "\n  "))
	}
	module := "channel ch\nchannel replies\n\nrule ok {\n  true\n}\n\nworkflow w {\n  true\n}\n\nworkflow default {\n" + strings.Join(steps, "\n") + "\n}\n"
	p := filepath.Join(dir, "steps.jh")
	os.WriteFile(p, []byte(module), 0o644)
	files = append(files, p)
	if ds := engine.CheckOverlay(files, os.ReadFile); len(ds) != 0 {
		for _, d := range ds {
			t.Errorf("%s", d)
		}
		t.Logf("steps.jh:\n%s", module)
	}
}
