package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCLIStaysThin keeps cmd/jaiph a thin layer (issue 11: under 600
// lines): logic that compiles, runs or renders belongs in engine, progress
// or diag, where other front ends (the language server) can reach it.
func TestCLIStaysThin(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	lines := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		lines += bytes.Count(data, []byte("\n"))
	}
	if lines >= 600 {
		t.Errorf("cmd/jaiph has %d non-test lines, want under 600: move logic into engine, progress or diag", lines)
	}
}
