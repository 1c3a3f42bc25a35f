package serve

// This test drives the pages of `jaiph serve` in a real headless Chromium,
// as a person does: sign in with the token, start a workflow from its form,
// open the run viewer. The way Chromium is found and started is that of
// internal/tools/report/ui/browser_test.go.

import (
	"context"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// hostile is what a person types as the greet workflow's name: it must
// come back as text, never as markup.
const hostile = `<img src=x onerror=alert(1)>`

// chromium starts headless Chromium (the flags of the machine notes, a
// fresh profile) and gives a tab whose actions all end within 60 s.
func chromium(t *testing.T) context.Context {
	exe := os.Getenv("JAIPH_CHROMIUM")
	if exe == "" {
		var err error
		if exe, err = exec.LookPath("chromium"); err != nil {
			t.Fatalf("the browser test needs Chromium and found none on PATH (or in $JAIPH_CHROMIUM): " +
				"install it with `apt-get install -y chromium` (as root), as .ci/run does")
		}
	}
	// Chromium sometimes exits at start on a busy machine ("chrome failed
	// to start"): that is not what this test checks, so a start is tried
	// three times.
	for attempt := 1; ; attempt++ {
		ctx, stop := startChromium(t, exe)
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

// startChromium makes the allocator and the tab of one browser; stop ends
// both.
func startChromium(t *testing.T, exe string) (context.Context, func()) {
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
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	ctx, cancelAlloc := chromedp.NewExecAllocator(ctx, opts...)
	ctx, cancelTab := chromedp.NewContext(ctx)
	return ctx, func() { cancelTab(); cancelAlloc(); cancel() }
}

func browse(t *testing.T, ctx context.Context, what string, actions ...chromedp.Action[chromedp.Void]) {
	t.Helper()
	if err := chromedp.Do(ctx, actions...); err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// jsValue is the value of a JavaScript expression in the page.
func jsValue[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](expr))
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// jsWait waits until the JavaScript condition holds in the page (not
// across a navigation: wait for an element of the new page first).
func jsWait(t *testing.T, ctx context.Context, cond string) {
	t.Helper()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](cond, chromedp.WithPollingInterval(50*time.Millisecond))); err != nil {
		t.Fatalf("waiting for %s: %v", cond, err)
	}
}

// pageWatch records what a tab asked the network for and the JavaScript
// dialogs that opened in it (each dismissed, so that the page goes on).
type pageWatch struct {
	mu       sync.Mutex
	requests []string
	dialogs  []string
}

func watch(t *testing.T, ctx context.Context) *pageWatch {
	w := &pageWatch{}
	err := chromedp.Listen(ctx, func(ev any) {
		switch ev := ev.(type) {
		case *network.EventRequestWillBeSent:
			w.mu.Lock()
			w.requests = append(w.requests, ev.Request.URL)
			w.mu.Unlock()
		case *page.EventJavascriptDialogOpening:
			w.mu.Lock()
			w.dialogs = append(w.dialogs, string(ev.Type)+": "+ev.Message)
			w.mu.Unlock()
			go chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	return w
}

func (w *pageWatch) seen() (requests, dialogs []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.requests...), append([]string(nil), w.dialogs...)
}

// noMarkup fails the test when the page has an <img> element or a
// dialog opened: hostile text became markup somewhere.
func noMarkup(t *testing.T, ctx context.Context, w *pageWatch, where string) {
	t.Helper()
	if n := jsValue[int](t, ctx, `document.querySelectorAll("img").length`); n != 0 {
		html := jsValue[string](t, ctx, `document.body.innerHTML`)
		t.Errorf("%s: %d <img> element(s) in the page: the hostile name became markup:\n%s", where, n, html)
	}
	if _, dialogs := w.seen(); len(dialogs) > 0 {
		t.Errorf("%s: JavaScript dialogs opened (so far): %q", where, dialogs)
	}
}

// A person opens /workflows without a cookie and signs in (a wrong token
// first), starts greet from its form with a hostile name, and opens the
// run viewer: every page is behind the sign-in, shows what the service
// returns as text, loads nothing from another host, and cannot read the
// token.
func TestBrowserSignInAndRun(t *testing.T) {
	s := start(t, "", "JAIPH_SERVE_TOKEN="+testToken)
	ctx := chromium(t)
	w := watch(t, ctx)
	tokenField := chromedp.CSS(`input[name="token"]`)
	signIn := chromedp.CSS(`form[action="/login"] button[type="submit"]`)

	// 1. No cookie: the workflows page sends the browser to /login.
	browse(t, ctx, "open /workflows", chromedp.Navigate(s.base+"/workflows"), chromedp.WaitVisible(tokenField))
	if loc := jsValue[string](t, ctx, `location.href`); loc != s.base+"/login?next=%2Fworkflows" {
		t.Errorf("without a cookie /workflows ended on %s, want the sign-in page", loc)
	}
	if next := jsValue[string](t, ctx, `document.getElementById("next").value`); next != "/workflows" {
		t.Errorf("the sign-in form's next = %q, want /workflows", next)
	}
	if jsValue[bool](t, ctx, `!document.getElementById("error").hidden`) {
		t.Error("the refusal shows before any sign-in")
	}

	// 2. A wrong token: back on /login, refused, no cookie.
	browse(t, ctx, "sign in with a wrong token",
		chromedp.SendKeys(tokenField, "not-the-token"),
		chromedp.Click(signIn),
		chromedp.WaitVisible(chromedp.ID("error")))
	if path := jsValue[string](t, ctx, `location.pathname`); path != "/login" {
		t.Errorf("a wrong token ended on %s, want /login", path)
	}
	if got := jsValue[string](t, ctx, `document.getElementById("error").textContent`); !strings.Contains(got, "refused") {
		t.Errorf("refusal message = %q", got)
	}
	if next := jsValue[string](t, ctx, `document.getElementById("next").value`); next != "/workflows" {
		t.Errorf("after a refusal the form's next = %q, want /workflows", next)
	}
	cookies, err := chromedp.Call(ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{s.base + "/"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(cookies.Cookies) != 0 {
		t.Errorf("a wrong token set cookies: %q", describeCookies(cookies.Cookies))
	}

	// 3. The right token: the workflows page, greet's form with its
	// argument and description.
	greet := `//form[@class="workflow"][h2[text()="greet"]]`
	browse(t, ctx, "sign in with the token",
		chromedp.SendKeys(tokenField, testToken),
		chromedp.Click(signIn),
		chromedp.WaitVisible(chromedp.Search(greet+`//input[@name="name"]`)))
	if loc := jsValue[string](t, ctx, `location.href`); loc != s.base+"/workflows" {
		t.Errorf("signing in ended on %s, want /workflows", loc)
	}
	desc, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.Search(greet+`/pre[@class="description"]`)))
	if err != nil || strings.TrimSpace(desc) != "Greets someone." {
		t.Errorf("greet's description = %q (%v), want \"Greets someone.\"", desc, err)
	}
	cookies, err = chromedp.Call(ctx, network.GetCookies, network.GetCookiesParams{URLs: []string{s.base + "/"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := describeCookies(cookies.Cookies); got != "jaiph_token HttpOnly SameSite=Strict" {
		t.Errorf("cookies after signing in: %q, want one HttpOnly SameSite=Strict jaiph_token", got)
	}

	// 4. greet with a hostile name: its status and result, as text.
	result := chromedp.Search(greet + `/pre[@class="result"]`)
	browse(t, ctx, "start greet",
		chromedp.SendKeys(chromedp.Search(greet+`//input[@name="name"]`), hostile),
		chromedp.Click(chromedp.Search(greet+`//button[@type="submit"]`)))
	jsWait(t, ctx, `(() => {
		const f = [...document.querySelectorAll("form.workflow")].find(f => f.querySelector("h2").textContent === "greet");
		const t = f.querySelector("pre.result").textContent;
		return t !== "" && t !== "Starting…";
	})()`)
	got, err := chromedp.Run(ctx, chromedp.TextContent(result))
	if err != nil {
		t.Fatal(err)
	}
	if want := "succeeded\n\nhi " + hostile; got != want {
		t.Errorf("greet's result area = %q, want %q", got, want)
	}
	noMarkup(t, ctx, w, "/workflows")
	if c := jsValue[string](t, ctx, `document.cookie`); strings.Contains(c, testToken) || strings.Contains(c, "jaiph_token") {
		t.Errorf("/workflows reads the token: document.cookie = %q", c)
	}

	// 5. The run viewer, with the cookie: it lists the run just started,
	// and its page shows the hostile argument as text.
	code, _, b := s.do("GET", "/v1/runs", "", "")
	if code != http.StatusOK {
		t.Fatalf("GET /v1/runs: %d %s", code, b)
	}
	served := decode[struct{ Runs []Run }](t, b).Runs
	if len(served) != 1 || served[0].Workflow != "greet" || served[0].RunDir == "" {
		t.Fatalf("served runs: %s, want the one greet run", b)
	}
	browse(t, ctx, "open the run viewer", chromedp.Navigate(s.base+"/"), chromedp.WaitVisible(chromedp.ID("runs-body")))
	jsWait(t, ctx, `document.querySelectorAll("#runs-body a.run-link").length > 0`)
	rows := jsValue[[]string](t, ctx, `[...document.querySelectorAll("#runs-body tr")].map(tr => tr.textContent)`)
	path := jsValue[string](t, ctx, `document.querySelector("#runs-body tr td.mono").textContent`)
	if len(rows) != 1 || path == "" || !strings.HasSuffix(served[0].RunDir, string(filepath.Separator)+filepath.FromSlash(path)) ||
		!strings.Contains(rows[0], "tools.jh") {
		t.Errorf("the viewer lists %q (path %q), want the greet run in %s", rows, path, served[0].RunDir)
	}
	browse(t, ctx, "open the run",
		chromedp.Click(chromedp.CSS("#runs-body a.run-link")),
		chromedp.WaitVisible(chromedp.Search(`//button[contains(@class,"step")][span[@class="name"][text()="greet"]]`)))
	if tree := jsValue[string](t, ctx, `document.querySelector("#step-tree").textContent`); !strings.Contains(tree, hostile) {
		t.Errorf("the run's step tree = %q, want greet's argument %q as text", tree, hostile)
	}
	noMarkup(t, ctx, w, "the run viewer")

	// 6. Nothing came from another host.
	requests, _ := w.seen()
	if len(requests) == 0 {
		t.Fatal("no request seen")
	}
	for _, u := range requests {
		if !strings.HasPrefix(u, s.base+"/") {
			t.Errorf("a page asked another host: %s", u)
		}
	}

	// 7. The viewer cannot read the token either.
	if c := jsValue[string](t, ctx, `document.cookie`); strings.Contains(c, testToken) || strings.Contains(c, "jaiph_token") {
		t.Errorf("the run viewer reads the token: document.cookie = %q", c)
	}
	t.Logf("%d requests", len(requests))
}

// describeCookies names the cookies and their HttpOnly and SameSite
// attributes (not their values).
func describeCookies(cs []*network.Cookie) string {
	var d []string
	for _, c := range cs {
		s := c.Name
		if c.HTTPOnly {
			s += " HttpOnly"
		}
		if c.SameSite != "" {
			s += " SameSite=" + string(c.SameSite)
		}
		d = append(d, s)
	}
	return strings.Join(d, "; ")
}

// TestBrowserAnswerWaitingRun: /waiting lists a run that waits in a
// receive, with the channel and key; its form sends the typed message
// (hostile markup, kept as text and data) and the run ends with it.
func TestBrowserAnswerWaitingRun(t *testing.T) {
	s, _, waiting := startWaiting(t)
	id := waiting.RunID
	ctx := chromium(t)
	w := watch(t, ctx)
	run := `//form[@class="waiting"][h2[text()="` + id + `"]]`
	browse(t, ctx, "sign in to /waiting",
		chromedp.Navigate(s.base+"/waiting"),
		chromedp.WaitVisible(chromedp.CSS(`input[name="token"]`)),
		chromedp.SendKeys(chromedp.CSS(`input[name="token"]`), testToken),
		chromedp.Click(chromedp.CSS(`form[action="/login"] button[type="submit"]`)),
		chromedp.WaitVisible(chromedp.Search(run+`//textarea[@name="payload"]`)))
	desc, err := chromedp.Run(ctx, chromedp.TextContent(chromedp.Search(run+`/p[@class="description"]`)))
	if err != nil || !strings.HasPrefix(desc, "ask waits on approvals (key 42) since ") {
		t.Errorf("the waiting run's line = %q (%v)", desc, err)
	}
	browse(t, ctx, "answer it",
		chromedp.SendKeys(chromedp.Search(run+`//textarea[@name="payload"]`), hostile),
		chromedp.Click(chromedp.Search(run+`//button[@type="submit"]`)))
	jsWait(t, ctx, `document.querySelector("form.waiting pre.result").textContent === "sent"`)
	if r := s.waitTerminal(id); r.Status != statusSucceeded || r.ResultText != "got "+hostile {
		t.Fatalf("after the answer: %+v", r)
	}
	noMarkup(t, ctx, w, "/waiting")
}
