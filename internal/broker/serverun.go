package broker

// This file answers: how does a worker run a served run (`jaiph serve
// --inbox`), keep it, and continue one whose worker died?
//
// A run is taken from JAIPH_SERVE_WORK by a compare-and-set on its record
// (queued → running, this worker, the next attempt); the work message is
// acknowledged at once: from then on the record's heartbeat is the lease
// (servewatch.go queues the run again when it stops). The run goes on in
// a run directory of the worker, its summary and journal copied line by
// line to JAIPH_SERVE_REC as they are written, its published files to
// JAIPH_SERVE_ART after each completed call. A later attempt rebuilds the
// run directory from those copies and resumes it: the calls the journal
// says completed are replayed, not run again.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/jaiph-go/jaiph/internal/buildinfo"
	"github.com/jaiph-go/jaiph/internal/engine"
	"github.com/jaiph-go/jaiph/internal/observe/progress"
	"github.com/jaiph-go/jaiph/internal/redact"
	"github.com/jaiph-go/jaiph/internal/served"
	"github.com/jaiph-go/jaiph/internal/store/chain"
	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/jaiph-go/jaiph/internal/tools/mcpserver"
	"github.com/jaiph-go/jaiph/runtime"
)

// maxServedOutput bounds the stdout a served run's record keeps.
const maxServedOutput = 100 << 10

// serveRuns takes served runs, RunSlots at a time, until ctx ends; work
// is the runs' own context (a stopping worker lets them finish).
func (w *Worker) serveRuns(ctx, work context.Context) error {
	slots := w.RunSlots
	if slots == 0 {
		slots = max(w.Concurrency, 1)
	}
	if slots < 0 {
		return nil
	}
	// The service makes its streams; until one has, there is nothing to
	// take (and a broker used only for deliveries keeps no trace of it).
	for {
		_, err := w.js.Stream(ctx, serveWork)
		if err == nil {
			break
		}
		if ctx.Err() != nil {
			return nil
		}
		sleep(ctx, time.Second)
	}
	var cons jetstream.Consumer
	var kv *ledger
	setup, cancel := context.WithTimeout(ctx, setupPatience)
	defer cancel()
	err := retrySetup(setup, func(c context.Context) error {
		b, err := ensureServeRuns(c, w.js, max(w.Replicas, 1))
		if err != nil {
			return err
		}
		kv = &ledger{kv: b, nc: w.nc, bucket: serveBucket}
		cons, err = w.js.CreateOrUpdateConsumer(c, serveWork, jetstream.ConsumerConfig{Durable: runnersName,
			AckPolicy: jetstream.AckExplicitPolicy, AckWait: consumerAckWait, MaxDeliver: -1, MaxAckPending: -1})
		return err
	})
	if err != nil {
		return fmt.Errorf("cannot open the served runs' queue: %w", err)
	}
	go newServeWatch(kv, w.js, w.Log, "worker "+w.Name).run(ctx, watchEvery(defaultLease))
	var wg sync.WaitGroup
	pullSlots(ctx, &wg, cons, slots, func(m jetstream.Msg) { w.takeRun(work, kv, m) })
	wg.Wait()
	return nil
}

// takeRun claims the run a work message names and runs it.
func (w *Worker) takeRun(ctx context.Context, kv *ledger, m jetstream.Msg) {
	var msg struct {
		Run string `json:"run"`
		N   int    `json:"n"`
	}
	if json.Unmarshal(m.Data(), &msg) != nil || !validID(msg.Run) {
		_ = m.Term()
		return
	}
	for {
		r, rev, err := readServeRecord(ctx, kv, msg.Run)
		switch {
		case errors.Is(err, served.ErrNotFound):
			_ = m.Term() // the run's record is gone: pruned
			return
		case err != nil:
			later(m, time.Second)
			return
		case r.Queued != msg.N || r.Status != served.StatusQueued:
			_ = m.Ack() // an older message, or the run moved on
			return
		case r.Version != buildinfo.Version():
			w.logf("worker %s: run %s waits for a worker of jaiph-go %s (this one runs %s)", w.Name, r.RunID, r.Version, buildinfo.Version())
			later(m, 5*time.Second)
			return
		}
		// The sources are read before the claim: once claimed, the work
		// message is acknowledged, and a run the broker could not give
		// the sources of now is no failure of the run. It stays queued,
		// its message handed back as a delivery's is (sourcesLater):
		// delayed, and with no write to its record.
		prog, why, transient := w.program(ctx, &delivery{Sources: r.Sources, Version: r.Version})
		if transient {
			later(m, w.sourcesLater(ctx, m, "run "+r.RunID, why))
			return
		}
		// A run suspended in a receive (servewait.go) continues: its wait
		// goes to the receive, which counts its timeout from then.
		prior, keyed := r.Waiting, r.WaitKeyed
		r.Status, r.Worker, r.Heartbeat = served.StatusRunning, w.Name, time.Now().UTC()
		r.Waiting, r.Suspended, r.WaitKeyed = nil, false, false
		r.Attempt++
		val, _ := json.Marshal(r)
		next, err := update(ctx, kv, serveRunKey(r.RunID), val, rev)
		if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			continue // it moved (cancelled, taken): look again
		}
		if err != nil {
			later(m, time.Second)
			return
		}
		_ = m.Ack()
		w.logf("worker %s: run %s (%s), attempt %d", w.Name, r.RunID, r.Workflow, r.Attempt)
		w.runServed(ctx, kv, r, next, &msgReceiver{ctx: context.WithoutCancel(ctx), kv: kv, id: r.RunID, prior: prior, keyed: keyed}, prog, why)
		return
	}
}

// servedClaim is a run this worker holds: its record and revision, kept
// current by the heartbeat.
type servedClaim struct {
	mu     sync.Mutex
	kv     *ledger
	r      *serveRecord
	rev    uint64
	lost   bool // another process holds the run now: report nothing
	cancel bool // the service asked it to stop
}

// write sets the record with change applied, a compare-and-set on the
// revision held; a record that moved is read again: a cancel is noted
// (and the change retried), a record another worker holds is lost.
func (c *servedClaim) write(ctx context.Context, me string, change func(*serveRecord)) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	for {
		if c.lost {
			return errLostRun
		}
		r := *c.r
		change(&r)
		val, _ := json.Marshal(&r)
		next, err := update(ctx, c.kv, serveRunKey(r.RunID), val, c.rev)
		if err == nil {
			c.r, c.rev = &r, next
			return nil
		}
		if !errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			return err
		}
		now, rev, gerr := readServeRecord(ctx, c.kv, c.r.RunID)
		if gerr != nil {
			return gerr
		}
		if now.Worker != me || now.Attempt != c.r.Attempt || now.Status != served.StatusRunning {
			c.lost = true
			return errLostRun
		}
		c.cancel = c.cancel || now.Cancel
		c.r, c.rev = now, rev
	}
}

var errLostRun = errors.New("another process holds the run now")

// runServed runs a claimed run to its end and records it: prog is its
// program, or why says why this worker cannot run it (program).
func (w *Worker) runServed(ctx context.Context, kv *ledger, r *serveRecord, rev uint64, recv *msgReceiver, prog *engine.Program, why string) {
	claim := &servedClaim{kv: kv, r: r, rev: rev}
	lease := r.lease()
	runCtx, stop := context.WithCancelCause(context.Background())
	defer stop(nil)
	// The worker's hard stop interrupts the run: it is handed back (the
	// record stays running; the watchdog queues it for another worker).
	defer context.AfterFunc(ctx, func() { stop(&runtime.Interrupted{Signal: syscall.SIGTERM}) })()
	cancelled := func() { stop(&runtime.Interrupted{Signal: syscall.SIGTERM}) }
	// The heartbeat renews the claim; the record's watch sees a cancel at
	// once.
	beatCtx, stopBeat := context.WithCancel(ctx)
	defer stopBeat()
	go func() {
		t := time.NewTicker(max(lease/3, 50*time.Millisecond))
		defer t.Stop()
		for {
			select {
			case <-beatCtx.Done():
				return
			case <-t.C:
			}
			err := claim.write(beatCtx, w.Name, func(r *serveRecord) { r.Heartbeat = time.Now().UTC() })
			claim.mu.Lock()
			lost, cancel := claim.lost, claim.cancel
			claim.mu.Unlock()
			if lost {
				stop(errLostRun)
				return
			}
			if cancel {
				cancelled()
			}
			_ = err
		}
	}()
	if watch, err := kv.kv.Watch(beatCtx, serveRunKey(r.RunID), jetstream.UpdatesOnly()); err == nil {
		go func() {
			defer watch.Stop()
			for e := range watch.Updates() {
				var now serveRecord
				if e != nil && json.Unmarshal(e.Value(), &now) == nil && now.Cancel {
					cancelled()
					return
				}
			}
		}()
	}
	out, err, root, strayLine := w.executeServed(runCtx, ctx, claim, r, recv, prog, why)
	stopBeat()
	claim.mu.Lock()
	lost := claim.lost || errors.Is(context.Cause(runCtx), errLostRun)
	userCancel := claim.cancel
	claim.mu.Unlock()
	if lost {
		w.logf("worker %s: run %s: another worker holds it now; its result here is dropped", w.Name, r.RunID)
		return
	}
	if wt, keyed := recv.suspended(); err == nil && out.Suspended && wt != nil && !userCancel {
		if serr := w.suspend(context.WithoutCancel(ctx), kv, claim, wt, keyed); serr != nil {
			// The record still says running: the watchdog queues it again
			// once the heartbeat is stale, and the receive waits again.
			w.logf("worker %s: run %s: cannot record that it waits on channel %q: %v", w.Name, r.RunID, wt.Channel, serr)
			return
		}
		w.logf("worker %s: run %s waits on channel %q without a worker", w.Name, r.RunID, wt.Channel)
		return
	}
	if ctx.Err() != nil && !userCancel {
		w.logf("worker %s: run %s: handed back (the worker stops)", w.Name, r.RunID)
		return // the watchdog queues it again once the heartbeat is stale
	}
	red := redact.FromEnv(w.Environ)
	werr := claim.write(context.Background(), w.Name, func(rec *serveRecord) {
		now := time.Now().UTC()
		rec.EndedAt = &now
		if err != nil {
			st := 1
			rec.Status, rec.ExitStatus = served.StatusFailed, &st
			rec.ResultText = red.String("the run did not start: " + err.Error())
			return
		}
		st := out.ExitStatus()
		rec.ExitStatus = &st
		if out.Interrupted != nil {
			rec.Signal = out.Interrupted.SignalName()
		}
		rec.RunDir = out.RunDir
		rec.Output = red.String(root.Output())
		if out.RunDir != "" {
			rec.Integrity = runs.Verify(out.RunDir, chain.Store{Dir: w.keyDir()}).String()
		}
		switch {
		case userCancel || rec.Cancel:
			rec.Status = served.StatusCancelled
		case out.Failed || out.Interrupted != nil:
			rec.Status = served.StatusFailed
		default:
			rec.Status = served.StatusSucceeded
		}
		if rec.Status == served.StatusSucceeded {
			rec.ResultText = red.String(out.Value)
		} else {
			o := mcpserver.Output{Status: st, Output: rec.Output, ReturnValue: red.String(out.Value), RunDir: out.RunDir, SummaryFile: out.SummaryFile}
			rec.ResultText = red.String(mcpserver.ResultText(rec.Target, o, out, strayLine))
		}
	})
	if werr != nil {
		w.logf("worker %s: run %s: cannot record its end: %v", w.Name, r.RunID, werr)
		return
	}
	retire(context.Background(), kv, r.RunID)
	w.logf("worker %s: run %s ended: %s", w.Name, r.RunID, claim.r.Status)
}

// keyDir is the key store the worker's runs are chained under.
func (w *Worker) keyDir() string {
	dir, _ := chain.StoreDir(runtime.NewEnv(w.Environ).Get)
	return dir
}

// executeServed runs (or, on a later attempt, resumes) the run in this
// process, copying its records and published files to the broker; prog
// is its program (nil: why fails it, takeRun read it).
// The records are copied under keep, which outlives the run's own
// context: a cancelled run's last lines still reach the broker.
func (w *Worker) executeServed(ctx, keep context.Context, claim *servedClaim, r *serveRecord, recv *msgReceiver, prog *engine.Program, why string) (engine.Outcome, error, *mcpserver.RootStep, string) {
	root := &mcpserver.RootStep{}
	if prog == nil {
		return engine.Outcome{}, errors.New(why), root, ""
	}
	// The run's channels are on the broker too: its deliveries are work
	// items any worker takes, as a `jaiph run --inbox` run's.
	environ := append(withoutInbox(w.Environ), "JAIPH_INBOX_URL="+w.URL)
	mirror := &recordMirror{w: w, id: r.RunID, attempt: r.Attempt, ctx: keep}
	o := engine.RunOptions{Environ: environ, Args: r.Args, Workflow: r.Target, RunID: r.RunID, Workspace: w.Dir,
		Observer: root, Stdin: w.noInput, KeyDir: w.keyDir(), Mirror: mirror.append, Received: recv,
		OnRunDir: func(dir string) { mirror.setDir(dir) }}
	if r.Attempt > 1 {
		dir, sum, jnl, err := w.rebuildRun(keep, prog, r, o.KeyDir)
		if err != nil {
			return engine.Outcome{}, fmt.Errorf("cannot continue the run from its records: %w", err), root, ""
		}
		if dir != "" {
			o.Resume = dir
			mirror.setDir(dir)
			mirror.lines = [2][][]byte{sum, jnl}
		}
	}
	stray := progress.NewStrayLog(io.Discard)
	o.StrayStderr = stray
	o.Notices = io.Discard
	// On this machine: the served run's place is the worker (its --sandbox
	// is for deliveries).
	out, err := prog.InProcess().Execute(ctx, o, nil)
	if mirror.err == nil {
		mirror.syncArtifacts()
		if err == nil && out.Suspended {
			mirror.snapshot()
		}
	}
	return out, err, root, stray.LastLine()
}

// recordMirror copies a run's summary and journal lines to the record
// stream, and its published files to the artifact store after each
// journal write (a completed call): what another worker needs to continue
// it, and what every replica reads.
type recordMirror struct {
	w       *Worker
	id      string
	attempt int
	ctx     context.Context
	mu      sync.Mutex
	n       int
	dir     string
	sent    map[string]string // artifact path → size and mtime sent
	err     error
	// lines are the run's summary and journal lines so far (rebuilt, then
	// copied): the snapshot a suspended run leaves for its next attempt.
	lines [2][][]byte
}

func (m *recordMirror) setDir(dir string) {
	m.mu.Lock()
	m.dir = dir
	m.mu.Unlock()
}

func (m *recordMirror) append(file string, lines []byte) error {
	sub := recSummary
	if file == runs.JournalFile {
		sub = recJournal
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, line := range bytes.SplitAfter(lines, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		// A copy: the caller's buffer is written again.
		if kept := bytes.Clone(line); sub == recJournal {
			m.lines[1] = append(m.lines[1], kept)
		} else {
			m.lines[0] = append(m.lines[0], kept)
		}
		m.n++
		id := fmt.Sprintf("%s.%d.%d", m.id, m.attempt, m.n)
		if _, err := publish(m.ctx, m.w.js, recSubject(m.id, sub), line, id); err != nil {
			m.err = err
			return fmt.Errorf("cannot copy the run's records to the broker: %w", err)
		}
	}
	if sub == recJournal {
		m.syncArtifactsLocked()
	}
	return nil
}

func (m *recordMirror) syncArtifacts() {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.syncArtifactsLocked()
}

// syncArtifactsLocked puts the files of $JAIPH_ARTIFACTS_DIR that are new
// or changed since the last look into the artifact store.
func (m *recordMirror) syncArtifactsLocked() {
	if m.dir == "" {
		return
	}
	dir := filepath.Join(m.dir, runtime.ArtifactsDir)
	root, err := os.OpenRoot(dir)
	if err != nil {
		return
	}
	defer root.Close()
	if m.sent == nil {
		m.sent = map[string]string{}
	}
	var obs jetstream.ObjectStore
	fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		fi, err := root.Stat(p)
		if err != nil || !fi.Mode().IsRegular() {
			return nil
		}
		stamp := strconv.FormatInt(fi.Size(), 10) + "@" + fi.ModTime().String()
		if m.sent[p] == stamp {
			return nil
		}
		if obs == nil {
			if obs, err = m.w.js.ObjectStore(m.ctx, serveArtStore); err != nil {
				return fs.SkipAll
			}
		}
		f, err := root.Open(p)
		if err != nil {
			return nil
		}
		defer f.Close()
		if _, err := obs.Put(context.WithoutCancel(m.ctx), jetstream.ObjectMeta{Name: artName(m.id, filepath.ToSlash(p))}, f); err == nil {
			m.sent[p] = stamp
		}
		return nil
	})
}

// rebuildRun writes the run's records as the earlier attempts copied them
// into a new run directory of this worker, chained under a key of this
// worker, ready to resume; "" when no step had run.
func (w *Worker) rebuildRun(ctx context.Context, prog *engine.Program, r *serveRecord, keyDir string) (string, [][]byte, [][]byte, error) {
	sum, jnl, ok := w.readSnapshot(ctx, r)
	if !ok {
		var err error
		if sum, jnl, err = w.readRecords(ctx, r.RunID); err != nil {
			return "", nil, nil, err
		}
	}
	if len(sum) == 0 {
		return "", nil, nil, nil
	}
	dir, err := w.writeRebuilt(prog, r, keyDir, sum, jnl)
	return dir, sum, jnl, err
}

// writeRebuilt writes the run's records into a new run directory of this
// worker, chained under a key of this worker.
func (w *Worker) writeRebuilt(prog *engine.Program, r *serveRecord, keyDir string, sum, jnl [][]byte) (string, error) {
	root := runs.Root(w.Dir, runtime.NewEnv(w.Environ).Get("JAIPH_RUNS_DIR"))
	now := time.Now()
	base := filepath.Join(root, now.Format("2006-01-02"), now.Format("15-04-05")+"-"+prog.Source)
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		return "", err
	}
	dir := base
	for n := 2; ; n++ {
		err := os.Mkdir(dir, 0o755)
		if err == nil {
			break
		}
		if !os.IsExist(err) {
			return "", err
		}
		dir = fmt.Sprintf("%s-%d", base, n)
	}
	real, _ := filepath.EvalSymlinks(dir)
	meta := &runs.Meta{Version: runs.MetaVersion, RunID: r.RunID, Entry: prog.Path, RunDir: real, Source: prog.Source,
		Args: r.Args, ArgsRedacted: redact.FromEnv(w.Environ).Strings(append([]string{}, r.Args...)), Workspace: w.Dir,
		Start: r.StartedAt, PID: os.Getpid(), Settings: runs.Settings(w.Environ), Workflow: r.Target}
	if meta.Workflow == "default" {
		meta.Workflow = ""
	}
	records := runs.RecordsDir(dir)
	if err := os.MkdirAll(records, 0o755); err != nil {
		return "", err
	}
	if err := runs.WriteMeta(records, meta); err != nil {
		return "", err
	}
	store, _ := chain.Store{Dir: keyDir}.Outside(w.Dir)
	// A key this machine holds for the run is an abandoned attempt's
	// (another worker here that lost the run): the rebuilt files get a
	// new one, as on any other machine.
	store.Remove(r.RunID)
	recs, err := chain.Start(store, r.RunID, runs.Chained(dir), false)
	if err != nil {
		return "", err
	}
	defer recs.Close()
	if err := recs.Summary.Append(bytes.Join(sum, nil)); err != nil {
		return "", err
	}
	if len(jnl) > 0 {
		if err := recs.Journal.Append(bytes.Join(jnl, nil)); err != nil {
			return "", err
		}
	}
	return dir, nil
}

// readRecords reads the run's copied summary and journal lines, in order.
func (w *Worker) readRecords(ctx context.Context, id string) ([][]byte, [][]byte, error) {
	st, err := w.js.Stream(ctx, serveRec)
	if err != nil {
		return nil, nil, err
	}
	info, err := st.Info(ctx, jetstream.WithSubjectFilter(serveRecPfx+id+".>"))
	if err != nil {
		return nil, nil, err
	}
	want := uint64(0)
	for _, n := range info.State.Subjects {
		want += n
	}
	var sum, jnl [][]byte
	if want == 0 {
		return nil, nil, nil
	}
	cons, err := w.js.OrderedConsumer(ctx, serveRec, jetstream.OrderedConsumerConfig{FilterSubjects: []string{serveRecPfx + id + ".>"}})
	if err != nil {
		return nil, nil, err
	}
	for got := uint64(0); got < want; got++ {
		next, cancel := context.WithTimeout(ctx, 10*time.Second)
		m, err := cons.Next(jetstream.FetchContext(next))
		cancel()
		if err != nil {
			return nil, nil, err
		}
		line := append(bytes.TrimRight(m.Data(), "\n"), '\n')
		if recFileOf(m.Subject(), id) == recJournal {
			jnl = append(jnl, line)
		} else {
			sum = append(sum, line)
		}
	}
	return sum, jnl, nil
}
