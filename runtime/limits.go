package runtime

// This file answers: what stops a run that goes on too long or calls too
// much (run.timeout, run.max_steps)? The run's context is cancelled with
// an *Interrupted cause naming the limit: every process of the run gets
// SIGTERM, then SIGKILL 2 s later (procgroup), open steps end with 143,
// and the run ends failed (not interrupted), so jaiph resume can continue
// it. Environment beats file config, as for every setting.

import (
	"context"
	"fmt"
	"sync"
	"syscall"
	"time"
)

// limits are a run's limits and whether one stopped it.
type limits struct {
	maxSteps int64 // JAIPH_MAX_STEPS (run.max_steps); 0: none
	stop     context.CancelCauseFunc

	mu  sync.Mutex
	why string // the limit that stopped the run
}

// withLimits arms the run's limits on ctx; the returned function disarms
// them.
func (rt *Runtime) withLimits(ctx context.Context) (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(ctx)
	rt.limits.stop = cancel
	rt.limits.maxSteps = int64(envInt(rt.env("JAIPH_MAX_STEPS"), 0))
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

// Limited is the limit that stopped the run, "" when none did.
func (rt *Runtime) Limited() string {
	rt.limits.mu.Lock()
	defer rt.limits.mu.Unlock()
	return rt.limits.why
}
