package interp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"strings"
	"syscall"
)

// jaiph-go patch: bash's table of command paths (hashcmd.c, findcmd.c).
// A command found through PATH is remembered, and found there again the
// next time without a look at PATH: a program put earlier in PATH later is
// not seen, a remembered one that was deleted fails to start (`…: No such
// file or directory`, 127), and `type` says "hashed". Assigning PATH (also
// `declare`/`local PATH`, unset, a prefix binding and the end of a
// function's local PATH) and `hash -r` forget every path; a subshell starts
// with its shell's table.

// hashEntry is a remembered path, as bash's PATH_DATA.
type hashEntry struct {
	path    string // as PATH spells it (relative when the element is)
	chkDot  bool   // a PATH element naming the working directory came first (HASH_CHKDOT)
	relPath bool   // path is relative (HASH_RELPATH)
}

// hashFlush forgets every remembered path (bash's phash_flush).
func (r *Runner) hashFlush() {
	r.hashed, r.hashedShared = nil, false
}

// hashInsert remembers path for name; a table shared with a subshell is
// copied first.
func (r *Runner) hashInsert(name, path string, dotFound bool) {
	e := hashEntry{path: path, chkDot: dotFound, relPath: !strings.HasPrefix(path, "/")}
	switch {
	case r.hashed == nil:
		r.hashed = make(map[string]hashEntry, 8)
	case r.hashedShared:
		r.hashed = maps.Clone(r.hashed)
	}
	r.hashedShared = false
	r.hashed[name] = e
}

// shareHash hands the table to a subshell: both copy it before writing.
func (r *Runner) shareHash(r2 *Runner) {
	if r.hashed != nil {
		r.hashedShared = true
		r2.hashed, r2.hashedShared = r.hashed, true
	}
}

// hashSearch is bash's phash_search: the remembered path of name. An entry
// found through a PATH element naming the working directory, or relative,
// is checked against the directory the shell is in now.
func (r *Runner) hashSearch(name string) (string, bool) {
	e, ok := r.hashed[name]
	if !ok {
		return "", false
	}
	if !e.chkDot && !e.relPath {
		return e.path, true
	}
	tail := name
	if e.relPath {
		tail = e.path
	}
	dotted := tail
	if !strings.HasPrefix(tail, "./") {
		dotted = "./" + tail
	}
	if r.fileStatus(dotted).execFile() {
		return dotted, true
	}
	if strings.HasPrefix(e.path, ".") {
		if i := strings.LastIndexByte(e.path, '/'); i >= 0 && r.sameFile(".", e.path[:i]) {
			return "", false
		}
		return e.path, true
	}
	return e.path, true
}

// fileState is what bash's file_status says of a path.
type fileState struct{ exists, dir, exec bool }

// execFile: an executable file, no directory (bash's FS_EXEC_ONLY).
func (st fileState) execFile() bool { return st.exec && !st.dir }

func (r *Runner) fileStatus(path string) fileState {
	abs := absPath(r.Dir, path)
	info, err := os.Stat(abs)
	if err != nil {
		return fileState{}
	}
	return fileState{exists: true, dir: info.IsDir(), exec: defaultAccess(context.Background(), abs, AccessExec) == nil}
}

func (r *Runner) sameFile(a, b string) bool {
	ia, err := os.Stat(absPath(r.Dir, a))
	if err != nil {
		return false
	}
	ib, err := os.Stat(absPath(r.Dir, b))
	return err == nil && os.SameFile(ia, ib)
}

// findUserCommand is bash's find_user_command_in_path with
// FS_EXEC_PREFERRED|FS_NODIRS: the first executable file (no directory)
// named name in pathList's elements (an empty one is "."), spelled as the
// element joined with the name; failing that the first existing file,
// unless that is a directory. dotFound says an element naming the working
// directory was met on the way. With an empty pathList the name itself is
// the answer, as in bash.
func (r *Runner) findUserCommand(name, pathList string) (path string, st fileState, dotFound bool) {
	if pathList == "" {
		return name, fileState{}, false // no status: bash remembers no such name
	}
	lose := ""
	for elem := range strings.SplitSeq(pathList, ":") {
		if elem == "" {
			elem = "."
		}
		if !dotFound && strings.HasPrefix(elem, ".") {
			dotFound = r.sameFile(".", elem)
		}
		full := elem + "/" + name
		if strings.HasSuffix(elem, "/") {
			full = elem + name
		}
		fs := r.fileStatus(full)
		if !fs.exists {
			continue
		}
		if fs.execFile() {
			return full, fs, dotFound
		}
		if lose == "" {
			lose = full
		}
	}
	if lose == "" {
		return "", fileState{}, dotFound
	}
	if st = r.fileStatus(lose); st.dir {
		return "", fileState{}, dotFound
	}
	return lose, st, dotFound
}

// pathIsPrefixBinding says PATH is the running command's own prefix
// binding (`PATH=/x cmd`, also inside a function so called), where bash
// neither reads nor fills the table.
func (r *Runner) pathIsPrefixBinding() bool {
	if r.prefixPath {
		return true
	}
	o, ok := r.writeEnv.(*overlayEnviron)
	return ok && o.tempBound("PATH")
}

// searchForCommand is bash's search_for_command with CMDSRCH_HASH: a name
// with a slash as given; else the remembered path; else PATH's (bash's
// standard PATH under `command -p`, which does not read the table but
// fills it), remembered unless PATH is a prefix binding.
func (r *Runner) searchForCommand(name string, stdPath bool) (string, bool) {
	if strings.Contains(name, "/") {
		return name, true
	}
	temp := r.pathIsPrefixBinding()
	if !temp && !stdPath {
		if p, ok := r.hashSearch(name); ok {
			return p, true
		}
	}
	pathList := StandardPath
	if !stdPath {
		pathList = r.writeEnv.Get("PATH").String()
	}
	path, st, dotFound := r.findUserCommand(name, pathList)
	if path == "" {
		return "", false
	}
	if !temp && (path != name || st.exec) { // under command -p too, as bash
		r.hashInsert(name, path, dotFound)
	}
	return path, true
}

// LookPath finds an external command as bash does (jaiph-go patch): a
// name with a slash as [LookPathDir] does; else the shell's table of the
// paths it found before (bash's hash table); else PATH, or the standard
// one under `command -p`: the first executable file, or failing that the
// first other file (bash then fails to run it: Permission denied). A path
// found in PATH is remembered. It is spelled as PATH spells it, relative
// to Dir when the element is. The error is [LookPathDir]'s.
func (hc HandlerContext) LookPath(name string) (string, error) {
	if hc.runner == nil || strings.Contains(name, "/") {
		return LookPathDir(hc.Dir, hc.LookupEnv(), name)
	}
	if p, ok := hc.runner.searchForCommand(name, hc.stdPath); ok {
		return p, nil
	}
	return LookPathDir(hc.Dir, hc.LookupEnv(), name)
}

// hashBuiltin is bash's hash for the forms a body may use (jaiph-go patch):
// -r forgets every path; each name is looked up in PATH and remembered
// (bash's `hash: NAME: not found`, status 1, when no executable file is
// there; a function or builtin is skipped). The listing and -d, -l, -p, -t
// are refused by jaiph check; here they do nothing.
func (r *Runner) hashBuiltin(ctx context.Context, args []string) (exit exitStatus) {
	fp := flagParser{remaining: args}
	for fp.more() {
		switch fp.flag() {
		case "-r":
			r.hashFlush()
		default:
			return exit
		}
	}
	for _, name := range fp.args() {
		if strings.Contains(name, "/") || r.Funcs[name] != nil || IsBuiltin(name) || r.isHandlerFunc(ctx, name) {
			continue
		}
		// (with PATH empty findUserCommand gives the name without its status)
		if path, _, dotFound := r.findUserCommand(name, r.writeEnv.Get("PATH").String()); path != "" && r.fileStatus(path).execFile() {
			r.hashInsert(name, path, dotFound)
			continue
		}
		r.errf("hash: %s: not found\n", name)
		exit.code = 1
	}
	return exit
}

// execFailure reports a program that did not start as bash's shell_execve
// (jaiph-go patch): a directory is "Is a directory", a file that is gone
// is the errno's text with status 127 (a remembered path, see above), any
// other failure the errno's text with 126.
func execFailure(stderr io.Writer, shown, path string, err error) error {
	info, serr := os.Stat(path)
	var errno syscall.Errno
	switch {
	case serr == nil && info.IsDir():
		fmt.Fprintf(stderr, "%s: Is a directory\n", shown)
		return ExitStatus(126)
	case errors.As(err, &errno):
		text := errno.Error()
		fmt.Fprintf(stderr, "%s: %s\n", shown, strings.ToUpper(text[:1])+text[1:])
		if errno == syscall.ENOENT && serr != nil {
			return ExitStatus(127)
		}
		return ExitStatus(126)
	}
	fmt.Fprintf(stderr, "%s: %v\n", shown, err)
	return ExitStatus(126)
}
