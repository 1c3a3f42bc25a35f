package runtime

// This file answers: how does a signal stop a run (the Interrupted cause,
// 128+signal)?

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"syscall"
)

// NotifyInterrupt returns a context cancelled by SIGINT or SIGTERM with an
// *Interrupted cause (D22), and the function that stops listening. A
// second signal exits the process at once with 128+signal.
func NotifyInterrupt() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigc := make(chan os.Signal, 1)
	signal.Notify(sigc, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigc:
			in := &Interrupted{Signal: s.(syscall.Signal)}
			cancel(in)
			select {
			case <-sigc:
				os.Exit(in.Status())
			case <-done:
			}
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigc)
		close(done)
		cancel(nil)
	}
}

// Interruption returns the signal that cancelled ctx, if any.
func Interruption(ctx context.Context) *Interrupted {
	var in *Interrupted
	if errors.As(context.Cause(ctx), &in) {
		return in
	}
	return nil
}

// Interrupted is the cancellation cause of a run stopped by a signal, or
// by one of its limits (limits.go: Limit says which; the run's processes
// get Signal all the same, but the run counts as failed, not interrupted).
type Interrupted struct {
	Signal syscall.Signal
	Limit  string
	// Suspend: the run stops at a receive to continue elsewhere (Runtime.
	// Suspended); the body's traps do not run, since it has not ended —
	// its EXIT trap runs once, at the end, as when it waits in place.
	Suspend bool
}

func (i *Interrupted) Error() string {
	if i.Limit != "" {
		return i.Limit
	}
	return "interrupted by " + signalName(i.Signal)
}

// CauseSignal makes an interrupted run's signal reach the body's traps and
// the programs it runs (interp.SignalCause).
func (i *Interrupted) CauseSignal() os.Signal { return i.Signal }

// SkipTraps keeps a suspended body's traps from running
// (interp.TrapSkipper).
func (i *Interrupted) SkipTraps() bool { return i.Suspend }

// Status is the shell exit status of a process killed by the signal.
func (i *Interrupted) Status() int { return 128 + int(i.Signal) }

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
