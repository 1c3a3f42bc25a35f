package runtime

// This file answers: when is a prompt's agent run again, how long is waited
// in between, and when is a silent agent reported (agent.retries,
// agent.retry_backoff, agent.idle_warn — beyond the reference, opt-in;
// docs/differences.md)?

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"

	"github.com/jaiph-go/jaiph/internal/event"
)

// promptPolicy is what a prompt reads from its environment at call time
// (scoped like the other agent.* keys, docs/language.md#config-scopes).
type promptPolicy struct {
	retries  int           // extra attempts after a failed one
	backoff  time.Duration // wait before the first retry; doubled after each
	idleWarn time.Duration // 0: never warn
}

// maxBackoff caps the doubling (unless the configured backoff is longer).
const maxBackoff = 5 * time.Minute

// promptPolicyFrom reads JAIPH_AGENT_RETRIES, JAIPH_AGENT_RETRY_BACKOFF and
// JAIPH_AGENT_IDLE_WARN; a bad value is an error naming the variable (config
// values were checked by the parser already).
func promptPolicyFrom(get func(string) string) (promptPolicy, error) {
	p := promptPolicy{backoff: time.Second}
	if v := get("JAIPH_AGENT_RETRIES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return p, fmt.Errorf("jaiph: JAIPH_AGENT_RETRIES (agent.retries) must be a non-negative integer: %q", v)
		}
		p.retries = n
	}
	for _, d := range []struct {
		name, key string
		into      *time.Duration
	}{
		{"JAIPH_AGENT_RETRY_BACKOFF", "agent.retry_backoff", &p.backoff},
		{"JAIPH_AGENT_IDLE_WARN", "agent.idle_warn", &p.idleWarn},
	} {
		if v := get(d.name); v != "" {
			x, err := time.ParseDuration(v)
			if err != nil || x < 0 {
				return p, fmt.Errorf(`jaiph: %s (%s) must be a duration such as "1s", "500ms" or "2m": %q`, d.name, d.key, v)
			}
			*d.into = x
		}
	}
	return p, nil
}

// retryDelay is the wait after failed attempt n (1-based): backoff × 2^(n-1),
// capped, then "equal jitter" (a uniform pick in [d/2, d]) so that parallel
// prompts that failed together do not retry together.
func retryDelay(backoff time.Duration, n int) time.Duration {
	d := backoff
	limit := max(backoff, maxBackoff)
	for i := 1; i < n && d < limit; i++ {
		d *= 2
	}
	d = min(d, limit)
	if d <= 0 {
		return 0
	}
	return d/2 + rand.N(d/2+1)
}

// runPromptAttempts runs the prompt's agent once, or, with agent.retries,
// until it answers or the attempts are used up. Each attempt writes the
// step's .out/.err; a failed attempt that is retried keeps them as
// `<base>.attempt-N.out|.err` and is reported by a PROMPT_RETRY event. The
// step's status, answer and artifacts are the last attempt's; with retries
// on, the statement's copy of the transcript (stmtOut) is the last
// attempt's, written once it ended.
func (rt *Runtime) runPromptAttempts(ctx context.Context, hc interp.HandlerContext, text string, stmtOut io.Writer, base, id string, depth int) (int, string) {
	outPath, errPath := base+".out", base+".err"
	pol, err := promptPolicyFrom(func(name string) string { return hc.Env.Get(name).String() })
	if err != nil {
		errFile := rt.newArtifact(errPath, nil)
		fmt.Fprintln(errFile, err.Error())
		errFile.closeAndPrune()
		return 1, ""
	}
	var watch *idleWatch
	if pol.idleWarn > 0 {
		watch = &idleWatch{rt: rt, id: id, depth: depth, after: pol.idleWarn}
	}
	if pol.retries == 0 {
		status, answer, _ := rt.runPrompt(ctx, hc, text, stmtOut, outPath, errPath, watch)
		return status, answer
	}
	for attempt := 1; ; attempt++ {
		status, answer, retriable := rt.runPrompt(ctx, hc, text, nil, outPath, errPath, watch)
		if status == 0 || !retriable || attempt > pol.retries {
			if _, err := os.Stat(outPath); err == nil && stmtOut != nil {
				rt.copyArtifact(stmtOut, outPath)
			}
			return status, answer
		}
		e := &event.Event{Type: event.PromptRetry, ID: id, Attempt: attempt, Status: &status, Depth: depth}
		for _, a := range []struct {
			ext  string
			into *string
		}{{".out", &e.OutFile}, {".err", &e.ErrFile}} {
			kept := fmt.Sprintf("%s.attempt-%d%s", base, attempt, a.ext)
			if os.Rename(base+a.ext, kept) == nil { // an empty artifact was never created
				*a.into = kept
			}
		}
		delay := retryDelay(pol.backoff, attempt)
		e.DelayMS, e.Time = delay.Milliseconds(), time.Now()
		rt.emit(e)
		if !sleepCtx(ctx, delay) {
			if in := Interruption(ctx); in != nil {
				return in.Status(), ""
			}
			return status, ""
		}
	}
}

// sleepCtx waits d unless ctx ends first (Ctrl-C cuts a backoff at once);
// it reports whether the whole wait passed.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return ctx.Err() == nil
	case <-ctx.Done():
		return false
	}
}

// idleWatch reports, once per silent stretch, an agent that has written
// nothing (stdout or stderr) for `after`: a PROMPT_IDLE event, which the
// progress tree shows as a `!` line.
type idleWatch struct {
	rt    *Runtime
	id    string
	depth int
	after time.Duration
	last  atomic.Int64 // UnixNano of the agent's last output (or its start)
}

// wrap notes each write to w as output.
func (w *idleWatch) wrap(to io.Writer) io.Writer { return idleWriter{w, to} }

type idleWriter struct {
	w  *idleWatch
	to io.Writer
}

func (iw idleWriter) Write(p []byte) (int, error) {
	iw.w.last.Store(time.Now().UnixNano())
	return iw.to.Write(p)
}

// start begins watching an attempt; the returned function ends it.
func (w *idleWatch) start() func() {
	w.last.Store(time.Now().UnixNano())
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		tk := time.NewTicker(max(w.after/4, 10*time.Millisecond))
		defer tk.Stop()
		warned := int64(0) // the silence (by its start) already reported
		for {
			select {
			case <-stop:
				return
			case <-tk.C:
			}
			last := w.last.Load()
			if last != warned && time.Since(time.Unix(0, last)) >= w.after {
				warned = last
				w.rt.emit(&event.Event{Type: event.PromptIdle, ID: w.id, IdleMS: w.after.Milliseconds(),
					Depth: w.depth, Time: time.Now()})
			}
		}
	}()
	return func() { close(stop); <-done }
}
