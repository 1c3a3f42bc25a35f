package engine

import (
	"os"

	"github.com/jaiph-go/jaiph/diag"
)

// Check reports every diagnostic of the files (absolute paths) and of the
// modules they import (`jaiph check`): validation first, then the shell of
// the bodies of files without other problems, lowered and checked the way
// run, build and test check it before running. Not sorted.
func Check(files []string) []*diag.Diagnostic { return CheckOverlay(files, os.ReadFile) }
