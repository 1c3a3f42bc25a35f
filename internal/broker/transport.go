package broker

// This file answers: how does the orchestrating run put its messages on
// the broker and know when every delivery, local or sent by a remote
// target, is final?

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/jaiph-go/jaiph/internal/buildinfo"
	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/redact"
	"github.com/jaiph-go/jaiph/internal/store/inbox"
	"github.com/jaiph-go/jaiph/lowered"
	"github.com/jaiph-go/jaiph/runtime"
)

// Sources are the files a worker needs to run the program: every module,
// relative to their common root.
type Sources struct {
	Entry string            // the entry file, relative
	Files map[string][]byte // relative path → content
}

// Hash is the sources' content address: SHA-256 over the sorted paths and
// contents.
func (s Sources) Hash() string {
	paths := make([]string, 0, len(s.Files))
	for p := range s.Files {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	h := sha256.New()
	fmt.Fprintf(h, "entry %q\n", s.Entry)
	for _, p := range paths {
		fmt.Fprintf(h, "%q %d\n", p, len(s.Files[p]))
		h.Write(s.Files[p])
	}
	return hex.EncodeToString(h.Sum(nil))
}

var (
	_ runtime.Transport   = (*Transport)(nil)
	_ runtime.Redeliverer = (*queue)(nil)
)

// Transport is the orchestrator's side: it implements runtime.Transport.
type Transport struct {
	url      string
	nc       *nats.Conn
	js       jetstream.JetStream
	src      Sources
	hash     string
	replicas int
	files    *inbox.Files // the run's inbox files: its messages and deliveries as a file inbox's
	// reconnected is signalled when the client reconnected to the
	// broker (a restart): a drain then follows its feeds again.
	reconnected chan struct{}
}

// Options of a transport beyond its URL.
type Options struct {
	Replicas int // stream replicas (a cluster: 3); 0 is 1
	// Inbox is the run's inbox files, where the orchestrator stores each
	// message, delivery and dead letter, so that `jaiph inbox` and `jaiph
	// redrive` read a broker run as a file one.
	Inbox *inbox.Files
}

// Dial connects to the broker at url and publishes the program's sources
// (once per content hash). An unreachable broker is an error before
// anything runs.
func Dial(ctx context.Context, url string, src Sources, o Options) (*Transport, error) {
	nc, js, err := connect(ctx, url, "jaiph run")
	if err != nil {
		return nil, err
	}
	t := &Transport{url: url, nc: nc, js: js, src: src, hash: src.Hash(), replicas: max(o.Replicas, 1), files: o.Inbox, reconnected: make(chan struct{}, 1)}
	nc.SetReconnectHandler(func(*nats.Conn) {
		select {
		case t.reconnected <- struct{}{}:
		default:
		}
	})
	setup, cancel := context.WithTimeout(ctx, setupPatience)
	defer cancel()
	if err := retrySetup(setup, t.publishSources); err != nil {
		nc.Close()
		return nil, fmt.Errorf("cannot publish the run's sources to the broker: %w", err)
	}
	return t, nil
}

// Close disconnects from the broker.
func (t *Transport) Close() error {
	t.nc.Close()
	return nil
}

func (t *Transport) publishSources(ctx context.Context) error {
	// Shared by every run: it keeps its replicas, or gains some (never
	// fewer, as ensureStream).
	obs, err := t.js.ObjectStore(ctx, sourceStore)
	if err == nil {
		if st, serr := obs.Status(ctx); serr == nil && st.Replicas() < t.replicas {
			err = jetstream.ErrBucketNotFound
		}
	}
	if err != nil {
		if obs, err = t.js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: sourceStore, Replicas: t.replicas}); err != nil {
			return err
		}
	}
	// Stored already, and recently: nothing to do. One stored long ago
	// is written again, so its time is fresh: retention (Prune) removes
	// sources no run references that are older than its window, and this
	// run's start record (the ledger's "run" key) does not exist yet.
	if info, err := obs.GetInfo(ctx, t.hash); err == nil && time.Since(info.ModTime) < time.Hour {
		return nil
	}
	b, err := json.Marshal(t.src)
	if err != nil {
		return err
	}
	_, err = obs.PutBytes(ctx, t.hash, b)
	return err
}

// Open implements runtime.Transport: the run's ledger and event stream,
// and the work stream with the orchestrator's lease.
func (t *Transport) Open(ctx context.Context, o runtime.Orchestrator, h runtime.Host) (runtime.Queue, error) {
	ctx, cancel := context.WithTimeout(ctx, setupPatience)
	defer cancel()
	run := h.RunID()
	var existed error
	if err := retrySetup(ctx, func(c context.Context) error {
		_, existed = t.js.KeyValue(c, ledgerName(run))
		if existed != nil && !notFound(existed) {
			return existed
		}
		return nil
	}); err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	lease := settingDuration(o.Env["JAIPH_INBOX_LEASE"], defaultLease)
	if err := retrySetup(ctx, func(c context.Context) error { _, err := ensureWork(c, t.js, t.replicas); return err }); err != nil {
		return nil, err
	}
	var bucket jetstream.KeyValue
	if err := retrySetup(ctx, func(c context.Context) (err error) {
		bucket, err = t.js.CreateOrUpdateKeyValue(c, jetstream.KeyValueConfig{Bucket: ledgerName(run), History: 1, Replicas: t.replicas})
		return err
	}); err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	kv := openLedger(t.nc, bucket, run)
	start, _ := json.Marshal(map[string]any{"src": t.hash, "started": time.Now().UnixMilli()})
	if _, err := create(ctx, kv, "run", start); err != nil {
		return nil, fmt.Errorf("ledger: %w", err)
	}
	if err := retrySetup(ctx, func(c context.Context) error {
		_, err := t.js.CreateOrUpdateStream(c, jetstream.StreamConfig{Name: eventStream(run), Subjects: []string{"jaiph.ev." + run + ".>"},
			Storage: jetstream.FileStorage, Replicas: t.replicas})
		return err
	}); err != nil {
		return nil, fmt.Errorf("event stream: %w", err)
	}
	if err := retrySetup(ctx, func(c context.Context) error {
		_, err := t.js.CreateOrUpdateObjectStore(c, jetstream.ObjectStoreConfig{Bucket: artStore(run), Replicas: t.replicas})
		return err
	}); err != nil {
		return nil, fmt.Errorf("artifact store: %w", err)
	}
	q := &queue{t: t, o: o, h: h, run: run, kv: kv, lease: lease, known: map[string]*known{}, pending: map[string]bool{}, ids: map[string]int{},
		retries: atoi(o.Env["JAIPH_INBOX_RETRIES"]), backoff: settingDuration(o.Env["JAIPH_INBOX_RETRY_BACKOFF"], time.Second)}
	q.max, q.tooDeep = runtime.DispatchDepth(atoi(o.Env["JAIPH_INBOX_MAX_DISPATCH_DEPTH"]))
	var err error
	if existed == nil { // a resumed run: its ledger is there
		if q.prior, err = readPrior(ctx, kv, h.RunDir()); err != nil {
			return nil, fmt.Errorf("cannot resume the run's inbox: %w", err)
		}
		for id, n := range q.prior.ids {
			q.ids[id] = n
		}
	}
	if err := t.files.Open(h.RunDir(), h.Emit); err != nil {
		return nil, err
	}
	if q.cursor, err = openCursor(t.files.Dir()); err != nil {
		return nil, err
	}
	q.pipe = newPipeline(q)
	return q, nil
}

// queue is one orchestrator's queue on the broker.
type queue struct {
	t       *Transport
	o       runtime.Orchestrator
	h       runtime.Host
	run     string
	kv      *ledger
	lease   time.Duration
	max     int   // messages the run may queue (E_DISPATCH_DEPTH)
	tooDeep error // the error past it
	retries int
	backoff time.Duration

	mu       sync.Mutex
	seq      int               // messages numbered so far
	known    map[string]*known // deliveries by ledger key
	open     int               // known deliveries not final
	pending  map[string]bool   // keys of those final in the ledger, waiting for their events
	overflow bool              // E_DISPATCH_DEPTH
	ids      map[string]int    // remote step id → local step number
	prior    *prior            // what the interrupted attempt did (a resumed run)
	drained  bool              // every delivery done: the broker's copy can go
	redrive  bool              // a redrive: every attempt goes to inbox/.deliveries
	cursor   *cursor           // the last event shown, kept in the run directory
	pipe     *pipeline         // writes a fresh run's deliveries to the broker
	// held are events shown while one ledger record or event batch is
	// observed (holding): they reach the summary in one write (emit).
	held    []*event.Event
	holding bool
}

// emit shows e, or holds it until release (q.mu held).
func (q *queue) emit(e *event.Event) {
	if q.holding {
		q.held = append(q.held, e)
		return
	}
	q.h.Emit(e)
}

// hold holds what is shown until release (q.mu held).
func (q *queue) hold() { q.holding = true }

// release shows what was held, in one write (q.mu held).
func (q *queue) release() {
	q.holding = false
	if len(q.held) > 0 {
		q.h.EmitAll(q.held)
		clear(q.held)
		q.held = q.held[:0]
	}
}

// known is what the orchestrator tracks of a delivery.
type known struct {
	seq, channel, sender, target string
	chanSym, worker              string
	claims, failures, epoch      int
	attemptBase                  int // attempts before this one (a redriven letter)
	started                      time.Time
	final                        bool
	doneBefore                   bool    // completed in the interrupted attempt (its events were shown)
	rec                          *record // a final record waiting for its events
	rev                          uint64  // rec's revision
	// work is the delivery's work message, for the watchdog to publish
	// again; published is set once it was queued (or, on a resumed run,
	// found in the ledger).
	work      []byte
	published atomic.Bool
	// What the drain last saw of the ledger record, and when: the
	// watchdog's evidence that a claim still lives.
	state     string
	seenRev   uint64
	seenAt    time.Time
	checkedAt time.Time // the last time the watchdog looked for its work message
	recAt     time.Time // when rec came: its events are due
	waiting   string    // a Waiting reason already shown
	// The current attempt: running between its INBOX_DISPATCH_START and
	// its end, steps its remote steps shown as started and not ended, so
	// an attempt lost with its worker ends them (lose). lostUpTo is the
	// last attempt ended as lost: events of it that come late are
	// dropped. endedShown counts the record's ended attempts shown
	// (showEnded).
	running    bool
	steps      []openStep
	lostUpTo   int
	endedShown int
	// resumed is set once an attempt the killed orchestrator showed was
	// shown starting again by this one (resumeAttempt).
	resumed bool
	// claimedByEvents: the first attempt was shown starting from its
	// events, before any record with its claim came (showBatch).
	claimedByEvents bool
}

// openStep is a remote step shown as started: its STEP_START as written
// here, when it was shown, and the files the parts of its artifacts that
// came before its end are written to (nil: none came).
type openStep struct {
	start    *event.Event
	shown    time.Time
	out, err *partFile
}

// partFile is an artifact of a running remote step being written from its
// parts, through one masking writer for all of them, so that a credential
// split between two parts is masked too.
type partFile struct {
	path string
	f    *os.File
	w    *redact.Writer
}

// close writes what the masking writer holds back and closes the file;
// it returns the file's path ("" for none).
func (p *partFile) close() string {
	if p == nil {
		return ""
	}
	err := p.w.Flush()
	if cerr := p.f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return ""
	}
	return p.path
}

// Send numbers a message, stores it in the run directory and queues one
// delivery per route target. A fresh run's deliveries go to the broker
// through the pipeline (pipe.go): Send returns once the message is in the
// run directory, which is what jaiph resume queues again from; a delivery
// the broker refused fails the next Send, or the drain.
func (q *queue) Send(ctx context.Context, channel, sender, content string) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.enqueue(ctx, channel, sender, content)
}

// enqueue is Send with q.mu held.
func (q *queue) enqueue(ctx context.Context, channel, sender, content string) error {
	if err := q.pipe.error(); err != nil {
		return err
	}
	if q.seq+1 > q.max {
		q.overflow = true
		return q.tooDeep
	}
	q.seq++
	return q.queueAs(ctx, inbox.Number(q.seq), channel, sender, content)
}

// queueAs stores message seq and queues its deliveries. On a resumed run
// the ledger already knows them: a delivery that is done stays done, one
// queued or claimed is published again (the broker drops the duplicate,
// a worker acks a second copy of a final one), and one that failed in the
// interrupted attempt is queued again in a new epoch, as the file inbox's
// resume runs again what did not complete.
func (q *queue) queueAs(ctx context.Context, seq, channel, sender, content string) error {
	if err := q.t.files.Store(seq, channel, sender, content); err != nil {
		return err
	}
	for i, target := range q.o.Routes[channel] {
		d := delivery{Run: q.run, Key: deliveryKey(seq, i), Seq: seq, Channel: channel, Sender: sender, Target: target,
			Orchestrator: q.o.Symbol, Payload: content, Sources: q.t.hash, Entry: q.t.src.Entry, Version: buildinfo.Version(),
			Retries: q.retries, BackoffMS: q.backoff.Milliseconds(), LeaseMS: q.lease.Milliseconds()}
		k := &known{seq: seq, channel: lowered.ChannelName(channel), chanSym: channel, sender: sender, target: target}
		if p := q.prior; p != nil {
			k.claims, k.doneBefore = p.starts[seq+" "+target], p.completed[seq+" "+target]
		}
		q.track(d.Key, k)
		if q.prior == nil && !q.redrive {
			// A fresh delivery: its work message goes by the pipeline,
			// so that a body's sends do not wait for the broker one by
			// one, and with no record (the worker creates it).
			if err := q.pipe.queue(k, d); err != nil {
				return err
			}
			continue
		}
		id, publishNow, err := q.ledgerEntry(ctx, d.Key, target)
		if err != nil {
			return fmt.Errorf("ledger: %w", err)
		}
		k.work, _ = json.Marshal(d)
		if id == "" {
			continue // done already
		}
		if publishNow {
			if _, err := publish(ctx, q.t.js, workSubject(q.run, d.Key), k.work, id); err != nil {
				return fmt.Errorf("cannot queue the delivery of message %s to %s: %w", seq, target, err)
			}
		}
		// A resumed run's delivery that was queued or claimed is not
		// published again under its old id (within the broker's dedup
		// window that would be dropped, and its message may be gone):
		// the watchdog looks for its work message, or its worker, first.
		k.published.Store(true)
	}
	return nil
}

// ledgerEntry looks up a resumed run's delivery in the ledger and returns
// the message id of its work message ("" when it is done already) and
// whether that message is to be published now (one that failed is queued
// again in a new epoch; one queued or claimed, or with no record, is left
// to the watchdog).
func (q *queue) ledgerEntry(ctx context.Context, key, target string) (string, bool, error) {
	id := q.run + "." + key
	e, err := q.kv.get(ctx, key)
	if errors.Is(err, errNoRecord) {
		// Queued by the pipeline with no record (delivery.Create) and
		// never claimed, or never queued before the kill: the watchdog
		// looks for its work message first, and queues it again under a
		// fresh id only when there is none (a second copy under the old
		// id would run it twice).
		return id, false, nil
	}
	if err != nil {
		return "", false, err
	}
	r, err := decodeRecord(e.value)
	if err != nil {
		return "", false, err
	}
	switch r.State {
	case stDone:
		return "", false, nil
	case stFailed, stDead:
		r2 := &record{State: stQueued, Target: target, Epoch: r.Epoch + 1}
		r2.Msg = fmt.Sprintf("%s.e%d", id, r2.Epoch)
		if _, err := update(ctx, q.kv, key, r2.encode(), e.rev); err != nil {
			return "", false, err
		}
		return r2.Msg, true, nil
	}
	return cmp.Or(r.Msg, id), false, nil
}

// Redeliver implements runtime.Redeliverer: dead letter seq goes back on
// the broker for target, in a new epoch of its ledger record.
func (q *queue) Redeliver(ctx context.Context, seq, channel, sender, content, target string, attempt int) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.redrive = true
	i := slices.Index(q.o.Routes[channel], target)
	if i < 0 {
		return fmt.Errorf("%s no longer routes %s to %s", q.o.Symbol, lowered.ChannelName(channel), target)
	}
	if q.prior == nil {
		return fmt.Errorf("the run's ledger is no longer on the broker (run %s)", q.run)
	}
	key := deliveryKey(seq, i)
	id, publishNow, err := q.ledgerEntry(ctx, key, target)
	if err != nil || id == "" {
		return cmp.Or(err, fmt.Errorf("message %s to %s is already delivered", seq, target))
	}
	d := delivery{Run: q.run, Key: key, Seq: seq, Channel: channel, Sender: sender, Target: target,
		Orchestrator: q.o.Symbol, Payload: content, Sources: q.t.hash, Entry: q.t.src.Entry, Version: buildinfo.Version(),
		Retries: 0, BackoffMS: q.backoff.Milliseconds(), LeaseMS: q.lease.Milliseconds()}
	k := &known{seq: seq, channel: lowered.ChannelName(channel), chanSym: channel, sender: sender, target: target, attemptBase: attempt - 1}
	k.published.Store(true)
	k.work, _ = json.Marshal(d)
	q.track(key, k)
	if !publishNow {
		return nil // queued or claimed already: the watchdog sees to it
	}
	_, err = publish(ctx, q.t.js, workSubject(q.run, key), k.work, id)
	return err
}

// Outcome implements runtime.Redeliverer.
func (q *queue) Outcome(seq, target string) (int, int) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for _, k := range q.known {
		if k.seq == seq && k.target == target && k.final && k.rec != nil {
			if k.rec.State == stDone {
				return 0, len(k.rec.Sends)
			}
			if k.rec.Status != nil && *k.rec.Status != 0 {
				return *k.rec.Status, 0
			}
			return 1, 0
		}
	}
	return 1, 0
}

// Dir implements runtime.Queue: the run's inbox directory.
func (q *queue) Dir() string { return q.t.files.Dir() }

// Close implements runtime.Queue. A run whose drain completed no longer
// needs its ledger and event stream on the broker (everything is in the
// run directory); a failed or interrupted one keeps them for jaiph resume.
func (q *queue) Close() {
	q.pipe.stop(!q.drained)
	q.cursor.close()
	q.mu.Lock()
	for _, k := range q.known {
		for _, s := range k.steps { // a run stopped with remote steps open: their parts so far stay
			s.out.close()
			s.err.close()
		}
		k.steps = nil
	}
	q.mu.Unlock()
	if q.drained {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		q.purge(ctx) // copies of work messages the watchdog replaced
		_ = q.t.js.DeleteKeyValue(ctx, ledgerName(q.run))
		_ = q.t.js.DeleteStream(ctx, eventStream(q.run))
		_ = q.t.js.DeleteObjectStore(ctx, artStore(q.run))
	}
}

// Drain waits, on a watch of the ledger and the event stream (no polling),
// until every delivery is final, and shows the remote steps as they run.
func (q *queue) Drain(ctx context.Context, stderr io.Writer) int {
	if q.overflow {
		fmt.Fprintf(stderr, "jaiph: %v\n", q.tooDeep)
		return 1
	}
	if err := q.pipe.wait(); err != nil {
		// The body's sends are on the broker before the drain follows
		// them (a failed drain purges what is queued: nothing may come
		// after).
		fmt.Fprintf(stderr, "jaiph: %v\n", err)
		q.purge(ctx)
		return 1
	}
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	consumed := q.cursor.last // the last event stream sequence shown
	if q.prior != nil {
		open := readOpen(ctx, q.t.js, q.run, consumed)
		q.mu.Lock()
		q.seq = max(q.seq, q.prior.highest)
		q.prior.open = open
		q.mu.Unlock()
	}
	f, err := q.subscribe(ctx, consumed)
	if err != nil {
		fmt.Fprintf(stderr, "jaiph: cannot follow the run's deliveries on the broker: %v\n", err)
		return 1
	}
	defer func() { f.stop() }()
	dog := time.NewTicker(watchdogEvery(q.lease))
	defer dog.Stop()
	if q.prior != nil || q.redrive {
		// A resumed run's deliveries are looked for at once. A fresh run's
		// are not: the drain starts after the body's sends, and a sweep
		// then would read the record of every delivery workers finished
		// meanwhile, before the watch shows it.
		q.watchdog(ctx, stderr)
	}
	followed := time.Now()
	status := 0
	for {
		if q.outstanding() == 0 {
			q.drained = status == 0 && !q.redrive // a redrive drains one letter of the run
			return status
		}
		select {
		case <-ctx.Done():
			return 1
		case <-dog.C:
			if q.watchdog(ctx, stderr) && time.Since(followed) > q.lease {
				// The leader's ledger is ahead of what the watch showed:
				// the watch (or the events' consumer) lived on a node that
				// died, and no reconnect told us. Follow both again.
				f.stop()
				followed = time.Now()
				if f, err = q.subscribe(ctx, consumed); err != nil {
					fmt.Fprintf(stderr, "jaiph: cannot follow the run's deliveries on the broker: %v\n", err)
					return 1
				}
			}
		case <-q.pipe.failed:
			fmt.Fprintf(stderr, "jaiph: %v\n", q.pipe.error())
			q.pipe.stop(true)
			q.purge(ctx)
			return 1
		case <-q.t.reconnected:
			// The broker restarted: follow both again from where we are
			// (a watch replays every record; observe ignores the old).
			f.stop()
			if f, err = q.subscribe(ctx, consumed); err != nil {
				fmt.Fprintf(stderr, "jaiph: cannot follow the run's deliveries on the broker: %v\n", err)
				return 1
			}
		case m := <-f.events:
			md, err := m.Metadata()
			if err != nil || md.Sequence.Stream <= consumed {
				continue // already shown (a resubscription replays)
			}
			consumed = md.Sequence.Stream
			q.showBatch(ctx, m.Data())
			q.cursor.set(consumed)
			if s := q.settle(ctx, consumed, stderr); s != 0 {
				status = s
			}
		case e, ok := <-f.watch.Updates():
			if !ok {
				f.stop()
				if f, err = q.subscribe(ctx, consumed); err != nil {
					fmt.Fprintf(stderr, "jaiph: cannot follow the run's deliveries on the broker: %v\n", err)
					return 1
				}
				continue
			}
			if e == nil || e.Operation() != jetstream.KeyValuePut || !strings.HasPrefix(e.Key(), "d.") {
				continue
			}
			r, err := decodeRecord(e.Value())
			if err != nil {
				continue
			}
			q.observe(ctx, e.Key(), r, e.Revision())
			q.showWaiting(e.Key(), r, stderr)
			if s := q.settle(ctx, consumed, stderr); s != 0 {
				status = s
			}
		}
		if status != 0 && q.retries == 0 {
			// The reference's drain stops at the first failed delivery.
			q.pipe.stop(true) // nothing is queued after the purge
			q.purge(ctx)
			return status
		}
		if q.overflow {
			fmt.Fprintf(stderr, "jaiph: %v\n", q.tooDeep)
			q.pipe.stop(true)
			q.purge(ctx)
			return 1
		}
	}
}

// feeds are what a drain follows: a watch of the ledger and the event
// stream after the last event shown.
type feeds struct {
	watch  jetstream.KeyWatcher
	cc     jetstream.ConsumeContext
	events chan jetstream.Msg
}

func (f *feeds) stop() {
	f.watch.Stop()
	f.cc.Stop()
}

// subscribe follows the ledger and the events after sequence from,
// retrying while the broker is away.
func (q *queue) subscribe(ctx context.Context, from uint64) (*feeds, error) {
	for try := 0; ; try++ {
		f, err := q.trySubscribe(ctx, from)
		if err == nil || ctx.Err() != nil || try >= retryTries {
			return f, err
		}
		sleep(ctx, retryEvery)
	}
}

func (q *queue) trySubscribe(ctx context.Context, from uint64) (*feeds, error) {
	watch, err := q.kv.kv.WatchAll(ctx)
	if err != nil {
		return nil, err
	}
	cfg := jetstream.OrderedConsumerConfig{}
	if from > 0 {
		cfg.DeliverPolicy, cfg.OptStartSeq = jetstream.DeliverByStartSequencePolicy, from+1
	}
	cons, err := q.t.js.OrderedConsumer(ctx, eventStream(q.run), cfg)
	if err != nil {
		watch.Stop()
		return nil, err
	}
	f := &feeds{watch: watch, events: make(chan jetstream.Msg, 64)}
	f.cc, err = cons.Consume(func(m jetstream.Msg) {
		select {
		case f.events <- m:
		case <-ctx.Done():
		}
	})
	if err != nil {
		watch.Stop()
		return nil, err
	}
	return f, nil
}

// outstanding counts the deliveries not yet final.
func (q *queue) outstanding() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.open
}

// track makes k the delivery under key (q.mu held). The counts kept
// beside q.known spare the drain a walk over every delivery per event,
// which made a run of n messages cost n² map steps.
func (q *queue) track(key string, k *known) {
	if old := q.known[key]; old != nil && !old.final {
		q.open--
	}
	delete(q.pending, key)
	q.known[key] = k
	q.open++
}

// observe records a ledger change: a new attempt starts (INBOX_DISPATCH_START),
// a failed one is retried (INBOX_RETRY), a final one waits for its events.
func (q *queue) observe(ctx context.Context, key string, r *record, rev uint64) {
	q.mu.Lock()
	defer q.mu.Unlock()
	q.hold()
	defer q.release()
	k := q.known[key]
	if k == nil || k.final {
		return
	}
	k.state, k.seenRev, k.seenAt = r.State, rev, time.Now()
	if r.Epoch > k.epoch {
		k.epoch, k.claims, k.failures, k.doneBefore = r.Epoch, 0, 0, false
		k.lostUpTo, k.endedShown = 0, 0
	}
	if r.Epoch < k.epoch {
		return // the record before this run queued it again
	}
	if k.claimedByEvents {
		if r.Claims == 0 && !r.terminal() {
			return // older than the attempt whose events were shown
		}
		k.claimedByEvents = false
	}
	// The watch sees only a key's newest revision when it falls behind,
	// so attempts may have been claimed, and ended, between two revisions
	// it saw: each ended attempt is in r.Ended, shown here in claim
	// order, started (if its claim was not seen) and ended as it ended.
	for i := k.endedShown; i < len(r.Ended); i++ {
		q.showEnded(key, k, r, i)
	}
	k.endedShown = max(k.endedShown, len(r.Ended))
	k.failures = r.Failures
	if r.State == stFailed || r.State == stDead {
		k.failures-- // the last attempt's failure is its result (settle)
	}
	if r.Claims == k.claims && r.State != stQueued {
		q.resumeAttempt(key, k, r.Worker)
	}
	if r.Claims > k.claims && r.State != stQueued {
		q.startAttempt(k, r.Claims, r.Worker)
	}
	if r.terminal() && len(r.Inline) > 0 && k.rec == nil && !k.doneBefore {
		// A quick attempt's events came with its result.
		q.show(ctx, &wireBatch{Key: key, Worker: r.Worker, Attempt: r.Claims, Events: r.Inline})
	}
	if r.terminal() {
		if k.rec == nil {
			k.recAt = time.Now()
		}
		k.rec, k.rev = r, rev
		q.pending[key] = true
	}
}

// showEnded shows attempt i+1 of k, r.Ended[i], ending as it ended
// (q.mu held): a failure and its retry, or a loss with its reason. An
// attempt whose claim the watch did not see is shown starting first; one
// shown before (by a killed orchestrator, on a resumed run) is not again,
// unless it is the attempt that run showed last (resumeAttempt).
func (q *queue) showEnded(key string, k *known, r *record, i int) {
	e, n := r.Ended[i], i+1
	switch {
	case n < k.claims:
		return
	case n == k.claims:
		q.resumeAttempt(key, k, e.Worker)
		if !k.running {
			return // ended already
		}
	default:
		q.startAttempt(k, n, e.Worker)
	}
	if e.Status != nil {
		q.finish(k, *e.Status, false)
		failures := 0
		for _, f := range r.Ended[:n] {
			if f.Status != nil {
				failures++
			}
		}
		q.emit(&event.Event{Type: event.InboxRetry, InboxSeq: k.seq, Channel: k.channel, Target: k.target, Sender: k.sender,
			Attempt: n, Status: e.Status, DelayMS: retryDelay(q.backoff, failures).Milliseconds(),
			Depth: q.o.ChildDepth - 1, Time: time.Now()})
		return
	}
	who := "its worker"
	if w := cmp.Or(e.Worker, k.worker); w != "" {
		who = "worker " + w
	}
	why := who + " stopped renewing its lease"
	if e.Released {
		why = who + " handed it back as it stopped"
	}
	// (Who claimed it next is the next attempt's start: said here, it
	// would depend on whether the watch saw the loss before that claim.)
	q.lose(k, why)
}

// settle finishes the final deliveries whose events have all been shown:
// INBOX_DISPATCH_COMPLETE, and the messages a delivered target sent are
// queued. It returns 1 when one failed.
func (q *queue) settle(ctx context.Context, consumed uint64, stderr io.Writer) int {
	q.mu.Lock()
	defer q.mu.Unlock()
	status := 0
	keys := make([]string, 0)
	for key := range q.pending {
		if k := q.known[key]; k.rec.Events <= consumed {
			keys = append(keys, key)
		}
	}
	sort.Strings(keys) // message order: d.NNN.i
	for _, key := range keys {
		k := q.known[key]
		r := k.rec
		k.final = true
		delete(q.pending, key)
		q.open--
		st := 1
		if r.Status != nil {
			st = *r.Status
		}
		if r.State == stDone {
			st = 0
		}
		if len(k.steps) > 0 && r.State != stDone {
			// Final without the attempt's end: its worker died and the
			// delivery became a dead letter (it lost too many workers).
			q.lose(k, cmp.Or(r.Why, "worker "+k.worker+" stopped renewing its lease"))
		}
		if (k.claims > k.failures || r.State == stDone) && !k.doneBefore && !(k.claims > 0 && k.lostUpTo == k.claims) {
			q.finish(k, st, false)
		}
		state := r.State
		if state == stFailed && q.redrive {
			state = stDead // a redriven letter that fails again stays a dead letter
		}
		switch state {
		case stDone:
			if err := q.fanOut(ctx, key, k); err != nil {
				if !q.overflow {
					fmt.Fprintf(stderr, "jaiph: cannot queue the messages %s sent: %v\n", k.target, err)
					status = 1
				}
			}
		case stDead:
			if r.Why != "" {
				fmt.Fprintf(stderr, "jaiph: message %s to %s is a dead letter: %s\n", k.seq, k.target, r.Why)
			}
			if err := q.t.files.Dead(k.seq, k.channel, k.sender, k.target, k.attemptBase+max(r.Claims, 1), st, q.o.ChildDepth-1); err != nil {
				fmt.Fprintf(stderr, "jaiph: cannot store dead letter %s: %v\n", k.seq, err)
			}
			status = 1
		default:
			if r.Why != "" {
				fmt.Fprintf(stderr, "jaiph: delivery of message %s to %s failed: %s\n", k.seq, k.target, r.Why)
			}
			status = 1
		}
	}
	return status
}

// fanOut queues the messages a delivered target sent: numbered first, and
// the numbers recorded in its ledger record before anything is queued, so
// a resumed orchestrator queues the same messages under the same numbers.
func (q *queue) fanOut(ctx context.Context, key string, k *known) error {
	r := k.rec
	if len(r.Sends) == 0 {
		return nil
	}
	if len(r.Numbers) != len(r.Sends) {
		nums := make([]string, len(r.Sends))
		for i := range nums {
			if q.seq+1 > q.max {
				q.overflow = true
				return q.tooDeep
			}
			q.seq++
			nums[i] = inbox.Number(q.seq)
		}
		r.Numbers = nums
		if _, err := update(ctx, q.kv, key, r.encode(), k.rev); err != nil {
			return err
		}
	}
	for i, s := range r.Sends {
		q.seq = max(q.seq, atoi(r.Numbers[i]))
		if err := q.queueAs(ctx, r.Numbers[i], s.Channel, s.Sender, s.Content); err != nil {
			return err
		}
	}
	return nil
}

// resumeAttempt shows again, in this attempt of the run, a delivery's
// attempt that the killed orchestrator showed starting, that resume ended
// in the summary as interrupted (runtime.InterruptedWhy), and that went on
// on its worker: its INBOX_DISPATCH_START once more (q.mu held), so its
// end, a result or a loss, has its start in this attempt of the run too;
// and the STEP_STARTs of its steps that were open at the kill (readOpen),
// under new step numbers, their parts going on in the files the killed
// orchestrator wrote. A step ending here that was not among them (the
// event stream could not be read) is shown starting right before its end
// (showBatch).
func (q *queue) resumeAttempt(key string, k *known, worker string) {
	if q.prior == nil || k.resumed || k.running || k.doneBefore || k.final || k.claims == 0 || k.lostUpTo == k.claims {
		return
	}
	k.resumed, k.running, k.worker, k.started = true, true, worker, time.Now()
	q.emit(&event.Event{Type: event.DispatchStart, InboxSeq: k.seq, Channel: k.channel, Target: k.target, Sender: k.sender,
		Worker: worker, Time: k.started})
	a := q.prior.open[key]
	if a == nil || a.attempt != k.claims {
		return
	}
	for _, s := range a.steps {
		if _, shown := q.ids[s.ID]; shown {
			continue
		}
		e := *s
		e.Seq, e.Time = q.h.NextSeq(), k.started
		q.ids[e.ID] = e.Seq
		if e.ParentID == "" {
			e.ParentID, e.Worker = q.o.StepID, worker
		}
		e.Depth += q.o.ChildDepth
		st := openStep{start: &e, shown: k.started}
		if n, ok := q.prior.interrupted[e.ID]; ok {
			// What reached the killed orchestrator goes on in the same
			// files: later parts are appended to them.
			base := filepath.Join(q.h.RunDir(), fmt.Sprintf("%06d-%s", n, lowered.SafeName(e.Func)))
			st.out, st.err = q.appendPart(base+".out"), q.appendPart(base+".err")
		}
		k.steps = append(k.steps, st)
		q.emit(&e)
	}
}

// startAttempt shows attempt n of k starting on worker (q.mu held).
func (q *queue) startAttempt(k *known, n int, worker string) {
	k.claims = n
	k.started = time.Now()
	if q.retries > 0 || q.redrive {
		_ = q.t.files.Started(k.seq, k.target, k.attemptBase+k.claims)
	}
	k.worker, k.running = worker, true
	q.emit(&event.Event{Type: event.DispatchStart, InboxSeq: k.seq, Channel: k.channel, Target: k.target, Sender: k.sender,
		Worker: k.worker, Time: k.started})
}

// finish emits INBOX_DISPATCH_COMPLETE for k's current attempt.
func (q *queue) finish(k *known, status int, replayed bool) {
	q.finishAs(k, status, replayed, "")
}

// finishAs is finish, for an attempt lost (why) when lost is not "".
func (q *queue) finishAs(k *known, status int, replayed bool, lost string) {
	k.running = false
	if (q.retries > 0 || q.redrive) && k.claims > 0 {
		_ = q.t.files.Ended(k.seq, k.target, k.attemptBase+k.claims, status)
	}
	elapsed := int64(0)
	if !k.started.IsZero() {
		elapsed = time.Since(k.started).Milliseconds()
	}
	q.emit(&event.Event{Type: event.DispatchFinish, InboxSeq: k.seq, Channel: k.channel, Target: k.target, Sender: k.sender,
		Status: &status, ElapsedMS: &elapsed, Time: time.Now(), Replayed: replayed, Worker: k.worker, Lost: lost})
}

// lose ends k's current attempt as lost (q.mu held): a STEP_END for each
// of its remote steps still open, innermost first, and its
// INBOX_DISPATCH_COMPLETE, each saying why (lost), so that no start of
// the summary, the tree, the report or a trace stays open for ever. What
// the attempt published before it was lost (its finished steps, their
// output, its logs) was shown as it came; events of it that come later
// are dropped (showBatch). Its status is 1.
func (q *queue) lose(k *known, why string) {
	now := time.Now()
	for i := len(k.steps) - 1; i >= 0; i-- {
		s := k.steps[i].start
		st, elapsed := 1, now.Sub(k.steps[i].shown).Milliseconds()
		delete(q.ids, s.ID)
		q.emit(&event.Event{Type: event.StepEnd, Func: s.Func, Kind: s.Kind, Name: s.Name, Time: now,
			Status: &st, ElapsedMS: &elapsed, OutFile: k.steps[i].out.close(), ErrFile: k.steps[i].err.close(),
			ID: s.ID, ParentID: s.ParentID, Seq: s.Seq, Depth: s.Depth,
			RunID: s.RunID, Dispatched: s.Dispatched, Channel: s.Channel, Sender: s.Sender, Worker: k.worker, Lost: why})
	}
	k.steps, k.lostUpTo = nil, k.claims
	q.finishAs(k, 1, false, why)
}

// showBatch shows the remote events of one event message as steps of
// this run: a step's number is this run's, a delivered target hangs under
// the orchestrator, and artifacts are written into the run directory.
func (q *queue) showBatch(ctx context.Context, data []byte) {
	var b wireBatch
	if json.Unmarshal(data, &b) != nil {
		return
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	q.hold()
	defer q.release()
	q.show(ctx, &b)
}

// show is showBatch of a decoded batch (q.mu held).
func (q *queue) show(ctx context.Context, b *wireBatch) {
	k := q.known[b.Key]
	if k == nil || k.final || b.Attempt <= k.lostUpTo {
		return // a stale attempt's late events
	}
	if b.Attempt == k.claims {
		q.resumeAttempt(b.Key, k, b.Worker)
	}
	if b.Attempt == 1 && k.claims == 0 && k.epoch == 0 && k.lostUpTo == 0 && q.prior == nil && !q.redrive {
		// A first attempt the ledger does not show yet: a worker writes
		// the claim of a quick delivery with its result (or the watch is
		// behind the events). It starts here, before its steps. (Not on
		// a resumed or redriven run, whose attempts and epochs come from
		// the ledger.)
		q.startAttempt(k, 1, b.Worker)
		k.claimedByEvents = true
	}
	for _, w := range b.Events {
		if w.Part != nil {
			q.part(k, w.Part)
			continue
		}
		e, err := event.Parse(w.Event)
		if err != nil {
			continue
		}
		switch e.Type {
		case event.StepStart, event.StepEnd:
			n, ok := q.ids[e.ID]
			if !ok {
				n = q.h.NextSeq()
				q.ids[e.ID] = n
			}
			e.Seq = n
			top := e.ParentID == ""
			if top {
				e.ParentID = q.o.StepID
				if e.Type == event.StepStart {
					e.Worker = b.Worker
				}
			}
			e.Depth += q.o.ChildDepth
			if !ok && e.Type == event.StepEnd && q.prior != nil {
				// The killed orchestrator showed this step start, and
				// resume ended it as interrupted: this attempt of the run
				// shows it starting again, so its end has a start here.
				start := &event.Event{Type: event.StepStart, Func: e.Func, Kind: e.Kind, Name: e.Name, Time: time.Now(),
					ID: e.ID, ParentID: e.ParentID, Seq: n, Depth: e.Depth, RunID: e.RunID, Dispatched: e.Dispatched,
					Channel: e.Channel, Sender: e.Sender}
				if top {
					start.Worker = b.Worker
				}
				q.emit(start)
			}
			if e.Type == event.StepStart {
				k.steps = append(k.steps, openStep{start: e, shown: time.Now()})
			}
			if e.Type == event.StepEnd {
				k.steps = slices.DeleteFunc(k.steps, func(s openStep) bool {
					if s.start.ID != e.ID {
						return false
					}
					s.out.close() // the whole artifact is written over it below
					s.err.close()
					return true
				})
				delete(q.ids, e.ID)
				base := filepath.Join(q.h.RunDir(), fmt.Sprintf("%06d-%s", n, lowered.SafeName(e.Func)))
				if e.OutFile != "" {
					e.OutFile = base + ".out"
					q.artifact(ctx, e.OutFile, w.Out, w.OutObj)
				}
				if e.ErrFile != "" {
					e.ErrFile = base + ".err"
					q.artifact(ctx, e.ErrFile, w.Err, w.ErrObj)
				}
			}
		default:
			e.Depth += q.o.ChildDepth
		}
		q.emit(e)
	}
}

// part appends what a remote step still running wrote to its artifacts in
// the run directory (q.mu held), masked as artifacts are, so that a step
// whose worker dies keeps what reached the broker; its STEP_END writes the
// whole artifact over it.
func (q *queue) part(k *known, p *wirePart) {
	var s *openStep
	for i := range k.steps {
		if k.steps[i].start.ID == p.ID {
			s = &k.steps[i]
		}
	}
	if s == nil {
		return
	}
	var red *redact.Redactor
	if r, ok := q.h.(interface{ Redactor() *redact.Redactor }); ok {
		red = r.Redactor()
	}
	base := filepath.Join(q.h.RunDir(), fmt.Sprintf("%06d-%s", s.start.Seq, lowered.SafeName(s.start.Func)))
	for _, a := range []struct {
		b    []byte
		path string
		file **partFile
	}{{p.Out, base + ".out", &s.out}, {p.Err, base + ".err", &s.err}} {
		if len(a.b) == 0 {
			continue
		}
		if *a.file == nil {
			f, err := os.OpenFile(a.path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
			if err != nil {
				continue
			}
			*a.file = &partFile{path: a.path, f: f, w: redact.NewWriter(red, f)}
		}
		_, _ = (*a.file).w.Write(a.b)
	}
}

// appendPart is the part file at path, written by an orchestrator killed
// since, opened to append the parts that come now (nil when there is
// none).
func (q *queue) appendPart(path string) *partFile {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		return nil
	}
	var red *redact.Redactor
	if r, ok := q.h.(interface{ Redactor() *redact.Redactor }); ok {
		red = r.Redactor()
	}
	return &partFile{path: path, f: f, w: redact.NewWriter(red, f)}
}

// artifact writes a remote step's artifact into the run directory: its
// bytes, or the object they were stored as.
//
// The worker masked what its own environment names as credentials; the
// run's may hold others: the file is masked again with the run's
// redactor as it is written (docs/security.md), as the run's own
// artifacts are.
func (q *queue) artifact(ctx context.Context, path string, inline []byte, object string) {
	var red *redact.Redactor
	if r, ok := q.h.(interface{ Redactor() *redact.Redactor }); ok {
		red = r.Redactor()
	}
	if object == "" {
		_ = os.WriteFile(path, red.Bytes(inline), 0o644)
		return
	}
	obs, err := q.t.js.ObjectStore(ctx, artStore(q.run))
	if err != nil {
		return
	}
	r, err := obs.Get(ctx, object)
	if err != nil {
		return
	}
	defer r.Close()
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	if err != nil {
		return
	}
	w := redact.NewWriter(red, f)
	_, err = io.Copy(w, r)
	if ferr := w.Flush(); err == nil {
		err = ferr
	}
	if cerr := f.Close(); err != nil || cerr != nil {
		os.Remove(path) // half a file is worse than none: the event says where it was
	}
}

// purge removes the run's deliveries that no worker has taken yet, when
// the drain stops early.
func (q *queue) purge(ctx context.Context) {
	if st, err := q.t.js.Stream(ctx, workStream); err == nil {
		_ = st.Purge(ctx, jetstream.WithPurgeSubject(workPrefix+q.run+".>"))
	}
}

// retryDelay is the wait before retry n (1-based): backoff doubled after
// each failed attempt, at most 5 minutes.
func retryDelay(backoff time.Duration, n int) time.Duration {
	d := backoff
	for i := 1; i < n && d < 5*time.Minute; i++ {
		d *= 2
	}
	return min(d, 5*time.Minute)
}

// watchdogEvery is how often the drain looks for deliveries that nothing
// is moving: a fraction of the lease, within bounds.
func watchdogEvery(lease time.Duration) time.Duration {
	return min(max(lease/2, 250*time.Millisecond), 5*time.Second)
}

// watchdog makes "a delivery nobody will ever finish" impossible by
// construction rather than by luck. It republishes, under a fresh message
// id, a delivery that is queued in the ledger with no work message behind
// it (a message lost to a fault, or never published before a kill -9), and
// one claimed by a worker that stopped renewing its lease: no ledger change
// seen for 1.5 leases, by this process's clock (no worker's clock is
// trusted). The record's compare-and-set is the fence, as for a worker;
// the stale worker's late writes fail on it, and a worker that receives
// the replaced message drops it (record.Msg).
//
// It returns true when the leader's ledger was ahead of what the drain's
// watch showed, for a delivery the watch has been silent on for a lease.
func (q *queue) watchdog(ctx context.Context, stderr io.Writer) (lagging bool) {
	now := time.Now()
	type candidate struct {
		key string
		k   *known
	}
	var queued, stale []candidate
	q.mu.Lock()
	for key, k := range q.known {
		if !k.final && k.rec != nil && now.Sub(k.recAt) > q.lease {
			// Final in the ledger a lease ago, and its events never came:
			// the events' consumer is stuck on a node that died.
			lagging = true
		}
		if k.final || k.rec != nil || !k.published.Load() {
			continue
		}
		switch {
		case k.state == stClaimed && !k.seenAt.IsZero() && now.Sub(k.seenAt) > q.lease+q.lease/2:
			stale = append(stale, candidate{key, k})
		case (k.state == stQueued || k.state == "") && (k.checkedAt.IsZero() && k.seenAt.IsZero() ||
			now.Sub(k.checkedAt) > q.lease && now.Sub(k.seenAt) > q.lease):
			// never looked at, or nothing moved it for a lease
			queued = append(queued, candidate{key, k})
		}
	}
	q.mu.Unlock()
	if len(queued) == 0 && len(stale) == 0 {
		return lagging
	}
	var present map[string]uint64
	if len(queued) > 0 {
		st, err := try(ctx, func(c context.Context) (jetstream.Stream, error) { return q.t.js.Stream(c, workStream) })
		if err != nil {
			return lagging // the broker is away: the next round looks again
		}
		info, err := try(ctx, func(c context.Context) (*jetstream.StreamInfo, error) {
			return st.Info(c, jetstream.WithSubjectFilter(workPrefix+q.run+".>"))
		})
		if err != nil {
			return lagging
		}
		present = info.State.Subjects
	}
	for _, c := range queued {
		q.mu.Lock()
		c.k.checkedAt = now
		q.mu.Unlock()
		if present[workSubject(q.run, c.key)] > 0 {
			continue
		}
		lagging = q.takeOver(ctx, c.key, c.k, stQueued, stderr) || lagging
	}
	for _, c := range stale {
		lagging = q.takeOver(ctx, c.key, c.k, stClaimed, stderr) || lagging
	}
	return lagging
}

// takeOver queues delivery key again under a fresh message id, if the
// leader's record is still in the state the watchdog saw (and, for a
// claim, at the revision it last saw). It reports a watch that lags: the
// leader has a revision the watch never showed.
func (q *queue) takeOver(ctx context.Context, key string, k *known, state string, stderr io.Writer) (lagging bool) {
	e, err := q.kv.get(ctx, key)
	if errors.Is(err, errNoRecord) {
		q.recreate(ctx, key, k, stderr)
		return false
	}
	if err != nil {
		return false
	}
	q.mu.Lock()
	seenRev := k.seenRev
	lagging = seenRev != 0 && e.rev > seenRev
	q.mu.Unlock()
	r, err := decodeRecord(e.value)
	if err != nil || r.State != state {
		return lagging
	}
	worker := r.Worker
	if state == stClaimed && e.rev != seenRev {
		// The leader has heartbeats the watch did not show: the claim
		// lives (and the watch is to be followed again).
		q.mu.Lock()
		k.seenRev, k.seenAt = e.rev, time.Now()
		q.mu.Unlock()
		return lagging
	}
	r.Republished++
	if state == stClaimed {
		r.Ended = append(r.Ended, ended{Worker: r.Worker}) // its lease lost
	}
	r.State, r.Worker = stQueued, ""
	r.Msg = fmt.Sprintf("%s.%s.r%d", q.run, key, r.Republished)
	if r.Epoch > 0 {
		r.Msg += fmt.Sprintf(".e%d", r.Epoch)
	}
	if _, err := update(ctx, q.kv, key, r.encode(), e.rev); err != nil {
		return lagging // it moved meanwhile: whoever moved it owns it
	}
	if _, err := publish(ctx, q.t.js, workSubject(q.run, key), k.work, r.Msg); err != nil {
		fmt.Fprintf(stderr, "jaiph: cannot queue message %s to %s again: %v\n", k.seq, k.target, err)
		return lagging
	}
	if state == stClaimed {
		fmt.Fprintf(stderr, "jaiph: message %s to %s: worker %s stopped renewing its lease; queued again\n", k.seq, k.target, worker)
	} else {
		fmt.Fprintf(stderr, "jaiph: message %s to %s was queued with no work message on the broker; queued again\n", k.seq, k.target)
	}
	return lagging
}

// recreate writes the record of a delivery the run queued whose record
// the ledger's leader does not have and whose work message is gone — a
// delivery queued with none (delivery.Create) whose message was lost, or
// one whose record was lost (a replica that came back without it, a
// worker that dead-lettered the work message after looking for it ten
// times) — and queues the delivery under a fresh message id. Without
// this the run would wait for a delivery no worker can take.
func (q *queue) recreate(ctx context.Context, key string, k *known, stderr io.Writer) {
	id := fmt.Sprintf("%s.%s.n%d", q.run, key, time.Now().UnixNano())
	r := &record{State: stQueued, Target: k.target, Msg: id, Epoch: k.epoch}
	if _, err := try(ctx, func(c context.Context) (uint64, error) { return q.kv.kv.Create(c, key, r.encode()) }); err != nil {
		return // someone wrote it meanwhile, or the broker is away: the next round looks again
	}
	if _, err := publish(ctx, q.t.js, workSubject(q.run, key), k.work, id); err != nil {
		fmt.Fprintf(stderr, "jaiph: cannot queue message %s to %s again: %v\n", k.seq, k.target, err)
		return
	}
	q.mu.Lock()
	// A record was there when the watch saw one, or when an attempt was
	// shown (a claim writes the record; the watch, behind, may have
	// missed it before it went).
	recorded := k.seenRev != 0 || k.claims > 0
	k.state, k.seenRev, k.seenAt, k.checkedAt = stQueued, 0, time.Time{}, time.Now()
	q.mu.Unlock()
	if !recorded {
		// Queued with no record (delivery.Create), as a fresh run's
		// deliveries are: its work message is what went missing.
		fmt.Fprintf(stderr, "jaiph: message %s to %s was queued with no work message on the broker; queued again\n", k.seq, k.target)
		return
	}
	fmt.Fprintf(stderr, "jaiph: message %s to %s had no ledger record on the broker; recorded and queued again\n", k.seq, k.target)
}

// showWaiting tells once why a delivery waits (no worker of the run's
// jaiph-go version took it yet).
func (q *queue) showWaiting(key string, r *record, stderr io.Writer) {
	q.mu.Lock()
	defer q.mu.Unlock()
	k := q.known[key]
	if k == nil || k.final || r.Waiting == "" || r.Waiting == k.waiting || r.State != stQueued {
		return
	}
	k.waiting = r.Waiting
	fmt.Fprintf(stderr, "jaiph: message %s to %s waits: %s\n", k.seq, k.target, r.Waiting)
}
