package runtime

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	goruntime "runtime"
	"strings"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"
)

// Rules must not change the workspace (docs/language.md#rules). Two layers enforce
// it, for a rule and everything it calls:
//
//   - In the interpreter, readOnlyOpen refuses every open for writing
//     (redirections such as `> f`, `>> f`), except of terminal and null
//     devices and of the run's private temporary directory (which holds
//     JAIPH_RETURN_VALUE_FILE and the rules' TMPDIR).
//   - External commands run under Landlock (Linux ≥ 5.13, no privileges
//     needed) through a re-exec of jaiph that restricts itself and then
//     executes the command: writing, creating, removing or renaming files
//     is allowed only below /dev and the private temporary directory.
//     Where Landlock is unavailable, external commands are not restricted
//     (see docs/differences.md).

// ReadOnlyExecArg is the hidden first argument of the re-exec that runs an
// external command of a rule under Landlock.
const ReadOnlyExecArg = "__jaiph_readonly_exec"

// errReadOnly is what a refused write open reports.
var errReadOnly = fmt.Errorf("read-only file system (rules cannot write files)")

// readOnlyOpen is the interpreter's open handler inside rules.
func readOnlyOpen(tmpDir string) interp.OpenHandlerFunc {
	return func(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
		if flag&(os.O_WRONLY|os.O_RDWR|os.O_CREATE|os.O_TRUNC|os.O_APPEND) != 0 {
			if !writableInRule(path, tmpDir) {
				return nil, &os.PathError{Op: "open", Path: path, Err: errReadOnly}
			}
			// the path checked is the path opened: cleaned, as the
			// check reads it (the interpreter hands paths over
			// uncleaned, as bash does)
			path = filepath.Clean(path)
		}
		return interp.DefaultOpenHandler()(ctx, path, flag, perm)
	}
}

// writableInRule reports whether a rule may open path for writing.
func writableInRule(path, tmpDir string) bool {
	if path == "/dev/null" || path == "/dev/tty" || path == "/dev/stdout" || path == "/dev/stderr" ||
		strings.HasPrefix(path, "/dev/fd/") || strings.HasPrefix(path, "/dev/pts/") {
		return true
	}
	if tmpDir == "" {
		return false
	}
	rel, err := filepath.Rel(tmpDir, filepath.Clean(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// ruleTempDir is the private temporary directory of the run's rules.
func (rt *Runtime) ruleTempDir() string {
	if rt.rvDir == "" {
		return ""
	}
	dir := filepath.Join(rt.rvDir, "rule-tmp")
	_ = os.MkdirAll(dir, 0o700)
	return dir
}

// readOnlyCommand rewrites an external command of a rule so that it runs
// under Landlock, or returns it unchanged where that is unavailable.
func readOnlyCommand(path string, args []string, tmpDir string) (string, []string) {
	if !LandlockAvailable() {
		return path, args
	}
	self, err := os.Executable()
	if err != nil {
		return path, args
	}
	return self, append([]string{self, ReadOnlyExecArg, tmpDir, path}, args...)
}

// ReadOnlyExecMain is the re-exec entry point: args are the writable
// temporary directory, the program path and its argv. It only returns on
// failure, with the exit status to use.
func ReadOnlyExecMain(args []string) int {
	if len(args) < 3 {
		fmt.Fprintln(os.Stderr, "jaiph: internal error: bad read-only exec")
		return 126
	}
	tmpDir, path, argv := args[0], args[1], args[2:]
	// Landlock and no_new_privs apply to the calling thread, which exec
	// then turns into the whole process.
	goruntime.LockOSThread()
	if err := restrictWrites([]string{"/dev", tmpDir}); err != nil {
		fmt.Fprintf(os.Stderr, "jaiph: cannot make the rule read-only: %v\n", err)
		return 126
	}
	err := execProgram(path, argv, os.Environ())
	fmt.Fprintf(os.Stderr, "%s: %v\n", argv[0], err)
	return 126
}
