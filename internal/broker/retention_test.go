package broker_test

// Tests of retention (issue 32): ListRuns, Prune, `jaiph broker runs`,
// `jaiph broker prune` and the janitor of `jaiph broker`. Age is never
// waited for: the Go API is given a `now` (a cutoff placed between two
// timestamps the broker recorded), the CLI a 1ns window only for runs that
// are over.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/jaiph-go/jaiph/internal/broker"
)

// retTwoJobs queues two deliveries; with no worker they stay in the queue.
const retTwoJobs = `channel jobs

workflow work {
  echo "ran $1" >> done.txt
}

workflow default {
  jobs <- echo "m1"
  jobs <- echo "m2"
  jobs -> work
}
`

// retWaitRun polls ListRuns until a run satisfies ok, retFailing at the
// deadline or when r ends first.
func retWaitRun(t *testing.T, js jetstream.JetStream, r *run, ok func(broker.RunState) bool) broker.RunState {
	t.Helper()
	stop := time.Now().Add(deadline)
	for time.Now().Before(stop) {
		runs, err := broker.ListRuns(context.Background(), js)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range runs {
			if ok(s) {
				return s
			}
		}
		select {
		case <-r.done:
			t.Fatalf("the run ended (exit %d) before the broker showed the state awaited; stderr:\n%s", r.code, r.stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatal("the broker never showed the run's state")
	return broker.RunState{}
}

// retKilledRun starts a run of the workspace's flow.jh (retTwoJobs) with no
// worker, kills it with SIGKILL once both deliveries are queued, and
// returns its state on the broker.
func retKilledRun(t *testing.T, srv *testServer, js jetstream.JetStream, dir string) broker.RunState {
	t.Helper()
	r := startRun(t, srv.url(), dir, "flow.jh", nil)
	s := retWaitRun(t, js, r, func(s broker.RunState) bool { return s.Outstanding == 2 && len(s.Objects) == 3 })
	_ = r.cmd.Process.Kill()
	r.wait(t)
	return retFindRun(t, js, s.Run)
}

// retFindRun is the run's state, retFailing when it has none.
func retFindRun(t *testing.T, js jetstream.JetStream, id string) broker.RunState {
	t.Helper()
	runs, err := broker.ListRuns(context.Background(), js)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range runs {
		if s.Run == id {
			return s
		}
	}
	t.Fatalf("run %s has no state on the broker; runs: %+v", id, runs)
	return broker.RunState{}
}

// retRunIDs are the runs' ids.
func retRunIDs(list []broker.RunState) []string {
	ids := []string{}
	for _, s := range list {
		ids = append(ids, s.Run)
	}
	slices.Sort(ids)
	return ids
}

// retCLI runs jaiph-full with args (JAIPH_INBOX_URL only as env sets it).
func retCLI(t *testing.T, env []string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	cmd := exec.Command(jaiphFull, args...)
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "JAIPH_INBOX_URL=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, env...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) {
		t.Fatal(err)
	}
	return out.String(), errOut.String(), cmd.ProcessState.ExitCode()
}

// retSources lists the objects of JAIPH_SRC, sorted.
func retSources(t *testing.T, js jetstream.JetStream) []string {
	t.Helper()
	ctx := context.Background()
	obs, err := js.ObjectStore(ctx, "JAIPH_SRC")
	if err != nil {
		t.Fatal(err)
	}
	list, err := obs.List(ctx)
	if errors.Is(err, jetstream.ErrNoObjectsFound) {
		return []string{}
	}
	if err != nil {
		t.Fatal(err)
	}
	names := []string{}
	for _, o := range list {
		names = append(names, o.Name)
	}
	slices.Sort(names)
	return names
}

// retWorkMessages counts the messages of JAIPH_WORK.
func retWorkMessages(t *testing.T, js jetstream.JetStream) uint64 {
	t.Helper()
	st, err := js.Stream(context.Background(), "JAIPH_WORK")
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return info.State.Msgs
}

// TestBrokerRunsPrune: a run killed mid-drain leaves its ledger, event
// stream, artifact store and two queued deliveries; `jaiph broker runs`
// lists them; `jaiph broker prune` with a long window removes nothing,
// with --dry-run only says what it would remove, with a 1ns window
// removes the run's state, its deliveries and its sources, and then has
// nothing more to remove.
func TestBrokerRunsPrune(t *testing.T) {
	srv := startServer(t)
	js := jsClient(t, srv.url())
	dir := workspace(t, retTwoJobs)
	dead := retKilledRun(t, srv, js, dir)
	if strings.Join(dead.Objects, " ") != "ledger events artifacts" || dead.Messages < 1 || dead.Outstanding != 2 || dead.LastActivity.IsZero() {
		t.Fatalf("the killed run's state: %+v", dead)
	}
	before := streams(t, srv.url())
	sources := retSources(t, js)
	if len(sources) != 1 {
		t.Fatalf("JAIPH_SRC holds %v, want the run's sources", sources)
	}

	out, errOut, code := retCLI(t, nil, "broker", "runs", "--json", "--inbox", srv.url())
	var listed struct {
		Runs []struct {
			Run          string    `json:"run"`
			Objects      []string  `json:"objects"`
			Streams      []string  `json:"streams"`
			Messages     uint64    `json:"messages"`
			Bytes        uint64    `json:"bytes"`
			LastActivity time.Time `json:"last_activity"`
			Outstanding  uint64    `json:"outstanding"`
		} `json:"runs"`
	}
	if err := json.Unmarshal([]byte(out), &listed); err != nil || code != 0 {
		t.Fatalf("jaiph broker runs --json: exit %d, %v\n%s%s", code, err, out, errOut)
	}
	if len(listed.Runs) != 1 {
		t.Fatalf("jaiph broker runs --json lists %d runs, want 1:\n%s", len(listed.Runs), out)
	}
	got := listed.Runs[0]
	wantStreams := []string{"JAIPH_EV_" + dead.Run, "KV_JAIPH_" + dead.Run, "OBJ_JAIPH_ART_" + dead.Run}
	if got.Run != dead.Run || strings.Join(got.Objects, " ") != "ledger events artifacts" || !slices.Equal(got.Streams, wantStreams) ||
		got.Outstanding != 2 || got.Messages != dead.Messages || got.Bytes == 0 || !got.LastActivity.Equal(dead.LastActivity) {
		t.Fatalf("jaiph broker runs --json:\n%s\nwant run %s with its three objects and 2 outstanding deliveries", out, dead.Run)
	}
	// The table, the URL from JAIPH_INBOX_URL.
	out, errOut, code = retCLI(t, []string{"JAIPH_INBOX_URL=" + srv.url()}, "broker", "runs")
	if code != 0 || !regexp.MustCompile(`(?m)^RUN +OBJECTS +MESSAGES +SIZE +LAST ACTIVITY +OUTSTANDING +SOURCES\n`+dead.Run+` +ledger,events,artifacts +\d+ +.+ ago +2 +\S+ *$`).MatchString(out) {
		t.Fatalf("jaiph broker runs: exit %d\n%s%s", code, out, errOut)
	}

	// A long window: nothing goes.
	out, errOut, code = retCLI(t, nil, "broker", "prune", "--inbox", srv.url(), "--older-than", "1000h")
	if code != 0 || !strings.Contains(out, "nothing to prune: 1 run on the broker, none inactive for more than 1000h") {
		t.Fatalf("jaiph broker prune --older-than 1000h: exit %d\n%s%s", code, out, errOut)
	}
	if now := streams(t, srv.url()); !slices.Equal(now, before) {
		t.Fatalf("a prune with a long window changed the streams: %v, then %v", before, now)
	}
	// A dry run says, and removes nothing.
	out, errOut, code = retCLI(t, nil, "broker", "prune", "--inbox", srv.url(), "--older-than", "1ns", "--dry-run")
	if code != 0 || !strings.Contains(out, "would remove run "+dead.Run+", inactive for ") || !strings.Contains(out, "would remove sources "+sources[0]) {
		t.Fatalf("jaiph broker prune --dry-run: exit %d\n%s%s", code, out, errOut)
	}
	if now := streams(t, srv.url()); !slices.Equal(now, before) || retWorkMessages(t, js) != 2 || len(retSources(t, js)) != 1 {
		t.Fatalf("a dry run removed something: streams %v, then %v", before, now)
	}
	// The run is over: a 1ns window removes its state, its deliveries and
	// the sources no run uses.
	out, errOut, code = retCLI(t, nil, "broker", "prune", "--inbox", srv.url(), "--older-than", "1ns")
	if code != 0 || !strings.Contains(out, "removed run "+dead.Run+", inactive for ") || !strings.Contains(out, "2 deliveries in the work queue") ||
		!strings.Contains(out, "removed sources "+sources[0]) || !strings.Contains(out, "removed 1 run and 1 sources object inactive for more than 1ns") {
		t.Fatalf("jaiph broker prune --older-than 1ns: exit %d\n%s%s", code, out, errOut)
	}
	if names := streams(t, srv.url()); strings.Join(names, " ") != "JAIPH_DLQ JAIPH_WORK OBJ_JAIPH_SRC" {
		t.Fatalf("streams left after the prune: %v", names)
	}
	if n := retWorkMessages(t, js); n != 0 {
		t.Fatalf("%d messages left in JAIPH_WORK", n)
	}
	if names := retSources(t, js); len(names) != 0 {
		t.Fatalf("JAIPH_SRC still holds %v", names)
	}
	// Again: nothing more.
	out, errOut, code = retCLI(t, nil, "broker", "prune", "--inbox", srv.url(), "--older-than", "1ns")
	if code != 0 || !strings.Contains(out, "nothing to prune: 0 runs on the broker") {
		t.Fatalf("a second prune: exit %d\n%s%s", code, out, errOut)
	}
	if out, _, code = retCLI(t, nil, "broker", "runs", "--inbox", srv.url()); code != 0 || out != "no runs with state on the broker\n" {
		t.Fatalf("jaiph broker runs after the prune: exit %d\n%s", code, out)
	}
	if out, _, code = retCLI(t, nil, "broker", "runs", "--inbox", srv.url(), "--json"); code != 0 || strings.Join(strings.Fields(out), "") != `{"runs":[]}` {
		t.Fatalf("jaiph broker runs --json after the prune: exit %d\n%s", code, out)
	}
}

// TestBrokerRunsUsage: the help lists the subcommands, and mistakes are
// usage errors (exit 2) before anything connects.
func TestBrokerRunsUsage(t *testing.T) {
	out, _, code := retCLI(t, nil, "broker", "--help")
	if code != 0 || !regexp.MustCompile(`(?m)^  prune +Remove the broker state of runs inactive`).MatchString(out) ||
		!regexp.MustCompile(`(?m)^  runs +List the runs that have state on the broker`).MatchString(out) || !strings.Contains(out, "--retention DURATION") {
		t.Fatalf("jaiph broker --help: exit %d\n%s", code, out)
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"broker", "prune", "--help"}, "--older-than DURATION"},
		{[]string{"broker", "runs", "--help"}, "--json"},
	} {
		if out, _, code := retCLI(t, nil, c.args...); code != 0 || !strings.Contains(out, c.want) {
			t.Fatalf("jaiph %s: exit %d\n%s", strings.Join(c.args, " "), code, out)
		}
	}
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"broker", "prune", "--inbox", "nats://127.0.0.1:1", "--older-than", "soon"}, `invalid argument "soon" for "--older-than" flag: want a duration such as 168h, 90m or 7d`},
		{[]string{"broker", "prune", "--inbox", "nats://127.0.0.1:1", "--older-than", "-1h"}, "a duration cannot be negative"},
		{[]string{"broker", "prune", "--inbox", "nats://127.0.0.1:1", "--older-than", "0"}, "--older-than needs a duration above 0"},
		{[]string{"broker", "prune"}, "jaiph broker prune needs --inbox URL (nats://HOST:PORT) or JAIPH_INBOX_URL"},
		{[]string{"broker", "runs"}, "jaiph broker runs needs --inbox URL (nats://HOST:PORT) or JAIPH_INBOX_URL"},
		{[]string{"broker", "runs", "--inbox", "nats://127.0.0.1:1", "extra"}, "runs takes no arguments, got extra"},
		{[]string{"broker", "--retention", "week", "--store", t.TempDir()}, `invalid argument "week" for "--retention" flag`},
	} {
		if _, errOut, code := retCLI(t, nil, c.args...); code != 2 || !strings.Contains(errOut, c.want) {
			t.Fatalf("jaiph %s: exit %d, want 2 and %q\n%s", strings.Join(c.args, " "), code, c.want, errOut)
		}
	}
	// An unreachable broker is an error (exit 1) naming it.
	if _, errOut, code := retCLI(t, nil, "broker", "prune", "--inbox", "nats://127.0.0.1:1"); code != 1 || !strings.Contains(errOut, "cannot reach the broker at nats://127.0.0.1:1") {
		t.Fatalf("jaiph broker prune against no broker: exit %d\n%s", code, errOut)
	}
}

// retGated's target runs until the file go exists in the worker's directory.
var retGated = oneJob("  echo started >> started.txt\n  while [ ! -f go ]; do sleep 0.05; done\n  echo \"done $1\" >> done.txt\n")

var retFailing = oneJob("  echo \"cannot $1\" >&2\n  exit 3\n")

// TestPruneKeepsLiveRun: a run in progress (its delivery held by a
// worker) is never pruned by a long window, through the CLI or the Go
// API; a cutoff between a failed run's last activity and the live run's
// removes the failed run only; the live run then completes.
func TestPruneKeepsLiveRun(t *testing.T) {
	srv := startServer(t)
	js := jsClient(t, srv.url())
	ctx := context.Background()
	failDir, liveDir := workspace(t, retFailing), workspace(t, retGated)
	startWorker(t, srv.url(), "w", liveDir, 1) // the retFailing target touches no file
	f := startRun(t, srv.url(), failDir, "flow.jh", nil)
	if code := f.wait(t); code != 1 {
		t.Fatalf("the retFailing run: exit %d, want 1\nstderr:\n%s", code, f.stderr.String())
	}
	runs, err := broker.ListRuns(ctx, js)
	if err != nil || len(runs) != 1 || runs[0].Outstanding != 0 {
		t.Fatalf("after the retFailing run: %+v, %v; want its state, nothing in the work queue", runs, err)
	}
	failed := runs[0]
	l := startRun(t, srv.url(), liveDir, "flow.jh", nil)
	retWaitStarted(t, l, liveDir)
	live := retWaitRun(t, js, l, func(s broker.RunState) bool { return s.Run != failed.Run })
	if !live.LastActivity.After(failed.LastActivity) {
		t.Fatalf("the live run's last activity %v is not after the failed run's %v", live.LastActivity, failed.LastActivity)
	}
	liveStreams := live.Streams

	// A long window, through the CLI (the default, 168h) and the Go API:
	// nothing goes.
	out, errOut, code := retCLI(t, nil, "broker", "prune", "--inbox", srv.url())
	if code != 0 || !strings.Contains(out, "nothing to prune: 2 runs on the broker, none inactive for more than 168h") {
		t.Fatalf("jaiph broker prune: exit %d\n%s%s", code, out, errOut)
	}
	rep, err := broker.Prune(ctx, js, time.Hour, time.Now(), false)
	if err != nil || len(rep.Removed) != 0 || len(rep.Sources) != 0 || len(rep.Kept) != 2 {
		t.Fatalf("Prune with a 1h window: %+v, %v", rep, err)
	}
	// A cutoff at the live run's last activity: the failed run goes, the
	// live one stays whole, with its sources.
	liveSources := broker.Sources{Entry: "flow.jh", Files: map[string][]byte{"flow.jh": []byte(retGated)}}.Hash()
	now := live.LastActivity.Add(time.Hour)
	rep, err = broker.Prune(ctx, js, time.Hour, now, false)
	if err != nil || !slices.Equal(retRunIDs(rep.Removed), []string{failed.Run}) || !slices.Equal(retRunIDs(rep.Kept), []string{live.Run}) || slices.Contains(rep.Sources, liveSources) {
		t.Fatalf("Prune at a cutoff between the runs: %+v, %v; want %s removed, %s kept", rep, err, failed.Run, live.Run)
	}
	names := streams(t, srv.url())
	for _, s := range liveStreams {
		if !slices.Contains(names, s) {
			t.Fatalf("the live run's stream %s was removed: %v", s, names)
		}
	}
	for _, s := range failed.Streams {
		if slices.Contains(names, s) {
			t.Fatalf("the failed run's stream %s is still there: %v", s, names)
		}
	}
	if !slices.Contains(retSources(t, js), liveSources) {
		t.Fatalf("the live run's sources %s were removed: %v", liveSources, retSources(t, js))
	}
	// Idempotent.
	if rep, err = broker.Prune(ctx, js, time.Hour, now, false); err != nil || len(rep.Removed) != 0 || len(rep.Sources) != 0 {
		t.Fatalf("a second Prune: %+v, %v", rep, err)
	}
	// The live run completes, and then removes its state itself.
	if err := os.WriteFile(filepath.Join(liveDir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if code := l.wait(t); code != 0 {
		t.Fatalf("the live run: exit %d\nstdout:\n%s\nstderr:\n%s", code, l.stdout.String(), l.stderr.String())
	}
	if runs, err := broker.ListRuns(ctx, js); err != nil || len(runs) != 0 {
		t.Fatalf("after the live run completed: %+v, %v", runs, err)
	}
}

// retWaitStarted waits until the run's target started in the worker's
// directory dir.
func retWaitStarted(t *testing.T, r *run, dir string) {
	t.Helper()
	stop := time.Now().Add(deadline)
	for time.Now().Before(stop) {
		if _, err := os.Stat(filepath.Join(dir, "started.txt")); err == nil {
			return
		}
		select {
		case <-r.done:
			t.Fatalf("the run ended (exit %d) before its target started; stderr:\n%s", r.code, r.stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatal("the live run's target never started")
}

// TestPruneSources: Prune through the Go API on state made by hand. The
// cutoff is placed between timestamps the broker recorded: a run with
// only some of its objects goes with all its work messages; a source a
// remaining run records is kept, another is removed, but none while a
// remaining run records no sources; a dry run removes nothing; pruning
// again removes nothing more.
func TestPruneSources(t *testing.T) {
	srv := startServer(t)
	js := jsClient(t, srv.url())
	ctx := context.Background()
	const (
		partial  = "00000000-0000-4000-8000-000000000001" // only an artifact store, old
		recorded = "00000000-0000-4000-8000-000000000002" // ledger with its run record, events; recent
		unknown  = "00000000-0000-4000-8000-000000000003" // only an event stream, recent
	)
	if _, err := js.CreateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: "JAIPH_ART_" + partial}); err != nil {
		t.Fatal(err)
	}
	if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "JAIPH_WORK", Subjects: []string{"jaiph.work.>"}, Retention: jetstream.WorkQueuePolicy}); err != nil {
		t.Fatal(err)
	}
	for _, subject := range []string{"jaiph.work." + partial, "jaiph.work." + partial, "jaiph.work." + partial + ".d_001_0", "jaiph.work." + recorded} {
		if _, err := js.Publish(ctx, subject, []byte("{}")); err != nil {
			t.Fatal(err)
		}
	}
	// The sources, stored after the partial run's last activity.
	obs, err := js.CreateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: "JAIPH_SRC"})
	if err != nil {
		t.Fatal(err)
	}
	var stored time.Time
	for _, name := range []string{"used", "unused"} {
		if _, err := obs.PutBytes(ctx, name, []byte(name)); err != nil {
			t.Fatal(err)
		}
		info, err := obs.GetInfo(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		stored = retLatest(stored, info.ModTime)
	}
	kv, err := js.CreateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: "JAIPH_" + recorded, History: 1})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := kv.Put(ctx, "run", []byte(`{"src":"used","started":1700000000000}`)); err != nil {
		t.Fatal(err)
	}
	for _, run := range []string{recorded, unknown} {
		if _, err := js.CreateStream(ctx, jetstream.StreamConfig{Name: "JAIPH_EV_" + run, Subjects: []string{"jaiph.ev." + run + ".>"}}); err != nil {
			t.Fatal(err)
		}
	}
	// The recent runs' activity strictly after the sources were stored
	// (another write, should the clock not have moved).
	var cutoff time.Time
	for i := 0; ; i++ {
		if i == 1000 {
			t.Fatal("the broker's clock does not move")
		}
		byRun := map[string]broker.RunState{}
		runs, err := broker.ListRuns(ctx, js)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range runs {
			byRun[s.Run] = s
		}
		r, u, p := byRun[recorded], byRun[unknown], byRun[partial]
		if len(runs) != 3 || !p.LastActivity.Before(stored) {
			t.Fatalf("ListRuns: %+v; want the three runs, %s before the sources were stored at %v", runs, partial, stored)
		}
		if r.LastActivity.After(stored) && u.LastActivity.After(stored) {
			if strings.Join(r.Objects, " ") != "ledger events" || r.Sources != "used" || !r.Started.Equal(time.UnixMilli(1700000000000)) || r.Outstanding != 1 ||
				strings.Join(u.Objects, " ") != "events" || u.Sources != "" || u.Outstanding != 0 ||
				strings.Join(p.Objects, " ") != "artifacts" || p.Outstanding != 3 {
				t.Fatalf("ListRuns: %+v", runs)
			}
			cutoff = r.LastActivity
			if u.LastActivity.Before(cutoff) {
				cutoff = u.LastActivity
			}
			break
		}
		if _, err := kv.Put(ctx, "d.001.0", []byte("{}")); err != nil {
			t.Fatal(err)
		}
		if _, err := js.Publish(ctx, "jaiph.ev."+unknown+".x", []byte("{}")); err != nil {
			t.Fatal(err)
		}
	}
	now := cutoff.Add(time.Hour) // with a 1h window: the partial run and the sources are older

	// A remaining run (unknown) records no sources: they all stay.
	rep, err := broker.Prune(ctx, js, time.Hour, now, false)
	if err != nil || !slices.Equal(retRunIDs(rep.Removed), []string{partial}) || !slices.Equal(retRunIDs(rep.Kept), []string{recorded, unknown}) ||
		len(rep.Sources) != 0 || !strings.Contains(rep.SourcesKept, unknown) {
		t.Fatalf("Prune: %+v, %v; want %s removed, the sources kept for %s", rep, err, partial, unknown)
	}
	if n := retWorkMessages(t, js); n != 1 {
		t.Fatalf("%d messages in JAIPH_WORK, want the recorded run's 1", n)
	}
	if names := retSources(t, js); strings.Join(names, " ") != "unused used" {
		t.Fatalf("JAIPH_SRC holds %v", names)
	}
	// The unknown run's state goes (it completed): the unused sources go,
	// the recorded run's stay.
	if err := js.DeleteStream(ctx, "JAIPH_EV_"+unknown); err != nil {
		t.Fatal(err)
	}
	rep, err = broker.Prune(ctx, js, time.Hour, now, false)
	if err != nil || len(rep.Removed) != 0 || !slices.Equal(rep.Sources, []string{"unused"}) || rep.SourcesKept != "" {
		t.Fatalf("Prune: %+v, %v; want the unused sources removed", rep, err)
	}
	if names := retSources(t, js); strings.Join(names, " ") != "used" {
		t.Fatalf("JAIPH_SRC holds %v", names)
	}
	if rep, err = broker.Prune(ctx, js, time.Hour, now, false); err != nil || len(rep.Removed) != 0 || len(rep.Sources) != 0 {
		t.Fatalf("a second Prune: %+v, %v", rep, err)
	}
	// Later: the recorded run is inactive too. A dry run says so and
	// removes nothing.
	later := now.Add(24 * time.Hour)
	before := streams(t, srv.url())
	rep, err = broker.Prune(ctx, js, time.Hour, later, true)
	if err != nil || !rep.DryRun || !slices.Equal(retRunIDs(rep.Removed), []string{recorded}) || !slices.Equal(rep.Sources, []string{"used"}) {
		t.Fatalf("a dry Prune: %+v, %v", rep, err)
	}
	if names := streams(t, srv.url()); !slices.Equal(names, before) || retWorkMessages(t, js) != 1 || len(retSources(t, js)) != 1 {
		t.Fatalf("a dry run removed something: streams %v, then %v", before, names)
	}
	rep, err = broker.Prune(ctx, js, time.Hour, later, false)
	if err != nil || !slices.Equal(retRunIDs(rep.Removed), []string{recorded}) || !slices.Equal(rep.Sources, []string{"used"}) {
		t.Fatalf("Prune: %+v, %v", rep, err)
	}
	if names := streams(t, srv.url()); strings.Join(names, " ") != "JAIPH_WORK OBJ_JAIPH_SRC" || retWorkMessages(t, js) != 0 || len(retSources(t, js)) != 0 {
		t.Fatalf("left after the last prune: streams %v, %d work messages, sources %v", names, retWorkMessages(t, js), retSources(t, js))
	}
	if rep, err = broker.Prune(ctx, js, time.Hour, later, false); err != nil || len(rep.Removed) != 0 || len(rep.Sources) != 0 || len(rep.Kept) != 0 {
		t.Fatalf("a Prune of nothing: %+v, %v", rep, err)
	}
}

func retLatest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// TestRetentionJanitor: `jaiph broker --retention 1ns` started on a store
// that holds a killed run's state prunes it by itself, one line naming the
// run on stderr, and still serves and stops on SIGTERM.
func TestRetentionJanitor(t *testing.T) {
	srv := startServer(t)
	js := jsClient(t, srv.url())
	dead := retKilledRun(t, srv, js, workspace(t, retTwoJobs))
	srv.stop()

	cmd := exec.Command(jaiphFull, "broker", "--listen", "127.0.0.1:0", "--store", srv.store, "--retention", "1ns")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	outLog, errLog := newLogWatcher(), newLogWatcher()
	exited := make(chan struct{})
	read := make(chan struct{}, 2)
	go func() { outLog.read(bufio.NewScanner(stdout)); read <- struct{}{} }()
	go func() { errLog.read(bufio.NewScanner(stderr)); read <- struct{}{} }()
	go func() { <-read; <-read; _ = cmd.Wait(); close(exited) }()
	t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); <-exited })

	url := regexp.MustCompile(`listening on (nats://\S+)`).FindStringSubmatch(outLog.wait(t, "listening on"))[1]
	line := errLog.wait(t, "removed run "+dead.Run)
	if !strings.Contains(line, "jaiph broker: removed run "+dead.Run+", inactive for ") || !strings.Contains(line, "2 deliveries in the work queue") {
		t.Fatalf("the janitor's line: %q", line)
	}
	errLog.wait(t, "removed 1 sources object no run uses")
	if names := streams(t, url); strings.Join(names, " ") != "JAIPH_DLQ JAIPH_WORK OBJ_JAIPH_SRC" {
		t.Fatalf("streams left after the janitor's prune: %v", names)
	}
	if n := retWorkMessages(t, jsClient(t, url)); n != 0 {
		t.Fatalf("%d messages left in JAIPH_WORK", n)
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-exited:
	case <-time.After(deadline):
		t.Fatal("jaiph broker did not stop on SIGTERM")
	}
	if code := cmd.ProcessState.ExitCode(); code != 0 {
		t.Fatalf("jaiph broker: exit %d\n%s", code, errLog.text())
	}
}
