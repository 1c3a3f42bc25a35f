package ui_test

import (
	"context"
	"fmt"
	"image/png"
	neturl "net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/jaiph-go/jaiph/internal/tools/report"
	"github.com/jaiph-go/jaiph/internal/tools/report/ui"
)

// liveRun adds to root a run that is running: its directory locked (as a
// live jaiph holds it), its summary a started root step. It stays live
// until the test ends.
func liveRun(t *testing.T, root string) string {
	t.Helper()
	rel := "2026-11-23/07-10-00-live.jh"
	dir := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	lock, err := runs.Lock(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lock.Close() })
	at := time.Date(2026, 11, 23, 7, 10, 0, 0, time.UTC)
	summary := filepath.Join(dir, "run_summary.jsonl")
	if err := os.WriteFile(summary, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	appendLines(t, summary,
		&event.Event{Type: event.StepStart, Func: "live::default", Kind: "workflow", Name: "default", ID: "live:1", Seq: 1, RunID: "live", Time: at},
		&event.Event{Type: event.WorkflowStart, Workflow: "default", Source: "live.jh", RunID: "live", Time: at})
	return rel
}

// Ten report pages open at once in ten tabs, all showing a live run, and
// ten pages opened in turn in one tab all load. Each page used to hold an
// /api/events stream of its own, and a browser allows six connections per
// host: the seventh page stayed blank. The tabs now share one stream.
func TestBrowserTenPages(t *testing.T) {
	root := fixture(t)
	live := liveRun(t, root)
	// Ten live pages poll until someone uses them; at the other tests'
	// 50 ms that is a hundred requests a second to a server under -race,
	// which on a loaded machine slowed the tabs past the test's bound.
	// Nothing here waits for a poll: every check is of a page's first load.
	url := serveWith(t, report.Options{Root: root, UI: ui.FS, PollMS: 1000})
	first := browser(t)
	runURL := url + "/run.html?run=" + neturl.QueryEscape(live)
	for i := range 10 {
		tab := first
		if i > 0 {
			var cancel context.CancelFunc
			tab, cancel = chromedp.NewContext(first)
			t.Cleanup(cancel)
		}
		do(t, tab, fmt.Sprintf("open tab %d on the live run", i+1),
			chromedp.Navigate(runURL),
			chromedp.WaitVisible(stepButton("default")))
		waitJS(t, tab, `document.querySelector("#run-title").textContent.includes("running")`)
	}
	// In turn in one tab: the run list, a finished run, the live run, …
	pages := []string{url + "/", url + "/run.html?run=" + neturl.QueryEscape("2026-11-23/07-05-00-deploy.jh"), runURL}
	for i := range 10 {
		p := pages[i%len(pages)]
		do(t, first, fmt.Sprintf("page %d in turn: %s", i+1, p), chromedp.Navigate(p))
		switch i % len(pages) {
		case 0:
			waitJS(t, first, `document.querySelectorAll("#runs-body a.run-link").length === 3`)
		case 1:
			do(t, first, "the finished run's tree", chromedp.WaitVisible(stepButton("disk_free")))
		case 2:
			do(t, first, "the live run's tree", chromedp.WaitVisible(stepButton("default")))
		}
	}
}

// Every page settles: `chromium --headless --screenshot
// --virtual-time-budget` (which waits for the network to go quiet) returns
// with a screenshot of the run list, a finished run and a live one. It
// never returned while a page held the event stream open; a page now opens
// it only once someone uses it, and polls until then.
func TestBrowserScreenshotSettles(t *testing.T) {
	root := fixture(t)
	live := liveRun(t, root)
	url := serve(t, root)
	exe := os.Getenv("JAIPH_CHROMIUM")
	if exe == "" {
		var err error
		if exe, err = exec.LookPath("chromium"); err != nil {
			t.Fatal("the browser test needs Chromium: apt-get install -y chromium")
		}
	}
	for _, page := range []string{"/", "/run.html?run=" + neturl.QueryEscape("2026-11-23/07-05-00-deploy.jh"), "/run.html?run=" + neturl.QueryEscape(live)} {
		dir := t.TempDir()
		shot := filepath.Join(dir, "shot.png")
		// The limit only ends a test that fails: a settled page returns in
		// about a second.
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		cmd := exec.CommandContext(ctx, exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
			"--user-data-dir="+filepath.Join(dir, "profile"), "--screenshot="+shot, "--window-size=1280,800",
			"--virtual-time-budget=3000", url+page)
		out, err := cmd.CombinedOutput()
		cancel()
		if err != nil {
			t.Fatalf("chromium --screenshot %s: %v (it did not return: the page never settled)\n%s", page, err, out)
		}
		f, err := os.Open(shot)
		if err != nil {
			t.Fatalf("no screenshot of %s: %v", page, err)
		}
		img, err := png.Decode(f)
		f.Close()
		if err != nil || img.Bounds().Dx() < 800 {
			t.Fatalf("screenshot of %s: %v", page, err)
		}
	}
}

// A step and a tab have addresses that can be shared: clicking a step and
// the All output tab puts them in the address, and opening that address
// in another tab shows the same. All output includes stderr, and no page
// asks for a file a step does not have (a 404 in the console per step).
func TestBrowserLinksAndAllOutput(t *testing.T) {
	url := serve(t, fixture(t))
	ctx := browser(t)
	var mu sync.Mutex
	var notFound []string
	listen := chromedp.Listen(ctx, func(ev any) {
		if r, ok := ev.(*network.EventResponseReceived); ok && r.Response.Status == 404 {
			mu.Lock()
			notFound = append(notFound, r.Response.URL)
			mu.Unlock()
		}
	})
	if listen != nil {
		t.Fatal(listen)
	}
	do(t, ctx, "open the failed run",
		chromedp.Navigate(url+"/run.html?run="+neturl.QueryEscape("2026-11-23/07-05-00-deploy.jh")),
		chromedp.WaitVisible(stepButton("build")),
		chromedp.Click(stepButton("build")))
	waitJS(t, ctx, `document.querySelector("#step-out").textContent.includes("built v1.2")`)
	do(t, ctx, "open All output", chromedp.Click(chromedp.ID("tab-all")))
	waitJS(t, ctx, fmt.Sprintf(`document.querySelector("#aggregate").textContent.includes(%q)`, boom))
	waitJS(t, ctx, `new URLSearchParams(location.search).get("tab") === "all" && new URLSearchParams(location.search).has("step")`)
	link, err := chromedp.Run(ctx, chromedp.Evaluate[string](`location.href`))
	if err != nil {
		t.Fatal(err)
	}
	other, cancel := chromedp.NewContext(ctx)
	defer cancel()
	do(t, other, "open the shared address in another tab", chromedp.Navigate(link))
	waitJS(t, other, `!document.querySelector("#panel-all").hidden && document.querySelector("#aggregate").textContent.includes("built v1.2")`)
	waitJS(t, other, `(document.querySelector("button.step.selected .name") || {}).textContent === "build"`)
	mu.Lock()
	defer mu.Unlock()
	if len(notFound) > 0 {
		t.Errorf("the pages asked for what is not there: %q", notFound)
	}
}

// Retries and dead letters show in the step tree: a prompt's retried
// attempt under the prompt, an orchestrator's retried delivery and dead
// letter under the orchestrator, the message linked to the Inbox tab.
func TestBrowserRetriesAndDeadLetters(t *testing.T) {
	root := t.TempDir()
	rel := "2026-11-23/08-00-00-jobs.jh"
	dir := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 11, 23, 8, 0, 0, 0, time.UTC)
	zero, one, four := 0, 1, 4
	dead := "inbox/dead/003-jobs.txt"
	evs := []*event.Event{
		{Type: event.StepStart, Func: "jobs::default", Kind: "workflow", Name: "default", ID: "j:1", Seq: 1},
		{Type: event.WorkflowStart, Workflow: "default", Source: "jobs.jh"},
		{Type: event.StepStart, Func: "jaiph::prompt", Kind: "prompt", Name: "prompt", ID: "j:2", ParentID: "j:1", Seq: 2, Depth: 1},
		{Type: event.PromptRetry, ID: "j:2", Attempt: 1, Status: &one, DelayMS: 1000, Depth: 1},
		{Type: event.StepEnd, Func: "jaiph::prompt", Kind: "prompt", Name: "prompt", ID: "j:2", ParentID: "j:1", Seq: 2, Depth: 1, Status: &zero, ElapsedMS: new(int64(5))},
		{Type: event.InboxRetry, InboxSeq: "003", Channel: "jobs", Target: "jobs::worker", Sender: "default", Attempt: 1, Status: &four, DelayMS: 100},
		{Type: event.InboxDead, InboxSeq: "003", Channel: "jobs", Target: "jobs::worker", Sender: "default", Attempt: 2, Status: &four, PayloadRef: &dead},
		{Type: event.WorkflowEnd, Workflow: "default", Source: "jobs.jh", Status: &one},
		{Type: event.StepEnd, Func: "jobs::default", Kind: "workflow", Name: "default", ID: "j:1", Seq: 1, Status: &one, ElapsedMS: new(int64(9))},
	}
	var sum []byte
	for _, e := range evs {
		e.RunID, e.Time = "j", at
		sum = append(append(sum, e.JSON()...), '\n')
	}
	if err := os.WriteFile(filepath.Join(dir, "run_summary.jsonl"), sum, 0o644); err != nil {
		t.Fatal(err)
	}
	url := serve(t, root)
	ctx := browser(t)
	do(t, ctx, "open the run",
		chromedp.Navigate(url+"/run.html?run="+neturl.QueryEscape(rel)),
		chromedp.WaitVisible(stepButton("prompt")))
	tree := text(t, ctx, "#step-tree")
	for _, want := range []string{"↻ attempt 1 failed (exit 1), retried",
		"↻ message 003 (jobs) to jobs::worker: attempt 1 failed (exit 4), retried",
		"✉ message 003 (jobs) to jobs::worker is a dead letter after 2 attempts (exit 4)"} {
		if !strings.Contains(tree, want) {
			t.Errorf("step tree = %q, want %q", tree, want)
		}
	}
	do(t, ctx, "follow the dead letter's link", chromedp.Click(chromedp.Search(`//li[@class="dead"]/a`)))
	waitJS(t, ctx, `document.querySelector("#tab-inbox").getAttribute("aria-selected") === "true" && !document.querySelector("#panel-inbox").hidden`)
}
