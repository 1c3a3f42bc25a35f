package broker

// This file answers: which runs keep state on the broker, and when does
// it go? A run whose drain completed removes its ledger, event stream and
// artifact store itself (queue.Close); a failed or killed one keeps them
// for jaiph resume. ListRuns finds them, Prune removes those of runs
// inactive for longer than a window (with their deliveries left in the
// work queue, and the sources no remaining run uses), and the janitor of
// `jaiph broker` prunes at start and hourly (docs/distributed.md,
// "Retention").

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// RunState is what one run keeps on the broker.
type RunState struct {
	Run string `json:"run"`
	// Objects are those of the run's ledger, events and artifacts that
	// exist (in that order); Streams their streams' names.
	Objects  []string `json:"objects"`
	Streams  []string `json:"streams"`
	Messages uint64   `json:"messages"` // in those streams
	Bytes    uint64   `json:"bytes"`
	// LastActivity is the newest of the streams' last message and
	// creation times: a live run writes its ledger at every claim,
	// heartbeat and result.
	LastActivity time.Time `json:"last_activity"`
	// Sources and Started are from the ledger's run record ("run": the
	// content hash of the sources in JAIPH_SRC, the start time); a run
	// started by an older jaiph-go has none.
	Sources string    `json:"sources,omitempty"`
	Started time.Time `json:"started,omitzero"`
	// Outstanding counts the run's messages in JAIPH_WORK: deliveries
	// queued or held by a worker.
	Outstanding uint64 `json:"outstanding"`
}

// The kinds of a run's objects, in the order Objects lists them.
const (
	objLedger    = "ledger"
	objEvents    = "events"
	objArtifacts = "artifacts"
)

// runKey is the ledger's key of the run record.
const runKey = "run"

// runRecord is the value of runKey.
type runRecord struct {
	Src     string `json:"src"`
	Started int64  `json:"started"` // unix ms
}

// runID is what a stream name must end with to be a run's (a UUID;
// anything without '_', '.', '*' or '>').
var runID = regexp.MustCompile(`^[0-9A-Za-z-]+$`)

// runStreams are the names of a run's streams, in the order of the kinds.
func runStreams(run string) [3]string {
	return [3]string{"KV_" + ledgerName(run), eventStream(run), "OBJ_" + artStore(run)}
}

var kinds = [3]string{objLedger, objEvents, objArtifacts}

// perRun tells whether stream is one of a run's, which run's and which
// object it holds.
func perRun(stream string) (run, kind string, ok bool) {
	for i, prefix := range runStreams("") {
		if r, found := strings.CutPrefix(stream, prefix); found && runID.MatchString(r) {
			return r, kinds[i], true
		}
	}
	return "", "", false
}

func latest(ts ...time.Time) time.Time {
	var t time.Time
	for _, u := range ts {
		if u.After(t) {
			t = u
		}
	}
	return t
}

// ListRuns lists every run with state on the broker (any of its ledger,
// event stream and artifact store), the most recently active first.
func ListRuns(ctx context.Context, js jetstream.JetStream) ([]RunState, error) {
	byRun := map[string]*RunState{}
	l := js.ListStreams(ctx)
	for info := range l.Info() {
		run, kind, ok := perRun(info.Config.Name)
		if !ok {
			continue
		}
		r := byRun[run]
		if r == nil {
			r = &RunState{Run: run}
			byRun[run] = r
		}
		r.Objects = append(r.Objects, kind)
		r.Streams = append(r.Streams, info.Config.Name)
		r.Messages += info.State.Msgs
		r.Bytes += info.State.Bytes
		r.LastActivity = latest(r.LastActivity, info.Created, info.State.LastTime)
	}
	if err := l.Err(); err != nil {
		return nil, fmt.Errorf("listing the broker's streams: %w", err)
	}
	out := make([]RunState, 0, len(byRun))
	for _, r := range byRun {
		sort.Slice(r.Objects, func(i, j int) bool {
			return slices.Index(kinds[:], r.Objects[i]) < slices.Index(kinds[:], r.Objects[j])
		})
		sort.Strings(r.Streams)
		if len(r.Objects) > 0 && r.Objects[0] == objLedger {
			if err := readRunRecord(ctx, js, r); err != nil {
				return nil, err
			}
		}
		out = append(out, *r)
	}
	if err := countOutstanding(ctx, js, out); err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].LastActivity.Equal(out[j].LastActivity) {
			return out[i].LastActivity.After(out[j].LastActivity)
		}
		return out[i].Run < out[j].Run
	})
	return out, nil
}

// readRunRecord fills the sources and start of r from its ledger's run
// record, when there is one.
func readRunRecord(ctx context.Context, js jetstream.JetStream, r *RunState) error {
	kv, err := js.KeyValue(ctx, ledgerName(r.Run))
	if notFound(err) {
		return nil // removed meanwhile
	}
	if err != nil {
		return fmt.Errorf("the ledger %s: %w", ledgerName(r.Run), err)
	}
	e, err := kv.Get(ctx, runKey)
	if errors.Is(err, jetstream.ErrKeyNotFound) || notFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("the run record of the ledger %s: %w", ledgerName(r.Run), err)
	}
	var rec runRecord
	if json.Unmarshal(e.Value(), &rec) == nil {
		r.Sources = rec.Src
		if rec.Started > 0 {
			r.Started = time.UnixMilli(rec.Started).UTC()
		}
	}
	return nil
}

// countOutstanding counts the runs' messages in the work queue (subjects
// jaiph.work.<run> and jaiph.work.<run>.<key>).
func countOutstanding(ctx context.Context, js jetstream.JetStream, runs []RunState) error {
	if len(runs) == 0 {
		return nil
	}
	st, err := js.Stream(ctx, workStream)
	if notFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("the stream %s: %w", workStream, err)
	}
	info, err := st.Info(ctx, jetstream.WithSubjectFilter(workPrefix+">"))
	if err != nil {
		return fmt.Errorf("the subjects of the stream %s: %w", workStream, err)
	}
	index := map[string]int{}
	for i, r := range runs {
		index[r.Run] = i
	}
	for subject, n := range info.State.Subjects {
		run, _, _ := strings.Cut(strings.TrimPrefix(subject, workPrefix), ".")
		if i, ok := index[run]; ok {
			runs[i].Outstanding += n
		}
	}
	return nil
}

// PruneReport is what Prune removed or, in a dry run, would remove.
type PruneReport struct {
	Cutoff time.Time // runs inactive since before it are removed
	DryRun bool
	// Removed are the runs whose state was removed; Kept those active
	// since the cutoff.
	Removed []RunState
	Kept    []RunState
	// Sources are the hashes of the sources removed from JAIPH_SRC: used
	// by no remaining run and stored before the cutoff.
	Sources []string
	// SourcesKept says why no sources were removed when a remaining run
	// does not record which sources it uses.
	SourcesKept string
	// Served are the served runs (`jaiph serve --inbox`) removed: ended
	// before the cutoff.
	Served []string
}

// Prune removes the ledger, event stream and artifact store of every run
// whose last activity is older than olderThan at now, with the run's
// messages left in the work queue; then the sources in JAIPH_SRC that no
// remaining run uses and that were stored before that too. A run active
// since the cutoff is never touched: it is looked at again right before
// its state is removed. With dryRun nothing is removed. Pruning again
// removes nothing more. The report lists what went, also when an error
// (naming the object) stopped a part of it.
func Prune(ctx context.Context, js jetstream.JetStream, olderThan time.Duration, now time.Time, dryRun bool) (*PruneReport, error) {
	runs, err := ListRuns(ctx, js)
	if err != nil {
		return nil, err
	}
	rep := &PruneReport{Cutoff: now.Add(-olderThan), DryRun: dryRun}
	var errs []error
	var remaining []RunState // every run whose state stays, for the sources
	for _, r := range runs {
		if !r.LastActivity.Before(rep.Cutoff) {
			rep.Kept = append(rep.Kept, r)
			remaining = append(remaining, r)
			continue
		}
		if !dryRun {
			last, err := lastActivity(ctx, js, r.Run)
			if err != nil {
				errs = append(errs, err)
				remaining = append(remaining, r)
				continue
			}
			if !last.Before(rep.Cutoff) { // a resume started meanwhile
				r.LastActivity = last
				rep.Kept = append(rep.Kept, r)
				remaining = append(remaining, r)
				continue
			}
			if err := removeRun(ctx, js, r.Run); err != nil {
				errs = append(errs, err)
				remaining = append(remaining, r)
				continue
			}
		}
		rep.Removed = append(rep.Removed, r)
	}
	refs := map[string]bool{}
	served, err := pruneServed(ctx, js, rep.Cutoff, dryRun, refs)
	rep.Served = served
	if err != nil {
		errs = append(errs, err)
	}
	for _, r := range remaining {
		if r.Sources == "" {
			rep.SourcesKept = fmt.Sprintf("run %s has no run record naming its sources (a run of an older jaiph-go, or its ledger is gone)", r.Run)
			break
		}
		refs[r.Sources] = true
	}
	if rep.SourcesKept == "" {
		removed, err := sweepSources(ctx, js, refs, rep.Cutoff, dryRun)
		rep.Sources = removed
		if err != nil {
			errs = append(errs, err)
		}
	}
	return rep, errors.Join(errs...)
}

// lastActivity reads the run's streams again.
func lastActivity(ctx context.Context, js jetstream.JetStream, run string) (time.Time, error) {
	var last time.Time
	for _, name := range runStreams(run) {
		st, err := js.Stream(ctx, name)
		if notFound(err) {
			continue
		}
		if err != nil {
			return time.Time{}, fmt.Errorf("run %s: the stream %s: %w", run, name, err)
		}
		info := st.CachedInfo()
		last = latest(last, info.Created, info.State.LastTime)
	}
	return last, nil
}

// removeRun purges the run's messages from the work queue (first, so no
// worker takes one meanwhile), then deletes its ledger, event stream and
// artifact store. What is gone already is no error.
func removeRun(ctx context.Context, js jetstream.JetStream, run string) error {
	var errs []error
	st, err := js.Stream(ctx, workStream)
	switch {
	case notFound(err):
	case err != nil:
		return fmt.Errorf("run %s: the stream %s: %w", run, workStream, err)
	default:
		for _, subject := range []string{workPrefix + run, workPrefix + run + ".>"} {
			if err := st.Purge(ctx, jetstream.WithPurgeSubject(subject)); err != nil {
				return fmt.Errorf("run %s: purging %s from the stream %s: %w", run, subject, workStream, err)
			}
		}
	}
	if err := js.DeleteKeyValue(ctx, ledgerName(run)); err != nil && !notFound(err) {
		errs = append(errs, fmt.Errorf("run %s: deleting the ledger %s: %w", run, ledgerName(run), err))
	}
	if err := js.DeleteStream(ctx, eventStream(run)); err != nil && !notFound(err) {
		errs = append(errs, fmt.Errorf("run %s: deleting the event stream %s: %w", run, eventStream(run), err))
	}
	if err := js.DeleteObjectStore(ctx, artStore(run)); err != nil && !notFound(err) {
		errs = append(errs, fmt.Errorf("run %s: deleting the artifact store %s: %w", run, artStore(run), err))
	}
	return errors.Join(errs...)
}

// sweepSources removes (or, dry, lists) the objects of JAIPH_SRC not in
// refs and stored before cutoff.
func sweepSources(ctx context.Context, js jetstream.JetStream, refs map[string]bool, cutoff time.Time, dryRun bool) ([]string, error) {
	obs, err := js.ObjectStore(ctx, sourceStore)
	if notFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("the object store %s: %w", sourceStore, err)
	}
	list, err := obs.List(ctx)
	if errors.Is(err, jetstream.ErrNoObjectsFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing the object store %s: %w", sourceStore, err)
	}
	var removed []string
	var errs []error
	for _, o := range list {
		if refs[o.Name] || !o.ModTime.Before(cutoff) {
			continue
		}
		if !dryRun {
			if err := obs.Delete(ctx, o.Name); err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
				errs = append(errs, fmt.Errorf("deleting the sources %s from %s: %w", o.Name, sourceStore, err))
				continue
			}
		}
		removed = append(removed, o.Name)
	}
	sort.Strings(removed)
	return removed, errors.Join(errs...)
}

// janitorEvery is how often `jaiph broker` prunes after the first time,
// at start.
const janitorEvery = time.Hour

// StartJanitor prunes in the background, through an in-process
// connection to s, the state of the runs inactive for longer than
// retention: once now, then every hour, until ctx is done. It writes a
// line to log per run removed (and per failure). A retention of 0 (or
// below) starts nothing. The channel is closed when it has stopped.
func StartJanitor(ctx context.Context, s *server.Server, retention time.Duration, log io.Writer) <-chan struct{} {
	done := make(chan struct{})
	if retention <= 0 || s == nil {
		close(done)
		return done
	}
	go func() {
		defer close(done)
		nc, err := nats.Connect(s.ClientURL(), nats.InProcessServer(s), nats.Name("jaiph broker retention"))
		if err != nil {
			if ctx.Err() == nil {
				fmt.Fprintf(log, "jaiph broker: retention: cannot connect: %v\n", err)
			}
			return
		}
		defer nc.Close()
		js, err := jetstream.New(nc)
		if err != nil {
			fmt.Fprintf(log, "jaiph broker: retention: %v\n", err)
			return
		}
		tick := time.NewTicker(janitorEvery)
		defer tick.Stop()
		for {
			janitorPass(ctx, js, retention, log)
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
		}
	}()
	return done
}

// janitorPass is one prune of the janitor.
func janitorPass(ctx context.Context, js jetstream.JetStream, retention time.Duration, log io.Writer) {
	pass, cancel := context.WithTimeout(ctx, 10*time.Minute)
	defer cancel()
	now := time.Now()
	rep, err := Prune(pass, js, retention, now, false)
	if ctx.Err() != nil {
		return // the broker is stopping
	}
	if rep != nil {
		for _, r := range rep.Removed {
			fmt.Fprintf(log, "jaiph broker: removed run %s, inactive for %s (%s)\n", r.Run, ageText(now.Sub(r.LastActivity)), r.describe())
		}
		if n := len(rep.Sources); n > 0 {
			fmt.Fprintf(log, "jaiph broker: removed %s no run uses\n", plural(n, "sources object", "sources objects"))
		}
	}
	if err != nil {
		fmt.Fprintf(log, "jaiph broker: retention: %v\n", strings.ReplaceAll(err.Error(), "\n", "; "))
	}
}

// describe is the run's state in words: its objects, their size and the
// deliveries it left in the work queue.
func (r RunState) describe() string {
	s := strings.Join(r.Objects, ", ") + "; " + plural(int(r.Messages), "message", "messages") + ", " + sizeText(r.Bytes)
	if r.Outstanding > 0 {
		s += "; " + plural(int(r.Outstanding), "delivery", "deliveries") + " in the work queue"
	}
	return s
}

// ageText shows a duration as 45s, 12m, 5h03m, 9d02h.
func ageText(d time.Duration) string {
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds", max(int(d.Seconds()), 0))
	case d < time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
	}
	return fmt.Sprintf("%dd%02dh", int(d.Hours())/24, int(d.Hours())%24)
}

// sizeText shows bytes as 512 B, 3.4 KiB, 12.0 MiB.
func sizeText(b uint64) string {
	const unit = 1024
	if b < unit {
		return fmt.Sprintf("%d B", b)
	}
	v, suffix := float64(b)/unit, "KiB"
	for _, s := range []string{"MiB", "GiB", "TiB"} {
		if v < unit {
			break
		}
		v, suffix = v/unit, s
	}
	return fmt.Sprintf("%.1f %s", v, suffix)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
