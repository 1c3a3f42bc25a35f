package runs

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const (
	wfStart  = `{"type":"WORKFLOW_START","workflow":"default","source":"old.jh","ts":"2020-01-01T10:00:00Z","run_id":"r1","event_version":1}`
	stepRoot = `{"type":"STEP_START","func":"old::default","kind":"workflow","name":"default","ts":"2020-01-01T10:00:00Z","status":null,"id":"r1:1:1","parent_id":null,"seq":1,"depth":0,"run_id":"r1","event_version":1}`
	stepKid  = `{"type":"STEP_END","func":"old::x","kind":"workflow","name":"x","ts":"2020-01-01T10:00:02Z","status":1,"id":"r1:1:2","parent_id":"r1:1:1","seq":2,"depth":1,"run_id":"r1","event_version":1}`
)

func rootEnd(status string) string {
	return `{"type":"STEP_END","func":"old::default","kind":"workflow","name":"default","ts":"2020-01-01T10:00:05Z","status":` + status + `,"id":"r1:1:1","parent_id":null,"seq":1,"depth":0,"run_id":"r1","event_version":1}`
}

// TestStatusFromSummary derives a run's status from its summary alone (a
// run without .run.end): the root STEP_END decides; a run that never
// ended, or whose last line is torn, was interrupted.
func TestStatusFromSummary(t *testing.T) {
	for _, tc := range []struct {
		name, summary, status, source string
		durationMS                    int64
	}{
		{"root passed", lines(wfStart, stepRoot, stepKid, rootEnd("0")), Passed, "old.jh", 5000},
		{"root failed", lines(wfStart, stepRoot, stepKid, rootEnd("1")), Failed, "old.jh", 5000},
		{"root interrupted by a signal is failed without .run.end", lines(wfStart, stepRoot, rootEnd("130")), Failed, "old.jh", 5000},
		{"child failed, root never ended", lines(wfStart, stepRoot, stepKid), Interrupted, "old.jh", 2000},
		{"torn last line", lines(wfStart, stepRoot, stepKid) + rootEnd("0")[:40], Interrupted, "old.jh", 2000},
		{"torn line in the middle", lines(wfStart, stepRoot[:30], stepKid, rootEnd("0")), Passed, "old.jh", 5000},
		{"no WORKFLOW_START", lines(stepRoot, rootEnd("0")), Passed, "", 5000},
		{"empty summary", "", Unknown, "", 0},
		{"garbage", "not json\n{\n", Unknown, "", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, SummaryFile), tc.summary)
			r, ok := Read(dir, time.Now())
			if !ok {
				t.Fatal("not read as a run")
			}
			if r.Status != tc.status || r.Source != tc.source || r.DurationMS != tc.durationMS || !r.Legacy {
				t.Errorf("got status %q source %q duration %d legacy %v, want %q %q %d true",
					r.Status, r.Source, r.DurationMS, r.Legacy, tc.status, tc.source, tc.durationMS)
			}
		})
	}
}

// TestStatusFromRecords: .run.end wins over the summary, a run with
// .run.json but no end (kill -9) is interrupted, a held lock is running,
// and broken records never stop the listing.
func TestStatusFromRecords(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	meta := &Meta{Version: MetaVersion, RunID: "id", Entry: "/w/a.jh", Source: "a.jh", Args: []string{"x"}, Start: start}
	for _, tc := range []struct {
		name   string
		setup  func(t *testing.T, dir string)
		status string
		ms     int64
	}{
		{"end passed", func(t *testing.T, dir string) {
			must(t, WriteMeta(RecordsDir(dir), meta))
			must(t, WriteEnd(RecordsDir(dir), &End{Status: Passed, End: start.Add(1500 * time.Millisecond)}))
			write(t, filepath.Join(dir, SummaryFile), lines(stepRoot, rootEnd("1")))
		}, Passed, 1500},
		{"end interrupted", func(t *testing.T, dir string) {
			must(t, WriteMeta(RecordsDir(dir), meta))
			must(t, WriteEnd(RecordsDir(dir), &End{Status: Interrupted, Signal: "SIGINT", End: start.Add(time.Second)}))
		}, Interrupted, 1000},
		{"killed: meta, no end, no summary", func(t *testing.T, dir string) {
			must(t, WriteMeta(RecordsDir(dir), meta))
		}, Interrupted, 0},
		{"killed: meta, torn summary", func(t *testing.T, dir string) {
			must(t, WriteMeta(RecordsDir(dir), meta))
			write(t, filepath.Join(dir, SummaryFile), stepRoot[:50])
		}, Interrupted, 0},
		{"killed after the root step ended: the summary does not count", func(t *testing.T, dir string) {
			must(t, WriteMeta(RecordsDir(dir), meta))
			write(t, filepath.Join(dir, SummaryFile), lines(stepRoot, rootEnd("0")))
		}, Interrupted, 0},
		{"live: lock held", func(t *testing.T, dir string) {
			must(t, WriteMeta(RecordsDir(dir), meta))
			f, err := Lock(dir)
			must(t, err)
			t.Cleanup(func() { f.Close() })
		}, Running, time.Hour.Milliseconds()},
		{"lock held by a leftover child, the recorded pid is gone", func(t *testing.T, dir string) {
			cmd := exec.Command("true")
			must(t, cmd.Run())
			dead := *meta
			dead.PID = cmd.Process.Pid
			must(t, WriteMeta(RecordsDir(dir), &dead))
			f, err := Lock(dir)
			must(t, err)
			t.Cleanup(func() { f.Close() })
		}, Interrupted, 0},
		{"corrupt meta, no summary", func(t *testing.T, dir string) {
			write(t, Record(dir, MetaFile), `{"version":1,"start":`)
		}, Unknown, 0},
		{"corrupt end", func(t *testing.T, dir string) {
			must(t, WriteMeta(RecordsDir(dir), meta))
			write(t, Record(dir, EndFile), `{"sta`)
		}, Interrupted, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.setup(t, dir)
			r, ok := Read(dir, start.Add(time.Hour))
			if !ok || r.Status != tc.status || r.DurationMS != tc.ms {
				t.Errorf("got ok %v status %q duration %d, want %q %d", ok, r.Status, r.DurationMS, tc.status, tc.ms)
			}
		})
	}
}

// TestListOrderAndSkips lists newest first and skips what is not a run.
func TestListOrderAndSkips(t *testing.T) {
	root := t.TempDir()
	for i, name := range []string{"2026-01-01/10-00-00-a.jh", "2026-01-02/09-00-00-b.jh", "2026-01-01/11-00-00-c.jh"} {
		dir := filepath.Join(root, name)
		must(t, os.MkdirAll(dir, 0o755))
		start := time.Date(2026, 1, 1, 10+i, 0, 0, 0, time.UTC)
		must(t, WriteMeta(RecordsDir(dir), &Meta{Version: MetaVersion, Source: filepath.Base(name)[9:], Start: start}))
		must(t, WriteEnd(RecordsDir(dir), &End{Status: Passed, End: start.Add(time.Second)}))
	}
	must(t, os.MkdirAll(filepath.Join(root, "2026-01-01", "empty"), 0o755))
	write(t, filepath.Join(root, "2026-01-01", "stray-file"), "x")
	write(t, filepath.Join(root, "stray-file"), "x")
	list, err := List(root, time.Now())
	must(t, err)
	var got []string
	for _, r := range list {
		got = append(got, r.Source)
	}
	if strings.Join(got, " ") != "c.jh b.jh a.jh" {
		t.Errorf("order %v, want c.jh b.jh a.jh", got)
	}
	if list, err := List(filepath.Join(root, "missing"), time.Now()); err != nil || list != nil {
		t.Errorf("missing root: %v %v", list, err)
	}
	var buf bytes.Buffer
	must(t, WriteText(&buf, list[:1], root))
	want := "START                STATUS  DURATION  SOURCE  RUN DIR\n" +
		time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC).Local().Format("2006-01-02 15:04:05") +
		"  passed  1.0s      c.jh    2026-01-01/11-00-00-c.jh\n"
	if buf.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", buf.String(), want)
	}
}

func TestSettingsAndDuration(t *testing.T) {
	got := Settings([]string{"PATH=/bin", "JAIPH_DEBUG=true", "JAIPH_API_TOKEN=s3cret", "ANTHROPIC_API_KEY=k", "JAIPH_DEBUG=false"})
	if len(got) != 2 || got[0] != (Setting{"JAIPH_API_TOKEN", "sha256:" + Hash([]byte("s3cret"))}) || got[1] != (Setting{"JAIPH_DEBUG", "false"}) {
		t.Errorf("settings %v", got)
	}
	for ms, want := range map[int64]string{0: "0.0s", 450: "0.5s", 59_940: "59.9s", 245_000: "4m05s", 7_260_000: "2h01m"} {
		if d := Duration(ms); d != want {
			t.Errorf("Duration(%d) = %q, want %q", ms, d, want)
		}
	}
}

func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func write(t testing.TB, path, s string) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	must(t, os.WriteFile(path, []byte(s), 0o644))
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestTruncatedRecords: a record cut at any point (a torn copy, a full
// disk) never fails the listing and never makes a dead run look live.
func TestTruncatedRecords(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	src := t.TempDir()
	must(t, WriteMeta(RecordsDir(src), &Meta{Version: MetaVersion, RunID: "id", Source: "a.jh", Args: []string{"x"}, Start: start,
		Settings: []Setting{{"JAIPH_DEBUG", "true"}}, Modules: []Module{{"/w/a.jh", Hash(nil)}}}))
	must(t, WriteEnd(RecordsDir(src), &End{Status: Failed, ExitCode: 1, End: start.Add(time.Second)}))
	for _, name := range []string{MetaFile, EndFile} {
		data, err := os.ReadFile(Record(src, name))
		must(t, err)
		dir := t.TempDir()
		for _, other := range []string{MetaFile, EndFile} {
			if other != name {
				b, _ := os.ReadFile(Record(src, other))
				write(t, Record(dir, other), string(b))
			}
		}
		write(t, filepath.Join(dir, SummaryFile), lines(wfStart, stepRoot)+rootEnd("0")[:50])
		for n := 0; n <= len(data); n += 3 { // every third cut: file writes dominate the test's time
			os.Remove(Record(dir, name)) // not O_TRUNC: ext4 flushes a truncated file's data
			write(t, Record(dir, name), string(data[:n]))
			r, ok := Read(dir, time.Now())
			if !ok || r.Status == Running || r.Status == "" {
				t.Fatalf("%s cut at %d: ok %v status %q", name, n, ok, r.Status)
			}
		}
	}
}

func TestNewest(t *testing.T) {
	root := t.TempDir()
	for dir, ts := range map[string]string{"2026-01-02/10-00-00-a.jh": "2026-01-02T10:00:00Z",
		"2026-01-02/09-59-59-b.jh": "2026-01-02T09:59:59Z", "2025-12-31/23-00-00-c.jh": "2025-12-31T23:00:00Z"} {
		must(t, os.MkdirAll(filepath.Join(root, dir), 0o755))
		write(t, filepath.Join(root, dir, "run_summary.jsonl"), strings.Replace(wfStart, "2020-01-01T10:00:00Z", ts, 1)+"\n")
	}
	write(t, filepath.Join(root, "2026-01-02", "stray"), "") // a file, not a run
	must(t, os.MkdirAll(filepath.Join(root, "2026-01-03", "not-a-run"), 0o755))
	if got, err := Newest(root); err != nil || got != filepath.Join(root, "2026-01-02", "10-00-00-a.jh") {
		t.Errorf("Newest = %q, %v", got, err)
	}
	if _, err := Newest(t.TempDir()); err == nil || !strings.Contains(err.Error(), "no runs under") {
		t.Errorf("Newest of nothing: %v", err)
	}
}

// TestKilledRunDuration: a run killed with SIGKILL records no end; its
// duration runs to its last event, whose whole-second timestamp the
// summary's modification time makes exact (it read 0 before: the last
// event's ts, truncated, was not after the exact start). A copied run
// directory, whose summary's time is not within the event's second,
// keeps the timestamp.
func TestKilledRunDuration(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 4, 5, 300_000_000, time.UTC)
	meta := &Meta{Version: MetaVersion, RunID: "id", Entry: "/w/a.jh", Source: "a.jh", Start: start}
	event := `{"type":"STEP_START","func":"a::default","kind":"workflow","name":"default","ts":"2026-01-02T03:04:06Z","status":null,"id":"r1:1:1","parent_id":null,"seq":1,"depth":0,"run_id":"id","event_version":1}`
	for _, tc := range []struct {
		name  string
		mtime time.Time
		ms    int64
	}{
		{"summary written 1.5 s after the start", start.Add(1500 * time.Millisecond), 1500},
		{"copied: the summary's time is later", start.Add(time.Hour), 700},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			must(t, WriteMeta(RecordsDir(dir), meta))
			sum := filepath.Join(dir, SummaryFile)
			write(t, sum, lines(event))
			must(t, os.Chtimes(sum, tc.mtime, tc.mtime))
			r, ok := Read(dir, start.Add(2*time.Hour))
			if !ok || r.Status != Interrupted || r.DurationMS != tc.ms || !r.EndUnknown {
				t.Errorf("got %q %d ms end unknown %v, want interrupted %d ms, end unknown", r.Status, r.DurationMS, r.EndUnknown, tc.ms)
			}
			var b bytes.Buffer
			must(t, WriteText(&b, []Run{r}, dir))
			if !strings.Contains(b.String(), "≥") || !strings.Contains(b.String(), "killed: duration to its last event") {
				t.Errorf("text %q lacks the lower bound and its note", b.String())
			}
		})
	}
}

// TestNote: the words jaiph runs and the report's list share.
func TestNote(t *testing.T) {
	now := time.Now()
	for _, tc := range []struct {
		r    Run
		want string
	}{
		{Run{Status: Failed, DeadLetters: 2}, "2 dead letters"},
		{Run{Status: Failed, DeadLetters: 1, Redriven: &now}, "1 dead letter, redriven"},
		{Run{Status: Failed, Redriven: &now}, "redriven"},
		{Run{Status: Passed}, ""},
	} {
		if got := Note(tc.r); got != tc.want {
			t.Errorf("Note(%+v) = %q, want %q", tc.r, got, tc.want)
		}
	}
}
