package shellbuiltin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"

	"github.com/jaiph-go/jaiph/internal/exec/procgroup"
)

// Rewrite may replace an external command's program and argv just before
// it starts (rules run theirs under Landlock).
type Rewrite func(ctx context.Context, path string, args []string) (string, []string)

// External returns the exec handler for external programs. It runs a
// program as a real process with the shell's exported variables; unlike
// interp's default handler it reports lookup failures as bash does
// (`x: command not found`, 127; `./x: No such file or directory`, 127;
// `./dir: Is a directory`, 126), forwards the signal of a cancellation
// cause (SIGTERM stays SIGTERM) and kills procgroup.KillDelay later. Files the kernel
// refuses to execute (scripts without a shebang) go to next, which runs
// them as shell scripts. rewrite may be nil.
func External(rewrite Rewrite) func(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
	return func(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
		return func(ctx context.Context, args []string) error {
			hc := interp.HandlerCtx(ctx)
			path, status, msg := lookPath(hc, args[0])
			if msg != "" {
				fmt.Fprintln(hc.Stderr, msg)
				return interp.ExitStatus(status)
			}
			// bash names the file it tried: the path a name was
			// found at (PATH, or the shell's table of command paths)
			shown := args[0]
			if !strings.Contains(shown, "/") {
				shown = path
			} else if hc.ByExec && !strings.HasPrefix(shown, "/") {
				// exec's full_pathname: the directory, the name
				// without a leading ./
				shown = strings.TrimSuffix(hc.Dir, "/") + "/" + strings.TrimPrefix(shown, "./")
			}
			if !filepath.IsAbs(path) {
				path = filepath.Join(hc.Dir, path)
			}
			if rewrite != nil {
				path, args = rewrite(ctx, path, args)
			}
			newCmd := func() *exec.Cmd {
				cmd := exec.CommandContext(ctx, path)
				cmd.Args = args
				cmd.Env = ExportedList(hc.Env)
				cmd.Dir = hc.Dir
				cmd.Stdin, cmd.Stdout, cmd.Stderr = hc.Stdin, direct(hc.Stdout), direct(hc.Stderr)
				interp.ChildStdio(hc, cmd)     // closed descriptors stay closed
				cmd.ExtraFiles = hc.ExtraFiles // descriptors 3+ (exec 3>f, {fd}>f) as in bash
				return cmd
			}
			cmd, err := StartInterruptible(ctx, newCmd)
			if errors.Is(err, syscall.ENOEXEC) {
				return next(ctx, args)
			}
			if err == nil {
				err = cmd.Wait()
			}
			var exitErr *exec.ExitError
			switch {
			case err == nil, errors.Is(err, exec.ErrWaitDelay):
				return nil
			case errors.As(err, &exitErr):
				if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
					if ctx.Err() != nil {
						// the run itself is interrupted (D22): no report
						return interp.ExitStatus(uint8(128 + int(ws.Signal())))
					}
					// the shell reports it as bash does ("Terminated")
					return interp.SignalStatus{Signal: ws.Signal(), CoreDump: ws.CoreDump(), Pid: cmd.Process.Pid}
				}
				return interp.ExitStatus(uint8(exitErr.ExitCode()))
			case ctx.Err() != nil:
				// Cancelled before the program started (`kill %1` right
				// after `sleep 5 &`): as in bash, it ends by the signal,
				// silently.
				if sig, ok := interp.ContextSignal(ctx, os.Interrupt).(syscall.Signal); ok {
					return interp.ExitStatus(uint8(128 + int(sig)))
				}
				return interp.ExitStatus(128 + 2)
			default:
				fmt.Fprintln(hc.Stderr, execFailure(shown, path, err))
				reportFault(ctx, args[0], err)
				if errors.Is(err, syscall.ENOENT) {
					// bash's EX_NOTFOUND: a remembered path whose file
					// is gone, or a missing interpreter
					return interp.ExitStatus(127)
				}
				return interp.ExitStatus(126)
			}
		}
	}
}

// execFailure is bash's report (shell_execve) of a file it found and the
// kernel would not run (not for ENOEXEC: that runs as a script): for an
// executable file, a missing interpreter is "cannot execute: required
// file not found" and another failure of a "#!" line's interpreter is a
// "bad interpreter"; anything else is the error's text.
func execFailure(shown, path string, err error) string {
	text := shown + ": " + errnoText(err)
	fi, serr := os.Stat(path)
	if serr != nil || fi.IsDir() || fi.Mode().Perm()&0o111 == 0 ||
		errors.Is(err, syscall.E2BIG) || errors.Is(err, syscall.ENOMEM) {
		return text
	}
	if errors.Is(err, syscall.ENOENT) {
		return shown + ": cannot execute: required file not found"
	}
	if interp := shebangInterpreter(path); interp != "" {
		return shown + ": " + interp + ": bad interpreter: " + errnoText(err)
	}
	return text
}

// shebangInterpreter is the interpreter a "#!" line names, as bash's
// getinterp reads it (blanks after "#!" skipped, up to the next blank; a
// carriage return shown as ^M), or "" without one.
func shebangInterpreter(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 80)
	n, _ := io.ReadFull(f, buf)
	line := buf[:n]
	if len(line) < 3 || line[0] != '#' || line[1] != '!' {
		return ""
	}
	line = line[2:]
	if i := strings.IndexByte(string(line), '\n'); i >= 0 {
		line = line[:i]
	}
	s := strings.TrimLeft(string(line), " \t")
	if i := strings.IndexAny(s, " \t"); i >= 0 {
		s = s[:i]
	}
	if strings.HasSuffix(s, "\r") {
		s = strings.TrimSuffix(s, "\r") + "^M"
	}
	return s
}

// lookPath finds a command as bash does; on failure it returns bash's
// status and message.
func lookPath(hc interp.HandlerContext, name string) (string, uint8, string) {
	path, err := hc.LookPath(name) // the shell's table of paths, PATH or, under command -p, the standard one
	if err == nil {
		return path, 0, ""
	}
	if !strings.Contains(name, "/") {
		if msg := err.Error(); strings.HasSuffix(msg, ": command not found") {
			return "", 127, msg // the name $'…'-quoted when it holds a control character, as bash
		}
		return "", 127, name + ": command not found"
	}
	abs := name
	if !strings.HasPrefix(abs, "/") {
		abs = hc.Dir + "/" + name
	}
	fi, serr := os.Stat(abs)
	switch {
	case serr != nil && !errors.Is(serr, syscall.ENOENT):
		// as bash's shell_execve: only a missing file is 127; a path
		// through a non-directory or a name too long is 126
		return "", 126, name + ": " + errnoText(serr)
	case serr != nil:
		return "", 127, name + ": " + errnoText(serr)
	case fi.IsDir():
		return "", 126, name + ": Is a directory"
	default:
		return "", 126, name + ": Permission denied"
	}
}

// ExportedList renders the exported variables as KEY=VALUE pairs, as the
// interpreter's own exec handler does (interp.ExecEnv): arrays are never
// part of a program's environment, even exported, and the innermost scope
// holding a name decides, a local without a value hiding nothing.
func ExportedList(env expand.Environ) []string { return interp.ExecEnv(env) }

// FileWriter is a writer backed by a file that a child process may be
// handed directly (a step artifact), so its output lands without a copying
// goroutine.
type FileWriter interface {
	io.Writer
	OSFile() (*os.File, error)
}

func direct(w io.Writer) io.Writer {
	if fw, ok := w.(FileWriter); ok {
		if f, err := fw.OSFile(); err == nil {
			return f
		}
	}
	return w
}

// StartInterruptible starts the command newCmd builds in the run's process
// group (procgroup.FromContext), so that a cancelled ctx reaches it with the
// cause's signal (interp.SignalCause; else SIGINT) and kills it procgroup.KillDelay
// later, which also bounds how long a child that outlives it may keep its
// output pipes open. When the run itself is cancelled the whole group gets
// the signal once (a program must not see it twice: many treat a second
// SIGINT as "quit now"); a job's own cancellation (`kill %1`) signals just
// its program, as bash does. A concurrently forked process may briefly hold
// a just-written executable open (go.dev/issue/22315), so ETXTBSY is
// retried for a short while.
func StartInterruptible(ctx context.Context, newCmd func() *exec.Cmd) (*exec.Cmd, error) {
	group := procgroup.FromContext(ctx)
	build := func() (*exec.Cmd, error) {
		cmd := newCmd()
		cmd.Cancel = func() error {
			sig := interp.ContextSignal(ctx, os.Interrupt)
			if group.RunCancelled() {
				if s, ok := sig.(syscall.Signal); ok {
					group.Interrupt(s)
				}
				return nil
			}
			return cmd.Process.Signal(sig)
		}
		cmd.WaitDelay = procgroup.KillDelay
		return cmd, group.Prepare(cmd)
	}
	cmd, err := build()
	if err != nil {
		return cmd, err
	}
	err = cmd.Start()
	for delay := time.Millisecond; errors.Is(err, syscall.ETXTBSY) && delay < 300*time.Millisecond; delay *= 2 {
		time.Sleep(delay)
		if cmd, err = build(); err == nil {
			err = cmd.Start()
		}
	}
	return cmd, err
}
