package engine

import (
	"runtime/debug"

	"github.com/jaiph-go/jaiph/bashcheck"
	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/validate"
)

// Check reports every diagnostic of the files (absolute paths) and of the
// modules they import (`jaiph check`): validation first, then the shell of
// the bodies of files without other problems, lowered and checked the way
// run, build and test check it before running. Not sorted.
func Check(files []string) []*diag.Diagnostic {
	// Checking allocates many short-lived parse trees and keeps little; a
	// lazier collector saves about a sixth of the time on large modules.
	defer debug.SetGCPercent(debug.SetGCPercent(400))
	loader := validate.NewLoader()
	diags := validate.CheckWith(loader, files)
	withProblems := map[string]bool{}
	for _, d := range diags {
		withProblems[d.File] = true
	}
	return append(diags, bashcheck.Files(loader, files, withProblems)...)
}
