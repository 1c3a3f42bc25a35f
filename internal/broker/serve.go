package broker

// This file answers: how does `jaiph serve --inbox` keep its runs on the
// broker, so that any replica answers for any run (served.Backend)?
//
//   KV     JAIPH_SERVE_RUNS   run.<id>: a served run's record (its object,
//                             arguments, sources, lease, heartbeat, cancel)
//   KV     JAIPH_SERVE_IDEM   <sha256(principal, workflow, key)>: the run an
//                             Idempotency-Key started (entries expire: TTL)
//   stream JAIPH_SERVE_WORK   jaiph.serve.work.<id>: a run to take (work queue,
//                             consumer "runners")
//   stream JAIPH_SERVE_REC    jaiph.serve.rec.<id>.sum|jnl: the lines of each
//                             run's summary and journal, as written
//   object JAIPH_SERVE_ART    <id>/<path>: the files a run published

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/jaiph-go/jaiph/internal/buildinfo"
	"github.com/jaiph-go/jaiph/internal/engine"
	"github.com/jaiph-go/jaiph/internal/served"
)

const (
	serveBucket   = "JAIPH_SERVE_RUNS"
	idemBucket    = "JAIPH_SERVE_IDEM"
	serveWork     = "JAIPH_SERVE_WORK"
	serveWorkPfx  = "jaiph.serve.work."
	runnersName   = "runners"
	serveRec      = "JAIPH_SERVE_REC"
	serveRecPfx   = "jaiph.serve.rec."
	serveArtStore = "JAIPH_SERVE_ART"
)

func serveRunKey(id string) string { return "run." + id }

// activeKey marks a run that is not terminal: the watchdog looks at these
// only (every record would grow with every run ever served).
func activeKey(id string) string { return "active." + id }

// retire removes a terminal run's active mark.
func retire(ctx context.Context, kv *ledger, id string) {
	_ = kv.drop(ctx, activeKey(id))
}
func recSubject(id, file string) string   { return serveRecPfx + id + "." + file }
func serveWorkSubject(id string) string   { return serveWorkPfx + id }
func workMsgID(id string, n int) string   { return fmt.Sprintf("%s.%d", id, n) }
func artName(id, path string) string      { return id + "/" + path }
func recFileOf(subject, id string) string { return strings.TrimPrefix(subject, serveRecPfx+id+".") }

// Files of the record stream.
const (
	recSummary = "sum"
	recJournal = "jnl"
)

// serveRecord is a served run's KV value.
type serveRecord struct {
	served.Run
	Args           []string  `json:"args"`
	Target         string    `json:"target"`  // the workflow in the entry
	Sources        string    `json:"sources"` // the hash of the sources in JAIPH_SRC
	Version        string    `json:"version"` // the jaiph-go that admitted it
	LeaseMS        int64     `json:"lease_ms"`
	Heartbeat      time.Time `json:"heartbeat,omitzero"`
	Cancel         bool      `json:"cancel,omitempty"`
	IdempotencyKey string    `json:"idempotency_key,omitempty"`
	ArgsHash       string    `json:"args_hash,omitempty"`
	// Queued counts the work messages published for the run: the current
	// one's id is workMsgID(run, Queued).
	Queued int `json:"queued"`
	// Receives are the channels the run receives on (a send from outside
	// to another is refused).
	Receives []string `json:"receives,omitempty"`
	// Suspended: the run waits in a receive (Waiting) with no worker
	// (servewait.go); WaitKeyed says the receive names a key.
	Suspended bool `json:"suspended,omitempty"`
	WaitKeyed bool `json:"wait_keyed,omitempty"`
}

func (r *serveRecord) lease() time.Duration {
	if r.LeaseMS > 0 {
		return time.Duration(r.LeaseMS) * time.Millisecond
	}
	return defaultLease
}

// ServeOptions configure a service's broker backend.
type ServeOptions struct {
	URL      string
	Replicas int           // the buckets' and streams' replicas (a cluster: 3)
	Lease    time.Duration // how long a run's worker may go without a heartbeat before another takes it (default 30 s)
	// IdempotencyTTL is how long an Idempotency-Key is remembered
	// (default 24 h).
	IdempotencyTTL time.Duration
	Log            io.Writer
}

// ServeBackend keeps a service's runs on the broker: records in KV, runs
// queued for workers, their summaries and published files in streams and
// an object store. It holds no state of its own: any number of replicas
// answer for the same runs.
type ServeBackend struct {
	o         ServeOptions
	nc        *nats.Conn
	js        jetstream.JetStream
	kv        *ledger // JAIPH_SERVE (leader reads, restart-proof writes)
	idem      *ledger
	workflows map[string]servedProgram
	stop      context.CancelFunc
	done      chan struct{}
	hub       *recordHub // one watch of every run's record, for all waiters

	srcMu      sync.Mutex
	srcChecked map[string]time.Time // sources hash → when publishSources last looked
	// worker: this process also takes runs (--execute).
	worker               *Worker
	stopWorker, hardStop context.CancelFunc
	workerDone           chan struct{}
}

// servedProgram is a served workflow with its sources on the broker.
type servedProgram struct {
	served.Workflow
	sources string
	t       *Transport // publishes the sources again (refresh)
	// receives are the channels its receive steps name.
	receives []string
}

var _ served.Backend = (*ServeBackend)(nil)

// NewServeBackend connects to the broker, makes the service's buckets and
// streams, publishes the workflows' sources, and starts the watchdog that
// queues again the runs whose worker stopped renewing its lease.
func NewServeBackend(ctx context.Context, o ServeOptions, workflows []served.Workflow) (*ServeBackend, error) {
	if o.Lease <= 0 {
		o.Lease = defaultLease
	}
	if o.IdempotencyTTL <= 0 {
		o.IdempotencyTTL = 24 * time.Hour
	}
	if o.Log == nil {
		o.Log = io.Discard
	}
	nc, js, err := connect(ctx, o.URL, "jaiph serve")
	if err != nil {
		return nil, err
	}
	b := &ServeBackend{o: o, nc: nc, js: js, workflows: map[string]servedProgram{}, done: make(chan struct{}),
		srcChecked: map[string]time.Time{}}
	setup, cancel := context.WithTimeout(ctx, setupPatience)
	defer cancel()
	err = retrySetup(setup, func(c context.Context) error {
		kv, idem, err := ensureServe(c, js, max(o.Replicas, 1), o.IdempotencyTTL)
		if err != nil {
			return err
		}
		b.kv, b.idem = &ledger{kv: kv, nc: nc, bucket: serveBucket}, &ledger{kv: idem, nc: nc, bucket: idemBucket}
		return nil
	})
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("cannot make the service's buckets on the broker: %w", err)
	}
	for _, w := range workflows {
		prog, err := engine.Open(w.File)
		if err != nil {
			nc.Close()
			return nil, err
		}
		src, err := prog.Sources()
		if err != nil {
			nc.Close()
			return nil, err
		}
		s := Sources{Entry: src.Entry, Files: src.Files}
		t := &Transport{js: js, src: s, hash: s.Hash(), replicas: max(o.Replicas, 1)}
		if err := retrySetup(setup, t.publishSources); err != nil {
			nc.Close()
			return nil, fmt.Errorf("cannot publish the sources of %s to the broker: %w", w.File, err)
		}
		b.workflows[w.Name] = servedProgram{Workflow: w, sources: t.hash, t: t, receives: prog.ReceivedChannels()}
	}
	wctx, stop := context.WithCancel(context.Background())
	b.stop = stop
	b.hub = &recordHub{subs: map[string][]chan struct{}{}}
	if err := b.hub.start(wctx, b.kv.kv); err != nil {
		stop()
		nc.Close()
		return nil, fmt.Errorf("cannot watch the runs' records: %w", err)
	}
	if err := b.timers(wctx); err != nil {
		stop()
		nc.Close()
		return nil, fmt.Errorf("cannot watch the waiting runs' timeouts: %w", err)
	}
	go func() {
		defer close(b.done)
		b.watchdog(wctx)
	}()
	return b, nil
}

// ensureServe makes the service's buckets and streams (idempotent).
func ensureServe(ctx context.Context, js jetstream.JetStream, replicas int, idemTTL time.Duration) (jetstream.KeyValue, jetstream.KeyValue, error) {
	kv, err := ensureServeRuns(ctx, js, replicas)
	if err != nil {
		return nil, nil, err
	}
	idem, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: idemBucket, History: 1, Replicas: replicas, TTL: idemTTL})
	if err != nil {
		return nil, nil, err
	}
	return kv, idem, nil
}

// ensureServeRuns makes what workers need of the service: the runs'
// bucket, the work and record streams, the artifact store.
func ensureServeRuns(ctx context.Context, js jetstream.JetStream, replicas int) (jetstream.KeyValue, error) {
	kv, err := js.KeyValue(ctx, serveBucket)
	if errors.Is(err, jetstream.ErrBucketNotFound) {
		kv, err = js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: serveBucket, History: 1, Replicas: replicas})
		if errors.Is(err, jetstream.ErrBucketExists) {
			kv, err = js.KeyValue(ctx, serveBucket)
		}
	}
	if err != nil {
		return nil, err
	}
	if err := ensureStream(ctx, js, jetstream.StreamConfig{Name: serveWork, Subjects: []string{serveWorkPfx + ">"},
		Retention: jetstream.WorkQueuePolicy, Replicas: replicas, Duplicates: 2 * time.Minute}); err != nil {
		return nil, err
	}
	if err := ensureStream(ctx, js, jetstream.StreamConfig{Name: serveRec, Subjects: []string{serveRecPfx + ">"},
		Replicas: replicas, Duplicates: 2 * time.Minute}); err != nil {
		return nil, err
	}
	if _, err := js.ObjectStore(ctx, serveArtStore); err != nil {
		if _, err := js.CreateOrUpdateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: serveArtStore, Replicas: replicas}); err != nil {
			return nil, err
		}
	}
	return kv, nil
}

// getRecord reads a run's record from the leader.
func (b *ServeBackend) getRecord(ctx context.Context, id string) (*serveRecord, uint64, error) {
	return readServeRecord(ctx, b.kv, id)
}

func readServeRecord(ctx context.Context, kv *ledger, id string) (*serveRecord, uint64, error) {
	if !validID(id) {
		return nil, 0, served.ErrNotFound
	}
	e, err := kv.get(ctx, serveRunKey(id))
	if errors.Is(err, errNoRecord) {
		return nil, 0, served.ErrNotFound
	}
	if err != nil {
		return nil, 0, err
	}
	var r serveRecord
	if err := json.Unmarshal(e.value, &r); err != nil {
		return nil, 0, fmt.Errorf("run %s: unreadable record: %w", id, err)
	}
	return &r, e.rev, nil
}

// validID: a run id as the service makes them (a UUID), nothing a KV key
// or a subject could be confused by.
func validID(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for _, c := range id {
		if !(c >= 'a' && c <= 'f' || c >= '0' && c <= '9' || c == '-') {
			return false
		}
	}
	return true
}

func newRunID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func (b *ServeBackend) Start(ctx context.Context, st served.Start) (served.Run, bool, error) {
	w, ok := b.workflows[st.Workflow]
	if !ok {
		return served.Run{}, false, served.ErrNotFound
	}
	// Retention removes sources no run used within its window: looked at
	// every ten minutes, stored an hour ago or more, they are stored
	// again (publishSources) before a run needs them.
	b.srcMu.Lock()
	due := time.Since(b.srcChecked[w.sources]) > 10*time.Minute
	b.srcMu.Unlock()
	if due {
		if err := w.t.publishSources(ctx); err != nil {
			return served.Run{}, false, fmt.Errorf("cannot publish the workflow's sources to the broker: %w", err)
		}
		b.srcMu.Lock()
		b.srcChecked[w.sources] = time.Now()
		b.srcMu.Unlock()
	}
	argsJSON, _ := json.Marshal(st.Args)
	sum := sha256.Sum256(argsJSON)
	rec := &serveRecord{Run: served.Run{RunID: newRunID(), Workflow: st.Workflow, Status: served.StatusQueued,
		StartedAt: time.Now().UTC(), Principal: st.Principal, CorrelationID: st.CorrelationID},
		Args: st.Args, Target: w.Workflow.Workflow, Sources: w.sources, Version: buildinfo.Version(),
		LeaseMS: b.o.Lease.Milliseconds(), IdempotencyKey: st.IdempotencyKey, ArgsHash: hex.EncodeToString(sum[:]), Queued: 1,
		Receives: w.receives}
	if st.IdempotencyKey != "" {
		k := sha256.Sum256([]byte(st.Principal + "\x00" + st.Workflow + "\x00" + st.IdempotencyKey))
		key := hex.EncodeToString(k[:])
		val, _ := json.Marshal(map[string]string{"run": rec.RunID, "args": rec.ArgsHash})
		if _, err := b.idem.kv.Create(ctx, key, val); err != nil {
			if !errors.Is(err, jetstream.ErrKeyExists) {
				return served.Run{}, false, err
			}
			e, err := b.idem.get(ctx, key)
			if err != nil {
				return served.Run{}, false, err
			}
			var first map[string]string
			json.Unmarshal(e.value, &first)
			if first["args"] != rec.ArgsHash {
				return served.Run{}, false, served.ErrConflict
			}
			// The first request's run; its record may be a moment behind
			// its key (the first replica is writing it).
			for n := 0; ; n++ {
				r, _, err := b.getRecord(ctx, first["run"])
				if err == nil {
					return r.Run, false, nil
				}
				if !errors.Is(err, served.ErrNotFound) || n >= 50 {
					return served.Run{}, false, err
				}
				sleep(ctx, 100*time.Millisecond)
			}
		}
	}
	val, _ := json.Marshal(rec)
	if _, err := create(ctx, b.kv, activeKey(rec.RunID), nil); err != nil {
		return served.Run{}, false, fmt.Errorf("cannot record the run on the broker: %w", err)
	}
	if _, err := create(ctx, b.kv, serveRunKey(rec.RunID), val); err != nil {
		return served.Run{}, false, fmt.Errorf("cannot record the run on the broker: %w", err)
	}
	if err := b.queue(ctx, rec); err != nil {
		// The watchdog queues it later: the record says queued.
		fmt.Fprintf(b.o.Log, "jaiph serve: run %s: cannot queue it yet: %v (the watchdog will)\n", rec.RunID, err)
	}
	return rec.Run, true, nil
}

// queue publishes the run's current work message.
func (b *ServeBackend) queue(ctx context.Context, rec *serveRecord) error {
	body, _ := json.Marshal(map[string]any{"run": rec.RunID, "n": rec.Queued})
	_, err := publish(ctx, b.js, serveWorkSubject(rec.RunID), body, workMsgID(rec.RunID, rec.Queued))
	return err
}

func (b *ServeBackend) Get(ctx context.Context, id string) (served.Run, error) {
	r, _, err := b.getRecord(ctx, id)
	if err != nil {
		return served.Run{}, err
	}
	return r.Run, nil
}

// List reads every record (the service's runs are as many as the
// retention keeps).
func (b *ServeBackend) List(ctx context.Context, principal string, all bool, limit, offset int) ([]served.Run, int, error) {
	recs, err := b.records(ctx)
	if err != nil {
		return nil, 0, err
	}
	var mine []served.Run
	for _, r := range recs {
		if all || r.Principal == principal {
			mine = append(mine, r.Run)
		}
	}
	sort.Slice(mine, func(i, j int) bool { return mine[i].StartedAt.After(mine[j].StartedAt) })
	page := []served.Run{}
	for i := offset; i < len(mine) && len(page) < limit; i++ {
		page = append(page, mine[i])
	}
	return page, len(mine), nil
}

// records are all runs' records, read by one watch that delivers each
// key's value (a listing of the keys and then a read per key made two
// round trips a run: 10,000 runs took seconds a page).
func (b *ServeBackend) records(ctx context.Context) ([]*serveRecord, error) {
	w, err := b.kv.kv.WatchFiltered(ctx, []string{"run.*"}, jetstream.IgnoreDeletes())
	if err != nil {
		return nil, err
	}
	defer w.Stop()
	var recs []*serveRecord
	for {
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case e := <-w.Updates():
			if e == nil {
				return recs, nil // every key's value delivered
			}
			id, ok := strings.CutPrefix(e.Key(), "run.")
			var r serveRecord
			if ok && json.Unmarshal(e.Value(), &r) == nil && r.RunID == id {
				recs = append(recs, &r)
			}
		}
	}
}

// Cancel marks the run cancelled: its worker watches its record and stops
// it; a run no worker took yet ends at once.
func (b *ServeBackend) Cancel(ctx context.Context, id string) error {
	for {
		r, rev, err := b.getRecord(ctx, id)
		if err != nil {
			return err
		}
		if served.Terminal(r.Status) || r.Cancel {
			return nil
		}
		r.Cancel = true
		if r.Status == served.StatusQueued || r.Suspended {
			now := time.Now().UTC()
			st := 143
			r.ResultText = "cancelled before a worker took it"
			if r.Suspended {
				r.ResultText = fmt.Sprintf("cancelled while it waited on channel %q", r.Waiting.Channel)
			}
			if r.Suspended {
				_ = b.kv.drop(ctx, waitingKey(r.Waiting.Channel, r.Waiting.Key, id))
			}
			r.Status, r.EndedAt, r.ExitStatus, r.Signal = served.StatusCancelled, &now, &st, "SIGTERM"
			r.Suspended, r.Waiting = false, nil
		}
		val, _ := json.Marshal(r)
		if _, err := update(ctx, b.kv, serveRunKey(id), val, rev); errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			continue // it moved (a worker took it): look again
		} else if err != nil {
			return err
		}
		if served.Terminal(r.Status) {
			retire(ctx, b.kv, id)
		}
		return nil
	}
}

// Verify: the run's records were verified where it ran (its integrity
// field); the copy on the broker is what that worker wrote.
func (b *ServeBackend) Verify(ctx context.Context, id string) error {
	r, _, err := b.getRecord(ctx, id)
	if err != nil {
		return err
	}
	if strings.HasPrefix(r.Integrity, "tampered") {
		return fmt.Errorf("%w: %s", served.ErrTampered, r.Integrity)
	}
	return nil
}

func (b *ServeBackend) Close(ctx context.Context) {
	if b.worker != nil {
		b.stopWorker() // finishing what it holds, until ctx ends
		select {
		case <-b.workerDone:
		case <-ctx.Done():
			b.hardStop()
			<-b.workerDone
		}
	}
	b.stop()
	<-b.done
	b.nc.Close()
}

// execute starts a worker in this process (`jaiph serve --execute`): it
// takes runs and deliveries as `jaiph worker` does.
func (b *ServeBackend) execute(o served.BrokerOptions) (*ServeBackend, error) {
	soft, stopSoft := context.WithCancel(context.Background())
	hard, stopHard := context.WithCancel(context.Background())
	host, _ := os.Hostname()
	w := &Worker{URL: o.URL, Name: host + ":" + strconv.Itoa(os.Getpid()) + "/serve", Dir: o.Dir, Concurrency: 4, ClaimAfter: DefaultClaimAfter,
		Replicas: max(o.Replicas, 1), Environ: o.Environ, Log: o.Log, Hard: hard}
	if err := w.checkDir(); err != nil {
		stopSoft()
		stopHard()
		b.Close(context.Background())
		return nil, err
	}
	b.worker, b.stopWorker, b.hardStop, b.workerDone = w, stopSoft, stopHard, make(chan struct{})
	go func() {
		defer close(b.workerDone)
		if err := b.worker.Run(soft); err != nil {
			fmt.Fprintf(b.o.Log, "jaiph serve: the worker of this process stopped: %v\n", err)
		}
	}()
	return b, nil
}

// Follow reads the run's summary lines from the record stream, and wakes
// at each new line or change of its record.
func (b *ServeBackend) Follow(ctx context.Context, id string) (served.Follower, error) {
	if _, _, err := b.getRecord(ctx, id); err != nil {
		return nil, err
	}
	// What is there already is delivered before Follow returns: a
	// snapshot (the NDJSON answer) reads it whole with one Next.
	backlog := uint64(0)
	if st, err := b.js.Stream(ctx, serveRec); err == nil {
		if info, err := st.Info(ctx, jetstream.WithSubjectFilter(recSubject(id, recSummary))); err == nil {
			backlog = info.State.Subjects[recSubject(id, recSummary)]
		}
	}
	f := &streamFollower{changed: make(chan struct{}), stored: func(c context.Context) (uint64, error) {
		st, err := b.js.Stream(c, serveRec)
		if err != nil {
			return 0, err
		}
		info, err := st.Info(c, jetstream.WithSubjectFilter(recSubject(id, recSummary)))
		if err != nil {
			return 0, err
		}
		return info.State.Subjects[recSubject(id, recSummary)], nil
	}}
	fctx, cancel := context.WithCancel(context.Background())
	f.cancel = cancel
	cons, err := b.js.OrderedConsumer(fctx, serveRec, jetstream.OrderedConsumerConfig{
		FilterSubjects: []string{recSubject(id, recSummary)}, DeliverPolicy: jetstream.DeliverAllPolicy})
	if err != nil {
		cancel()
		return nil, err
	}
	cc, err := cons.Consume(func(m jetstream.Msg) {
		f.mu.Lock()
		f.lines = append(f.lines, append(bytes.TrimRight(m.Data(), "\n"), '\n'))
		f.delivered++
		f.mu.Unlock()
		f.wake()
	})
	if err != nil {
		cancel()
		return nil, err
	}
	f.cc = cc
	// The record's changes, from the hub's one watch.
	go func() {
		for {
			ch := b.hub.next(serveRunKey(id))
			select {
			case <-ch:
				f.wake()
			case <-fctx.Done():
				b.hub.drop(serveRunKey(id), ch)
				return
			}
		}
	}()
	for deadline := time.Now().Add(10 * time.Second); ; {
		changed := f.Changed()
		f.mu.Lock()
		have := uint64(len(f.lines))
		f.mu.Unlock()
		if have >= backlog || time.Now().After(deadline) {
			break
		}
		select {
		case <-changed:
		case <-time.After(time.Until(deadline)):
		case <-ctx.Done():
			f.Close()
			return nil, ctx.Err()
		}
	}
	return f, nil
}

// streamFollower buffers the lines a consumer delivers.
type streamFollower struct {
	mu        sync.Mutex
	lines     [][]byte
	delivered uint64 // lines the consumer delivered so far
	changed   chan struct{}
	cancel    context.CancelFunc
	cc        jetstream.ConsumeContext
	// stored counts the run's summary lines on the broker now.
	stored func(context.Context) (uint64, error)
}

func (f *streamFollower) wake() {
	f.mu.Lock()
	close(f.changed)
	f.changed = make(chan struct{})
	f.mu.Unlock()
}

func (f *streamFollower) Changed() <-chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.changed
}

// Next returns the lines delivered so far, having waited (up to 2 s) for
// every line the broker held when it was called: a run's end is seen
// through its record, which can arrive before its last lines do, and a
// reader that stops at the end must still get them.
func (f *streamFollower) Next(ctx context.Context) ([][]byte, error) {
	if f.stored != nil {
		if want, err := f.stored(ctx); err == nil {
			for deadline := time.Now().Add(2 * time.Second); ; {
				changed := f.Changed()
				f.mu.Lock()
				have := f.delivered
				f.mu.Unlock()
				if have >= want || time.Now().After(deadline) {
					break
				}
				select {
				case <-changed:
				case <-time.After(time.Until(deadline)):
				case <-ctx.Done():
					return nil, ctx.Err()
				}
			}
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.lines
	f.lines = nil
	return out, nil
}

func (f *streamFollower) Close() {
	f.cc.Stop()
	f.cancel()
}

func (b *ServeBackend) Changed(ctx context.Context, id string) (<-chan struct{}, func(), error) {
	if !validID(id) {
		return nil, nil, served.ErrNotFound
	}
	key := serveRunKey(id)
	ch := b.hub.next(key)
	return ch, func() { b.hub.drop(key, ch) }, nil
}

// recordHub watches every run's record with one watcher and tells the
// waiters of a key when it changes: a consumer per waiting request hit
// the broker's consumer limit under load.
type recordHub struct {
	mu   sync.Mutex
	subs map[string][]chan struct{}
}

func (h *recordHub) start(ctx context.Context, kv jetstream.KeyValue) error {
	w, err := kv.WatchAll(ctx, jetstream.UpdatesOnly())
	if err != nil {
		return err
	}
	go func() {
		for e := range w.Updates() {
			if e == nil {
				continue
			}
			h.mu.Lock()
			for _, ch := range h.subs[e.Key()] {
				close(ch)
			}
			delete(h.subs, e.Key())
			h.mu.Unlock()
		}
		// The watch ended (the backend closes): wake everyone.
		h.mu.Lock()
		for k, chs := range h.subs {
			for _, ch := range chs {
				close(ch)
			}
			delete(h.subs, k)
		}
		h.mu.Unlock()
	}()
	return nil
}

// next is a channel closed at key's next change.
func (h *recordHub) next(key string) chan struct{} {
	ch := make(chan struct{})
	h.mu.Lock()
	h.subs[key] = append(h.subs[key], ch)
	h.mu.Unlock()
	return ch
}

// drop forgets a waiter that no longer waits.
func (h *recordHub) drop(key string, ch chan struct{}) {
	h.mu.Lock()
	defer h.mu.Unlock()
	subs := h.subs[key]
	for i, c := range subs {
		if c == ch {
			subs = append(subs[:i], subs[i+1:]...)
			break
		}
	}
	if len(subs) == 0 {
		delete(h.subs, key)
	} else {
		h.subs[key] = subs
	}
}

func (b *ServeBackend) Artifacts(ctx context.Context, id string) ([]served.Artifact, error) {
	if _, _, err := b.getRecord(ctx, id); err != nil {
		return nil, err
	}
	obs, err := b.js.ObjectStore(ctx, serveArtStore)
	if err != nil {
		return nil, err
	}
	list := []served.Artifact{}
	infos, err := obs.List(ctx, jetstream.ListObjectsShowDeleted())
	if err != nil && !errors.Is(err, jetstream.ErrNoObjectsFound) {
		return nil, err
	}
	for _, in := range infos {
		p, ok := strings.CutPrefix(in.Name, id+"/")
		if !ok || in.Deleted {
			continue
		}
		list = append(list, served.Artifact{Path: p, Size: int64(in.Size), MTime: in.ModTime.UTC()})
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Path < list[j].Path })
	return list, nil
}

func (b *ServeBackend) Open(ctx context.Context, id, path string) (served.File, error) {
	if _, _, err := b.getRecord(ctx, id); err != nil {
		return nil, err
	}
	if !cleanRel(path) {
		return nil, served.ErrNotFound
	}
	obs, err := b.js.ObjectStore(ctx, serveArtStore)
	if err != nil {
		return nil, err
	}
	info, err := obs.GetInfo(ctx, artName(id, path))
	if errors.Is(err, jetstream.ErrObjectNotFound) {
		return nil, served.ErrNotFound
	}
	if err != nil {
		return nil, err
	}
	return &objectFile{ctx: context.WithoutCancel(ctx), obs: obs, name: artName(id, path), info: info}, nil
}

// cleanRel: a relative path without . or .. segments or backslashes.
func cleanRel(p string) bool {
	if p == "" || strings.HasPrefix(p, "/") || strings.Contains(p, "\\") {
		return false
	}
	for _, seg := range strings.Split(p, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
	}
	return true
}

// objectFile reads an object as a seekable file: a seek reopens the
// object and skips to the offset (downloads read it once, in order).
type objectFile struct {
	ctx  context.Context
	obs  jetstream.ObjectStore
	name string
	info *jetstream.ObjectInfo
	r    jetstream.ObjectResult
	pos  int64 // where r is
	want int64 // where the next Read starts
}

func (f *objectFile) Size() int64        { return int64(f.info.Size) }
func (f *objectFile) ModTime() time.Time { return f.info.ModTime }

func (f *objectFile) Read(p []byte) (int, error) {
	if f.r != nil && f.want != f.pos {
		f.r.Close()
		f.r = nil
	}
	if f.r == nil {
		r, err := f.obs.Get(f.ctx, f.name)
		if err != nil {
			return 0, err
		}
		if _, err := io.CopyN(io.Discard, r, f.want); err != nil {
			r.Close()
			return 0, err
		}
		f.r, f.pos = r, f.want
	}
	n, err := f.r.Read(p)
	f.pos += int64(n)
	f.want = f.pos
	return n, err
}

func (f *objectFile) Seek(offset int64, whence int) (int64, error) {
	switch whence {
	case io.SeekStart:
		f.want = offset
	case io.SeekCurrent:
		f.want += offset
	case io.SeekEnd:
		f.want = int64(f.info.Size) + offset
	}
	if f.want < 0 {
		return 0, errors.New("seek before the start")
	}
	return f.want, nil
}

func (f *objectFile) Close() error {
	if f.r != nil {
		return f.r.Close()
	}
	return nil
}
