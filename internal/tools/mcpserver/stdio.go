package mcpserver

// This file answers: how does `jaiph mcp` keep its stdout for the protocol
// alone?

import (
	"context"
	"errors"
	"os"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/sys/unix"

	"github.com/jaiph-go/jaiph/runtime"
)

// ServeStdio serves tools on the process's stdin and stdout until the
// client closes stdin or a SIGINT or SIGTERM arrives; the signal
// interrupts the runs in progress as it would a `jaiph run`, and
// ServeStdio returns once they ended. The protocol gets
// private copies of descriptors 0 and 1, and 0 and 1 themselves become
// /dev/null and a copy of stderr: stdout is the protocol, so nothing else
// (a program a workflow starts, a stray print) may write to it, and nothing
// but the protocol may read stdin.
func ServeStdio(ctx context.Context, tools []Tool, o Options) error {
	in, out, err := takeStdio()
	if err != nil {
		return err
	}
	sig, stop := runtime.NotifyInterrupt()
	defer stop()
	o.Interrupt, o.running = sig, newRunning()
	done := make(chan error, 1)
	// Every request read before stdin's EOF is answered (pending.go).
	r, w := waitingStdio(sig, in, out)
	go func() { done <- New(tools, o).Run(ctx, &mcp.IOTransport{Reader: r, Writer: w}) }()
	select {
	case err = <-done:
	case <-sig.Done():
		// The session may wait for stdin to close: it is left behind.
		o.running.wait()
		return nil
	}
	if errors.Is(err, mcp.ErrConnectionClosed) {
		return nil // the client went away: the end of a session
	}
	return err
}

// takeStdio moves descriptors 0 and 1 aside (close-on-exec, so the run's
// programs never inherit them) and puts /dev/null and stderr in their place.
func takeStdio() (*os.File, *os.File, error) {
	in, err := unix.FcntlInt(0, unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		return nil, nil, err
	}
	out, err := unix.FcntlInt(1, unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		return nil, nil, err
	}
	null, err := unix.Open(os.DevNull, unix.O_RDONLY|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, nil, err
	}
	defer unix.Close(null)
	if err := unix.Dup2(null, 0); err != nil {
		return nil, nil, err
	}
	if err := unix.Dup2(2, 1); err != nil {
		return nil, nil, err
	}
	return os.NewFile(uintptr(in), "mcp-stdin"), os.NewFile(uintptr(out), "mcp-stdout"), nil
}
