package syntax

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bashcompatScripts returns the scripts of jaiph-go's bash corpus
// (testdata/bashcompat/*.txtar, one "-- name --" section each).
func bashcompatScripts(t *testing.T) []string {
	files, err := filepath.Glob("../../../testdata/bashcompat/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatalf("no corpus: %v", err)
	}
	var scripts []string
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var cur *strings.Builder
		for _, line := range strings.SplitAfter(string(data), "\n") {
			if strings.HasPrefix(line, "-- ") && strings.HasSuffix(strings.TrimSpace(line), " --") {
				if cur != nil {
					scripts = append(scripts, cur.String())
				}
				cur = &strings.Builder{}
				continue
			}
			if cur != nil {
				cur.WriteString(line)
			}
		}
		if cur != nil {
			scripts = append(scripts, cur.String())
		}
	}
	return scripts
}

// TestRecycleNodes parses every script of the bash corpus, in order and
// then backwards, with one recycling parser (each parse reusing the nodes
// of the one before) and checks each tree against a fresh parser's, field
// by field (DebugPrint), syntax errors included.
func TestRecycleNodes(t *testing.T) {
	scripts := bashcompatScripts(t)
	if len(scripts) < 500 {
		t.Fatalf("only %d scripts in the corpus", len(scripts))
	}
	recycler := NewParser(Variant(LangBash), RecycleNodes())
	render := func(p *Parser, src string) string {
		f, err := p.Parse(strings.NewReader(src), "")
		var b strings.Builder
		if err != nil {
			b.WriteString("error: " + err.Error() + "\n")
		}
		if f != nil {
			if err := DebugPrint(&b, f); err != nil {
				t.Fatal(err)
			}
		}
		return b.String()
	}
	order := make([]int, 0, 2*len(scripts))
	for i := range scripts {
		order = append(order, i)
	}
	for i := len(scripts) - 1; i >= 0; i-- {
		order = append(order, i)
	}
	for _, i := range order {
		want := render(NewParser(Variant(LangBash)), scripts[i])
		if got := render(recycler, scripts[i]); got != want {
			t.Fatalf("script %d parsed by a recycling parser:\n%s\nwant\n%s\nscript:\n%s", i, got, want, scripts[i])
		}
	}
}
