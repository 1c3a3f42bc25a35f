package runtime

// This file answers: what happens to a delivery that fails when
// run.inbox_retries is set (beyond the reference, opt-in;
// docs/differences.md, docs/inbox-files.md)? It is retried with backoff;
// after the last attempt the message becomes a dead letter for that target
// and the drain goes on. Each attempt is recorded where the transport
// keeps its deliveries (Deliveries), so `jaiph inbox` can tell each
// message's state.

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/lowered"
)

// deliveryPolicy is what a drain reads from the orchestrator's environment
// (scoped like run.inbox_parallel).
type deliveryPolicy struct {
	retries int           // extra attempts after a failed delivery; 0: the reference's behaviour
	backoff time.Duration // wait before the first retry; doubled after each (retryDelay)
}

// deliveryPolicyFrom reads JAIPH_INBOX_RETRIES and JAIPH_INBOX_RETRY_BACKOFF;
// a bad value is an error naming the variable (config values were checked
// by the parser already).
func deliveryPolicyFrom(get func(string) string) (deliveryPolicy, error) {
	p := deliveryPolicy{backoff: time.Second}
	if v := get("JAIPH_INBOX_RETRIES"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return p, fmt.Errorf("jaiph: JAIPH_INBOX_RETRIES (run.inbox_retries) must be a non-negative integer: %q", v)
		}
		p.retries = n
	}
	if v := get("JAIPH_INBOX_RETRY_BACKOFF"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 0 {
			return p, fmt.Errorf(`jaiph: JAIPH_INBOX_RETRY_BACKOFF (run.inbox_retry_backoff) must be a duration such as "1s", "500ms" or "2m": %q`, v)
		}
		p.backoff = d
	}
	return p, nil
}

// deliver dispatches m to t, retrying a failed attempt up to pol.retries
// times, each recorded in d; after the last failure m becomes a dead
// letter for t. It returns the last attempt's status (1 when the delivery
// could not be recorded) and whether m is now a dead letter for t.
func (rt *Runtime) deliver(ctx context.Context, f *frame, env mapEnviron, m message, t *lowered.Body, content string, pol deliveryPolicy, d Deliveries, stderr io.Writer) (int, bool) {
	for attempt := 1; ; attempt++ {
		if err := d.Started(m.seq, t.Symbol, attempt); err != nil {
			fmt.Fprintf(stderr, "jaiph: cannot log delivery of message %s: %v\n", m.seq, err)
			return 1, false
		}
		status := rt.dispatch(ctx, f, env, m, t, content)
		if err := d.Ended(m.seq, t.Symbol, attempt, status); err != nil {
			fmt.Fprintf(stderr, "jaiph: cannot log delivery of message %s: %v\n", m.seq, err)
			return 1, false
		}
		// An interrupted delivery is left to resume, which runs it again;
		// in a redrive nothing would, so it is a dead letter for the next
		// redrive.
		interrupted := ctx.Err() != nil
		if status == 0 || interrupted && !rt.redriving {
			return status, false
		}
		if attempt > pol.retries || interrupted {
			if err := d.Dead(m.seq, m.name, m.sender, t.Symbol, attempt, status, f.stackLen-1); err != nil {
				fmt.Fprintf(stderr, "jaiph: cannot store dead letter %s: %v\n", m.seq, err)
				return 1, false
			}
			return status, true
		}
		delay := retryDelay(pol.backoff, attempt)
		rt.emit(&event.Event{Type: event.InboxRetry, InboxSeq: m.seq, Channel: m.name, Target: t.Symbol, Sender: m.sender,
			Attempt: attempt, Status: &status, DelayMS: delay.Milliseconds(), Depth: f.stackLen - 1, Time: time.Now()})
		if !sleepCtx(ctx, delay) {
			return status, false
		}
	}
}
