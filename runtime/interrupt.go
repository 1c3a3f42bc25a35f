package runtime

import (
	"context"
	"errors"
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
