package engine

import (
	"runtime/debug"

	"github.com/jaiph-go/jaiph/bashcheck"
	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/validate"
)

// CheckOverlay is Check with the files read through read instead of the
// file system, so that an editor's unsaved buffers win over what is on
// disk (`jaiph lsp`). The diagnostics are the ones `jaiph check` reports
// for the same contents: same codes, texts and positions. Not sorted.
func CheckOverlay(files []string, read func(string) ([]byte, error)) []*diag.Diagnostic {
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	loader := validate.NewLoader()
	loader.ReadFile = read
	diags := validate.CheckWith(loader, files)
	withProblems := map[string]bool{}
	for _, d := range diags {
		withProblems[d.File] = true
	}
	return append(diags, bashcheck.Files(loader, files, withProblems)...)
}
