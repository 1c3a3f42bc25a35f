package report

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// makeRuns writes n finished runs (a workflow calling a rule, with a log
// line: 8 summary lines each) under a fresh workspace's .jaiph/runs, 100
// per date directory.
func makeRuns(t testing.TB, n int) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), ".jaiph", "runs")
	for i := range n {
		dir := filepath.Join(root, fmt.Sprintf("2026-%02d-%02d", 1+i/100/28%12, 1+i/100%28), fmt.Sprintf("%02d-%02d-%02d-r%d.jh", i/3600%24, i/60%60, i%60, i))
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		ts := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * time.Minute).Format(time.RFC3339)
		id := fmt.Sprintf("run-%d", i)
		lines := []string{
			`{"type":"STEP_START","func":"m::default","kind":"workflow","name":"default","ts":"` + ts + `","status":null,"elapsed_ms":null,"out_file":"","err_file":"","id":"` + id + `:1:1","parent_id":null,"seq":1,"depth":0,"run_id":"` + id + `","params":[],"event_version":1}`,
			`{"type":"WORKFLOW_START","workflow":"default","source":"m.jh","ts":"` + ts + `","run_id":"` + id + `","event_version":1}`,
			`{"type":"LOG","message":"hello","depth":1,"ts":"` + ts + `","run_id":"` + id + `","event_version":1}`,
			`{"type":"STEP_START","func":"m::check","kind":"rule","name":"check","ts":"` + ts + `","status":null,"elapsed_ms":null,"out_file":"","err_file":"","id":"` + id + `:1:2","parent_id":"` + id + `:1:1","seq":2,"depth":1,"run_id":"` + id + `","params":[["arg1","x"]],"event_version":1}`,
			`{"type":"STEP_END","func":"m::check","kind":"rule","name":"check","ts":"` + ts + `","status":0,"elapsed_ms":3,"out_file":"","err_file":"","id":"` + id + `:1:2","parent_id":"` + id + `:1:1","seq":2,"depth":1,"run_id":"` + id + `","out_content":"ok","event_version":1}`,
			`{"type":"WORKFLOW_END","workflow":"default","source":"m.jh","ts":"` + ts + `","run_id":"` + id + `","status":0,"event_version":1}`,
			`{"type":"STEP_END","func":"m::default","kind":"workflow","name":"default","ts":"` + ts + `","status":0,"elapsed_ms":5,"out_file":"","err_file":"","id":"` + id + `:1:1","parent_id":null,"seq":1,"depth":0,"run_id":"` + id + `","event_version":1}`,
		}
		if err := os.WriteFile(filepath.Join(dir, "run_summary.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// TestUnchangedNotReread: once read, an unchanged summary is not read
// again; an appended one is read once more (from where it was left).
func TestUnchangedNotReread(t *testing.T) {
	root := makeRuns(t, 50)
	s := Handler(Options{Root: root})
	list := func() {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("GET", "/api/runs?limit=50", nil))
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"total":50`) {
			t.Fatalf("%d %s", rec.Code, rec.Body.String())
		}
	}
	list()
	if s.reg.reads != 50 {
		t.Fatalf("first listing read %d summaries, want 50", s.reg.reads)
	}
	list()
	list()
	if s.reg.reads != 50 {
		t.Fatalf("unchanged runs were read again: %d reads, want 50", s.reg.reads)
	}
	dirs, _ := filepath.Glob(filepath.Join(root, "*", "*", "run_summary.jsonl"))
	appendFile(t, dirs[7], []byte(`{"type":"LOG","message":"more","depth":1}`+"\n"))
	list()
	if s.reg.reads != 51 {
		t.Fatalf("after one summary grew: %d reads, want 51", s.reg.reads)
	}
}

// BenchmarkRunsList5000: /api/runs?limit=50 over 5,000 runs after the
// first scan (docs/performance.md; target under 100 ms). The directory
// scan runs at most every 2 s, as in jaiph report.
func BenchmarkRunsList5000(b *testing.B) {
	root := makeRuns(b, 5000)
	s := Handler(Options{Root: root, ScanEvery: 2 * time.Second})
	s.reg.refresh(time.Now(), true)
	for b.Loop() {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("GET", "/api/runs?limit=50", nil))
		if rec.Code != http.StatusOK {
			b.Fatal(rec.Code)
		}
	}
}

// BenchmarkRunsListRescan5000: the same with the directory scan on every
// request (the worst case: a poll coinciding with each request).
func BenchmarkRunsListRescan5000(b *testing.B) {
	root := makeRuns(b, 5000)
	s := Handler(Options{Root: root})
	s.reg.refresh(time.Now(), true)
	for b.Loop() {
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("GET", "/api/runs?limit=50", nil))
		if rec.Code != http.StatusOK {
			b.Fatal(rec.Code)
		}
	}
}

// BenchmarkFirstScan5000: the first scan of 5,000 runs (every summary
// read and parsed, every status asked of the runs package).
func BenchmarkFirstScan5000(b *testing.B) {
	root := makeRuns(b, 5000)
	for b.Loop() {
		Handler(Options{Root: root}).reg.refresh(time.Now(), true)
	}
}

// BenchmarkFirstRequest5000: a server started as jaiph report starts it
// (Warm, Run's warm-up in the background) and its first
// /api/runs?limit=50 over 5,000 runs, timed from the start (the issue's
// target: under 100 ms). ns/op is that time only: the rest of the warm-up,
// waited for before the next start, is not counted.
func BenchmarkFirstRequest5000(b *testing.B) {
	root := makeRuns(b, 5000)
	var first time.Duration
	for i := 0; i < b.N; i++ {
		ctx, cancel := context.WithCancel(context.Background())
		start := time.Now()
		s := Handler(Options{Root: root, ScanEvery: 2 * time.Second, Warm: true})
		done := make(chan struct{})
		go func() { s.Run(ctx, time.Hour); close(done) }()
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, httptest.NewRequest("GET", "/api/runs?limit=50", nil))
		first += time.Since(start)
		if rec.Code != http.StatusOK || !strings.Contains(rec.Body.String(), `"total":5000`) {
			b.Fatal(rec.Code, rec.Body.String())
		}
		cancel()
		<-done
	}
	b.ReportMetric(float64(first.Nanoseconds())/float64(b.N), "ns/op")
}
