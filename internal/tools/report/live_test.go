package report

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

func appendFile(t *testing.T, path string, data []byte) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Write(data); err != nil {
		t.Fatal(err)
	}
}

type treeBody struct {
	Status  string  `json:"status"`
	Version int64   `json:"version"`
	Steps   []*Step `json:"steps"`
}

type activeBody struct {
	Runs []activeRun `json:"runs"`
}

func countSteps(steps []*Step) int {
	n := len(steps)
	for _, s := range steps {
		n += countSteps(s.Children)
	}
	return n
}

// TestLiveAppend: lines appended to a running run's summary show in its
// tree and in /api/active, a partial line only once it is complete, and
// the run leaves /api/active when it ends and its lock is freed.
func TestLiveAppend(t *testing.T) {
	f := setup(t)
	sum := filepath.Join(f.root, runningRun, "run_summary.jsonl")
	rest, err := os.ReadFile("testdata/running-rest.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	rest = bytes.ReplaceAll(rest, []byte("@ROOT@"), []byte(f.root))
	lines := bytes.SplitAfter(rest, []byte("\n"))

	// /api/active names the innermost running step: default's child
	// build, then build's child ready, then build again once ready ended.
	var a activeBody
	f.getJSON(t, "/api/active", &a)
	if len(a.Runs) != 1 || a.Runs[0].StepRunning != 2 || *a.Runs[0].Current != "workflow:build" {
		t.Fatalf("active before: %+v", a.Runs)
	}
	var tr treeBody
	f.getJSON(t, "/api/runs/"+enc(runningRun)+"/tree", &tr)
	v0, n0 := tr.Version, countSteps(tr.Steps)

	// Up to the start of rule ready (lines 5-8 of the passed run), the
	// STEP_START of ready cut in the middle.
	head := bytes.Join(lines[:3], nil)
	cut := len(lines[3]) / 2
	appendFile(t, sum, append(head, lines[3][:cut]...))
	f.getJSON(t, "/api/runs/"+enc(runningRun)+"/tree", &tr)
	if countSteps(tr.Steps) != n0 || tr.Version == v0 {
		t.Fatalf("half a STEP_START: %d steps (want %d), version %d (was %d)", countSteps(tr.Steps), n0, tr.Version, v0)
	}
	appendFile(t, sum, lines[3][cut:])
	f.getJSON(t, "/api/runs/"+enc(runningRun)+"/tree", &tr)
	if countSteps(tr.Steps) != n0+1 {
		t.Fatalf("completed STEP_START: %d steps, want %d", countSteps(tr.Steps), n0+1)
	}
	f.getJSON(t, "/api/active", &a)
	if len(a.Runs) != 1 || a.Runs[0].StepRunning != 3 || *a.Runs[0].Current != "rule:ready" {
		t.Fatalf("active after a step started: %+v", a.Runs)
	}
	appendFile(t, sum, bytes.Join(lines[4:6], nil)) // ready's log line and its STEP_END
	f.getJSON(t, "/api/active", &a)
	if len(a.Runs) != 1 || a.Runs[0].StepRunning != 2 || *a.Runs[0].Current != "workflow:build" {
		t.Fatalf("active after the innermost step ended: %+v", a.Runs)
	}

	// The rest: every step ends; the run is still live while its lock is held.
	appendFile(t, sum, bytes.Join(lines[6:], nil))
	f.getJSON(t, "/api/active", &a)
	if len(a.Runs) != 1 || a.Runs[0].StepRunning != 0 || a.Runs[0].StepCompleted != 3 {
		t.Fatalf("active after every step ended: %+v", a.Runs)
	}
}

// TestLockDecides: a summary with open steps is running only while a
// process holds the run's lock; once it is free (the process died: the
// kernel frees an flock even after kill -9) the run is interrupted and
// leaves /api/active. A copy nobody ever locked is interrupted from the
// start.
func TestLockDecides(t *testing.T) {
	f := setup(t)
	copyDir(t, filepath.Join(f.root, runningRun), filepath.Join(f.root, "2026-11-24", "unlocked"))
	var a activeBody
	f.getJSON(t, "/api/active", &a)
	if len(a.Runs) != 1 || a.Runs[0].Path != runningRun {
		t.Fatalf("want only the locked run active, got %+v", a.Runs)
	}
	var r Run
	f.getJSON(t, "/api/runs/"+enc("2026-11-24/unlocked"), &r)
	if r.Status != "interrupted" || r.EndedAt == nil || r.StepRunning != 0 {
		t.Fatalf("unlocked copy: %+v", r)
	}
	f.lock.Close()
	f.getJSON(t, "/api/active", &a)
	if len(a.Runs) != 0 {
		t.Fatalf("active after the lock was freed: %+v", a.Runs)
	}
	f.getJSON(t, "/api/runs/"+enc(runningRun), &r)
	if r.Status != "interrupted" || r.StepRunning != 0 {
		t.Fatalf("after the lock was freed: %+v", r)
	}
}

func copyDir(t *testing.T, src, dst string) {
	t.Helper()
	if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
}

// TestHalfLine: a summary whose last line is half written shows what its
// complete lines say; completing the line updates the run, and garbage
// lines before it are skipped.
func TestHalfLine(t *testing.T) {
	f := setup(t)
	var r Run
	f.getJSON(t, "/api/runs/"+enc(halfRun), &r)
	if r.Status != "interrupted" || r.StepCount != 3 {
		t.Fatalf("before: %+v", r)
	}
	var tr treeBody
	f.getJSON(t, "/api/runs/"+enc(halfRun)+"/tree", &tr)
	if len(tr.Steps) != 1 || tr.Steps[0].Status != nil || countSteps(tr.Steps) != 3 {
		t.Fatalf("before: root %+v, %d steps", tr.Steps[0], countSteps(tr.Steps))
	}
	rest, err := os.ReadFile("testdata/half-rest.txt")
	if err != nil {
		t.Fatal(err)
	}
	appendFile(t, filepath.Join(f.root, halfRun, "run_summary.jsonl"), bytes.ReplaceAll(rest, []byte("@ROOT@"), []byte(f.root)))
	f.getJSON(t, "/api/runs/"+enc(halfRun), &r)
	if r.Status != "completed" || r.StepCount != 3 || r.StepCompleted != 3 {
		t.Fatalf("after: %+v", r)
	}
	f.getJSON(t, "/api/runs/"+enc(halfRun)+"/tree", &tr)
	if len(tr.Steps) != 1 || tr.Steps[0].Status == nil || *tr.Steps[0].Status != 0 || tr.Steps[0].ElapsedMS == nil {
		t.Fatalf("after: root %+v", tr.Steps[0])
	}
}

// TestReplacedSummary: a summary replaced by a shorter file is read again
// from its start.
func TestReplacedSummary(t *testing.T) {
	f := setup(t)
	var r Run
	f.getJSON(t, "/api/runs/"+enc(passRun), &r)
	if r.StepCount != 3 {
		t.Fatalf("before: %+v", r)
	}
	sum := filepath.Join(f.root, passRun, "run_summary.jsonl")
	data, _ := os.ReadFile(sum)
	first := data[:bytes.IndexByte(data, '\n')+1]
	if err := os.WriteFile(sum+".new", first, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(sum+".new", sum); err != nil {
		t.Fatal(err)
	}
	f.getJSON(t, "/api/runs/"+enc(passRun), &r)
	if r.StepCount != 1 {
		t.Fatalf("after: %+v", r)
	}
}

// TestRunDisappears: a run directory removed after it was listed gives 404
// on every endpoint and leaves the list; never a 500.
func TestRunDisappears(t *testing.T) {
	f := setup(t)
	var list struct {
		Total int `json:"total"`
	}
	f.getJSON(t, "/api/runs", &list)
	before := list.Total
	if err := os.RemoveAll(filepath.Join(f.root, failRun)); err != nil {
		t.Fatal(err)
	}
	for _, u := range []string{"", "/tree", "/aggregate", "/inbox", "/steps/" + failStep + "/output", "/steps/" + failStep + "/logs"} {
		if code, _, body := f.get(t, "/api/runs/"+enc(failRun)+u); code != http.StatusNotFound {
			t.Errorf("%s: %d %s", u, code, body)
		}
	}
	f.getJSON(t, "/api/runs", &list)
	if list.Total != before-1 {
		t.Errorf("total %d, want %d", list.Total, before-1)
	}
	// The whole runs root gone.
	if err := os.RemoveAll(f.root); err != nil {
		t.Fatal(err)
	}
	f.srv.reg.scanEvery = 0
	f.getJSON(t, "/api/runs", &list)
	if list.Total != 0 {
		t.Errorf("total %d with no runs root", list.Total)
	}
}

// TestEvents: /api/events names the runs that changed or went away since
// the last poll, also when a request read the change first.
func TestEvents(t *testing.T) {
	f := setup(t)
	f.srv.tick() // the first scan: what later ticks compare with
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, "GET", f.ts.URL+"/api/events", nil)
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("content type %q", ct)
	}
	br := bufio.NewReader(res.Body)
	if l, _ := br.ReadString('\n'); l != ": ok\n" {
		t.Fatalf("first line %q", l)
	}
	br.ReadString('\n')
	rest, _ := os.ReadFile("testdata/running-rest.jsonl")
	appendFile(t, filepath.Join(f.root, runningRun, "run_summary.jsonl"), rest)
	os.RemoveAll(filepath.Join(f.root, killedRun))
	f.get(t, "/api/runs")
	f.srv.tick()
	var got []string
	for len(got) < 3 {
		l, err := br.ReadString('\n')
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.TrimSuffix(l, "\n"))
	}
	want := []string{"event: runs", `data: {"changed":["` + runningRun + `"],"removed":["` + killedRun + `"]}`, ""}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestStaticAndMethods: the UI's files are served from the fs.FS given
// (the placeholder without one); only GET and HEAD are answered.
func TestStaticAndMethods(t *testing.T) {
	f := setup(t)
	code, ctype, body := f.get(t, "/")
	if code != http.StatusOK || !strings.HasPrefix(ctype, "text/html") || !strings.Contains(body, "/api/runs") {
		t.Errorf("placeholder: %d %s %q", code, ctype, body)
	}
	ui := fstest.MapFS{"index.html": {Data: []byte("<p>ui</p>")}, "assets/app.js": {Data: []byte("let x = 1")}}
	f2 := &fixture{root: f.root, srv: Handler(Options{Root: f.root, UI: ui})}
	f2.ts = httptest.NewServer(f2.srv)
	defer f2.ts.Close()
	for url, want := range map[string]string{"/": "<p>ui</p>", "/assets/app.js": "let x = 1"} {
		if code, _, body := f2.get(t, url); code != http.StatusOK || body != want {
			t.Errorf("GET %s: %d %q", url, code, body)
		}
	}
	if code, _, _ := f2.get(t, "/nope.js"); code != http.StatusNotFound {
		t.Errorf("missing file: %d", code)
	}
	for _, m := range []string{"POST", "PUT", "DELETE", "PATCH"} {
		req, _ := http.NewRequest(m, f.ts.URL+"/api/runs", nil)
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusMethodNotAllowed || res.Header.Get("Allow") != "GET, HEAD" {
			t.Errorf("%s: %d allow %q", m, res.StatusCode, res.Header.Get("Allow"))
		}
	}
	res, err := http.Head(f.ts.URL + "/api/runs")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusOK {
		t.Errorf("HEAD: %d", res.StatusCode)
	}
}

// TestCycle: steps whose parents form a loop (garbage) still make a
// finite tree holding every step.
func TestCycle(t *testing.T) {
	s := newSummary()
	for _, l := range []string{
		`{"type":"STEP_START","id":"a","parent_id":"b","seq":1}`,
		`{"type":"STEP_START","id":"b","parent_id":"a","seq":2}`,
		`{"type":"STEP_START","id":"c","parent_id":"c","seq":3}`,
		`{"type":"STEP_START","id":"d","parent_id":"a","seq":4}`,
	} {
		s.add([]byte(l))
	}
	if n := countSteps(s.tree(stop{live: true})); n != 4 {
		t.Errorf("%d steps in the tree, want 4", n)
	}
}

// TestConcurrent: requests, polls and a growing summary at the same time
// (run under -race by make test).
func TestConcurrent(t *testing.T) {
	f := setup(t)
	rest, _ := os.ReadFile("testdata/running-rest.jsonl")
	lines := bytes.SplitAfter(rest, []byte("\n"))
	done := make(chan struct{})
	var wg sync.WaitGroup
	for _, u := range []string{"/api/runs", "/api/active", "/api/runs/" + enc(runningRun) + "/tree", "/api/runs/" + enc(runningRun) + "/aggregate"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				select {
				case <-done:
					return
				default:
				}
				if code, _, body := f.get(t, u); code != http.StatusOK {
					t.Errorf("GET %s: %d %s", u, code, body)
					return
				}
			}
		}()
	}
	for _, l := range lines {
		appendFile(t, filepath.Join(f.root, runningRun, "run_summary.jsonl"), l)
		f.srv.tick()
	}
	close(done)
	wg.Wait()
	var tr treeBody
	f.getJSON(t, "/api/runs/"+enc(runningRun)+"/tree", &tr)
	if countSteps(tr.Steps) != 3 {
		t.Errorf("%d steps at the end, want 3", countSteps(tr.Steps))
	}
}

// TestRunningStepOutput: a step still running (no STEP_END, so no paths in
// the summary) is served from the artifacts the runtime writes live,
// "<seq>-<func>.out|.err" in the run directory: /logs gives what is written
// so far, half a line included, and more as it grows; /output names the
// files and previews them. A step that wrote nothing yet has none, and a
// live name that is a symlink out of the runs root is not served. Once the
// step ended, its STEP_END's paths count.
func TestRunningStepOutput(t *testing.T) {
	f := setup(t)
	dir := filepath.Join(f.root, runningRun)
	build := "/api/runs/" + enc(runningRun) + "/steps/96a3afd0-e942-46d6-b6d3-d929c57dd5c5:29622:2"
	root := "/api/runs/" + enc(runningRun) + "/steps/96a3afd0-e942-46d6-b6d3-d929c57dd5c5:29622:1"
	out := filepath.Join(dir, "000002-pass__build.out")
	if code, _, body := f.get(t, build+"/logs"); code != http.StatusNotFound || body != "" {
		t.Fatalf("nothing written yet: %d %q", code, body)
	}
	var tr0 treeBody
	f.getJSON(t, "/api/runs/"+enc(runningRun)+"/tree", &tr0)
	if b := tr0.Steps[0].Children[0]; b.Name != "build" || deref(b.StartedAt) != "2026-11-23T07:23:00Z" || b.EndedAt != nil {
		t.Fatalf("running step's times: %s %v %v", b.Name, b.StartedAt, b.EndedAt)
	}
	if err := os.WriteFile(out, []byte("compiling\nhalf a li"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "000002-pass__build.err"), []byte("warn\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, body := f.get(t, build+"/logs?stream=out"); code != http.StatusOK || body != "compiling\nhalf a li" {
		t.Fatalf("out so far: %d %q", code, body)
	}
	appendFile(t, out, []byte("ne\n"))
	if code, _, body := f.get(t, build+"/logs"); code != http.StatusOK || body != "compiling\nhalf a line\n" {
		t.Fatalf("out grown: %d %q", code, body)
	}
	if code, _, body := f.get(t, build+"/logs?stream=err"); code != http.StatusOK || body != "warn\n" {
		t.Fatalf("err: %d %q", code, body)
	}
	var o struct {
		Out    string `json:"out_content"`
		Err    string `json:"err_content"`
		OutF   string `json:"out_file"`
		ErrF   string `json:"err_file"`
		OutCut bool   `json:"out_truncated"`
	}
	f.getJSON(t, build+"/output", &o)
	if o.Out != "compiling\nhalf a line\n" || o.Err != "warn\n" || o.OutF != "@ROOT@/"+runningRun+"/000002-pass__build.out" ||
		o.ErrF != "@ROOT@/"+runningRun+"/000002-pass__build.err" || o.OutCut {
		t.Fatalf("output: %+v", o)
	}
	big := bytes.Repeat([]byte("x"), previewBytes+10)
	if err := os.WriteFile(out, big, 0o644); err != nil {
		t.Fatal(err)
	}
	f.getJSON(t, build+"/output", &o)
	if len(o.Out) != previewBytes || !o.OutCut {
		t.Fatalf("a big live file: %d bytes, truncated %v", len(o.Out), o.OutCut)
	}

	secret := filepath.Join(f.ws, "secret.txt")
	os.WriteFile(secret, []byte("TOPSECRET"), 0o644)
	if err := os.Symlink(secret, filepath.Join(dir, "000001-pass__default.out")); err != nil {
		t.Fatal(err)
	}
	if code, _, body := f.get(t, root+"/logs"); code != http.StatusNotFound || body != "" {
		t.Fatalf("a live name linked out of the root: %d %q", code, body)
	}
	if _, _, body := f.get(t, root+"/output"); strings.Contains(body, "TOPSECRET") || !strings.Contains(body, `"out_file":""`) {
		t.Fatalf("a live name linked out of the root: %s", body)
	}

	// Ended: the STEP_END's paths and out_content (not the file's "final").
	rest, _ := os.ReadFile("testdata/running-rest.jsonl")
	appendFile(t, filepath.Join(dir, "run_summary.jsonl"), bytes.ReplaceAll(rest, []byte("@ROOT@"), []byte(f.root)))
	if err := os.WriteFile(out, []byte("final\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	f.getJSON(t, build+"/output", &o)
	if o.OutF != "@ROOT@/"+runningRun+"/000002-pass__build.out" || o.ErrF != "@ROOT@/"+runningRun+"/000002-pass__build.err" ||
		o.Out != "building\nbuilt ok" {
		t.Fatalf("ended: %+v", o)
	}
	var tr treeBody
	f.getJSON(t, "/api/runs/"+enc(runningRun)+"/tree", &tr)
	if b := tr.Steps[0].Children[0]; b.Name != "build" || deref(b.StartedAt) != "2026-11-23T07:23:00Z" || deref(b.EndedAt) != "2026-11-23T07:23:00Z" {
		t.Fatalf("ended step's times: %s %v %v", b.Name, b.StartedAt, b.EndedAt)
	}
}

// A port another process holds is refused with what to do about it.
func TestServePortInUse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	port := ln.Addr().(*net.TCPAddr).Port
	err = Serve(context.Background(), Config{Host: "127.0.0.1", Port: port, Root: t.TempDir(), PollMS: 1000, Out: io.Discard})
	want := fmt.Sprintf("127.0.0.1:%d is in use (another jaiph report?); choose another port with --port, or --port 0 for any free one", port)
	if err == nil || err.Error() != want {
		t.Errorf("Serve on a taken port: %v, want %q", err, want)
	}
}
