package engine

import (
	"os"
	"path/filepath"

	"github.com/jaiph-go/jaiph/diag"
)

// Check reports every diagnostic of the files (absolute paths) and of the
// modules they import (`jaiph check`): validation first, then the shell of
// the bodies of files without other problems, lowered and checked the way
// run, build and test check it before running. Not sorted.
func Check(files []string) []*diag.Diagnostic { return CheckOverlay(files, os.ReadFile) }

// ShownFrom is the folder `jaiph check` shows paths relative to in format:
// the current directory, or AnnotationRoot's for github (workspace is
// GITHUB_WORKSPACE).
func ShownFrom(format, workspace string) string {
	cwd, _ := os.Getwd()
	if format != "github" {
		return cwd
	}
	return AnnotationRoot(workspace, cwd)
}

// AnnotationRoot is the folder `jaiph check --format github` names files
// from, as GitHub resolves an annotation's path: the workflow's workspace
// (GITHUB_WORKSPACE, given as workspace) when set, else the git repository
// holding dir (a .git folder, or the .git file of a worktree), else dir. So
// a CI step with `working-directory:` still annotates the right file.
func AnnotationRoot(workspace, dir string) string {
	if workspace != "" {
		if abs, err := filepath.Abs(workspace); err == nil {
			return abs
		}
	}
	for d := dir; ; {
		if _, err := os.Stat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return dir
		}
		d = parent
	}
}
