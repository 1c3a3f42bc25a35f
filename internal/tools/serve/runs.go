package serve

// This file answers: which runs does the service know, who may see them,
// and what is remembered of them across a restart?

import (
	"bufio"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	"github.com/jaiph-go/jaiph/internal/atomicfile"
	"github.com/jaiph-go/jaiph/internal/served"
)

// The statuses of a served run (served.Status*).
const (
	statusQueued      = served.StatusQueued
	statusRunning     = served.StatusRunning
	statusSucceeded   = served.StatusSucceeded
	statusFailed      = served.StatusFailed
	statusCancelled   = served.StatusCancelled
	statusInterrupted = served.StatusInterrupted
)

// Run is a run's public object.
type Run = served.Run

// record is what the state directory keeps of a run: its object and the
// idempotency key that started it.
type record struct {
	Run
	IdempotencyKey string `json:"idempotency_key,omitempty"`
	ArgsHash       string `json:"args_hash,omitempty"`
}

// entry is a run the registry knows.
type entry struct {
	mu      sync.Mutex
	rec     record
	changed chan struct{}           // closed (and replaced) when the run changes or writes an event
	done    chan struct{}           // closed when the run is terminal
	cancel  context.CancelCauseFunc // interrupts the run (set before it starts)
}

// snapshot is the run's object now.
func (e *entry) snapshot() Run {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.rec.Run
}

// wake tells the run's followers (SSE) to look again.
func (e *entry) wake() {
	e.mu.Lock()
	close(e.changed)
	e.changed = make(chan struct{})
	e.mu.Unlock()
}

// watch is the channel closed at the run's next change.
func (e *entry) watch() <-chan struct{} {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.changed
}

// registry is the runs the service knows, newest last. Terminal runs
// beyond retain are forgotten in memory (their records and run
// directories stay on disk), with their idempotency keys.
type registry struct {
	dir    string // the state directory ("" keeps nothing)
	retain int
	logMu  sync.Mutex
	log    *os.File // runs.jsonl: a line per change of a run, the last one wins

	mu     sync.Mutex
	runs   map[string]*entry
	order  []*entry
	keys   map[string]*entry // idemKey → run
	active int
	// stopping: the server stops; a run admitted now is interrupted at
	// once with this cause.
	stopping error
}

func newRegistry(dir string, retain int) *registry {
	return &registry{dir: dir, retain: max(retain, 1), runs: map[string]*entry{}, keys: map[string]*entry{}}
}

// idemKey scopes an Idempotency-Key to its principal and workflow.
func idemKey(principal, workflow, key string) string {
	return principal + "\x00" + workflow + "\x00" + key
}

// argsHash identifies a request's arguments (the same key with other
// arguments is a conflict).
func argsHash(args []string) string {
	b, _ := json.Marshal(args)
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}

var (
	errTooMany  = served.ErrTooMany
	errConflict = served.ErrConflict
)

// admit registers a new run unless the principal's key names one (then
// that run, fresh false) or the cap is reached (errTooMany). A key given
// again with other arguments is errConflict.
func (g *registry) admit(rec record, maxActive int, cancel context.CancelCauseFunc) (e *entry, fresh bool, err error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	var k string
	if rec.IdempotencyKey != "" {
		k = idemKey(rec.Principal, rec.Workflow, rec.IdempotencyKey)
		if old := g.keys[k]; old != nil {
			if old.rec.ArgsHash != rec.ArgsHash {
				return nil, false, errConflict
			}
			return old, false, nil
		}
	}
	if maxActive > 0 && g.active >= maxActive {
		return nil, false, errTooMany
	}
	e = &entry{rec: rec, changed: make(chan struct{}), done: make(chan struct{}), cancel: cancel}
	if err := g.save(&e.rec); err != nil {
		return nil, false, err
	}
	if g.stopping != nil {
		cancel(g.stopping)
	}
	g.active++
	g.runs[rec.RunID] = e
	g.order = append(g.order, e)
	if k != "" {
		g.keys[k] = e
	}
	return e, true, nil
}

// finish records the run's end and releases its place.
func (g *registry) finish(e *entry, end func(*Run)) {
	e.mu.Lock()
	end(&e.rec.Run)
	rec := e.rec
	e.mu.Unlock()
	if err := g.save(&rec); err != nil {
		// The run's own files hold its outcome; the record is the
		// service's index of them.
		e.mu.Lock()
		e.rec.ResultText += "\n(jaiph serve: cannot save the run's record: " + err.Error() + ")"
		e.mu.Unlock()
	}
	g.mu.Lock()
	g.active--
	g.forget()
	g.mu.Unlock()
	close(e.done)
	e.wake()
}

// forget drops the oldest terminal runs beyond retain; g.mu is held.
func (g *registry) forget() {
	terminal := 0
	for _, e := range g.order {
		if e.isTerminal() {
			terminal++
		}
	}
	if terminal <= g.retain {
		return
	}
	kept := g.order[:0]
	for _, e := range g.order {
		if terminal > g.retain && e.isTerminal() {
			terminal--
			delete(g.runs, e.rec.RunID)
			if e.rec.IdempotencyKey != "" {
				delete(g.keys, idemKey(e.rec.Principal, e.rec.Workflow, e.rec.IdempotencyKey))
			}
			continue
		}
		kept = append(kept, e)
	}
	clear(g.order[len(kept):])
	g.order = kept
}

func (e *entry) isTerminal() bool {
	select {
	case <-e.done:
		return true
	default:
		return false
	}
}

// get is the run id, nil when unknown.
func (g *registry) get(id string) *entry {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.runs[id]
}

// list is a page of the runs principal may see, newest first, and how
// many there are.
func (g *registry) list(principal string, all bool, limit, offset int) ([]Run, int) {
	g.mu.Lock()
	mine := make([]*entry, 0, len(g.order))
	for i := len(g.order) - 1; i >= 0; i-- {
		e := g.order[i]
		if all || e.rec.Principal == principal { // Principal never changes
			mine = append(mine, e)
		}
	}
	g.mu.Unlock()
	page := []Run{}
	for i := offset; i < len(mine) && len(page) < limit; i++ {
		page = append(page, mine[i].snapshot())
	}
	return page, len(mine)
}

// logName is the state directory's record of the runs: one JSON line per
// change of a run (started, ended), the last line of a run wins. An
// append costs no file creation (a file per record cost a fifth of a
// trivial run's time); load compacts it.
const logName = "runs.jsonl"

// save appends rec to the record log.
func (g *registry) save(rec *record) error {
	if g.log == nil {
		return nil
	}
	b, err := json.Marshal(rec)
	if err != nil {
		return err
	}
	g.logMu.Lock()
	defer g.logMu.Unlock()
	_, err = g.log.Write(append(b, '\n'))
	return err
}

// load reads the record log (the newest retain runs, by start), writes it
// back compacted, and opens it for appending. A run still "running" in
// its record was cut off by the server's death and is recorded as
// interrupted. A torn last line (a kill during a write) is left out.
func (g *registry) load() error {
	if g.dir == "" {
		return nil
	}
	if err := os.MkdirAll(g.dir, 0o700); err != nil {
		return err
	}
	path := filepath.Join(g.dir, logName)
	latest := map[string]record{}
	if f, err := os.Open(path); err == nil {
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			var r record
			if json.Unmarshal(sc.Bytes(), &r) == nil && r.RunID != "" {
				latest[r.RunID] = r
			}
		}
		f.Close()
		if err := sc.Err(); err != nil {
			return err
		}
	} else if !os.IsNotExist(err) {
		return err
	}
	recs := make([]record, 0, len(latest))
	for _, r := range latest {
		recs = append(recs, r)
	}
	sort.Slice(recs, func(i, j int) bool { return recs[i].StartedAt.Before(recs[j].StartedAt) })
	if len(recs) > g.retain {
		recs = recs[len(recs)-g.retain:]
	}
	var compact bytes.Buffer
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, r := range recs {
		if r.Status == statusRunning {
			now := time.Now().UTC()
			r.Status, r.EndedAt = statusInterrupted, &now
			r.ResultText = "the server stopped while the run was going; its outcome is unknown (its run directory keeps what it did)"
		}
		b, _ := json.Marshal(r)
		compact.Write(append(b, '\n'))
		e := &entry{rec: r, changed: make(chan struct{}), done: make(chan struct{})}
		close(e.done)
		g.runs[r.RunID] = e
		g.order = append(g.order, e)
		if r.IdempotencyKey != "" {
			g.keys[idemKey(r.Principal, r.Workflow, r.IdempotencyKey)] = e
		}
	}
	if err := atomicfile.Write(path, compact.Bytes(), 0o600); err != nil {
		return err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	g.log = f
	return nil
}

// close closes the record log.
func (g *registry) close() {
	g.logMu.Lock()
	defer g.logMu.Unlock()
	if g.log != nil {
		g.log.Close()
		g.log = nil
	}
}

// waitIdle returns once no run is active, or after d.
func (g *registry) waitIdle(d time.Duration) {
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		g.mu.Lock()
		n := g.active
		g.mu.Unlock()
		if n == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}
