package engine

import (
	"os"
	"runtime/debug"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/internal/bashcheck"
	"github.com/jaiph-go/jaiph/internal/diag"
	"github.com/jaiph-go/jaiph/validate"
)

// CheckOverlay is Check with the files read through read instead of the
// file system, so that an editor's unsaved buffers win over what is on
// disk (`jaiph lsp`). The diagnostics are the ones `jaiph check` reports
// for the same contents: same codes, texts and positions. Not sorted.
func CheckOverlay(files []string, read func(string) ([]byte, error)) []*diag.Diagnostic {
	diags, _ := check(files, read)
	return diags
}

// CheckSource checks the file at path with src standing in for its
// contents (its imports are read from disk): its AST and the diagnostics
// `jaiph check path` reports for the file itself, sorted. Problems of the
// modules it imports are theirs and left out (`jaiph fmt`).
func CheckSource(path string, src []byte) (*ast.File, []*diag.Diagnostic) {
	all, loader := check([]string{path}, func(p string) ([]byte, error) {
		if p == path {
			return src, nil
		}
		return os.ReadFile(p)
	})
	var mine []*diag.Diagnostic
	for _, d := range all {
		if d.File == path {
			mine = append(mine, d)
		}
	}
	return loader.File(path), diag.SortAndDedupe(mine)
}

// check validates files read through read, then checks the lowered shell
// of those without other problems, as run, build and test check it.
func check(files []string, read func(string) ([]byte, error)) ([]*diag.Diagnostic, *validate.Loader) {
	// Checking allocates many short-lived parse trees and keeps little; a
	// lazier collector saves about a sixth of the time on large modules.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	loader := validate.NewLoader()
	loader.ReadFile = read
	diags := validate.CheckWith(loader, files)
	withProblems := map[string]bool{}
	for _, d := range diags {
		withProblems[d.File] = true
	}
	return append(diags, bashcheck.Files(loader, files, withProblems)...), loader
}
