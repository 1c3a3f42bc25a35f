// jaiph-go: what bash's exec builtin says of a file named with a slash
// that it cannot run.

package interp

import (
	"errors"
	"io/fs"
	"os"
	"strings"
)

// execCheck finds why exec cannot run path (a name with a slash), as
// bash's exec_builtin and shell_execve say it: the file by its
// full_pathname, then, for a file that is there but no executable one,
// exec's own "cannot execute"; the status, 0 when the file can be tried.
func (r *Runner) execCheck(path string) uint8 {
	full := path
	if !strings.HasPrefix(path, "/") {
		dir := r.Dir
		if !strings.HasSuffix(dir, "/") {
			dir += "/"
		}
		full = dir + strings.TrimPrefix(path, "./")
	}
	fi, err := os.Stat(full)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		r.errf("%s: No such file or directory\n", full)
		return 127
	case err != nil:
		return 0 // left to the exec handler
	case fi.IsDir():
		r.errf("%s: Is a directory\nexec: %s: cannot execute: Is a directory\n", full, full)
		return 126
	case fi.Mode().Perm()&0o111 == 0: // no execute permission for anyone
		r.errf("%s: Permission denied\nexec: %s: cannot execute: Permission denied\n", full, full)
		return 126
	}
	return 0
}
