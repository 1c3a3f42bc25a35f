// jaiph-go: bash's sh_chkwrite. The builtins that print listings or
// paths (pwd, cd and pushd/popd/dirs when they print a directory, times,
// type, alias without names, declare/typeset/local -p and -f, set -o,
// shopt, trap) check their standard output once done and, when a write
// failed, say "NAME: write error: …" and fail with status 1; the others
// (kill -l, command -v, alias NAME, getopts …) lose what they wrote and
// keep their status, as bash's do.

package interp

import (
	"errors"
	"io/fs"
)

// noteOutErr keeps the first error of a builtin's write to standard
// output for checkWrite.
func (r *Runner) noteOutErr(err error) {
	if err != nil && r.outErr == nil {
		r.outErr = err
	}
}

// checksWrite says builtin name, run with args, checks its writes as
// bash's sh_chkwrite does, and whether it then fails.
func checksWrite(name string, args []string) (check, fails bool) {
	switch name {
	case "pwd", "cd", "dirs", "times", "type", "declare", "typeset",
		"local", "export", "readonly", "set", "shopt", "trap":
		return true, true
	case "pushd", "popd":
		// bash's pushd and popd print with dirs, whose status they drop
		return true, false
	case "alias":
		// only the listing of every alias (alias, alias -p)
		for _, a := range args {
			if a != "-p" && a != "--" {
				return false, false
			}
		}
		return true, true
	}
	return false, false
}

// checkWrite ends builtin name as sh_chkwrite does when one of its
// writes to standard output failed (not into a broken pipe that kills
// the shell: pipeKill takes that): it says so and, if fails, fails.
func (r *Runner) checkWrite(name string, fails bool, exit *exitStatus) {
	err := r.outErr
	if err == nil || r.pipeKilled {
		return
	}
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	r.errf("%s: write error: %s\n", name, strerror(err))
	if fails && exit.code == 0 {
		exit.code = 1
	}
}
