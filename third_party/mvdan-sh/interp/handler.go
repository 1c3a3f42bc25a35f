// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/internal"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// HandlerCtx returns the [HandlerContext] value stored in ctx,
// which is used when calling handler functions.
// It panics if ctx has no HandlerContext stored.
func HandlerCtx(ctx context.Context) HandlerContext {
	hc, ok := ctx.Value(handlerCtxKey{}).(HandlerContext)
	if !ok {
		panic("interp.HandlerCtx: no HandlerContext in ctx")
	}
	return hc
}

type handlerCtxKey struct{}

type handlerKind int

const (
	_                  handlerKind = iota
	handlerKindExec                // [ExecHandlerFunc]
	handlerKindCall                // [CallHandlerFunc]
	handlerKindOpen                // [OpenHandlerFunc]
	handlerKindReadDir             // [ReadDirHandlerFunc2]
	handlerKindStat                // [StatHandlerFunc]
	handlerKindAccess              // [AccessHandlerFunc]
)

// HandlerContext is the data passed to all the handler functions via [context.WithValue].
// It contains some of the current state of the [Runner].
type HandlerContext struct {
	runner *Runner // for internal use only, e.g. [HandlerContext.Builtin]

	// kind records which type of handler this context was built for.
	kind handlerKind

	// Env is a read-only version of the interpreter's environment,
	// including environment variables, global variables, and local function
	// variables.
	Env expand.Environ

	// Dir is the interpreter's current directory.
	Dir string

	// Pos is the source position which relates to the operation,
	// such as a [syntax.CallExpr] when calling an [ExecHandlerFunc].
	// It may be invalid if the operation has no relevant position information.
	Pos syntax.Pos

	// TODO(v4): use an os.File for stdin below directly.

	// ByExec: the exec builtin runs the program; bash names a file it
	// cannot run by its full path then (jaiph-go patch).
	ByExec bool
	// StdinClosed: a redirection closed standard input (`<&-`); a
	// program run gets no descriptor 0 ([ClosedFile]), as in bash
	// (jaiph-go patch).
	StdinClosed bool
	// Stdin is the interpreter's current standard input reader.
	// It is always an [*os.File], except on js/wasm, where it may be
	// any reader; the type here remains an [io.Reader]
	// due to backwards compatibility.
	Stdin io.Reader
	// Stdout is the interpreter's current standard output writer.
	Stdout io.Writer
	// Stderr is the interpreter's current standard error writer.
	Stderr io.Writer

	// ExtraFiles holds the shell's open file descriptors 3 and up: entry i
	// is descriptor 3+i, nil where closed, ready for [exec.Cmd.ExtraFiles].
	// jaiph-go patch, so that `cat <&3` sees what `exec 3<file` opened.
	ExtraFiles []*os.File

	// LastExitStatus is the value that "$?" would hold when the handler is called.
	// A [CallHandlerFunc] or [ExecHandlerFunc] runs as part of its own command,
	// so this refers to the command before it.
	// At the start of a trap callback, it is the status of the command which triggered the trap.
	LastExitStatus int

	// ErrExitIgnored tells whether the command runs where bash ignores
	// errexit: in an `&&`/`||` list other than its last element, an `if`,
	// `while` or `until` condition, after `!`, or inside a function or
	// subshell called there (jaiph-go patch). An exec handler that runs a
	// command as a shell function would be gives its runner
	// [ErrExitIgnored] then.
	ErrExitIgnored bool

	// stdPath: the command runs under `command -p`, which looks it up in
	// bash's standard PATH (jaiph-go patch, see [HandlerContext.LookupEnv]).
	stdPath bool
}

// StandardPath is the PATH `command -p` searches: glibc's confstr(_CS_PATH),
// which bash's get_standard_path uses (jaiph-go patch).
const StandardPath = "/bin:/usr/bin"

// LookupEnv is the environment an exec handler looks its command up in:
// Env, except under `command -p`, where PATH is [StandardPath] (the program
// still gets the shell's PATH in its environment, as in bash). jaiph-go
// patch.
func (hc HandlerContext) LookupEnv() expand.Environ {
	if !hc.stdPath {
		return hc.Env
	}
	return stdPathEnviron{hc.Env}
}

type stdPathEnviron struct{ expand.Environ }

func (e stdPathEnviron) Get(name string) expand.Variable {
	if name == "PATH" {
		return expand.Variable{Set: true, Kind: expand.String, Str: StandardPath}
	}
	return e.Environ.Get(name)
}

// SetVar assigns value to the shell variable name, which may name an array
// element as in "a[1]" or "m[key]", as the assignment name=value would
// (jaiph-go patch, for builtins such as "printf -v" set with
// [BuiltinHandler]). An invalid name or a read-only variable is an error
// whose text is bash's. An associative array's element named @ or * is
// the key @ or *, as bash's builtin_bind_variable allows (ASS_ALLOWALLSUB).
func (hc HandlerContext) SetVar(name, value string) error {
	return hc.setVar(name, value, true)
}

// setVar is SetVar; allKeys false refuses the element @ or * of an
// associative array too, as bash's assign_array_element does for an
// element a nameref names.
func (hc HandlerContext) setVar(name, value string, allKeys bool) error {
	r := hc.runner
	if i := strings.IndexByte(name, '['); i > 0 && internal.ValidElemRef(name) {
		if sub := name[i+1 : len(name)-1]; sub == "@" || sub == "*" {
			// as bash's assign_array_element: its report_error,
			// which errexit turns into the end of the shell
			if _, vr := r.lookupVar(name[:i]).Resolve(r.writeEnv); !allKeys || vr.Kind != expand.Associative {
				return fmt.Errorf("%s: %w", name, expand.ErrBadSubscript)
			}
		}
	}
	as := parseAssignName(name)
	if as == nil && internal.ValidElemRef(name) {
		// jaiph-go patch: a subscript an assignment could not hold
		// as written (`m[k k]`, blanks or operators), as bash's
		// valid_array_reference takes any text up to the last `]`:
		// expanded inside double quotes.
		i := strings.IndexByte(name, '[')
		sub := strings.NewReplacer(`\`, `\\`, `"`, `\"`).Replace(name[i+1 : len(name)-1])
		as = parseAssignName(name[:i] + `["` + sub + `"]`)
	}
	if as == nil {
		return fmt.Errorf("`%s': not a valid identifier", name)
	}
	as.Value = &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: value}}}
	oldExit, oldErr := r.exit, r.stderr
	var msg strings.Builder
	r.exit, r.stderr = exitStatus{}, &msg
	prev := r.lookupVar(as.Name.Value)
	prev.Local = false
	if as.Index == nil && namerefRefuses(prev, value) {
		r.exit, r.stderr = oldExit, oldErr
		// printf -v r of declare -n r: the builtin names itself
		// before the error, as bash's printf does
		return fmt.Errorf("`%s': %w", value, expand.ErrRefValue)
	}
	refused := false
	if elem := r.elemRefAssign(prev, as); elem != nil {
		// through a nameref to an element (declare -n r='a[1]'), as
		// the runner's r=v
		as, prev = elem, r.lookupVar(elem.Name.Value)
		prev.Local = false
		r.unnamedFailure = false
		if refused = allElems(as); refused {
			r.refuseAllElems(as)
		}
	}
	if !refused {
		vname, vr, appendIndex := r.assignVal(as.Name.Value, prev, as, "")
		if vname != as.Name.Value {
			prev = r.lookupVar(vname) // through a nameref: the variable it names
		}
		r.unnamedFailure, r.reportedFailure = false, false
		holding := r.holdExitTrap
		r.holdExitTrap = true // the message first: see Runner.holdExitTrap
		r.setVarWithIndex(prev, vname, as.Index, appendIndex, as.IndexRaw, vr)
		r.holdExitTrap = holding
	}
	// a fatal error exits with the last status, a substitution's in the
	// builtin's words included (bash's last_command_exit_value), or 1
	failed, fatal, code, reported, assignFailed := !r.exit.ok(), r.exit.exiting, cmp.Or(r.lastExit.code, 1), r.exit.code, r.exit.assignFailed
	r.exit, r.stderr = oldExit, oldErr
	if !failed {
		// what the assignment reported and went on after (a bad
		// subscript in a declare -i value's arithmetic, which bash
		// reports twice without errexit) is said all the same
		io.WriteString(r.stderr, msg.String())
	}
	if failed {
		text := strings.TrimSuffix(msg.String(), "\n")
		if fatal && r.reportedFailure {
			// bash's report_error in the value's arithmetic (a bad
			// subscript, a readonly variable assigned): named after
			// no builtin, the end of the shell with its status
			return FatalAssignError{Err: errors.New(text), code: reported, Unnamed: true}
		}
		if strings.HasSuffix(text, ": "+errReadOnly.Error()) {
			return readOnlyError(text)
		}
		if fatal && assignFailed && strings.HasSuffix(text, ": "+expand.ErrBadSubscript.Error()) {
			// an element before the array's start: bash's builtins
			// report it and fail, the end of the shell under errexit
			// only (AssignFailed), where an assignment word's ends it
			// always
			return badSubscriptError(text)
		}
		if fatal {
			// jaiph-go patch: an arithmetic error in a value for a
			// declare -i variable ends the shell (arithAssignFatal).
			if r.unnamedFailure {
				code = 1
			}
			return FatalAssignError{Err: errors.New(text), code: code, Unnamed: r.unnamedFailure}
		}
		return errors.New(text)
	}
	return nil
}

// parseAssignName is the assignment name=” parsed, or nil when name is no
// assignment's name (jaiph-go patch).
func parseAssignName(name string) *syntax.Assign {
	f, err := syntax.NewParser().Parse(strings.NewReader(name+"=''"), "")
	if err != nil || len(f.Stmts) != 1 || f.Stmts[0].Negated || len(f.Stmts[0].Redirs) > 0 {
		return nil
	}
	if ce, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(ce.Args) == 0 && len(ce.Assigns) == 1 && !ce.Assigns[0].Append {
		return ce.Assigns[0]
	}
	return nil
}

// badSubscriptError is SetVar's error for an element it cannot assign
// (jaiph-go patch).
type badSubscriptError string

func (e badSubscriptError) Error() string { return string(e) }
func (e badSubscriptError) Unwrap() error { return expand.ErrBadSubscript }

// readOnlyError is SetVar's error for a readonly variable (jaiph-go patch).
type readOnlyError string

func (e readOnlyError) Error() string { return string(e) }
func (e readOnlyError) Unwrap() error { return errReadOnly }

// AssignFailed is what a builtin handler returns once it has printed the
// error of a failed SetVar (jaiph-go patch): status 1, or, for a readonly
// variable under errexit, the end of the shell as bash's err_readonly does
// (see readonlyFailed), even where errexit is ignored.
func (hc HandlerContext) AssignFailed(err error) error {
	exit := exitStatus{code: 1}
	if errors.Is(err, errReadOnly) || errors.Is(err, expand.ErrBadSubscript) {
		hc.runner.readonlyFailed(&exit)
	}
	return errBuiltinExitStatus(exit)
}

// FatalAssignError is [HandlerContext.SetVar]'s error when the assignment
// ends the shell, as bash's arithmetic error in a value for a declare -i
// variable does (jaiph-go patch): the builtin reports it, named after
// itself, and returns it; the shell then exits with the status bash
// exits with there (the last command's, a substitution's in the builtin's
// words included, or 1).
type FatalAssignError struct {
	Err  error
	code uint8
	// Unnamed: the error is the element's subscript's, or set -u's in
	// the value's arithmetic, which bash names after no builtin (its
	// status is 1).
	Unnamed bool
}

func (e FatalAssignError) Error() string { return e.Err.Error() }
func (e FatalAssignError) Unwrap() error { return e.Err }

// BashOpt reports whether the shell option name ("xpg_echo", "errexit", …)
// is on (jaiph-go patch, for builtins set with [BuiltinHandler]).
func (hc HandlerContext) BashOpt(name string) bool {
	if opt, _ := hc.runner.bashOptByName(name); opt != nil {
		return *opt
	}
	if opt := hc.runner.posixOptByName(name); opt != nil {
		return *opt
	}
	return false
}

// CallHandlerFunc is a handler which runs on every [syntax.CallExpr].
// It is called once variable assignments and field expansion have occurred.
// The context includes a [HandlerContext] value.
//
// The call's arguments are replaced by what the handler returns,
// and then the call is executed by the Runner as usual.
// The args slice is never empty.
// At this time, returning an empty slice without an error is not supported.
//
// This handler is similar to [ExecHandlerFunc], but has two major differences:
//
// First, it runs for all simple commands, including function calls and builtins.
//
// Second, it is not expected to execute the simple command, but instead to
// allow running custom code which allows replacing the argument list.
// Shell builtins touch on many internals of the Runner, after all.
//
// Returning a non-nil error will halt the [Runner] and will be returned via the API.
type CallHandlerFunc func(ctx context.Context, args []string) ([]string, error)

// TODO: consistently treat handler errors as non-fatal by default,
// but have an interface or API to specify fatal errors which should make
// the shell exit with a particular status code.

// ExecHandlerFunc is a handler which executes simple commands.
// It is called for all [syntax.CallExpr] nodes
// where the first argument is neither a declared function nor a builtin.
// The args slice is never empty.
// The context includes a [HandlerContext] value.
//
// Returning a nil error means a zero exit status.
// Other exit statuses can be set by returning or wrapping a [NewExitStatus] error,
// and such an error is returned via the API if it is the last statement executed.
// Any other error will halt the [Runner] and will be returned via the API.
type ExecHandlerFunc func(ctx context.Context, args []string) error

// DefaultExecHandler returns the [ExecHandlerFunc] used by default.
// It finds binaries in PATH and executes them.
// When context is cancelled, an interrupt signal is sent to running processes.
// killTimeout is a duration to wait before sending the kill signal.
// A negative value means that a kill signal will be sent immediately.
//
// On Windows, the kill signal is always sent immediately,
// because Go doesn't currently support sending Interrupt on Windows.
// [Runner] defaults to a killTimeout of 2 seconds.
//
// On Unix, a file which fails to execute with ENOEXEC, such as a script
// without a shebang line, is run as a shell script with a new [Runner]
// using default options and handlers, like other shells do.
//
// TODO: perhaps intercept ENOEXEC scripts as well as shell shebangs
// such as "#!/bin/sh" so that they reuse the runner's configured handlers.
func DefaultExecHandler(killTimeout time.Duration) ExecHandlerFunc {
	return func(ctx context.Context, args []string) error {
		hc := HandlerCtx(ctx)
		found, err := hc.LookPath(args[0]) // jaiph-go patch: bash's table of command paths, command -p
		if err != nil {
			fmt.Fprintln(hc.Stderr, err)
			return ExitStatus(127)
		}
		path := absPath(hc.Dir, found)
		newCmd := func() *exec.Cmd {
			cmd := exec.CommandContext(ctx, path)
			cmd.Args = args
			cmd.Env = execEnv(hc.Env)
			cmd.Dir = hc.Dir
			cmd.Stdin = hc.Stdin
			cmd.Stdout = hc.Stdout
			cmd.Stderr = hc.Stderr
			ChildStdio(hc, cmd)            // jaiph-go patch: closed descriptors
			cmd.ExtraFiles = hc.ExtraFiles // jaiph-go patch
			if killTimeout > 0 && runtime.GOOS != "windows" {
				// On cancellation, send an interrupt signal first, and let
				// WaitDelay escalate to a kill signal if the process does not
				// exit in time. Otherwise, keep the default of killing right away.
				// jaiph-go patch: forward the signal of the context's
				// cancellation cause (e.g. kill to a job), else Interrupt.
				cmd.Cancel = func() error { return cmd.Process.Signal(ContextSignal(ctx, os.Interrupt)) }
				cmd.WaitDelay = killTimeout
			}
			return cmd
		}
		cmd := newCmd()
		err = cmd.Start()
		// On Unix, a concurrently forked process may briefly hold a write
		// file descriptor for the file inherited before its exec, making
		// our exec fail with ETXTBSY; see https://go.dev/issue/22315.
		// The window is short-lived, so retry with backoff. A failed Start
		// closes the command's pipes, so build a fresh one for each attempt.
		for delay := time.Millisecond; isETXTBSY(err) && delay < 300*time.Millisecond; delay *= 2 {
			time.Sleep(delay)
			cmd = newCmd()
			err = cmd.Start()
		}
		if isENOEXEC(err) {
			// Like other shells, run a file which the kernel refuses to
			// execute with ENOEXEC, such as a script without a shebang line,
			// as a shell script with a new copy of the shell.
			return runScriptENOEXEC(ctx, hc, killTimeout, path, args)
		}
		if err == nil {
			err = cmd.Wait()
		}

		switch err := err.(type) {
		case *exec.ExitError:
			// Windows and Plan9 do not have support for [syscall.WaitStatus]
			// with methods like Signaled and Signal, so for those, [waitStatus] is a no-op.
			// Note: [waitStatus] is an alias [syscall.WaitStatus]
			if status, ok := err.Sys().(waitStatus); ok && status.Signaled() {
				if ctx.Err() != nil {
					return ctx.Err()
				}
				// jaiph-go patch: the shell reports it (jaiph_sigreport.go)
				return signalStatus(status, cmd.Process.Pid)
			}
			return ExitStatus(err.ExitCode())
		case *exec.Error:
			// did not start
			fmt.Fprintf(hc.Stderr, "%v\n", err)
			return ExitStatus(127)
		case *os.PathError:
			// jaiph-go patch: did not start, reported as bash's
			// shell_execve, naming the file it tried.
			shown := args[0]
			if !strings.Contains(shown, "/") {
				shown = found
			}
			return execFailure(hc.Stderr, shown, path, err)
		default:
			// The command exited with success, but WaitDelay elapsed with its
			// I/O pipes still open, e.g. due to an orphaned subprocess.
			if errors.Is(err, exec.ErrWaitDelay) {
				return nil
			}
			return err
		}
	}
}

// runScriptENOEXEC runs a file as a shell script with a new shell,
// as POSIX requires when the kernel fails to execute it with ENOEXEC.
// The new shell does not inherit functions or unexported variables.
func runScriptENOEXEC(ctx context.Context, hc HandlerContext, killTimeout time.Duration, path string, args []string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintln(hc.Stderr, err)
		return ExitStatus(126)
	}
	// Like Bash, refuse to run the file as a script
	// if a null byte appears before the first newline.
	if binaryFile(b) {
		// jaiph-go patch: bash's text, with the reason
		fmt.Fprintf(hc.Stderr, "%s: cannot execute binary file: Exec format error\n", args[0])
		return ExitStatus(126)
	}
	file, err := syntax.NewParser().Parse(bytes.NewReader(b), args[0])
	if err != nil {
		fmt.Fprintln(hc.Stderr, err)
		return ExitStatus(2) // like Bash with a syntax error
	}
	r, err := New(
		Dir(hc.Dir),
		Env(expand.ListEnviron(execEnv(hc.Env)...)),
		StdIO(hc.Stdin, hc.Stdout, hc.Stderr),
		ExecHandler(DefaultExecHandler(killTimeout)),
	)
	if err != nil {
		return err
	}
	r.Params = args[1:]
	return r.Run(ctx, file)
}

// binaryFile is bash's check_binary_file on the file's first 128 bytes
// (jaiph-go patch): an ELF header, or a null byte in the first line (the
// first two after a #! line) of that sample.
func binaryFile(b []byte) bool {
	sample := b[:min(len(b), 128)] // HASH_BANG_BUFSIZ
	if bytes.HasPrefix(sample, []byte("\x7fELF")) {
		return true
	}
	lines := 1
	if bytes.HasPrefix(sample, []byte("#!")) {
		lines = 2
	}
	for _, c := range sample {
		if c == '\n' {
			if lines--; lines == 0 {
				return false
			}
		}
		if c == 0 {
			return true
		}
	}
	return false
}

func checkStat(dir, file string, checkExec bool) (string, error) {
	if !filepath.IsAbs(file) {
		file = filepath.Join(dir, file)
	}
	info, err := os.Stat(file)
	if err != nil {
		return "", err
	}
	m := info.Mode()
	if m.IsDir() {
		return "", fmt.Errorf("is a directory")
	}
	if checkExec && runtime.GOOS != "windows" && m&0o111 == 0 {
		return "", fmt.Errorf("permission denied")
	}
	return file, nil
}

func winHasExt(file string) bool {
	i := strings.LastIndex(file, ".")
	if i < 0 {
		return false
	}
	return strings.LastIndexAny(file, `:\/`) < i
}

// findExecutable returns the path to an existing executable file.
func findExecutable(dir, file string, exts []string) (string, error) {
	if len(exts) == 0 {
		// non-windows
		return checkStat(dir, file, true)
	}
	if winHasExt(file) {
		if file, err := checkStat(dir, file, true); err == nil {
			return file, nil
		}
	}
	for _, e := range exts {
		f := file + e
		if f, err := checkStat(dir, f, true); err == nil {
			return f, nil
		}
	}
	return "", fmt.Errorf("not found")
}

// findFile returns the path to an existing file.
func findFile(dir, file string, _ []string) (string, error) {
	return checkStat(dir, file, false)
}

// LookPath is deprecated; see [LookPathDir].
func LookPath(env expand.Environ, file string) (string, error) {
	return LookPathDir(env.Get("PWD").String(), env, file)
}

// LookPathDir is similar to [os/exec.LookPath], with the difference that it uses the
// provided environment. env is used to fetch relevant environment variables
// such as PWD and PATH.
//
// If no error is returned, the returned path must be valid.
func LookPathDir(cwd string, env expand.Environ, file string) (string, error) {
	return lookPathDir(cwd, env, file, findExecutable)
}

// findAny defines a function to pass to [lookPathDir].
type findAny = func(dir string, file string, exts []string) (string, error)

func lookPathDir(cwd string, env expand.Environ, file string, find findAny) (string, error) {
	if find == nil {
		panic("no find function found")
	}

	pathList := filepath.SplitList(env.Get("PATH").String())
	if len(pathList) == 0 {
		pathList = []string{""}
	}
	chars := `/`
	if runtime.GOOS == "windows" {
		chars = `:\/`
	}
	exts := pathExts(env)
	if strings.ContainsAny(file, chars) {
		f, err := find(cwd, file, exts)
		if err != nil {
			// jaiph-go patch: bash's wording, naming the file as written.
			var pe *os.PathError
			switch {
			case errors.As(err, &pe):
				err = fmt.Errorf("%s: No such file or directory", file)
			case err.Error() == "is a directory":
				err = fmt.Errorf("%s: Is a directory", file)
			case err.Error() == "permission denied":
				err = fmt.Errorf("%s: Permission denied", file)
			}
		}
		return f, err
	}
	for _, elem := range pathList {
		var path string
		switch elem {
		case "", ".":
			// otherwise "foo" won't be "./foo"
			path = "." + string(filepath.Separator) + file
		default:
			path = filepath.Join(elem, file)
		}
		if f, err := find(cwd, path, exts); err == nil {
			return f, nil
		}
	}
	// jaiph-go patch: bash's text; a name holding a control character is
	// shown $'…'-quoted (bash's printable_filename).
	if strings.ContainsFunc(file, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
		file = bashDeclQuote(file, true)
	}
	return "", fmt.Errorf("%s: command not found", file)
}

// scriptFromPathDir is similar to [LookPathDir], with the difference that it looks
// for both executable and non-executable files.
func scriptFromPathDir(cwd string, env expand.Environ, file string) (string, error) {
	return lookPathDir(cwd, env, file, findFile)
}

func pathExts(env expand.Environ) []string {
	if runtime.GOOS != "windows" {
		return nil
	}
	pathext := env.Get("PATHEXT").String()
	if pathext == "" {
		return []string{".com", ".exe", ".bat", ".cmd"}
	}
	var exts []string
	for e := range strings.SplitSeq(strings.ToLower(pathext), `;`) {
		if e == "" {
			continue
		}
		if e[0] != '.' {
			e = "." + e
		}
		exts = append(exts, e)
	}
	return exts
}

// OpenHandlerFunc is a handler which opens files.
// It is called for all files that are opened directly by the shell,
// such as in redirects, except for named pipes created by process substitutions.
// The context includes a [HandlerContext] value.
// Files opened by executed programs are not included.
//
// The path parameter may be relative to the current directory,
// which can be fetched via [HandlerCtx].
//
// Use a return error of type [*os.PathError] to have the error printed to
// stderr and the exit status set to 1.
// Any other error will halt the [Runner] and will be returned via the API.
//
// Note that implementations which do not return [os.File] will cause
// extra files and goroutines for input redirections; see [StdIO].
type OpenHandlerFunc func(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error)

// TODO: paths passed to [OpenHandlerFunc] should be cleaned.

// DefaultOpenHandler returns the [OpenHandlerFunc] used by default.
// It uses [os.OpenFile] to open files.
//
// For the sake of portability, /dev/null opens NUL on Windows.
func DefaultOpenHandler() OpenHandlerFunc {
	return func(ctx context.Context, path string, flag int, perm os.FileMode) (io.ReadWriteCloser, error) {
		mc := HandlerCtx(ctx)
		if runtime.GOOS == "windows" && path == "/dev/null" {
			path = "NUL"
			// Note that even though https://go.dev/issue/71752 was resolved for Windows,
			// the workaround here seems to still be required for Wine as of 10.14.
			// TODO(mvdan): Why? Is this Wine's fault?
			flag &^= os.O_TRUNC
		} else {
			path = osPath(mc.Dir, path)
		}
		return os.OpenFile(path, flag, perm)
	}
}

// ReadDirHandlerFunc is a handler which reads directories. It is called during
// shell globbing, if enabled.
//
// Deprecated: use [ReadDirHandlerFunc2], which uses [fs.DirEntry].
type ReadDirHandlerFunc func(ctx context.Context, path string) ([]fs.FileInfo, error)

// ReadDirHandlerFunc2 is a handler which reads directories. It is called during
// shell globbing, if enabled.
// The context includes a [HandlerContext] value.
type ReadDirHandlerFunc2 func(ctx context.Context, path string) ([]fs.DirEntry, error)

// DefaultReadDirHandler returns the [ReadDirHandlerFunc] used by default.
// It uses [os.ReadDir].
//
// Deprecated: use [DefaultReadDirHandler2], which uses [fs.DirEntry].
func DefaultReadDirHandler() ReadDirHandlerFunc {
	return func(ctx context.Context, path string) ([]fs.FileInfo, error) {
		entries, err := os.ReadDir(path)
		if err != nil {
			return nil, err
		}
		infos := make([]fs.FileInfo, 0, len(entries))
		for _, entry := range entries {
			info, err := entry.Info()
			if err != nil {
				return nil, err
			}
			infos = append(infos, info)
		}
		return infos, nil
	}
}

// DefaultReadDirHandler2 returns the [ReadDirHandlerFunc2] used by default.
// It uses [os.ReadDir].
func DefaultReadDirHandler2() ReadDirHandlerFunc2 {
	return func(ctx context.Context, path string) ([]fs.DirEntry, error) {
		return os.ReadDir(path)
	}
}

// StatHandlerFunc is a handler which gets a file's information.
// The context includes a [HandlerContext] value.
type StatHandlerFunc func(ctx context.Context, name string, followSymlinks bool) (fs.FileInfo, error)

// DefaultStatHandler returns the [StatHandlerFunc] used by default.
// It makes use of [os.Stat] and [os.Lstat], depending on followSymlinks.
func DefaultStatHandler() StatHandlerFunc {
	return func(ctx context.Context, path string, followSymlinks bool) (fs.FileInfo, error) {
		if !followSymlinks {
			return os.Lstat(path)
		} else {
			return os.Stat(path)
		}
	}
}

// AccessMode is a bitmask of file access checks, used by [AccessHandlerFunc].
type AccessMode uint32

// The values match access(2)'s R_OK, W_OK, and X_OK.
const (
	AccessRead  AccessMode = 0b100
	AccessWrite AccessMode = 0b010
	AccessExec  AccessMode = 0b001
)

// TODO(v4): fold AccessHandlerFunc into StatHandlerFunc.

// AccessHandlerFunc is a handler which checks whether the current user can
// access a file. It is called by the unary test operators -r, -w, and -x,
// and by builtins such as cd. The path is always absolute.
// A nil error means access is allowed.
// The context includes a [HandlerContext] value.
type AccessHandlerFunc func(ctx context.Context, path string, mode AccessMode) error

// DefaultAccessHandler returns the [AccessHandlerFunc] used by default.
// On Unix it uses access(2), which consults the real filesystem and the
// current user's role. On other platforms, which lack access(2), it
// approximates the check via the stat handler and the file's permission bits.
func DefaultAccessHandler() AccessHandlerFunc {
	return defaultAccess
}
