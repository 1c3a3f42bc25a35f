package ui_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	neturl "net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/store/runs"
)

// colourLog is a step's stdout as a terminal program writes it: SGR
// colours and bold, a progress bar redrawn with carriage returns, 256-
// and 24-bit colours, an OSC 8 hyperlink and an erase-line sequence,
// markup that must stay text, and lines to search.
const colourLog = "\x1b[31mred\x1b[0m plain \x1b[1mbold\x1b[22m\n" +
	"progress 10%\rprogress 50%\rprogress 100%\n" +
	"\x1b[38;5;196mhot\x1b[0m \x1b[48;2;1;2;3mrgb\x1b[0m \x1b]8;;http://example.invalid/\x07link\x1b]8;;\x07\x1b[K\n" +
	"<b>not bold</b> <script>window.pwned = 1</script><img src=x onerror=\"window.pwned = 2\">\n" +
	"needle one\n" +
	"nothing\n" +
	"\x1b[32mNEEDLE\x1b[0m two, needle three"

// colourLines are the rows colourLog shows.
var colourLines = []string{"red plain bold", "progress 100%", "hot rgb link",
	`<b>not bold</b> <script>window.pwned = 1</script><img src=x onerror="window.pwned = 2">`,
	"needle one", "nothing", "NEEDLE two, needle three"}

const colourRun = "2026-11-28/10-00-00-colour.jh"

// colourFixture is a runs root with one passed run whose only child step,
// paint, wrote colourLog to stdout and nothing to stderr; page is paint's
// address on the run page.
func colourFixture(t *testing.T) (root, page string) {
	root = t.TempDir()
	writeRun(t, root, colourRun, "colour.jh", time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC),
		[]fxStep{{kind: "function", name: "paint", out: colourLog}})
	id := "run-" + strings.NewReplacer("/", "-", ".", "-").Replace(colourRun) + ":2"
	return root, "/run.html?run=" + neturl.QueryEscape(colourRun) + "&step=" + neturl.QueryEscape(id)
}

// js evaluates a JavaScript expression in the page and decodes its value.
func js[T any](t *testing.T, ctx context.Context, expr string) T {
	t.Helper()
	v, err := againAfterNavigation(ctx, func() (T, error) { return chromedp.Run(ctx, chromedp.Evaluate[T](expr)) })
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v
}

// rowsJS is the text of each row of a log pane.
func rowsJS(pane string) string {
	return fmt.Sprintf(`[...document.querySelectorAll("#%s .line .lt")].map(l => l.textContent)`, pane)
}

// A step's coloured output shows as a terminal shows it: no escape
// sequence in the text, the SGR colours and bold on the words they
// colour (palette colours as classes, 256- and 24-bit colours through the
// CSSOM, under the page's CSP), the progress bar's last state only,
// markup as text; and an empty stderr shows no box (item 4).
func TestBrowserANSIColours(t *testing.T) {
	root, page := colourFixture(t)
	url := serve(t, root)
	ctx := browser(t)
	do(t, ctx, "open the coloured step", chromedp.Navigate(url+page))
	waitJS(t, ctx, `document.querySelectorAll("#step-out .line").length === 7`)
	if got := js[[]string](t, ctx, rowsJS("step-out")); !slices.Equal(got, colourLines) {
		t.Errorf("rows = %q, want %q", got, colourLines)
	}
	if got := text(t, ctx, "#step-out"); strings.ContainsAny(got, "\x1b\r␛") || strings.Contains(got, "[31m") {
		t.Errorf("stdout pane shows escape codes: %q", got)
	}
	// The colour of the text node holding a word, as the page renders it.
	style := func(word, prop string) string {
		return js[string](t, ctx, fmt.Sprintf(`(() => {
			const w = document.createTreeWalker(document.querySelector("#step-out"), NodeFilter.SHOW_TEXT);
			for (let n = w.nextNode(); n; n = w.nextNode()) if (n.data.includes(%q)) return getComputedStyle(n.parentElement)[%q];
			return "none";
		})()`, word, prop))
	}
	for _, c := range []struct{ word, prop, want string }{
		{"red", "color", "rgb(207, 34, 46)"}, // --ansi-1
		{"bold", "fontWeight", "700"},
		{"plain", "fontWeight", "400"},
		{"hot", "color", "rgb(255, 0, 0)"}, // 38;5;196
		{"rgb", "backgroundColor", "rgb(1, 2, 3)"},
		{"NEEDLE", "color", "rgb(17, 99, 41)"}, // --ansi-2
		{"needle one", "color", style("nothing", "color")},
	} {
		if got := style(c.word, c.prop); got != c.want {
			t.Errorf("%s: %s = %s, want %s", c.word, c.prop, got, c.want)
		}
	}
	if js[bool](t, ctx, `window.pwned !== undefined || document.querySelector("#step-out b, #step-out script, #step-out img") !== null`) {
		t.Error("markup in the log became elements")
	}
	// Item 4: the step wrote no stderr: no box (and so no red border), a
	// quiet note.
	if got := js[string](t, ctx, `getComputedStyle(document.querySelector("#step-err")).display`); got != "none" {
		t.Errorf("empty stderr box display = %s, want none", got)
	}
	if got := text(t, ctx, "#err-head"); !strings.Contains(got, "(none)") {
		t.Errorf("stderr heading = %q, want it to say (none)", got)
	}

	// "All output" renders the whole run's output the same way.
	do(t, ctx, "open All output", chromedp.Click(chromedp.ID("tab-all")))
	waitJS(t, ctx, `[...document.querySelectorAll("#aggregate .line .lt")].some(l => l.textContent === "progress 100%")`)
	if got := text(t, ctx, "#aggregate"); strings.ContainsAny(got, "\x1b\r") || !strings.Contains(got, "red plain bold") {
		t.Errorf("All output shows escape codes: %q", got)
	}
	if n := js[int](t, ctx, `document.querySelectorAll("#aggregate .ansi-fg-1").length`); n != 1 {
		t.Errorf("All output: %d red spans, want 1", n)
	}

	// The renderer line by line, in the real browser (log.js's ansiText).
	cases := [][2]string{
		{"plain", "plain"},
		{"a\rb", "b"},
		{"10%\r20%\r", "20%"},          // a bar that ends on \r keeps its last state
		{"crlf line\r", "crlf line"},   // a CRLF ending is no redraw
		{"\x1b[1;31mx\x1b[m y", "x y"}, // SGR with several parameters, and the short reset
		{"\x1b[2K\x1b[1Gz", "z"},       // erase line, cursor column
		{"\x1b[?25lhidden\x1b[?25h", "hidden"},
		{"\x1b]0;title\x1b\\t", "t"},     // OSC ended by ST
		{"\x1b(Bcharset", "charset"},     // a charset designation
		{"cut \x1b[31", "cut "},          // a sequence cut short
		{"esc at end\x1b", "esc at end"}, // a lone ESC
		{"\x1b[38;5;300mbad\x1b[38;2;1mworse", "badworse"},
		{"\x1b[31m\x1b[0m", ""},
	}
	in, _ := json.Marshal(cases)
	got := js[[]string](t, ctx, fmt.Sprintf(`%s.map(([s]) => ansiText(s))`, in))
	for i, c := range cases {
		if i >= len(got) || got[i] != c[1] {
			t.Errorf("ansiText(%q) = %q, want %q", c[0], got, c[1])
		}
	}
}

// Every log line has a number that links to it (the address keeps it: a
// reload opens the step at that line, marked); the search box marks every
// match, case-insensitively and across coloured spans, and Enter, ↑ and
// ↓ walk them (on the All output tab, in the whole run's output); the raw
// link downloads the log, escapes and all, as
// text/plain (item 2).
func TestBrowserLogLinesSearchRaw(t *testing.T) {
	root, page := colourFixture(t)
	url := serve(t, root)
	ctx := browser(t)
	do(t, ctx, "open the coloured step", chromedp.Navigate(url+page))
	waitJS(t, ctx, `document.querySelectorAll("#step-out .line").length === 7`)
	if got := js[[]string](t, ctx, `[...document.querySelectorAll("#step-out .ln")].map(a => getComputedStyle(a, "::before").content)`); !slices.Equal(got, []string{`"1"`, `"2"`, `"3"`, `"4"`, `"5"`, `"6"`, `"7"`}) {
		t.Errorf("line numbers = %q", got)
	}
	do(t, ctx, "click line 5's number", chromedp.Click(chromedp.CSS(`#out-L5 .ln`)))
	waitJS(t, ctx, `location.hash === "#out-L5" && document.querySelector("#out-L5").classList.contains("hl")`)
	if got := js[string](t, ctx, `location.search`); !strings.Contains(got, "step=") {
		t.Errorf("address %q lost the step", got)
	}
	do(t, ctx, "reload the line's address", chromedp.Reload())
	waitJS(t, ctx, `document.querySelector("#out-L5") !== null && document.querySelector("#out-L5").classList.contains("hl")`)
	if n := js[int](t, ctx, `document.querySelectorAll(".line.hl").length`); n != 1 {
		t.Errorf("%d lines marked, want 1", n)
	}

	do(t, ctx, "search", chromedp.SendKeys(chromedp.ID("log-q"), "needle"))
	waitJS(t, ctx, `document.querySelector("#log-count").textContent === "1 of 3"`)
	current := `[...document.querySelectorAll("mark.hit.current")].map(m => m.textContent + "@" + m.closest(".line").id).join(",")`
	if got := js[string](t, ctx, current); got != "needle@out-L5" {
		t.Errorf("current match %q, want needle on line 5", got)
	}
	do(t, ctx, "Enter: the next match", chromedp.KeyEvent(kb.Enter))
	waitJS(t, ctx, `document.querySelector("#log-count").textContent === "2 of 3"`)
	if got := js[string](t, ctx, current); got != "NEEDLE@out-L7" {
		t.Errorf("second match %q, want NEEDLE on line 7", got)
	}
	do(t, ctx, "↓", chromedp.Click(chromedp.ID("log-next")))
	waitJS(t, ctx, `document.querySelector("#log-count").textContent === "3 of 3"`)
	do(t, ctx, "↓ wraps around", chromedp.Click(chromedp.ID("log-next")))
	waitJS(t, ctx, `document.querySelector("#log-count").textContent === "1 of 3"`)
	do(t, ctx, "↑ wraps around", chromedp.Click(chromedp.ID("log-prev")))
	waitJS(t, ctx, `document.querySelector("#log-count").textContent === "3 of 3"`)
	if got := js[[]string](t, ctx, rowsJS("step-out")); !slices.Equal(got, colourLines) {
		t.Errorf("marking changed the text: %q", got)
	}
	// A match across a coloured word and plain text: one match, two marks.
	do(t, ctx, "search across spans", chromedp.SetValue(chromedp.ID("log-q"), "ED PL"))
	eval(t, ctx, `document.querySelector("#log-q").dispatchEvent(new Event("input"))`)
	waitJS(t, ctx, `document.querySelector("#log-count").textContent === "1 of 1" && document.querySelectorAll("mark.hit").length === 2`)
	do(t, ctx, "no match", chromedp.SetValue(chromedp.ID("log-q"), "absent"))
	eval(t, ctx, `document.querySelector("#log-q").dispatchEvent(new Event("input"))`)
	waitJS(t, ctx, `document.querySelector("#log-count").textContent === "no match" && document.querySelectorAll("mark").length === 0`)
	if got := js[[]string](t, ctx, rowsJS("step-out")); !slices.Equal(got, colourLines) {
		t.Errorf("clearing the marks changed the text: %q", got)
	}

	// On the All output tab the box searches the whole run's output.
	do(t, ctx, "open All output", chromedp.Click(chromedp.ID("tab-all")))
	waitJS(t, ctx, `document.querySelectorAll("#aggregate .line").length > 7`)
	do(t, ctx, "search the run", chromedp.SetValue(chromedp.ID("log-q"), "needle"))
	eval(t, ctx, `document.querySelector("#log-q").dispatchEvent(new Event("input"))`)
	waitJS(t, ctx, `document.querySelector("#log-count").textContent === "1 of 3" && document.querySelectorAll("#aggregate mark.hit").length === 3 && document.querySelectorAll("#step-out mark").length === 0`)
	do(t, ctx, "back to the step", chromedp.Click(chromedp.ID("tab-step")))
	waitJS(t, ctx, `document.querySelector("#log-count").textContent === "1 of 3" && document.querySelectorAll("#step-out mark.hit").length === 3 && document.querySelectorAll("#aggregate mark").length === 0`)

	// The raw link: the artifact as the step wrote it, a text download.
	if js[bool](t, ctx, `document.querySelector("#out-raw").hidden || !document.querySelector("#out-raw").hasAttribute("download")`) {
		t.Fatal("the raw link is hidden or no download")
	}
	if !js[bool](t, ctx, `document.querySelector("#err-raw").hidden`) {
		t.Error("a raw link for the empty stderr")
	}
	href := js[string](t, ctx, `document.querySelector("#out-raw").href`)
	res, err := http.Get(href)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || string(body) != colourLog+"\n" || res.Header.Get("Content-Type") != "text/plain; charset=utf-8" ||
		!strings.HasPrefix(res.Header.Get("Content-Disposition"), "attachment") {
		t.Errorf("GET %s: %d %v %q", href, res.StatusCode, res.Header, body)
	}
}

// A long log keeps its last 10,000 lines in the pane, numbered as in the
// whole log, after a note that the raw log has the earlier ones; lines
// that arrive later push the oldest out (log.js's LogView, on a pane of
// its own in the real page).
func TestBrowserLongLog(t *testing.T) {
	root, page := colourFixture(t)
	url := serve(t, root)
	ctx := browser(t)
	do(t, ctx, "open the coloured step", chromedp.Navigate(url+page))
	waitJS(t, ctx, `document.querySelectorAll("#step-out .line").length === 7`)
	got := js[[]string](t, ctx, `(() => {
		const pre = document.createElement("pre");
		const v = new LogView(pre, "x");
		const rows = () => pre.querySelectorAll(".line");
		const state = () => [rows().length, rows()[0].id, rows()[rows().length - 1].id, pre.querySelector(".log-cut").textContent.trim(),
			rows()[0].querySelector(".lt").innerHTML].join(" | ");
		let text = "\x1b[31mred from the start\n";
		for (let i = 2; i <= 10003; i++) text += "line " + i + "\n";
		v.set(text);
		const first = state();
		v.set(text + "line 10004\nline 10005\npart");
		return [first, state()];
	})()`)
	want := []string{
		`10000 | x-L4 | x-L10003 | ⋯ 3 earlier lines not shown: the raw log has them all | <span class="ansi-fg-1">line 4</span>`,
		`10000 | x-L7 | x-L10006 | ⋯ 6 earlier lines not shown: the raw log has them all | <span class="ansi-fg-1">line 7</span>`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("long log:\n got %q\nwant %q", got, want)
	}
}

// stoppedFixture is a runs root with the same run twice, as jaiph leaves
// it when stopped while default's second child, slow, runs: interrupted
// (Ctrl-C: slow and default ended with 130, run.end names SIGINT) and
// killed (kill -9: neither ended, no run.end, no lock). The interrupted
// one wrote coverage.txt and artifacts/sub/a.txt into its run directory.
func stoppedFixture(t *testing.T) (root, interrupted, killed string) {
	root = t.TempDir()
	interrupted, killed = "2026-11-28/11-00-00-slow.jh", "2026-11-28/11-05-00-slow.jh"
	for i, rel := range []string{interrupted, killed} {
		dir := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Join(dir, "artifacts", "sub"), 0o755); err != nil {
			t.Fatal(err)
		}
		start := time.Date(2026, 11, 28, 11, 5*i, 0, 0, time.UTC)
		runID := fmt.Sprintf("stopped-%d", i)
		var sum strings.Builder
		step := func(typ string, seq int, name string, status *int) {
			e := &event.Event{Type: typ, Func: "slow::" + name, Kind: "workflow", Name: name, ID: fmt.Sprintf("%s:%d", runID, seq),
				Seq: seq, Depth: 1, ParentID: runID + ":1", RunID: runID, Time: start, Status: status}
			if seq == 1 {
				e.Depth, e.ParentID = 0, ""
			}
			if status != nil {
				e.ElapsedMS = new(int64(5))
			}
			sum.Write(append(e.JSON(), '\n'))
		}
		zero, cut := 0, 130
		step(event.StepStart, 1, "default", nil)
		step(event.StepStart, 2, "first", nil)
		step(event.StepEnd, 2, "first", &zero)
		step(event.StepStart, 3, "slow", nil)
		rec := runs.RecordsDir(dir)
		if err := runs.WriteMeta(rec, &runs.Meta{Version: runs.MetaVersion, RunID: runID, Source: "slow.jh", Start: start, Args: []string{}}); err != nil {
			t.Fatal(err)
		}
		if rel == interrupted {
			step(event.StepEnd, 3, "slow", &cut)
			step(event.StepEnd, 1, "default", &cut)
			if err := runs.WriteEnd(rec, &runs.End{Status: runs.Interrupted, ExitCode: 130, Signal: "SIGINT", End: start.Add(3 * time.Second)}); err != nil {
				t.Fatal(err)
			}
			for p, data := range map[string]string{"coverage.txt": "coverage 81%\n", "artifacts/sub/a.txt": "art\n"} {
				if err := os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		}
		if err := os.WriteFile(filepath.Join(dir, runs.SummaryFile), []byte(sum.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root, interrupted, killed
}

// An interrupted run and a killed one show what happened, not "3/3
// steps": the steps done out of those started, how the rest stopped, and
// the step each was in, marked in the tree and opened (item 5).
func TestBrowserStoppedRuns(t *testing.T) {
	root, interrupted, killed := stoppedFixture(t)
	url := serve(t, root)
	ctx := browser(t)
	do(t, ctx, "open the list", chromedp.Navigate(url+"/"))
	waitJS(t, ctx, `document.querySelectorAll("#runs-body tr").length === 2`)
	if got := text(t, ctx, "#runs-body"); strings.Count(got, "1/3 · 2 stopped") != 2 || strings.Contains(got, "3/3") {
		t.Errorf("rows = %q, want 1/3 · 2 stopped for both", got)
	}
	for _, c := range []struct {
		rel, title, sub, meta string
	}{
		{interrupted, "interrupted", "1 of 3 started steps done, 2 stopped by SIGINT (in workflow slow)", "interrupted (exit 130)"},
		{killed, "killed", "1 of 3 started steps done, 2 left open when it was killed (in workflow slow)", "never ended: the run was killed"},
	} {
		do(t, ctx, "open "+c.rel, chromedp.Navigate(url+"/run.html?run="+neturl.QueryEscape(c.rel)))
		waitJS(t, ctx, `document.querySelector("#step-title").textContent.includes("slow")`)
		if got := text(t, ctx, "#run-title"); !strings.Contains(got, c.title) {
			t.Errorf("%s: title %q, want %q", c.rel, got, c.title)
		}
		if got := text(t, ctx, "#run-sub"); !strings.Contains(got, c.sub) || strings.Contains(got, "3/3") {
			t.Errorf("%s: %q, want %q", c.rel, got, c.sub)
		}
		if got := text(t, ctx, "#step-meta"); !strings.Contains(got, c.meta) {
			t.Errorf("%s: slow's details %q, want %q", c.rel, got, c.meta)
		}
		marked := js[[]string](t, ctx, `[...document.querySelectorAll("button.step")].filter(b => b.textContent.includes("stopped here")).map(b => b.querySelector(".name").textContent)`)
		if !slices.Equal(marked, []string{"slow"}) {
			t.Errorf("%s: steps marked stopped here: %q, want [slow]", c.rel, marked)
		}
		if got := js[string](t, ctx, `document.querySelector("button.step.selected .name").textContent`); got != "slow" {
			t.Errorf("%s: the page opened %q, want the step it stopped in", c.rel, got)
		}
		if got := js[[]string](t, ctx, `[...document.querySelectorAll("button.step .badge")].map(b => b.textContent.trim())`); !slices.Equal(got, []string{"■ interrupted", "✓ passed", "■ interrupted"}) {
			t.Errorf("%s: step badges %q", c.rel, got)
		}
	}
}

// The Files tab lists the files the workflow wrote into its run
// directory, each a download link that gets the file (item 3).
func TestBrowserRunFiles(t *testing.T) {
	root, interrupted, killed := stoppedFixture(t)
	url := serve(t, root)
	ctx := browser(t)
	do(t, ctx, "open the run's Files tab",
		chromedp.Navigate(url+"/run.html?run="+neturl.QueryEscape(interrupted)+"&tab=files"))
	waitJS(t, ctx, `document.querySelectorAll("#files a.file-link").length === 2`)
	if got := text(t, ctx, "#tab-files"); got != "Files (2)" {
		t.Errorf("tab = %q", got)
	}
	links := js[[][2]string](t, ctx, `[...document.querySelectorAll("#files a.file-link")].map(a => [a.textContent, a.href])`)
	want := map[string]string{"artifacts/sub/a.txt": "art\n", "coverage.txt": "coverage 81%\n"}
	for _, l := range links {
		res, err := http.Get(l[1])
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 || string(body) != want[l[0]] {
			t.Errorf("%s (%s): %d %q, want %q", l[0], l[1], res.StatusCode, body, want[l[0]])
		}
		delete(want, l[0])
	}
	if len(want) != 0 {
		t.Errorf("not listed: %v", want)
	}
	do(t, ctx, "a run that wrote none", chromedp.Navigate(url+"/run.html?run="+neturl.QueryEscape(killed)+"&tab=files"))
	waitJS(t, ctx, `document.querySelector("#files").textContent.includes("wrote no files")`)
	if got := text(t, ctx, "#tab-files"); got != "Files (0)" {
		t.Errorf("tab = %q", got)
	}
}
