package ui_test

import (
	"bytes"
	"context"
	"fmt"
	"image/png"
	"net/http/httptest"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/store/chain"
	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/jaiph-go/jaiph/internal/tools/report"
	"github.com/jaiph-go/jaiph/internal/tools/report/ui"
)

// The failed run's failing step writes this line to stderr; the test looks
// for it in the page.
const boom = "boom: disk /var is full (exit 3)"

// fxStep is one child step of a fixture run's `default` workflow.
type fxStep struct {
	kind, name string
	params     [][2]string
	status     int
	out, err   string
}

// writeRun writes a finished run the way runtime does: run_summary.jsonl
// (encoded by the event package, as a real run's) and the steps' .out and
// .err files, under root/rel. A LOG line precedes the first child.
func writeRun(t *testing.T, root, rel, source string, start time.Time, steps []fxStep) {
	t.Helper()
	dir := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	runID := "run-" + strings.NewReplacer("/", "-", ".", "-").Replace(rel)
	mod := strings.TrimSuffix(source, ".jh")
	var sum bytes.Buffer
	emit := func(e *event.Event) {
		e.RunID = runID
		if e.Time.IsZero() {
			e.Time = start
		}
		sum.Write(e.JSON())
		sum.WriteByte('\n')
	}
	artifact := func(seq int, name, ext, text string) string {
		if text == "" {
			return ""
		}
		p := filepath.Join(dir, fmt.Sprintf("%06d-%s__%s.%s", seq, mod, name, ext))
		if err := os.WriteFile(p, []byte(text+"\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	rootID := runID + ":1"
	emit(&event.Event{Type: event.StepStart, Func: mod + "::default", Kind: "workflow", Name: "default", ID: rootID, Seq: 1})
	emit(&event.Event{Type: event.WorkflowStart, Workflow: "default", Source: source})
	emit(&event.Event{Type: event.Log, Message: "starting " + source, Depth: 1})
	final := 0
	for i, s := range steps {
		seq := i + 2
		id := fmt.Sprintf("%s:%d", runID, seq)
		common := event.Event{Func: mod + "::" + s.name, Kind: s.kind, Name: s.name, ID: id, ParentID: rootID, Seq: seq, Depth: 1, Params: s.params}
		st := common
		st.Type = event.StepStart
		emit(&st)
		end := common
		end.Type, end.Status, end.ElapsedMS = event.StepEnd, &s.status, new(int64(40*seq))
		end.Time = start.Add(time.Duration(seq) * time.Second)
		end.OutFile, end.ErrFile = artifact(seq, s.name, "out", s.out), artifact(seq, s.name, "err", s.err)
		if s.out != "" {
			end.OutContent = &s.out
		}
		if s.err != "" {
			end.ErrContent = &s.err
		}
		emit(&end)
		if s.status != 0 {
			final = s.status
			break
		}
	}
	endAt := start.Add(time.Duration(len(steps)+2) * time.Second)
	emit(&event.Event{Type: event.WorkflowEnd, Workflow: "default", Source: source, Status: &final, Time: endAt})
	emit(&event.Event{Type: event.StepEnd, Func: mod + "::default", Kind: "workflow", Name: "default", ID: rootID, Seq: 1,
		Status: &final, ElapsedMS: new(int64(1000 * (len(steps) + 2))), Time: endAt})
	if err := os.WriteFile(filepath.Join(dir, "run_summary.jsonl"), sum.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// fixture is a runs root with a passed run (ok.jh) and a failed one
// (deploy.jh) whose failing rule wrote boom to stderr.
func fixture(t *testing.T) string {
	root := t.TempDir()
	day := time.Date(2026, 11, 23, 7, 0, 0, 0, time.UTC)
	writeRun(t, root, "2026-11-23/07-00-00-ok.jh", "ok.jh", day, []fxStep{
		{kind: "function", name: "greet", params: [][2]string{{"arg1", "world"}}, out: "hello world"},
	})
	writeRun(t, root, "2026-11-23/07-05-00-deploy.jh", "deploy.jh", day.Add(5*time.Minute), []fxStep{
		{kind: "function", name: "build", params: [][2]string{{"arg1", "v1.2"}}, out: "built v1.2"},
		{kind: "rule", name: "disk_free", out: "checking /var", err: boom, status: 3},
	})
	return root
}

// serve starts the real report server over root with the embedded UI,
// polling for changes (its /api/events) every 50 ms as `jaiph report
// --poll-ms 50` does (and /api/config tells the pages so).
func serve(t *testing.T, root string) string {
	return serveWith(t, report.Options{Root: root, UI: ui.FS, PollMS: 50})
}

func serveWith(t *testing.T, o report.Options) string {
	h := report.Handler(o)
	srv := httptest.NewServer(h)
	ctx, stop := context.WithCancel(context.Background())
	go h.Poll(ctx, 50*time.Millisecond)
	t.Cleanup(srv.Close)
	t.Cleanup(stop)
	return srv.URL
}

// browser starts headless Chromium (the flags of the machine notes, a
// fresh profile) and gives a tab whose actions all end within 60 s.
func browser(t *testing.T) context.Context {
	exe := os.Getenv("JAIPH_CHROMIUM")
	if exe == "" {
		var err error
		if exe, err = exec.LookPath("chromium"); err != nil {
			t.Fatalf("the browser test needs Chromium and found none on PATH (or in $JAIPH_CHROMIUM): " +
				"install it with `apt-get install -y chromium` (as root), as .ci/run does")
		}
	}
	// Chromium sometimes exits at start on a busy machine ("chrome failed
	// to start", once in a CI run beside Docker and many test processes):
	// that is not what these tests check, so a start is tried three times.
	for attempt := 1; ; attempt++ {
		ctx, stop := startBrowser(t, exe)
		err := chromedp.Do(ctx) // starts the browser and opens the tab
		if err == nil {
			t.Cleanup(stop)
			return ctx
		}
		stop()
		if attempt == 3 || !strings.Contains(err.Error(), "chrome failed to start") {
			t.Fatalf("starting %s: %v", exe, err)
		}
		t.Logf("starting %s (attempt %d): %v", exe, attempt, err)
	}
}

// startBrowser makes the allocator and the tab of one browser; stop ends
// both.
func startBrowser(t *testing.T, exe string) (context.Context, func()) {
	profile := t.TempDir() // removed after the browser exits: cleanups run last-in first-out
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.UserDataDir(profile),
		chromedp.WindowSize(1280, 800),
	)
	// A bound for a hang, not a speed: TestBrowserTenPages (ten live tabs,
	// then ten pages in turn) took 46–60 s under -race on a loaded
	// machine, and 60 s failed it in CI.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	ctx, cancelTab := chromedp.NewContext(ctx)
	return ctx, func() { cancelTab(); cancelAlloc(); cancel() }
}

func do(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// eval runs a JavaScript expression whose value is a boolean.
func eval(t *testing.T, ctx context.Context, expr string) {
	t.Helper()
	if _, err := againAfterNavigation(ctx, func() (bool, error) { return chromedp.Run(ctx, chromedp.Evaluate[bool](expr)) }); err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
}

// waitJS waits until the JavaScript condition holds in the page.
func waitJS(t *testing.T, ctx context.Context, cond string) {
	t.Helper()
	if _, err := againAfterNavigation(ctx, func() (bool, error) {
		return chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingInterval(50*time.Millisecond)))
	}); err != nil {
		t.Fatalf("waiting for %s: %v", cond, err)
	}
}

func text(t *testing.T, ctx context.Context, sel string) string {
	t.Helper()
	s, err := againAfterNavigation(ctx, func() (string, error) { return chromedp.Run(ctx, chromedp.TextContent(chromedp.CSS(sel))) })
	if err != nil {
		t.Fatalf("text of %s: %v", sel, err)
	}
	return s
}

// againAfterNavigation runs f again while it fails because it ran in the
// JavaScript context of a document a navigation had just replaced (the
// browser's "Cannot find context with specified id": the tab knew the new
// document before its context; seen once in CI after a second Navigate in
// one tab). Any other error, or the tab's context ending, is f's.
func againAfterNavigation[T any](ctx context.Context, f func() (T, error)) (T, error) {
	for {
		v, err := f()
		if err == nil || ctx.Err() != nil || !strings.Contains(err.Error(), "Cannot find context with specified id") && !strings.Contains(err.Error(), "Execution context was destroyed") {
			return v, err
		}
		select {
		case <-ctx.Done():
			return v, err
		case <-time.After(20 * time.Millisecond):
		}
	}
}

// stepButton is the tree's button for the step called name.
func stepButton(name string) chromedp.Search {
	return chromedp.Search(fmt.Sprintf(`//button[contains(@class,"step")][span[@class="name"][text()=%q]]`, name))
}

// A user opens the list, clicks into the failed run, clicks a passed step
// (its stdout shows, no stderr) and then the failed step: its stderr line
// is on the page.
func TestBrowserFailedStepStderr(t *testing.T) {
	url := serve(t, fixture(t))
	ctx := browser(t)
	do(t, ctx, "open the run list",
		chromedp.Navigate(url+"/"),
		chromedp.WaitVisible(chromedp.Search(`//a[@class="run-link"][text()="deploy.jh"]`)))
	if row := text(t, ctx, "#runs-body tr:first-child"); !strings.Contains(row, "failed") || !strings.Contains(row, "deploy.jh") {
		t.Fatalf("newest run's row = %q, want the failed deploy.jh", row)
	}
	do(t, ctx, "click into the failed run",
		chromedp.Click(chromedp.Search(`//a[@class="run-link"][text()="deploy.jh"]`)),
		chromedp.WaitVisible(stepButton("disk_free")))
	if title := text(t, ctx, "#run-title"); !strings.Contains(title, "failed") {
		t.Errorf("run title = %q, want it to say failed", title)
	}
	do(t, ctx, "click the passed step", chromedp.Click(stepButton("build")))
	waitJS(t, ctx, `document.querySelector("#step-out").textContent.includes("built v1.2")`)
	if got := text(t, ctx, "#step-err"); strings.Contains(got, boom) {
		t.Fatalf("the passed step shows the failed step's stderr %q", got)
	}
	do(t, ctx, "click the failed step", chromedp.Click(stepButton("disk_free")))
	waitJS(t, ctx, `document.querySelector("#step-title").textContent.includes("disk_free")`)
	waitJS(t, ctx, fmt.Sprintf(`document.querySelector("#step-err").textContent.includes(%q)`, boom))
	if got := text(t, ctx, "#step-err"); strings.TrimSpace(got) != boom {
		t.Errorf("stderr pane = %q, want %q", got, boom)
	}
	if got := text(t, ctx, "#step-meta"); !strings.Contains(got, "failed (exit 3)") {
		t.Errorf("step details = %q, want the exit status", got)
	}
	if got := text(t, ctx, "#step-tree"); !strings.Contains(got, "starting deploy.jh") {
		t.Errorf("step tree = %q, want the LOG line", got)
	}
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(shot))
	if err != nil || img.Bounds().Dx() < 800 {
		t.Fatalf("screenshot: %v (%v)", err, img)
	}
	path := filepath.Join(t.TempDir(), "failed-step.png")
	if err := os.WriteFile(path, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshot: %s", path)
}

// pickStatus chooses a status in the list's filter as a user does: the
// select's value changes and it fires "change".
func pickStatus(t *testing.T, ctx context.Context, value string) {
	t.Helper()
	do(t, ctx, "pick status "+value, chromedp.SetValue(chromedp.CSS("#f-status"), value))
	eval(t, ctx, `document.querySelector("#f-status").dispatchEvent(new Event("change"))`)
}

// Filtering the list to failed runs leaves only the failed run, and the
// filter survives a reload (it lives in the address).
func TestBrowserStatusFilter(t *testing.T) {
	url := serve(t, fixture(t))
	ctx := browser(t)
	rows := `[...document.querySelectorAll("#runs-body a.run-link")].map(a => a.textContent).join(",")`
	do(t, ctx, "open the run list", chromedp.Navigate(url+"/"))
	waitJS(t, ctx, rows+` === "deploy.jh,ok.jh"`)
	pickStatus(t, ctx, "failed")
	waitJS(t, ctx, rows+` === "deploy.jh"`)
	if got := text(t, ctx, "#runs-body"); strings.Contains(got, "passed") || !strings.Contains(got, "failed") {
		t.Errorf("filtered rows = %q, want only failed ones", got)
	}
	pickStatus(t, ctx, "completed")
	waitJS(t, ctx, rows+` === "ok.jh"`)
	pickStatus(t, ctx, "failed")
	waitJS(t, ctx, `location.search === "?status=failed"`)
	do(t, ctx, "reload", chromedp.Reload())
	waitJS(t, ctx, rows+` === "deploy.jh" && document.querySelector("#f-status").value === "failed"`)
}

// appendLines adds summary lines to a run, as a live jaiph does.
func appendLines(t *testing.T, path string, evs ...*event.Event) {
	t.Helper()
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for _, e := range evs {
		if _, err := f.Write(append(e.JSON(), '\n')); err != nil {
			t.Fatal(err)
		}
	}
}

// A run that starts and ends while the pages are open shows up in the
// list, and its page follows it from running to passed, without a reload.
func TestBrowserLiveRun(t *testing.T) {
	root := fixture(t)
	url := serve(t, root)
	ctx := browser(t)
	rows := `[...document.querySelectorAll("#runs-body a.run-link")].map(a => a.textContent).join(",")`
	do(t, ctx, "open the run list", chromedp.Navigate(url+"/"))
	waitJS(t, ctx, rows+` === "deploy.jh,ok.jh"`)
	eval(t, ctx, `window.notReloaded = true`)

	// A live run: its directory is locked (as jaiph holds it) and its
	// summary has a started step.
	rel := "2026-11-23/07-10-00-live.jh"
	dir := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	lock, err := runs.Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	at := time.Date(2026, 11, 23, 7, 10, 0, 0, time.UTC)
	summary := filepath.Join(dir, "run_summary.jsonl")
	if err := os.WriteFile(summary, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	step := func(typ string, seq int, name string, status *int) *event.Event {
		e := &event.Event{Type: typ, Func: "live::" + name, Kind: "workflow", Name: name, ID: fmt.Sprintf("live:%d", seq),
			Seq: seq, Depth: seq - 1, RunID: "live", Time: at, Status: status}
		if seq > 1 {
			e.ParentID, e.Kind = "live:1", "function"
		}
		if status != nil {
			e.ElapsedMS = new(int64(seq))
		}
		return e
	}
	appendLines(t, summary, step(event.StepStart, 1, "default", nil),
		&event.Event{Type: event.WorkflowStart, Workflow: "default", Source: "live.jh", RunID: "live", Time: at})
	waitJS(t, ctx, rows+` === "live.jh,deploy.jh,ok.jh"`)
	if row := text(t, ctx, "#runs-body tr:first-child"); !strings.Contains(row, "running") {
		t.Errorf("live run's row = %q, want running", row)
	}
	waitJS(t, ctx, `document.querySelector("#active-list").textContent.includes("live.jh")`)

	do(t, ctx, "open the live run",
		chromedp.Click(chromedp.Search(`//a[@class="run-link"][text()="live.jh"]`)),
		chromedp.WaitVisible(stepButton("default")))
	eval(t, ctx, `window.notReloaded = true`)
	if title := text(t, ctx, "#run-title"); !strings.Contains(title, "running") {
		t.Errorf("run title = %q, want running", title)
	}
	out := "fetched 3 pages"
	zero := 0
	end := step(event.StepEnd, 2, "fetch", &zero)
	end.OutFile = filepath.Join(dir, "000002-live__fetch.out")
	end.OutContent = &out
	if err := os.WriteFile(end.OutFile, []byte(out+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	appendLines(t, summary, step(event.StepStart, 2, "fetch", nil), end,
		&event.Event{Type: event.WorkflowEnd, Workflow: "default", Source: "live.jh", RunID: "live", Time: at, Status: &zero},
		step(event.StepEnd, 1, "default", &zero))
	lock.Close() // the run's process is gone: it ended
	waitJS(t, ctx, `document.querySelector("#run-title").textContent.includes("passed")`)
	do(t, ctx, "open the new step", chromedp.Click(stepButton("fetch")))
	waitJS(t, ctx, fmt.Sprintf(`document.querySelector("#step-out").textContent.includes(%q)`, out))
	waitJS(t, ctx, `window.notReloaded === true`)
}

// 120 runs are shown 50 to a page; Older/Newer move between pages (a page
// past the end shows the last), and the text filter narrows the list.
func TestBrowserPagingAndSearch(t *testing.T) {
	root := t.TempDir()
	day := time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)
	for i := range 120 {
		at := day.Add(time.Duration(i) * time.Minute)
		name := fmt.Sprintf("job%03d.jh", i)
		writeRun(t, root, at.Format("2006-01-02/15-04-05-")+name, name, at, []fxStep{{kind: "function", name: "work", out: "ok"}})
	}
	url := serve(t, root)
	ctx := browser(t)
	count := `document.querySelectorAll("#runs-body a.run-link").length`
	first := `document.querySelector("#runs-body a.run-link").textContent`
	do(t, ctx, "open the run list", chromedp.Navigate(url+"/"))
	waitJS(t, ctx, count+` === 50 && `+first+` === "job119.jh"`)
	if got := text(t, ctx, "#runs-meta"); got != "1–50 of 120 runs · page 1 of 3" {
		t.Errorf("page 1 meta = %q", got)
	}
	do(t, ctx, "older", chromedp.Click(chromedp.ID("p-next")))
	waitJS(t, ctx, count+` === 50 && `+first+` === "job069.jh"`)
	do(t, ctx, "older", chromedp.Click(chromedp.ID("p-next")))
	waitJS(t, ctx, count+` === 20 && `+first+` === "job019.jh"`)
	if got := text(t, ctx, "#runs-meta"); got != "101–120 of 120 runs · page 3 of 3" {
		t.Errorf("page 3 meta = %q", got)
	}
	do(t, ctx, "an address past the last page", chromedp.Navigate(url+"/?page=7"))
	waitJS(t, ctx, count+` === 20 && `+first+` === "job019.jh" && location.search === "?page=3"`)
	do(t, ctx, "newer", chromedp.Click(chromedp.ID("p-prev")))
	waitJS(t, ctx, first+` === "job069.jh"`)
	do(t, ctx, "search", chromedp.SendKeys(chromedp.ID("f-q"), "job04"))
	waitJS(t, ctx, count+` === 10 && `+first+` === "job049.jh"`)
	waitJS(t, ctx, `location.search === "?q=job04"`)
}

// The step tree works from the keyboard: steps take focus, ↓ moves to the
// next one, Enter opens it.
func TestBrowserKeyboard(t *testing.T) {
	url := serve(t, fixture(t))
	ctx := browser(t)
	do(t, ctx, "open the passed run",
		chromedp.Navigate(url+"/run.html?run="+neturl.QueryEscape("2026-11-23/07-00-00-ok.jh")),
		chromedp.WaitVisible(stepButton("greet")),
		chromedp.Focus(stepButton("default")),
		chromedp.KeyEvent(kb.ArrowDown))
	waitJS(t, ctx, `document.activeElement.dataset.id.endsWith(":2")`)
	if got := text(t, ctx, "#step-title"); !strings.Contains(got, "default") {
		t.Fatalf("moving the focus opened %q; only Enter should", got)
	}
	do(t, ctx, "press Enter", chromedp.KeyEvent(kb.Enter))
	waitJS(t, ctx, `document.querySelector("#step-title").textContent.includes("greet")`)
	waitJS(t, ctx, `document.querySelector("#step-out").textContent.includes("hello world")`)
}

// copyRuns copies the report package's fixture runs (made by jaiph-go
// itself; "@ROOT@" in their summaries stands for the runs root) into a
// fresh runs root.
func copyRuns(t *testing.T, names ...string) string {
	t.Helper()
	root := t.TempDir()
	for _, name := range names {
		src := filepath.Join("..", "testdata", "runs", filepath.FromSlash(name))
		err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
			if err != nil {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			dst := filepath.Join(root, filepath.FromSlash(name), rel)
			if d.IsDir() {
				return os.MkdirAll(dst, 0o755)
			}
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(dst, bytes.ReplaceAll(b, []byte("@ROOT@"), []byte(root)), 0o644)
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// A resumed run names its attempts and marks the replayed step; an inbox
// run's Inbox tab lists its messages and their deliveries.
func TestBrowserResumedAndInbox(t *testing.T) {
	resumed, inbox := "2026-11-23/07-22-49-resumed.jh", "2026-11-23/07-22-45-inbox.jh"
	url := serve(t, copyRuns(t, resumed, inbox))
	ctx := browser(t)
	do(t, ctx, "open the resumed run",
		chromedp.Navigate(url+"/run.html?run="+neturl.QueryEscape(resumed)),
		chromedp.WaitVisible(stepButton("slow")))
	tree := text(t, ctx, "#step-tree")
	if strings.Count(tree, "↺ replayed") != 1 || !strings.Contains(tree, "Attempt 2 (resumed)") {
		t.Errorf("resumed run's tree = %q, want one replayed step and two attempts", tree)
	}
	replayed := `//li[p[contains(., "Attempt 2")]]//button[span[@class="name"][text()="first"]]`
	if got, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.Search(replayed))); err != nil || !strings.Contains(got, "↺ replayed") {
		t.Errorf("attempt 2's first step = %q (%v), want it marked replayed", got, err)
	}

	do(t, ctx, "open the inbox run's Inbox tab",
		chromedp.Navigate(url+"/run.html?run="+neturl.QueryEscape(inbox)),
		chromedp.WaitVisible(stepButton("reviewer")),
		chromedp.Click(chromedp.ID("tab-inbox")))
	waitJS(t, ctx, `document.querySelectorAll("#inbox tbody tr").length === 2`)
	rows := text(t, ctx, "#inbox tbody")
	for _, want := range []string{"findings", "inbox::analyst: delivered", "report", "inbox::reviewer: delivered"} {
		if !strings.Contains(rows, want) {
			t.Errorf("inbox rows = %q, want %q", rows, want)
		}
	}
}

// A run whose summary does not verify has a badge beside its status, in
// the list and on its page: the fixture's runs have no key (an empty key
// store), so both are unverifiable. The badge says why, and the verdict
// shows once (the note beside it no longer repeats it).
func TestBrowserIntegrityBadge(t *testing.T) {
	url := serveWith(t, report.Options{Root: fixture(t), UI: ui.FS, PollMS: 50, Keys: &chain.Store{Dir: t.TempDir()}})
	ctx := browser(t)
	do(t, ctx, "open the run list", chromedp.Navigate(url+"/"))
	waitJS(t, ctx, `document.querySelectorAll("#runs-body .integ-unverifiable").length === 2`)
	if got := text(t, ctx, "#runs-body"); !strings.Contains(got, "unverifiable: no run record") {
		t.Errorf("rows = %q, want the note", got)
	}
	for i, row := range js[[]string](t, ctx, `[...document.querySelectorAll("#runs-body tr")].map(r => r.textContent)`) {
		if strings.Count(row, "unverifiable") != 1 {
			t.Errorf("row %d = %q, want the verdict once", i, row)
		}
	}
	do(t, ctx, "open a run", chromedp.Navigate(url+"/run.html?run="+"2026-11-23%2F07-00-00-ok.jh"))
	waitJS(t, ctx, `document.querySelector("#run-title .integ-unverifiable") !== null`)
	header := text(t, ctx, "#run-title") + " " + text(t, ctx, "#run-sub")
	if strings.Count(header, "unverifiable") != 1 || !strings.Contains(header, "unverifiable: no run record") {
		t.Errorf("header = %q, want the verdict and its reason once", header)
	}
}
