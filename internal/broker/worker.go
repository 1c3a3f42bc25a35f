package broker

// This file answers: how does `jaiph worker` claim a delivery, keep its
// lease, run the target, and report the result exactly once?

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/jaiph-go/jaiph/internal/atomicfile"
	"github.com/jaiph-go/jaiph/internal/buildinfo"
	"github.com/jaiph-go/jaiph/internal/engine"
	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/sandbox"
	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/jaiph-go/jaiph/lowered"
	"github.com/jaiph-go/jaiph/runtime"
)

// maxLost is how many times a delivery may lose its worker (a crash, a
// stall past the lease) before it is a dead letter: a target that kills
// its worker must not loop forever.
const maxLost = 3

// Worker claims deliveries of any run and runs their targets.
type Worker struct {
	URL         string
	Name        string
	Dir         string // working directory of the bodies; caches sources under .jaiph/worker
	Concurrency int
	Replicas    int       // the work queue's replicas when this worker creates it
	Environ     []string  // the environment the targets run with
	Log         io.Writer // one line per delivery and per refusal
	// Sandbox "docker" runs each delivery in the Docker sandbox
	// (docs/sandbox.md), "" on this machine.
	Sandbox string
	// Stopping: when Run's context ends the worker claims nothing more and
	// lets the deliveries it holds finish. When Hard ends, or
	// ShutdownTimeout passes (0: no limit), it stops them and hands them
	// back to the queue for another worker: nothing it held is lost.
	Hard            context.Context
	ShutdownTimeout time.Duration
	// ClaimAfter: a delivery's first attempt runs this long before its
	// claim is written, so a quicker one writes only its result
	// (DefaultClaimAfter; 0 claims before the target runs).
	ClaimAfter time.Duration
	// RunSlots is how many served runs (`jaiph serve --inbox`) the worker
	// runs at once, besides its deliveries: 0 is Concurrency, -1 none.
	RunSlots int

	nc       *nats.Conn
	js       jetstream.JetStream
	progMu   sync.Mutex
	programs map[string]*engine.Program // by sources hash
	boxes    map[string]sandbox.Box     // by sources hash (Sandbox)
	kvMu     sync.Mutex
	ledgers  map[string]*ledger
	logMu    sync.Mutex
	waitMu   sync.Mutex
	waitSeen map[string]bool // deliveries this worker said it leaves for another version
	scratch  *scratchPool
	// noInput is the stdin of every delivery and served run, /dev/null: a
	// reader that is no file cost each run a pipe, left for Go's collector
	// to close, and a goroutine to copy it.
	noInput *os.File
}

// Run serves until ctx ends, then stops as Worker says. Each slot pulls
// one delivery at a time (no prefetch: a lease must not tick in a client
// buffer).
func (w *Worker) Run(ctx context.Context) error {
	if err := w.checkDir(); err != nil {
		return err
	}
	nc, js, err := connect(ctx, w.URL, "jaiph worker "+w.Name)
	if err != nil {
		return err
	}
	defer nc.Close()
	w.nc, w.js, w.programs, w.ledgers, w.boxes = nc, js, map[string]*engine.Program{}, map[string]*ledger{}, map[string]sandbox.Box{}
	w.waitSeen = map[string]bool{}
	w.scratch = newScratchPool(filepath.Join(w.Dir, ".jaiph", "worker", "slots"), max(w.Concurrency, 1))
	defer w.scratch.close()
	if w.noInput, err = os.Open(os.DevNull); err != nil {
		return err
	}
	defer w.noInput.Close()
	setup, cancel := context.WithTimeout(ctx, setupPatience)
	defer cancel()
	var cons jetstream.Consumer
	err = retrySetup(setup, func(c context.Context) (err error) {
		cons, err = ensureWork(c, js, max(w.Replicas, 1))
		return err
	})
	if err != nil {
		return fmt.Errorf("cannot open the work queue: %w", err)
	}
	w.logf("worker %s: serving %s with %d slot(s)", w.Name, redactURL(w.URL), max(w.Concurrency, 1))
	// work is the deliveries' context: it outlives ctx (a stopping worker
	// finishes what it holds) and ends on Hard or the shutdown timeout.
	work, abort := context.WithCancel(context.Background())
	defer abort()
	slotsDone := make(chan struct{})
	go func() {
		select {
		case <-ctx.Done():
			w.logf("worker %s: stopping: claiming nothing more, finishing what it holds", w.Name)
		case <-slotsDone:
			return
		}
		hard := w.Hard
		if hard == nil {
			hard = context.Background()
		}
		var timeout <-chan time.Time
		if w.ShutdownTimeout > 0 {
			t := time.NewTimer(w.ShutdownTimeout)
			defer t.Stop()
			timeout = t.C
		}
		select {
		case <-hard.Done():
			w.logf("worker %s: stopping now: handing back what it holds", w.Name)
		case <-timeout:
			w.logf("worker %s: the shutdown timeout (%s) passed: handing back what it holds", w.Name, w.ShutdownTimeout)
		case <-slotsDone:
		}
		abort()
	}()
	var wg sync.WaitGroup
	runsErr := make(chan error, 1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		err := w.serveRuns(ctx, work)
		if err != nil {
			w.logf("worker %s: %v", w.Name, err)
		}
		runsErr <- err
	}()
	pullSlots(ctx, &wg, cons, max(w.Concurrency, 1), func(m jetstream.Msg) { w.handle(work, m) })
	wg.Wait()
	close(slotsDone)
	w.logf("worker %s: stopped", w.Name)
	return <-runsErr
}

// checkDir fails at start, not at every delivery, when the worker cannot
// write its directory (sources and runs live under DIR/.jaiph/worker).
func (w *Worker) checkDir() error {
	dir := filepath.Join(w.Dir, ".jaiph", "worker")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("--dir %s: the worker cannot write there (%v)", w.Dir, err)
	}
	f, err := os.CreateTemp(dir, ".probe-*")
	if err != nil {
		return fmt.Errorf("--dir %s: the worker cannot write there (%v)", w.Dir, err)
	}
	f.Close()
	return os.Remove(f.Name())
}

func (w *Worker) logf(format string, args ...any) {
	if w.Log == nil {
		return
	}
	w.logMu.Lock()
	fmt.Fprintf(w.Log, format+"\n", args...)
	w.logMu.Unlock()
}

func (w *Worker) ledger(ctx context.Context, run string) (*ledger, error) {
	w.kvMu.Lock()
	defer w.kvMu.Unlock()
	if kv := w.ledgers[run]; kv != nil {
		return kv, nil
	}
	kv, err := try(ctx, func(c context.Context) (jetstream.KeyValue, error) { return w.js.KeyValue(c, ledgerName(run)) })
	if err != nil {
		return nil, err
	}
	l := openLedger(w.nc, kv, run)
	w.ledgers[run] = l
	return l, nil
}

// later hands m back to the queue for another look after d: never a
// termination, whatever went wrong, while the run may still exist.
func later(m jetstream.Msg, d time.Duration) { _ = m.NakWithDelay(d) }

// maxMissing is how many times a delivery whose ledger record is missing
// is looked at again before it is kept as a dead letter.
const maxMissing = 10

// handle claims one delivery and runs it, or refuses it with a reason.
// ctx ends when the worker must stop at once (then what it holds is
// handed back).
func (w *Worker) handle(ctx context.Context, m jetstream.Msg) {
	var d delivery
	if err := json.Unmarshal(m.Data(), &d); err != nil || d.Run == "" || d.Key == "" || d.Target == "" {
		w.reject(m, fmt.Sprintf("malformed delivery on %s: %v", m.Subject(), cmpErr(err, "a field is missing")))
		return
	}
	kv, err := w.ledger(ctx, d.Run)
	if notFound(err) {
		w.reject(m, fmt.Sprintf("delivery %s of run %s: the run's ledger is gone (%v)", d.Key, d.Run, err))
		return
	}
	if err != nil {
		later(m, time.Second) // the broker is away or electing: look again
		return
	}
	if id := m.Headers().Get(jetstream.MsgIDHeader); d.Create && id == d.Run+"."+d.Key && d.Version == buildinfo.Version() {
		// The message the run queued with no record: claim by creating
		// it (a write at revision 0, which fails once any record exists)
		// without reading first.
		r := &record{State: stClaimed, Target: d.Target, Msg: id, Worker: w.Name, Beat: time.Now().UnixMilli(), Claims: 1}
		if md, _ := m.Metadata(); md != nil && md.NumDelivered == 1 && w.ClaimAfter > 0 {
			// Its first delivery: nobody else has seen it, so there is
			// still no record. The claim is written only if the target
			// runs longer than ClaimAfter; a quick one creates the record
			// with its result directly (the same fence, one ledger write
			// and one message to the run instead of two).
			w.deliver(ctx, m, kv, &d, r, 0, true)
			return
		}
		rev, err := update(ctx, kv, d.Key, r.encode(), 0)
		if err == nil {
			w.deliver(ctx, m, kv, &d, r, rev, false)
			return
		}
		if !errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			later(m, retryEvery)
			return
		}
		// a record exists: read it
	}
	e, err := kv.get(ctx, d.Key)
	if id := m.Headers().Get(jetstream.MsgIDHeader); errors.Is(err, errNoRecord) && d.Create && id == d.Run+"."+d.Key {
		if d.Version != buildinfo.Version() {
			// Queued with no record (a fresh run's delivery): the wait is
			// written in a record made for it.
			w.leaveForVersion(ctx, m, kv, &d, &record{State: stQueued, Target: d.Target, Msg: id}, 0)
			return
		}
		// Our create of it failed: a write of it in flight on a leader
		// that lost its place (a partition) answers "wrong last
		// sequence" until the new leader settles. No record is this
		// message's normal state: look again.
		later(m, retryEvery)
		return
	}
	if errors.Is(err, errNoRecord) {
		md, _ := m.Metadata()
		if md != nil && md.NumDelivered >= maxMissing {
			w.reject(m, fmt.Sprintf("delivery %s of run %s: no ledger record after %d looks", d.Key, d.Run, md.NumDelivered))
			return
		}
		w.logf("worker %s: delivery %s of run %s has no ledger record yet; looking again later", w.Name, d.Key, d.Run)
		later(m, time.Second)
		return
	}
	if notFound(err) {
		w.reject(m, fmt.Sprintf("delivery %s of run %s: the run's ledger is gone (%v)", d.Key, d.Run, err))
		return
	}
	if err != nil {
		later(m, time.Second)
		return
	}
	r, err := decodeRecord(e.value)
	if err != nil {
		w.reject(m, fmt.Sprintf("delivery %s of run %s: unreadable ledger record (%v)", d.Key, d.Run, err))
		return
	}
	if r.terminal() {
		_ = m.Ack() // already final: a duplicate
		return
	}
	if id := m.Headers().Get(jetstream.MsgIDHeader); r.Msg != "" && id != "" && id != r.Msg {
		_ = m.Ack() // a copy the watchdog replaced: the current one is r.Msg
		return
	}
	rev := e.rev
	if d.Version != buildinfo.Version() {
		w.leaveForVersion(ctx, m, kv, &d, r, rev)
		return
	}
	lease := d.lease()
	if r.State == stClaimed {
		// JetStream handed the message out again (its AckWait is not the
		// run's lease): the claim stands while its heartbeats are fresh.
		if age := time.Since(time.UnixMilli(r.Beat)); age < lease {
			// (a clock behind the claimant's makes age negative: at most
			// a lease)
			later(m, min(lease-age, lease)+100*time.Millisecond)
			return
		}
	}
	if lost := r.lost(); lost >= maxLost {
		if r.State == stClaimed {
			r.Ended = append(r.Ended, ended{Worker: r.Worker}) // its lease expired
		}
		r.State, r.Why = stDead, fmt.Sprintf("it lost its worker %d times (a worker crashed or stalled past the lease each time)", lost)
		if _, err := update(ctx, kv, d.Key, r.encode(), rev); err == nil {
			_ = m.TermWithReason("lost its worker")
		}
		return
	}
	// Claim: compare-and-set on the record's revision is the fence.
	if r.State == stClaimed {
		r.Ended = append(r.Ended, ended{Worker: r.Worker}) // its lease expired: taken over
	}
	r.State, r.Worker, r.Beat, r.Waiting = stClaimed, w.Name, time.Now().UnixMilli(), ""
	r.Claims++
	rev, err = update(ctx, kv, d.Key, r.encode(), rev)
	if err != nil {
		later(m, retryEvery) // it moved this instant: look again
		return
	}
	w.deliver(ctx, m, kv, &d, r, rev, false)
}

// leaveForVersion leaves a delivery of a run started by another jaiph-go
// version (a mixed fleet, a rolling upgrade) to a worker of the run's
// version, and says so once in its record (r at rev; 0: none yet) for the
// run to show.
func (w *Worker) leaveForVersion(ctx context.Context, m jetstream.Msg, kv *ledger, d *delivery, r *record, rev uint64) {
	why := fmt.Sprintf("worker %s runs jaiph-go %s, the run was started by jaiph-go %s; waiting for a worker of its version", w.Name, buildinfo.Version(), d.Version)
	if w.firstWait(d.Run + d.Key) {
		w.logf("worker %s: left message %s to %s for another worker: %s", w.Name, d.Seq, d.Target, why)
	}
	if r.Waiting != why && r.State == stQueued {
		r.Waiting = why
		_, _ = update(ctx, kv, d.Key, r.encode(), rev)
	}
	later(m, 2*time.Second)
}

// deliver runs a delivery this worker just claimed (r at rev) and records
// its result. With lazy, r is the claim not written yet (the record is
// still queued at rev): runTarget writes it once the target has run for
// ClaimAfter.
func (w *Worker) deliver(ctx context.Context, m jetstream.Msg, kv *ledger, d *delivery, r *record, rev uint64, lazy bool) {
	attempt := r.Claims
	if !lazy {
		w.logClaim(d, attempt)
	}
	prog, why, transient := w.program(ctx, d)
	if transient {
		// the broker could not give the sources now: not the target's
		// failure; another attempt reads them once it can
		delay := w.sourcesLater(ctx, m, fmt.Sprintf("message %s to %s", d.Seq, d.Target), why)
		if lazy {
			later(m, delay) // the claim is not written: the record is still queued
		} else {
			w.handBack(m, kv, d, r, rev, false, delay)
		}
		return
	}
	var status int
	var sends []sent
	var lastEvent uint64
	var inline []wireEvent
	fenced := &atomic.Bool{}
	if why == "" {
		queuedAt := rev
		status, sends, lastEvent, rev, inline = w.runTarget(ctx, m, kv, d, r, rev, lazy, attempt, prog, fenced)
		if fenced.Load() {
			w.logLostClaim(d, "")
			return // taken over: report nothing, never ack
		}
		if ctx.Err() != nil {
			w.handBack(m, kv, d, r, rev, lazy && rev == queuedAt, 0)
			return
		}
	} else {
		status = 1
		w.logf("worker %s: refused message %s to %s: %s", w.Name, d.Seq, d.Target, why)
	}
	r.Status, r.Why, r.Events, r.Inline, r.Beat = &status, why, lastEvent, inline, time.Now().UnixMilli()
	if status == 0 {
		r.State, r.Sends = stDone, sends
		if _, err := update(ctx, kv, d.Key, r.encode(), rev); err != nil {
			w.logNotRecorded(d, "result", err)
			return // the result never counts; never acked, the delivery comes again
		}
		// The ledger says done: a lost ack only makes the next worker ack
		// a duplicate, so it need not wait for the broker's reply.
		_ = m.Ack()
		w.logf("worker %s: delivered message %s to %s", w.Name, d.Seq, d.Target)
		return
	}
	r.Failures++
	if r.Failures <= d.Retries {
		r.State = stQueued
		r.Ended = append(r.Ended, ended{Worker: w.Name, Status: &status})
		if _, err := update(ctx, kv, d.Key, r.encode(), rev); err != nil {
			w.logNotRecorded(d, "failure", err)
			return
		}
		later(m, retryDelay(time.Duration(d.BackoffMS)*time.Millisecond, r.Failures))
		return
	}
	r.State = stFailed
	if d.Retries > 0 {
		r.State = stDead
	}
	if _, err := update(ctx, kv, d.Key, r.encode(), rev); err != nil {
		w.logNotRecorded(d, "failure", err)
		return
	}
	_ = m.TermWithReason(r.State)
	w.logf("worker %s: message %s to %s %s (status %d)", w.Name, d.Seq, d.Target, r.State, status)
}

// logClaim says the ledger holds this worker's claim of d.
// logLostClaim says a delivery was taken over while this worker ran it
// (how, when the ledger's refusal told: why).
func (w *Worker) logLostClaim(d *delivery, why string) {
	if why != "" {
		why = " at the finish: " + why
	}
	w.logf("worker %s: lost the claim of %s (message %s to %s)%s; its result is dropped", w.Name, d.Key, d.Seq, d.Target, why)
}

// logNotRecorded says the ledger did not take a delivery's result or
// failure (what). A revision mismatch is a claim that moved on (the
// watchdog queued the delivery again, or its run completed and the
// ledger is gone) before a heartbeat saw it: the same loss as the one a
// heartbeat sees, said the same way whichever sees it first.
func (w *Worker) logNotRecorded(d *delivery, what string, err error) {
	if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
		w.logLostClaim(d, err.Error())
		return
	}
	w.logf("worker %s: the %s of message %s to %s was not recorded (%v); it will be delivered again", w.Name, what, d.Seq, d.Target, err)
}

func (w *Worker) logClaim(d *delivery, attempt int) {
	w.logf("worker %s: claimed message %s to %s (attempt %d)", w.Name, d.Seq, d.Target, attempt)
}

// firstWait tells whether this worker has not yet said it leaves key to
// another worker.
func (w *Worker) firstWait(key string) bool {
	w.waitMu.Lock()
	defer w.waitMu.Unlock()
	if w.waitSeen[key] {
		return false
	}
	if len(w.waitSeen) > 10000 {
		clear(w.waitSeen)
	}
	w.waitSeen[key] = true
	return true
}

// handBack returns a delivery this worker holds to the queue: the record
// is queued again (the claim released, not lost) and the message is
// redelivered after delay: at once (0) to another worker when this one
// stops, later when the broker could not give its sources
// (sourcesLater).
func (w *Worker) handBack(m jetstream.Msg, kv *ledger, d *delivery, r *record, rev uint64, unclaimed bool, delay time.Duration) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if unclaimed {
		// A lazy claim not written yet: its target ran, so the ledger
		// shows the attempt claimed, then released, as the run expects.
		n, err := update(ctx, kv, d.Key, r.encode(), rev)
		if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			// The claim was written after all: its write was in flight
			// when the stop cut the heartbeat short.
			if e, gerr := kv.get(ctx, d.Key); gerr == nil && bytes.Equal(e.value, r.encode()) {
				n, err = e.rev, nil
			}
		}
		if err != nil {
			w.logf("worker %s: could not hand back message %s to %s (%v); it is taken over after its lease", w.Name, d.Seq, d.Target, err)
			return
		}
		rev = n
	}
	r.State, r.Worker = stQueued, ""
	r.Ended = append(r.Ended, ended{Worker: w.Name, Released: true})
	r.Released++
	if _, err := update(ctx, kv, d.Key, r.encode(), rev); err != nil {
		w.logf("worker %s: could not hand back message %s to %s (%v); it is taken over after its lease", w.Name, d.Seq, d.Target, err)
		return
	}
	if delay > 0 {
		_ = m.NakWithDelay(delay)
	} else {
		_ = m.Nak()
	}
	w.logf("worker %s: handed back message %s to %s", w.Name, d.Seq, d.Target)
}

// A message whose sources the broker could not give (program's
// transient) is handed back for a redelivery sourcesRetryFirst later,
// doubled at each of its deliveries, at most sourcesRetryMax: 100 ms,
// 200 ms, 400 ms, 800 ms, 1.6 s, 3.2 s, then 5 s. Nak would redeliver it
// at once: while the broker keeps failing (no JetStream leader for
// seconds) every worker would spin on it, a claim and a release written
// to the ledger each turn, a few milliseconds apart (the Nak storms of
// nats-server #4726, #5856). The first look again is soon, for a blip (a
// reconnect, a leader just elected: a retry of retrySetup's comes after
// 200 ms); the doubling waits 6.3 s over the first six deliveries, about
// an election (nats-server's raft election timeout is 4-9 s), in six
// looks; the cap is the consumers' AckWait (consumerAckWait), how late a
// message already comes when its worker died: once the broker answers
// again, a delivery waits at most that long, and while it does not, each
// delivery costs a look every 5 s. The consumer's BackOff is no
// alternative: Nak ignores it, and it would replace the AckWait the
// leases depend on.
const (
	sourcesRetryFirst = 100 * time.Millisecond
	sourcesRetryMax   = consumerAckWait
)

// sourcesRetry is how long a message waits for its next delivery after
// its n-th (1-based) could not read its sources.
func sourcesRetry(n uint64) time.Duration {
	return min(retryDelay(sourcesRetryFirst, int(min(n, 64))), sourcesRetryMax)
}

// sourcesLater says this worker hands back what m carries (what: the
// message or run) because the broker could not give its sources (why),
// and returns how long m waits before it is delivered again: sourcesRetry
// of its deliveries, none when this worker stops (ctx ended: another
// worker reads them now).
func (w *Worker) sourcesLater(ctx context.Context, m jetstream.Msg, what, why string) time.Duration {
	w.logf("worker %s: handing back %s: %s", w.Name, what, why)
	if ctx.Err() != nil {
		return 0
	}
	n := uint64(1)
	if md, err := m.Metadata(); err == nil && md.NumDelivered > 0 {
		n = md.NumDelivered
	}
	return sourcesRetry(n)
}

// reject moves a work message no run can take to the dead-letter stream,
// with the reason, and removes it from the queue. It is kept there even
// when the worker is stopping: the letter is stored before the message is
// terminated, or the message stays in the queue.
func (w *Worker) reject(m jetstream.Msg, why string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	md, _ := m.Metadata()
	id := m.Subject()
	if md != nil {
		id = fmt.Sprintf("%s.%d", workStream, md.Sequence.Stream)
	}
	msg := &nats.Msg{Subject: deadPrefix + strings.TrimPrefix(m.Subject(), workPrefix), Data: m.Data(),
		Header: nats.Header{"Jaiph-Reason": []string{why}, "Jaiph-Worker": []string{w.Name}, "Nats-Msg-Id": []string{id}}}
	var err error
	for n := 0; ; n++ {
		if _, err = try(ctx, func(c context.Context) (*jetstream.PubAck, error) { return w.js.PublishMsg(c, msg) }); err == nil || ctx.Err() != nil || n >= retryTries {
			break
		}
		sleep(ctx, retryEvery)
	}
	if err != nil {
		w.logf("worker %s: could not keep a dead letter (%v) for: %s; the message stays queued", w.Name, err, why)
		later(m, 5*time.Second)
		return
	}
	// Logged once the letter is stored: a reader of the log finds it in
	// the dead-letter stream.
	w.logf("worker %s: rejected %s", w.Name, why)
	_ = m.TermWithReason(why)
}

func cmpErr(err error, otherwise string) string {
	if err != nil {
		return err.Error()
	}
	return otherwise
}

// program materialises and verifies the delivery's sources (once per
// content hash) and compiles them; a reason is returned when this worker
// must not run them. transient says the broker could not give the
// sources now (no JetStream leader during a partition, a timeout): the
// delivery is no failure of its target and is handed back.
func (w *Worker) program(ctx context.Context, d *delivery) (_ *engine.Program, why string, transient bool) {
	prog, why, brokerErr := w.programOnce(ctx, d)
	if brokerErr != nil {
		transient = !sourcesLost(brokerErr)
	}
	return prog, why, transient
}

// sourcesLost tells a broker error reading sources that no later read
// can undo: the object or its store is gone, or what is stored is
// corrupt (its chunks do not hash to its digest, its meta does not
// decode; the sources are stored under their hash, so any copy of them
// read again is the same bytes). Anything else is taken as transient:
// the broker's "no responders", a timeout, JetStream's 503 (no leader),
// a stopping worker's cancelled context, and errors this does not know.
// A permissions violation cannot be told apart: the server drops a
// request it forbids (or its reply) and the client reports the violation
// only asynchronously, so the read itself ends in a timeout.
func sourcesLost(err error) bool {
	return errors.Is(err, jetstream.ErrObjectNotFound) || notFound(err) || sourcesCorrupt(err)
}

// sourcesCorrupt tells an error reading sources that says what is stored
// is not what was put.
func sourcesCorrupt(err error) bool {
	return errors.Is(err, jetstream.ErrDigestMismatch) || errors.Is(err, jetstream.ErrBadObjectMeta) ||
		errors.Is(err, jetstream.ErrInvalidDigestFormat)
}

// programOnce is program; brokerErr is the broker's error reading the
// sources, if that is why.
func (w *Worker) programOnce(ctx context.Context, d *delivery) (_ *engine.Program, why string, brokerErr error) {
	if d.Version != buildinfo.Version() {
		return nil, fmt.Sprintf("this worker runs jaiph-go %s, the run was started by jaiph-go %s", buildinfo.Version(), d.Version), nil
	}
	w.progMu.Lock()
	defer w.progMu.Unlock()
	if p := w.programs[d.Sources]; p != nil {
		return p, "", nil
	}
	obs, err := w.js.ObjectStore(ctx, sourceStore)
	if err != nil {
		return nil, "the run's sources are not on the broker: " + err.Error(), err
	}
	b, err := obs.GetBytes(ctx, d.Sources)
	if sourcesCorrupt(err) {
		return nil, "the run's sources on the broker are corrupt: " + err.Error(), err
	}
	if err != nil {
		return nil, "the run's sources are not on the broker: " + err.Error(), err
	}
	var src Sources
	if err := json.Unmarshal(b, &src); err != nil {
		return nil, "the run's sources are unreadable: " + err.Error(), nil
	}
	if h := src.Hash(); h != d.Sources {
		return nil, fmt.Sprintf("the sources' hash is %s, the delivery names %s", h, d.Sources), nil
	}
	root := filepath.Join(w.Dir, ".jaiph", "worker", "src", d.Sources)
	for rel, content := range src.Files {
		p := filepath.Join(root, filepath.FromSlash(rel))
		if !within(root, p) {
			return nil, fmt.Sprintf("the sources name a file outside their root: %q", rel), nil
		}
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, err.Error(), nil
		}
		// Workers sharing a --dir share this directory: a file is written
		// whole (renamed into place), so another worker reading it never
		// sees a part of it.
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, content) {
			continue
		}
		if err := atomicfile.Write(p, content, 0o644); err != nil {
			return nil, err.Error(), nil
		}
	}
	p, err := engine.Load(filepath.Join(root, filepath.FromSlash(src.Entry)))
	if err != nil {
		return nil, "the sources do not compile here: " + err.Error(), nil
	}
	w.programs[d.Sources] = p
	return p, "", nil
}

func within(root, path string) bool {
	rel, err := filepath.Rel(root, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// runTarget runs the delivery's target while heartbeats keep the lease
// and the claim; a lost claim stops the target (fenced is then set). With
// lazy, the first heartbeat, after Worker.ClaimAfter, writes the claim. It
// returns the status, what the target sent, the last event's stream
// sequence, the record's revision (rev itself when a lazy claim was never
// written) and the events a final result is to carry (publisher.finish).
func (w *Worker) runTarget(ctx context.Context, m jetstream.Msg, kv *ledger, d *delivery, r *record, rev uint64, lazy bool,
	attempt int, prog *engine.Program, fenced *atomic.Bool) (int, []sent, uint64, uint64, []wireEvent) {
	ctx = withTryBound(ctx, d.lease())
	runCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	pub := &publisher{js: w.js, run: d.Run, subject: eventSubject(d.Run, d.Key), key: d.Key, worker: w.Name, attempt: attempt, fenced: fenced, stop: runCtx}
	// Renewed at a third of the shorter of the run's lease and the
	// consumer's AckWait: the ledger claim and JetStream's hold both live.
	every := max(min(d.lease(), consumerAckWait)/3, 50*time.Millisecond)
	var revMu sync.Mutex
	beatDone := make(chan struct{})
	go func() {
		defer close(beatDone)
		wait := every
		if lazy {
			wait = w.ClaimAfter // the first beat is the claim
		}
		t := time.NewTimer(wait)
		defer t.Stop()
		for {
			select {
			case <-runCtx.Done():
				return
			case <-t.C:
			}
			t.Reset(every)
			revMu.Lock()
			r.Beat = time.Now().UnixMilli()
			n, err := update(ctx, kv, d.Key, r.encode(), rev)
			if err == nil {
				if lazy {
					lazy = false
					w.logClaim(d, attempt)
				}
				rev = n
				_ = m.InProgress()
			} else if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
				fenced.Store(true)
				revMu.Unlock()
				cancel()
				return
			}
			revMu.Unlock()
		}
	}()
	q := &workerQueue{}
	// JAIPH_DELIVERY_ID is the same for every attempt at one delivery:
	// with JAIPH_ATTEMPT a workflow can make its own effects idempotent.
	environ := append(withoutInbox(w.Environ), "JAIPH_RUNS_DIR="+filepath.Join(w.Dir, ".jaiph", "worker", "runs"),
		"JAIPH_DELIVERY_ID="+d.Run+"."+d.Key, "JAIPH_ATTEMPT="+strconv.Itoa(attempt))
	if w.Sandbox != "" {
		status := w.runSandboxed(runCtx, d, prog, environ, pub, q)
		inline := pub.finish(final(status, r, d) && ctx.Err() == nil && !fenced.Load())
		cancel()
		<-beatDone
		revMu.Lock()
		defer revMu.Unlock()
		return status, q.sends, pub.last.Load(), rev, inline
	}
	// What the running steps write reaches the run as it is produced
	// (tail), so an attempt lost with its worker keeps it.
	go pub.tail()
	var stray bytes.Buffer // what reached the delivery's stray stderr: logged when it fails
	scratch, err := w.scratch.take()
	status := 1
	if err == nil {
		var rt *runtime.Runtime
		// On this machine: the worker's --sandbox flag decided (above).
		// The summary's lines are the events the run gets; the slot keeps
		// them in memory (a file truncated per delivery made ext4 write
		// it out at every close) and writes them only where a fenced
		// delivery's directory is left to look at.
		recs := &summaryLines{}
		rt, _, err = prog.InProcess().Prepare(runCtx, engine.RunOptions{Environ: environ, Observer: pub, Workspace: w.Dir, Ephemeral: true,
			Scratch: scratch, Stdin: w.noInput, StrayStderr: &lockedBuffer{b: &stray}, OnRunDir: pub.setDir, Records: recs})
		if err == nil {
			status, err = rt.Deliver(runCtx, runtime.Delivery{Target: d.Target, Payload: d.Payload, Channel: d.Channel, Sender: d.Sender, Queue: q})
			rt.Close()
		}
		if !fenced.Load() {
			w.scratch.put(scratch)
		} else { // a fenced delivery's directory stays, for whoever wants to look
			_ = os.WriteFile(filepath.Join(scratch, runs.SummaryFile), recs.bytes(), 0o644)
		}
	}
	if err != nil && status == 0 {
		status = 1
	}
	if status != 0 && !fenced.Load() && ctx.Err() == nil {
		why := strings.TrimSpace(stray.String())
		if err != nil {
			why = strings.TrimSpace(why + " " + err.Error())
		}
		if why != "" {
			w.logf("worker %s: message %s to %s: %s", w.Name, d.Seq, d.Target, why)
		}
	}
	inline := pub.finish(final(status, r, d) && ctx.Err() == nil && !fenced.Load())
	cancel()
	<-beatDone
	revMu.Lock()
	defer revMu.Unlock()
	return status, q.sends, pub.last.Load(), rev, inline
}

// summaryLines is a delivery's summary, kept in memory
// (runtime.RecordSink).
type summaryLines struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *summaryLines) Opened(string, string) {}

func (s *summaryLines) Append(file string, lines []byte) error {
	if file != runs.SummaryFile {
		return nil // an ephemeral run keeps no journal
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	s.b.Write(lines)
	return nil
}

func (s *summaryLines) bytes() []byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Bytes()
}

// final tells whether an attempt that ended with status makes r final
// (done, or failed past its retries).
func final(status int, r *record, d *delivery) bool {
	return status == 0 || r.Failures+1 > d.Retries
}

// runSandboxed runs the delivery in the worker's sandbox: a container per
// delivery, its events published as they come, its sends kept with the
// result. A sandbox that cannot be had fails the attempt with the reason.
func (w *Worker) runSandboxed(ctx context.Context, d *delivery, prog *engine.Program, environ []string, pub *publisher, q *workerQueue) int {
	w.progMu.Lock()
	box := w.boxes[d.Sources]
	var err error
	if box == nil {
		if box, err = engine.OpenWorkerSandbox(ctx, prog, w.Dir, environ); err == nil {
			w.boxes[d.Sources] = box
		}
	}
	w.progMu.Unlock()
	if err != nil {
		w.logf("worker %s: message %s to %s: %v", w.Name, d.Seq, d.Target, err)
		return 1
	}
	res, err := box.Run(ctx, sandbox.Job{Entry: prog.Path, Workspace: w.Dir, Args: []string{d.Payload, d.Channel, d.Sender},
		Deliver: d.Target, Environ: environ, Event: pub.Event, Stray: io.Discard, Stderr: io.Discard})
	if err == nil && res.Outcome == nil {
		err = fmt.Errorf("the sandbox ended without an outcome (exit %d) %s%s", res.ExitCode, res.Error, res.NotStarted)
	}
	if err != nil {
		w.logf("worker %s: message %s to %s: %v", w.Name, d.Seq, d.Target, err)
		return 1
	}
	for _, s := range res.Sends {
		_ = q.Send(ctx, s.Channel, s.Sender, s.Content)
	}
	if res.Outcome.RunDir != "" {
		os.RemoveAll(res.Outcome.RunDir)
	}
	return res.Outcome.Status
}

// withoutInbox drops JAIPH_INBOX_URL: a target that orchestrates on a
// worker drains its own messages there (the file inbox).
func withoutInbox(environ []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		if !strings.HasPrefix(kv, "JAIPH_INBOX_URL=") {
			out = append(out, kv)
		}
	}
	return out
}

// workerQueue keeps what a delivered target sends: the messages are stored
// with the delivery's result, so they exist exactly when it completed.
type workerQueue struct {
	mu    sync.Mutex
	sends []sent
}

func (q *workerQueue) Send(_ context.Context, channel, sender, content string) error {
	q.mu.Lock()
	q.sends = append(q.sends, sent{Channel: channel, Sender: sender, Content: content})
	q.mu.Unlock()
	return nil
}

func (q *workerQueue) Drain(context.Context, io.Writer) int { return 0 }
func (q *workerQueue) Close()                               {}
func (q *workerQueue) Dir() string                          { return "" }

// publisher sends the target's events, with their artifacts, to the run's
// event stream, nothing once the claim is lost. A goroutine publishes them
// in order, each message acknowledged before the next, and sends whatever
// accumulated meanwhile as one message (a group commit): the target never
// waits for the broker, the order is the run's, and a no-op delivery
// costs two round trips, not one per event. flush waits until the broker
// has everything.
type publisher struct {
	js      jetstream.JetStream
	run     string
	subject string
	key     string
	worker  string
	attempt int
	fenced  *atomic.Bool
	stop    context.Context // the attempt was stopped: nothing more to send
	last    atomic.Uint64

	mu       sync.Mutex
	cond     *sync.Cond
	queue    []wireEvent // produced, not yet taken by the goroutine
	busy     bool        // the goroutine is publishing
	closed   bool
	n        int // messages published
	started  bool
	lingered bool // the first batch waited its linger
	// dir is the run directory the attempt's steps write their artifacts
	// in, live ("" until known, and in a sandbox); open its steps running,
	// by id, with how much of their artifacts parts already carried.
	dir  string
	open map[string]*partStep
	// partsQueued is how many parts wait in queue, not yet taken into a
	// message: while any does, no more are read (the files keep what
	// the broker has not taken yet, not this process's memory).
	partsQueued int
}

// partStep is a running step's artifacts and how far parts sent them.
type partStep struct {
	base         string // the artifacts' path without .out/.err
	outAt, errAt int64
}

// DefaultClaimAfter is how long a delivery's first attempt runs before
// its worker writes the claim (Worker.ClaimAfter, `jaiph worker
// --claim-after`): a no-op target is done sooner and writes only its
// result. It is far below any lease, so a claim written this late still
// fences the attempt long before anyone could take over.
const DefaultClaimAfter = firstLinger

// firstLinger is how long the first batch of a delivery's events waits
// for more before it is sent: a delivery done sooner sends all of its
// events in one message, not two (the first event alone, then the rest),
// which is a broker write, an ack and a message to the run saved per
// quick delivery. A live view shows a step's start that much later.
const firstLinger = 20 * time.Millisecond

func (p *publisher) Event(e *event.Event) {
	if p.fenced.Load() {
		return
	}
	w := wireEvent{Event: e.JSON()}
	if e.Type == event.StepEnd {
		w.Out, w.OutObj = p.artifact(e.OutFile, e.ID, "out")
		w.Err, w.ErrObj = p.artifact(e.ErrFile, e.ID, "err")
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	switch e.Type {
	case event.StepStart:
		if p.dir != "" {
			if p.open == nil {
				p.open = map[string]*partStep{}
			}
			p.open[e.ID] = &partStep{base: filepath.Join(p.dir, fmt.Sprintf("%06d-%s", e.Seq, lowered.SafeName(e.Func)))}
		}
	case event.StepEnd:
		delete(p.open, e.ID)
	}
	if !p.started {
		p.started, p.cond = true, sync.NewCond(&p.mu)
		go p.loop()
	}
	p.queue = append(p.queue, w)
	p.cond.Broadcast()
}

// setDir is the run directory of the attempt, once made.
func (p *publisher) setDir(dir string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.dir = dir
}

// partEvery is how often what the running steps of an attempt wrote is
// forwarded to the run (tail): output reaches the broker within about
// that much of being written, in at most one message an interval (with
// whatever events go with it), never a message per write.
const partEvery = 100 * time.Millisecond

// tail forwards what the attempt's running steps write, every partEvery,
// until the attempt stops or every step ended (flush).
func (p *publisher) tail() {
	t := time.NewTicker(partEvery)
	defer t.Stop()
	for {
		select {
		case <-p.stop.Done():
			return
		case <-t.C:
		}
		if !p.parts() {
			return
		}
	}
}

// parts queues what the running steps wrote since the last parts (at most
// maxInline a step and artifact at a time), so that a worker that dies
// mid-step leaves the run what its step printed until then. The queue's
// order puts a step's parts before its STEP_END. While parts queued
// before wait for the goroutine, it reads nothing more: a step that
// writes faster than the broker takes it is forwarded at the broker's
// pace (at most maxInline an artifact an interval), the rest of its
// output coming whole with its STEP_END. It returns false once flushed.
func (p *publisher) parts() bool {
	if p.fenced.Load() {
		return false
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false // flushed: every step ended
	}
	if p.partsQueued > 0 {
		return true
	}
	for id, s := range p.open {
		part := &wirePart{ID: id, Out: readFrom(s.base+".out", &s.outAt), Err: readFrom(s.base+".err", &s.errAt)}
		if len(part.Out) > 0 || len(part.Err) > 0 {
			p.queue = append(p.queue, wireEvent{Part: part})
			p.partsQueued++
		}
	}
	if p.partsQueued > 0 && p.started {
		p.cond.Broadcast()
	} else if p.partsQueued > 0 {
		p.started, p.cond = true, sync.NewCond(&p.mu)
		go p.loop()
	}
	return true
}

// readFrom reads what path holds after *at (at most maxInline), and moves
// *at past it.
func readFrom(path string, at *int64) []byte {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil || st.Size() <= *at {
		return nil // nothing new: no buffer for it
	}
	b := make([]byte, min(st.Size()-*at, maxInline))
	n, _ := f.ReadAt(b, *at)
	*at += int64(n)
	return b[:n]
}

// artifact is a step artifact inline, or the name it was stored under in
// the run's artifact store when it is large.
func (p *publisher) artifact(path, id, kind string) ([]byte, string) {
	if path == "" {
		return nil, ""
	}
	st, err := os.Stat(path)
	if err != nil {
		return nil, ""
	}
	if st.Size() <= maxInline {
		b, _ := os.ReadFile(path)
		return b, ""
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	obs, err := p.js.ObjectStore(ctx, artStore(p.run))
	if err != nil {
		return nil, ""
	}
	f, err := os.Open(path)
	if err != nil {
		return nil, ""
	}
	defer f.Close()
	name := p.key + "." + strconv.Itoa(p.attempt) + "." + strings.ReplaceAll(id, ":", "_") + "." + kind
	if _, err := obs.Put(ctx, jetstream.ObjectMeta{Name: name}, f); err != nil {
		return nil, ""
	}
	return nil, name
}

// loop publishes the queue, batch by batch, until closed and empty.
func (p *publisher) loop() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for {
		for len(p.queue) == 0 && !p.closed {
			p.cond.Wait()
		}
		if len(p.queue) == 0 {
			return
		}
		if !p.lingered {
			t := time.AfterFunc(firstLinger, func() {
				p.mu.Lock()
				defer p.mu.Unlock()
				p.lingered = true
				p.cond.Broadcast()
			})
			for !p.lingered && !p.closed {
				p.cond.Wait()
			}
			t.Stop()
			p.lingered = true
			if len(p.queue) == 0 {
				continue // finish took them for the result
			}
		}
		batch := p.takeBatch()
		p.busy = true
		p.n++
		id := fmt.Sprintf("%s.%d.%d", p.subject, p.attempt, p.n)
		p.mu.Unlock()
		p.send(batch, id)
		p.mu.Lock()
		p.busy = false
		p.cond.Broadcast()
	}
}

// takeBatch removes from the queue the events of the next message, at
// most about maxInline*3 bytes of artifacts (p.mu held).
func (p *publisher) takeBatch() []wireEvent {
	size, n := 0, 0
	for n < len(p.queue) {
		size += len(p.queue[n].Event) + len(p.queue[n].Out) + len(p.queue[n].Err)
		if n > 0 && size > 3*maxInline {
			break
		}
		n++
	}
	batch := append([]wireEvent(nil), p.queue[:n]...)
	p.queue = p.queue[n:]
	for _, w := range batch {
		if w.Part != nil {
			p.partsQueued--
		}
	}
	return batch
}

func (p *publisher) send(batch []wireEvent, id string) {
	if p.fenced.Load() {
		return
	}
	b, _ := json.Marshal(wireBatch{Key: p.key, Worker: p.worker, Attempt: p.attempt, Events: batch})
	// Retried, each try bounded (tryTimeout), for as long as the attempt
	// holds its claim: a node loss must not drop a step's events. The id
	// makes a retry the broker already stored a duplicate.
	for {
		ack, err := publish(p.stop, p.js, p.subject, b, id)
		switch {
		case err == nil:
			p.last.Store(ack.Sequence)
			return
		case errors.Is(err, errStreamGone):
			p.fenced.Store(true) // the run completed without this attempt
			return
		case p.fenced.Load() || p.stop.Err() != nil:
			return
		}
	}
}

// maxWithResult is the most event bytes a result carries in its ledger
// record instead of an event message.
const maxWithResult = 16 << 10

// finish stops the goroutine. When the attempt's result is final and
// nothing was published yet, a few small events (a quick delivery's,
// under maxWithResult) are returned unsent, for the result's ledger
// record to carry: one broker write and one message to the run instead of
// two. Otherwise it flushes and returns nil.
func (p *publisher) finish(final bool) []wireEvent {
	p.mu.Lock()
	if final && p.started && p.n == 0 && !p.busy && len(p.queue) > 0 && p.partsQueued == 0 {
		size := 0
		for _, w := range p.queue {
			size += len(w.Event) + len(w.Out) + len(w.Err)
		}
		if size <= maxWithResult {
			batch := p.queue
			p.queue, p.closed = nil, true
			p.cond.Broadcast()
			p.mu.Unlock()
			return batch
		}
	}
	p.mu.Unlock()
	p.flush()
	return nil
}

// flush waits until every event produced so far is on the broker, and
// stops the goroutine.
func (p *publisher) flush() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if !p.started {
		return
	}
	p.closed = true
	p.cond.Broadcast()
	for len(p.queue) > 0 || p.busy {
		p.cond.Wait()
	}
}

// lockedBuffer is a bytes.Buffer safe for the concurrent writers of a
// run's stray stderr.
type lockedBuffer struct {
	mu sync.Mutex
	b  *bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// pullSlots runs n slots that each pull one message at a time from cons
// (no prefetch: a lease must not tick in a client buffer) and hand it to
// handle, until ctx ends. A message that arrives as the worker stops is
// put back for another worker.
func pullSlots(ctx context.Context, wg *sync.WaitGroup, cons jetstream.Consumer, n int, handle func(jetstream.Msg)) {
	for range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				fetch, cancel := context.WithTimeout(ctx, 5*time.Second)
				m, err := cons.Next(jetstream.FetchContext(fetch))
				cancel()
				if err != nil {
					if ctx.Err() == nil && !errors.Is(err, nats.ErrTimeout) && !errors.Is(err, context.DeadlineExceeded) {
						time.Sleep(200 * time.Millisecond) // the broker is restarting: the client reconnects
					}
					continue
				}
				if ctx.Err() != nil {
					_ = m.Nak() // it came as we stopped: another worker takes it now
					continue
				}
				handle(m)
			}
		}()
	}
}
