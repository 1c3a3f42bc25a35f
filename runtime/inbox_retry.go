package runtime

// This file answers: what happens to a delivery that fails when
// run.inbox_retries is set (beyond the reference, opt-in;
// docs/differences.md, docs/inbox-files.md)? It is retried with backoff;
// after the last attempt the message becomes a dead letter for that target
// and the drain goes on. Each attempt is logged in inbox/.deliveries, so
// `jaiph inbox` (inboxlog) can tell each message's state from disk.

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/jaiph-go/jaiph/internal/atomicfile"
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

// logDelivery appends one line to inbox/.deliveries (docs/inbox-files.md),
// in one write, so concurrent deliveries never tear a line and a kill -9
// keeps every line written. With durable set and JAIPH_INBOX_FSYNC=true it
// also syncs (a dead letter is durable before the drain moves on).
func (ri *runInbox) logDelivery(line string, durable bool) error {
	ri.logMu.Lock()
	defer ri.logMu.Unlock()
	if ri.deliveries == nil {
		f, err := os.OpenFile(filepath.Join(ri.dir, ".deliveries"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err != nil {
			return err
		}
		ri.deliveries = f
	}
	if _, err := ri.deliveries.WriteString(line); err != nil {
		return err
	}
	if durable && ri.fsync {
		return syncFiles(ri.dir, []string{ri.deliveries.Name(), filepath.Join(ri.dir, "dead"), ri.dir})
	}
	return nil
}

// deliver dispatches m to t, retrying a failed attempt up to pol.retries
// times; after the last failure m becomes a dead letter for t. It returns
// the last attempt's status (1 when the delivery could not be logged) and
// whether m is now a dead letter for t.
func (rt *Runtime) deliver(ctx context.Context, f *frame, env mapEnviron, m message, t *lowered.Body, content string, pol deliveryPolicy, stderr io.Writer) (int, bool) {
	ri := &rt.inboxes
	for attempt := 1; ; attempt++ {
		if err := ri.logDelivery(fmt.Sprintf("start %s %s %d\n", m.seq, t.Symbol, attempt), false); err != nil {
			fmt.Fprintf(stderr, "jaiph: cannot log delivery of message %s: %v\n", m.seq, err)
			return 1, false
		}
		status := rt.dispatch(ctx, f, env, m, t, content)
		if err := ri.logDelivery(fmt.Sprintf("end %s %s %d %d\n", m.seq, t.Symbol, attempt, status), false); err != nil {
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
			if err := rt.deadLetter(f, m, t, attempt, status); err != nil {
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

// deadLetter stores m as a dead letter for t: its file is linked (or, where
// links fail, written atomically) as inbox/dead/NNN-<channel>.txt, then the
// `dead` line of .deliveries records target, attempts and last status; the
// line is the commit point, so a crash in between leaves only a file
// without a record, which readers ignore.
func (rt *Runtime) deadLetter(f *frame, m message, t *lowered.Body, attempts, status int) error {
	return rt.storeDeadLetter(m, t.Symbol, attempts, status, f.stackLen-1)
}

// storeDeadLetter is deadLetter for a target symbol, its event at depth.
func (rt *Runtime) storeDeadLetter(m message, target string, attempts, status, depth int) error {
	ri := &rt.inboxes
	name := m.seq + "-" + m.name + ".txt"
	dead := filepath.Join(ri.dir, "dead")
	if err := os.MkdirAll(dead, 0o755); err != nil {
		return err
	}
	if err := os.Link(filepath.Join(ri.dir, name), filepath.Join(dead, name)); err != nil && !os.IsExist(err) {
		data, rerr := os.ReadFile(filepath.Join(ri.dir, name))
		if rerr != nil {
			return rerr
		}
		if err := atomicfile.Write(filepath.Join(dead, name), data, 0o644); err != nil {
			return err
		}
	}
	if err := ri.logDelivery(fmt.Sprintf("dead %s %s %d %d\n", m.seq, target, attempts, status), true); err != nil {
		return err
	}
	ref := "inbox/dead/" + name
	rt.emit(&event.Event{Type: event.InboxDead, InboxSeq: m.seq, Channel: m.name, Target: target, Sender: m.sender,
		Attempt: attempts, Status: &status, PayloadRef: &ref, Depth: depth, Time: time.Now()})
	return nil
}
