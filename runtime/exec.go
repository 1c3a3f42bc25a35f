package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"syscall"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"
)

// KillDelay is how long an external command may run after it was signalled
// because the run was interrupted, before it is killed (D22).
const KillDelay = 2 * time.Second

// Interrupted is the cancellation cause of a run stopped by a signal.
type Interrupted struct{ Signal syscall.Signal }

func (i *Interrupted) Error() string { return "interrupted by " + signalName(i.Signal) }

// Status is the shell exit status of a process killed by the signal.
func (i *Interrupted) Status() int { return 128 + int(i.Signal) }

// CauseSignal makes an interrupted run's signal reach the body's traps
// (interp.SignalCause).
func (i *Interrupted) CauseSignal() os.Signal { return i.Signal }

// SignalName is the name the FAIL summary uses ("SIGINT").
func (i *Interrupted) SignalName() string { return signalName(i.Signal) }

func signalName(s syscall.Signal) string {
	switch s {
	case syscall.SIGINT:
		return "SIGINT"
	case syscall.SIGTERM:
		return "SIGTERM"
	case syscall.SIGHUP:
		return "SIGHUP"
	}
	return fmt.Sprintf("signal %d", int(s))
}

// interruption returns the signal that cancelled ctx, if any.
func interruption(ctx context.Context) *Interrupted {
	var in *Interrupted
	if errors.As(context.Cause(ctx), &in) {
		return in
	}
	return nil
}

// execExternal runs a program as a real process with the shell's exported
// variables. Unlike interp's default handler it forwards the signal that
// interrupted the run (SIGTERM stays SIGTERM) and kills after KillDelay.
// Files the kernel refuses to execute (scripts without a shebang) go to
// next, which runs them as shell scripts.
func execExternal(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
	return func(ctx context.Context, args []string) error {
		hc := interp.HandlerCtx(ctx)
		path, err := interp.LookPathDir(hc.Dir, hc.Env, args[0])
		if err != nil {
			fmt.Fprintln(hc.Stderr, err)
			return interp.ExitStatus(127)
		}
		if f := frameOf(ctx); f != nil && f.readOnly {
			path, args = readOnlyCommand(path, args, f.rt.rvDir)
		}
		newCmd := func() *exec.Cmd {
			cmd := exec.CommandContext(ctx, path)
			cmd.Args = args
			cmd.Env = exportedList(hc.Env)
			cmd.Dir = hc.Dir
			cmd.Stdin, cmd.Stdout, cmd.Stderr = hc.Stdin, direct(hc.Stdout), direct(hc.Stderr)
			return cmd
		}
		cmd, err := startInterruptible(ctx, newCmd)
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
				return interp.ExitStatus(uint8(128 + int(ws.Signal())))
			}
			return interp.ExitStatus(uint8(exitErr.ExitCode()))
		default:
			fmt.Fprintln(hc.Stderr, err)
			return interp.ExitStatus(127)
		}
	}
}

// exportedList renders the exported variables as KEY=VALUE pairs.
func exportedList(env expand.Environ) []string {
	var list []string
	env.Each(func(name string, vr expand.Variable) bool {
		if vr.Exported && vr.IsSet() {
			list = append(list, name+"="+vr.String())
		}
		return true
	})
	return list
}

// direct hands a child process the artifact's file itself rather than a
// pipe, so its output lands without a copying goroutine.
func direct(w io.Writer) io.Writer {
	if a, ok := w.(*artifact); ok {
		if f, err := a.file(); err == nil {
			return f
		}
	}
	return w
}

// startInterruptible starts the command newCmd builds so that an
// interrupted run sends it the run's signal (SIGTERM stays SIGTERM; else
// SIGINT) and kills it KillDelay later, which also bounds how long a child
// that outlives it may keep its output pipes open. A concurrently forked
// process may briefly hold a just-written executable open
// (go.dev/issue/22315), so ETXTBSY is retried for a short while.
func startInterruptible(ctx context.Context, newCmd func() *exec.Cmd) (*exec.Cmd, error) {
	build := func() *exec.Cmd {
		cmd := newCmd()
		cmd.Cancel = func() error {
			// the run's signal, or kill's to a background job
			return cmd.Process.Signal(interp.ContextSignal(ctx, os.Interrupt))
		}
		cmd.WaitDelay = KillDelay
		return cmd
	}
	cmd := build()
	err := cmd.Start()
	for delay := time.Millisecond; errors.Is(err, syscall.ETXTBSY) && delay < 300*time.Millisecond; delay *= 2 {
		time.Sleep(delay)
		cmd = build()
		err = cmd.Start()
	}
	return cmd, err
}
