package broker

// This file answers: what becomes of a served run whose worker died, or
// that was recorded but never queued?

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/jaiph-go/jaiph/internal/served"
)

// serveWatch remembers, by this process's clock, when it last saw each
// run's record change: a running run whose record (its heartbeat) has not
// changed for 1.5 leases lost its worker; a queued one unchanged for a
// lease may have no work message behind it. Either is queued again under
// a new work message (a compare-and-set on the record: only one watcher
// does it). No clock of another machine is read.
type serveWatch struct {
	kv   *ledger
	js   jetstream.JetStream
	log  io.Writer
	who  string
	seen map[string]seenRev
	work jetstream.Stream // the work queue, once looked up
}

type seenRev struct {
	rev uint64
	at  time.Time
}

func newServeWatch(kv *ledger, js jetstream.JetStream, log io.Writer, who string) *serveWatch {
	return &serveWatch{kv: kv, js: js, log: log, who: who, seen: map[string]seenRev{}}
}

// run looks every interval until ctx ends.
func (w *serveWatch) run(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		w.pass(ctx, time.Now())
	}
}

// pass looks at every run that is not terminal once.
func (w *serveWatch) pass(ctx context.Context, now time.Time) {
	lister, err := w.kv.kv.ListKeysFiltered(ctx, "active.*")
	if err != nil {
		return
	}
	live := map[string]bool{}
	for a := range lister.Keys() {
		id := strings.TrimPrefix(a, "active.")
		k := serveRunKey(id)
		e, err := w.kv.kv.Get(ctx, k)
		if err != nil {
			continue
		}
		var r serveRecord
		if json.Unmarshal(e.Value(), &r) != nil {
			continue
		}
		if served.Terminal(r.Status) {
			retire(ctx, w.kv, id) // its last writer died before removing the mark
			continue
		}
		live[k] = true
		if r.Suspended {
			continue // no worker holds it: its message or its timer wakes it (servewait.go)
		}
		s, ok := w.seen[k]
		if !ok || s.rev != e.Revision() {
			w.seen[k] = seenRev{rev: e.Revision(), at: now}
			continue
		}
		idle := now.Sub(s.at)
		switch {
		case r.Status == served.StatusRunning && idle > r.lease()*3/2:
			w.requeue(ctx, &r, e.Revision(), fmt.Sprintf("worker %s stopped renewing its lease", r.Worker))
		case r.Status == served.StatusQueued && idle > r.lease():
			if w.workPending(ctx, &r) {
				// A long queue, not a lost message: it waits its turn
				// (queueing it again would add to the queue).
				w.seen[k] = seenRev{rev: e.Revision(), at: now}
				continue
			}
			w.requeue(ctx, &r, e.Revision(), "no worker took it within its lease")
		}
	}
	for k := range w.seen {
		if !live[k] {
			delete(w.seen, k)
		}
	}
}

// workPending says the run's current work message is in the queue.
func (w *serveWatch) workPending(ctx context.Context, r *serveRecord) bool {
	if w.work == nil {
		st, err := w.js.Stream(ctx, serveWork)
		if err != nil {
			return false
		}
		w.work = st
	}
	m, err := w.work.GetLastMsgForSubject(ctx, serveWorkSubject(r.RunID))
	if err != nil {
		return false
	}
	var msg struct {
		N int `json:"n"`
	}
	return json.Unmarshal(m.Data, &msg) == nil && msg.N == r.Queued
}

// requeue queues the run again under its next work message.
func (w *serveWatch) requeue(ctx context.Context, r *serveRecord, rev uint64, why string) {
	if r.Cancel && r.Status == served.StatusRunning {
		// Cancelled, and its worker is gone: it ends here.
		now := time.Now().UTC()
		st := 143
		r.Status, r.EndedAt, r.ExitStatus, r.Signal = served.StatusCancelled, &now, &st, "SIGTERM"
		r.ResultText = "cancelled; " + why
		val, _ := json.Marshal(r)
		if _, err := update(ctx, w.kv, serveRunKey(r.RunID), val, rev); err == nil {
			retire(ctx, w.kv, r.RunID)
		}
		return
	}
	if err := queueAgain(ctx, w.kv, w.js, r, rev); err != nil {
		if !errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			fmt.Fprintf(w.log, "%s: run %s: cannot queue it again: %v\n", w.who, r.RunID, err)
		}
		return // it moved: another watcher, or the worker is back
	}
	fmt.Fprintf(w.log, "%s: run %s: %s; queued again for another worker\n", w.who, r.RunID, why)
}

// watchdog is the replica's watcher: at half the default lease.
func (b *ServeBackend) watchdog(ctx context.Context) {
	newServeWatch(b.kv, b.js, b.o.Log, "jaiph serve").run(ctx, watchEvery(b.o.Lease))
}

// watchEvery is how often a watcher looks: half the lease, within 0.25–5 s.
func watchEvery(lease time.Duration) time.Duration {
	return min(max(lease/2, 250*time.Millisecond), 5*time.Second)
}
