package scaffold

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/validate"
)

// TestSkillGuideExamples checks every ```jaiph block of the embedded agent
// guide with the validator, so the guide cannot teach code that fails
// `jaiph check`. A block whose first line is `# file: <path>` is written to
// that path (so examples can import each other); others get a numbered name.
func TestSkillGuideExamples(t *testing.T) {
	blocks := fencedBlocks(string(SkillGuide), "jaiph")
	if len(blocks) < 8 {
		t.Fatalf("found %d jaiph examples in the guide, want at least 8", len(blocks))
	}
	dir := t.TempDir()
	var files []string
	for i, b := range blocks {
		name := fmt.Sprintf("example_%d.jh", i+1)
		if first, _, _ := strings.Cut(b, "\n"); strings.HasPrefix(first, "# file: ") {
			name = strings.TrimPrefix(first, "# file: ")
		}
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Stat(path); err == nil {
			t.Fatalf("two examples use the file name %s", name)
		}
		if err := os.WriteFile(path, []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, path)
	}
	for _, d := range validate.Check(files) {
		rel, _ := filepath.Rel(dir, d.File)
		t.Errorf("%s:%d:%d: %s %s", rel, d.Line, d.Col, d.Code, d.Message)
	}
}

// TestBootstrapWorkflowChecks keeps the file `jaiph init` writes valid.
func TestBootstrapWorkflowChecks(t *testing.T) {
	path := filepath.Join(t.TempDir(), "bootstrap.jh")
	if err := os.WriteFile(path, []byte(BootstrapWorkflow), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := validate.LoadEntry(path); err != nil {
		t.Fatal(err)
	}
}

// fencedBlocks returns the contents of the ```lang fenced blocks of a
// Markdown text.
func fencedBlocks(md, lang string) []string {
	var blocks []string
	var cur []string
	in := false
	for _, line := range strings.Split(md, "\n") {
		switch {
		case !in && strings.TrimSpace(line) == "```"+lang:
			in, cur = true, nil
		case in && strings.TrimSpace(line) == "```":
			in = false
			blocks = append(blocks, strings.Join(cur, "\n")+"\n")
		case in:
			cur = append(cur, line)
		}
	}
	return blocks
}
