package runtime

// This file answers: what stops a run that goes on too long or calls too
// much (run.timeout, run.max_steps), and a step that has gone silent
// (run.step_idle_kill)? The run's context is cancelled with
// an *Interrupted cause naming the limit: every process of the run gets
// SIGTERM, then SIGKILL 2 s later (procgroup), open steps end with 143,
// and the run ends failed (not interrupted), so jaiph resume can continue
// it. Environment beats file config, as for every setting.

import (
	"context"
	"fmt"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/jaiph-go/jaiph/internal/event"
)

// limits are a run's limits and whether one stopped it.
type limits struct {
	maxSteps int64         // JAIPH_MAX_STEPS (run.max_steps); 0: none
	idleKill time.Duration // JAIPH_STEP_IDLE_KILL (run.step_idle_kill); 0: none
	stop     context.CancelCauseFunc

	mu        sync.Mutex
	why       string // the limit that stopped the run
	suspended bool   // a receive stopped it (suspend)
}

// withLimits arms the run's limits on ctx; the returned function disarms
// them.
func (rt *Runtime) withLimits(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	rt.limits.stop = cancel
	rt.limits.maxSteps = int64(envInt(rt.env("JAIPH_MAX_STEPS"), 0))
	if d, err := time.ParseDuration(rt.env("JAIPH_STEP_IDLE_KILL")); err == nil && d > 0 {
		rt.limits.idleKill = d
	}
	var timer *time.Timer
	if v := rt.env("JAIPH_RUN_TIMEOUT"); v != "" {
		if d, err := time.ParseDuration(v); err == nil && d > 0 {
			timer = time.AfterFunc(d, func() {
				rt.stopFor(fmt.Sprintf("E_TIMEOUT the run exceeded run.timeout (%s) and was stopped", v))
			})
		}
	}
	return ctx, func() {
		if timer != nil {
			timer.Stop()
		}
		cancel(nil)
	}
}

// stopFor stops the run for the limit why (the first one counts).
func (rt *Runtime) stopFor(why string) {
	l := &rt.limits
	l.mu.Lock()
	first := l.why == ""
	if first {
		l.why = why
	}
	l.mu.Unlock()
	if first && l.stop != nil {
		l.stop(&Interrupted{Signal: syscall.SIGTERM, Limit: why})
	}
}

// countStep counts a managed call against run.max_steps; false: the
// limit is reached and the run is being stopped.
func (rt *Runtime) countStep() bool {
	l := &rt.limits
	if l.maxSteps <= 0 || rt.steps.Add(1) <= l.maxSteps {
		return true
	}
	rt.stopFor(fmt.Sprintf("E_MAX_STEPS the run made more than %d managed calls (run.max_steps) and was stopped", l.maxSteps))
	return false
}

// suspend stops the run at a receive whose message is awaited outside
// this process (ErrSuspend), unless a limit stopped it first.
func (rt *Runtime) suspend() {
	l := &rt.limits
	l.mu.Lock()
	first := l.why == "" && !l.suspended
	l.suspended = first || l.suspended
	l.mu.Unlock()
	if first && l.stop != nil {
		l.stop(&Interrupted{Signal: syscall.SIGTERM, Suspend: true})
	}
}

// Suspended says the run stopped at a receive to continue elsewhere
// (ErrSuspend): it did not end.
func (rt *Runtime) Suspended() bool {
	rt.limits.mu.Lock()
	defer rt.limits.mu.Unlock()
	return rt.limits.suspended
}

// Limited is the limit that stopped the run, "" when none did.
func (rt *Runtime) Limited() string {
	rt.limits.mu.Lock()
	defer rt.limits.mu.Unlock()
	return rt.limits.why
}

// watchIdle stops call f when neither it nor any call it is making writes
// to the step's artifacts for run.step_idle_kill (off by default: an agent
// may think silently for many minutes, and a long build may print
// nothing; the operator chooses a bound). It polls the artifacts' sizes,
// so output that programs write straight to the files counts too. The
// returned context is the call's; stop ends the watch.
func (rt *Runtime) watchIdle(ctx context.Context, f *frame, paths ...string) (context.Context, func()) {
	d := rt.limits.idleKill
	if d <= 0 {
		return ctx, func() {}
	}
	ctx, cancel := context.WithCancelCause(ctx)
	done := make(chan struct{})
	go func() {
		tick := time.NewTicker(min(max(d/4, 50*time.Millisecond), 10*time.Second))
		defer tick.Stop()
		last, sizes := time.Now(), make([]int64, len(paths))
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case now := <-tick.C:
				active := f.inflight.Load() > 0 // a callee runs: it is watched itself
				for i, p := range paths {
					if st, err := os.Stat(p); err == nil && st.Size() != sizes[i] {
						sizes[i], active = st.Size(), true
					}
				}
				if active {
					last = now
					continue
				}
				if now.Sub(last) >= d {
					why := fmt.Sprintf("E_STEP_IDLE %s %s wrote nothing for %s (run.step_idle_kill) and was stopped", f.body.Kind, f.body.Name, d)
					rt.emit(&event.Event{Type: event.LogErr, Message: why, Depth: f.stackLen, Time: time.Now()})
					cancel(&Interrupted{Signal: syscall.SIGTERM, Limit: why})
					return
				}
			}
		}
	}()
	return ctx, func() { close(done); cancel(nil) }
}
