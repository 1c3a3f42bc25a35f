package procgroup

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"
)

// KillDelay is how long the programs of an interrupted run may take to end
// after the signal before they are killed (D22).
const KillDelay = 2 * time.Second

// Group is the process group of one run. The zero value is not usable; use
// New. A nil *Group is valid and puts nothing in a group (programs stay in
// jaiph's own group).
type Group struct {
	run       context.Context // the run's context
	stopWatch func() bool     // stops watching run for cancellation

	mu     sync.Mutex
	keeper *exec.Cmd
	ctl    *os.File // write end of the keeper's stdin
	pgid   int
	err    error
	closed bool

	interruptOnce sync.Once
	killAt        time.Time
	killTimer     *time.Timer
}

// New returns the group of the run whose context is run; its keeper starts
// with the first program. When run is cancelled the group is interrupted
// with sig(cause).
func New(run context.Context, sig func(cause error) syscall.Signal) *Group {
	g := &Group{run: run}
	g.stopWatch = context.AfterFunc(run, func() { g.Interrupt(sig(context.Cause(run))) })
	return g
}

// RunCancelled reports whether the run's context is done: its programs are
// being signalled as a group.
func (g *Group) RunCancelled() bool { return g != nil && g.run.Err() != nil }

// Prepare makes cmd start in the group (starting the keeper on first use).
// The returned error says why the group could not be made; the program must
// not start then, or it would escape the run's signals.
func (g *Group) Prepare(cmd *exec.Cmd) error {
	if g == nil {
		return nil
	}
	pgid, err := g.leader()
	if err != nil {
		return err
	}
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	cmd.SysProcAttr.Pgid = pgid
	return nil
}

func (g *Group) leader() (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	switch {
	case g.closed:
		return 0, errors.New("the run is ending: no new programs start")
	case g.pgid != 0 || g.err != nil:
		return g.pgid, g.err
	}
	g.pgid, g.err = g.startKeeper()
	return g.pgid, g.err
}

func (g *Group) startKeeper() (int, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return 0, fmt.Errorf("cannot start the run's process group: %w", err)
	}
	defer r.Close()
	cmd := exec.Command("/bin/sh", "-c", keeperScript)
	cmd.Stdin = r
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		w.Close()
		return 0, fmt.Errorf("cannot start the run's process group: %w", err)
	}
	g.keeper, g.ctl = cmd, w
	return cmd.Process.Pid, nil
}

// Interrupt sends sig to every program of the group and kills what is left
// KillDelay later. Only the first call counts.
func (g *Group) Interrupt(sig syscall.Signal) {
	if g == nil {
		return
	}
	g.interruptOnce.Do(func() {
		g.mu.Lock()
		defer g.mu.Unlock()
		g.killAt = time.Now().Add(KillDelay)
		if g.pgid == 0 {
			return
		}
		pgid := g.pgid
		_ = syscall.Kill(-pgid, sig) // the keeper ignores it
		g.killTimer = time.AfterFunc(KillDelay, func() { _ = syscall.Kill(-pgid, syscall.SIGKILL) })
	})
}

// Close ends the group: no program starts after it. After an interruption
// it waits until every program of the group has ended, killing those still
// there at the deadline; otherwise programs that outlive the run (a
// daemon a body started) keep running, as after a bash script.
func (g *Group) Close() {
	if g == nil {
		return
	}
	g.stopWatch()
	g.mu.Lock()
	g.closed = true
	keeper, ctl, pgid, killAt := g.keeper, g.ctl, g.pgid, g.killAt
	g.mu.Unlock()
	if keeper == nil {
		return
	}
	_, _ = ctl.Write([]byte("q\n"))
	ctl.Close()
	if killAt.IsZero() {
		go keeper.Wait() //nolint:errcheck // reaped; nothing waits for it
		return
	}
	_ = keeper.Wait()
	// The keeper has left: the group exists while any program is in it.
	// SIGKILL takes effect asynchronously, so the end is awaited after it
	// too (a process stuck in the kernel may delay it; not for ever).
	killed := false
	for groupAlive(pgid) && time.Now().Before(killAt.Add(time.Second)) {
		if !killed && time.Now().After(killAt) {
			_ = syscall.Kill(-pgid, syscall.SIGKILL)
			killed = true
		}
		time.Sleep(10 * time.Millisecond)
	}
	g.mu.Lock()
	if g.killTimer != nil {
		g.killTimer.Stop()
	}
	g.mu.Unlock()
}

type groupKey struct{}

// WithGroup returns ctx carrying g, for the programs started under ctx.
func WithGroup(ctx context.Context, g *Group) context.Context {
	return context.WithValue(ctx, groupKey{}, g)
}

// FromContext returns the group of ctx, or nil.
func FromContext(ctx context.Context) *Group {
	g, _ := ctx.Value(groupKey{}).(*Group)
	return g
}
