package report

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/redact"
	"github.com/jaiph-go/jaiph/internal/store/runs"
)

// viewerRun is a run as jaiph writes one that a user interrupted with
// Ctrl-C: default ran first (its stdout coloured, with a progress line
// redrawn by carriage returns) and was in slow when SIGINT came, so slow
// and default ended with status 130 and run.end says SIGINT. The workflow
// wrote coverage.txt and artifacts/sub/a.txt into its run directory.
const viewerRel = "2026-11-28/14-09-33-slow.jh"

// colourOut is first's stdout: SGR colours, bold, a progress bar.
const colourOut = "\x1b[31mred\x1b[0m plain \x1b[1mbold\x1b[0m\nprogress 10%\rprogress 50%\rprogress 100%\n<script>alert(1)</script>\n"

func viewerFixture(t *testing.T, red *redact.Redactor) (*fixture, string) {
	t.Helper()
	ws, err := filepath.EvalSymlinks(t.TempDir())
	must(t, err)
	root := filepath.Join(ws, ".jaiph", "runs")
	dir := filepath.Join(root, filepath.FromSlash(viewerRel))
	must(t, os.MkdirAll(filepath.Join(dir, "artifacts", "sub"), 0o755))
	must(t, os.MkdirAll(filepath.Join(dir, "inbox"), 0o755))
	start := time.Date(2026, 11, 28, 14, 9, 33, 0, time.UTC)
	var sum strings.Builder
	emit := func(e event.Event) {
		e.RunID, e.Time = "r", start
		sum.Write(e.JSON())
		sum.WriteByte('\n')
	}
	step := func(typ string, seq int, name string, status *int) event.Event {
		e := event.Event{Type: typ, Func: "slow::" + name, Kind: "workflow", Name: name, ID: fmt.Sprintf("r:%d", seq), Seq: seq, Depth: 1,
			ParentID: "r:1", Status: status}
		if seq == 1 {
			e.Depth, e.ParentID = 0, ""
		}
		if status != nil {
			e.ElapsedMS = new(int64(7))
		}
		return e
	}
	zero, cut := 0, 130
	first := filepath.Join(dir, "000002-slow__first.out")
	must(t, os.WriteFile(first, []byte(colourOut), 0o644))
	slowOut := filepath.Join(dir, "000003-slow__slow.out")
	must(t, os.WriteFile(slowOut, []byte("waiting for sk-live-0123456789abcdef\n"), 0o644))
	emit(step(event.StepStart, 1, "default", nil))
	emit(step(event.StepStart, 2, "first", nil))
	end := step(event.StepEnd, 2, "first", &zero)
	end.OutFile = first
	emit(end)
	emit(step(event.StepStart, 3, "slow", nil))
	end = step(event.StepEnd, 3, "slow", &cut)
	end.OutFile, end.OutContent = slowOut, new("waiting")
	emit(end)
	emit(step(event.StepEnd, 1, "default", &cut))
	must(t, os.WriteFile(filepath.Join(dir, runs.SummaryFile), []byte(sum.String()), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, ".seq"), []byte("3"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "inbox", "000001-findings.txt"), []byte("msg"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "coverage.txt"), []byte("coverage 81% sk-live-0123456789abcdef\n"), 0o644))
	must(t, os.WriteFile(filepath.Join(dir, "artifacts", "sub", "a.txt"), []byte("art\n"), 0o644))
	secret := filepath.Join(ws, "secret.txt")
	must(t, os.WriteFile(secret, []byte("TOPSECRET"), 0o644))
	must(t, os.Symlink(secret, filepath.Join(dir, "artifacts", "leak.txt")))
	must(t, os.Symlink(ws, filepath.Join(dir, "artifacts", "ws")))
	rec := runs.RecordsDir(dir)
	must(t, runs.WriteMeta(rec, &runs.Meta{Version: runs.MetaVersion, RunID: "r", Source: "slow.jh", Start: start, Args: []string{}}))
	must(t, runs.WriteEnd(rec, &runs.End{Status: runs.Interrupted, ExitCode: 130, Signal: "SIGINT", End: start.Add(3 * time.Second)}))
	ts := httptest.NewServer(Handler(Options{Root: root, Redact: red}))
	t.Cleanup(ts.Close)
	return &fixture{ws: ws, root: root, ts: ts}, "/api/runs/" + enc(viewerRel)
}

// An interrupted run's entry counts the steps its signal cut short as
// open, not completed, and names the signal; its tree marks those steps
// interrupted (the step that ended on its own is not). A killed run's
// (open steps, no STEP_END) is in the goldens (runs, tree_killed).
func TestInterruptedRunSteps(t *testing.T) {
	f, api := viewerFixture(t, nil)
	var run Run
	f.getJSON(t, api, &run)
	if run.Status != "interrupted" || run.StepCount != 3 || run.StepCompleted != 1 || run.StepOpen != 2 || run.StepRunning != 0 || run.Signal != "SIGINT" {
		t.Errorf("run = %+v, want interrupted by SIGINT with 1 of 3 steps completed and 2 open", run)
	}
	var tree struct{ Steps []*Step }
	f.getJSON(t, api+"/tree", &tree)
	var marked []string
	var walk func([]*Step)
	walk = func(list []*Step) {
		for _, st := range list {
			if st.Interrupted {
				marked = append(marked, st.Name)
			}
			walk(st.Children)
		}
	}
	walk(tree.Steps)
	if !slices.Equal(marked, []string{"default", "slow"}) {
		t.Errorf("steps marked interrupted: %v, want [default slow]", marked)
	}
}

// fetch gets url from the fixture's server: status, headers, body.
func fetch(t *testing.T, f *fixture, url string) (int, http.Header, string) {
	t.Helper()
	res, err := http.Get(f.ts.URL + url)
	must(t, err)
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	must(t, err)
	return res.StatusCode, res.Header, string(b)
}

// A step's raw log is its artifact byte for byte (colour codes, carriage
// returns and markup as the step wrote them, for the page to render) as
// a text/plain download that no browser sniffs into HTML; credentials
// are masked; a stream without a file falls back to the summary's copy;
// a stream with neither is 404.
func TestRawLog(t *testing.T) {
	red := redact.New("sk-live-0123456789abcdef")
	f, api := viewerFixture(t, red)
	code, h, body := fetch(t, f, api+"/steps/r:2/raw?stream=out")
	if code != http.StatusOK || body != colourOut {
		t.Fatalf("raw stdout: %d %q, want %q", code, body, colourOut)
	}
	for k, want := range map[string]string{
		"Content-Type":            "text/plain; charset=utf-8",
		"X-Content-Type-Options":  "nosniff",
		"Content-Disposition":     `attachment; filename=000002-slow__first.stdout.txt`,
		"Content-Security-Policy": downloadCSP,
	} {
		if got := h.Get(k); got != want {
			t.Errorf("raw stdout %s = %q, want %q", k, got, want)
		}
	}
	if code, _, body := fetch(t, f, api+"/steps/r:2/logs"); code != http.StatusOK || body != colourOut {
		t.Errorf("/logs: %d %q, want the same bytes", code, body)
	}
	if _, _, body := fetch(t, f, api+"/steps/r:3/raw"); body != "waiting for ***\n" {
		t.Errorf("raw stdout of slow = %q, want the credential masked", body)
	}
	if code, _, body := fetch(t, f, api+"/steps/r:3/raw?stream=err"); code != http.StatusNotFound || body != "" {
		t.Errorf("raw stderr of a step that wrote none: %d %q, want 404 and nothing", code, body)
	}
	// The summary's copy when the file is gone.
	must(t, os.Remove(filepath.Join(f.root, filepath.FromSlash(viewerRel), "000003-slow__slow.out")))
	if code, _, body := fetch(t, f, api+"/steps/r:3/raw"); code != http.StatusOK || body != "waiting" {
		t.Errorf("raw without its file: %d %q, want the summary's copy", code, body)
	}
	if code, _, _ := fetch(t, f, api+"/steps/nope/raw"); code != http.StatusNotFound {
		t.Errorf("raw of an unknown step: %d, want 404", code)
	}
}

// The files a workflow wrote into its run directory are listed (not
// jaiph's own: the summary, .seq, the steps' artifacts, the inbox) and
// downloadable, masked; nothing outside the run directory is, through ..
// or a symlink.
func TestRunFiles(t *testing.T) {
	red := redact.New("sk-live-0123456789abcdef")
	f, api := viewerFixture(t, red)
	var list struct {
		Files     []File
		Truncated bool
	}
	f.getJSON(t, api+"/files", &list)
	var paths []string
	for _, fl := range list.Files {
		paths = append(paths, fl.Path)
		if fl.MTime == "" || fl.Size == 0 {
			t.Errorf("%s: size %d, mtime %q", fl.Path, fl.Size, fl.MTime)
		}
	}
	if want := []string{"artifacts/sub/a.txt", "coverage.txt"}; !slices.Equal(paths, want) || list.Truncated {
		t.Fatalf("files = %v (truncated %v), want %v", paths, list.Truncated, want)
	}
	code, h, body := fetch(t, f, api+"/files/coverage.txt")
	if code != http.StatusOK || body != "coverage 81% ***\n" {
		t.Errorf("coverage.txt: %d %q", code, body)
	}
	if got := h.Get("Content-Disposition"); got != "attachment; filename=coverage.txt" || h.Get("X-Content-Type-Options") != "nosniff" ||
		h.Get("Content-Type") != "application/octet-stream" {
		t.Errorf("coverage.txt headers: %v", h)
	}
	if code, _, body := fetch(t, f, api+"/files/artifacts/sub/a.txt"); code != http.StatusOK || body != "art\n" {
		t.Errorf("artifacts/sub/a.txt: %d %q", code, body)
	}
	for _, c := range []struct {
		path string
		code int
	}{
		{"artifacts/leak.txt", 404},      // a symlink out of the run directory
		{"artifacts/ws/secret.txt", 404}, // through a symlinked directory out
		{"..%2F..%2F..%2Fsecret.txt", 400},
		{"artifacts/..%2F..%2F..%2F..%2Fsecret.txt", 400},
		{"artifacts/%2e%2e/%2e%2e/%2e%2e/%2e%2e/secret.txt", 400},
		{"%2Fetc%2Fpasswd", 400},
		{"run_summary.jsonl", 404},
		{".seq", 404},
		{"000002-slow__first.out", 404},
		{"inbox/000001-findings.txt", 404},
		{"artifacts", 404},
		{"nope.txt", 404},
	} {
		code, _, body := fetch(t, f, api+"/files/"+c.path)
		if code != c.code || strings.Contains(body, "TOPSECRET") {
			t.Errorf("files/%s: %d %q, want %d", c.path, code, body, c.code)
		}
	}
}

// The UI's pages are served with a strict Content-Security-Policy: their
// own scripts and styles only, so that nothing in a log can run.
func TestPagesCSP(t *testing.T) {
	f, _ := viewerFixture(t, nil)
	for _, p := range []string{"/", "/index.html"} {
		_, h, _ := fetch(t, f, p)
		if got := h.Get("Content-Security-Policy"); got != pageCSP || !strings.Contains(got, "script-src 'self'") || strings.Contains(got, "unsafe") {
			t.Errorf("%s: CSP %q", p, got)
		}
	}
}
