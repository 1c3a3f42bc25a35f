package ui_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/store/runs"
)

// A running step's stdout and stderr grow on the page as its files grow.
func TestBrowserLiveTail(t *testing.T) {
	root := fixture(t)
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
	var sum strings.Builder
	for _, e := range []*event.Event{
		{Type: event.StepStart, Func: "live::default", Kind: "workflow", Name: "default", ID: "live:1", Seq: 1},
		{Type: event.WorkflowStart, Workflow: "default", Source: "live.jh"},
		{Type: event.StepStart, Func: "live::tick", Kind: "function", Name: "tick", ID: "live:2", ParentID: "live:1", Seq: 2, Depth: 1},
	} {
		e.RunID, e.Time = "live", at
		sum.Write(append(e.JSON(), '\n'))
	}
	write := func(name, text string, flag int) {
		f, err := os.OpenFile(filepath.Join(dir, name), flag|os.O_WRONLY|os.O_CREATE, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(text); err != nil {
			t.Fatal(err)
		}
	}
	write("run_summary.jsonl", sum.String(), os.O_TRUNC)
	write("000002-live__tick.out", "tick 1\n", os.O_TRUNC) // named as runtime names a step's files
	write("000002-live__tick.err", "warn 1\n", os.O_TRUNC)

	url := serve(t, root)
	ctx := browser(t)
	do(t, ctx, "open the live run's running step",
		chromedp.Navigate(url+"/run.html?run="+strings.ReplaceAll(rel, "/", "%2F")),
		chromedp.Click(stepButton("tick")))
	waitJS(t, ctx, `document.querySelector("#step-out").textContent === "tick 1\n"`)
	waitJS(t, ctx, `document.querySelector("#step-err").textContent === "warn 1\n"`)
	eval(t, ctx, `window.notReloaded = true`)
	for i := 2; i <= 3; i++ {
		write("000002-live__tick.out", fmt.Sprintf("tick %d\n", i), os.O_APPEND)
		write("000002-live__tick.err", fmt.Sprintf("warn %d\n", i), os.O_APPEND)
		waitJS(t, ctx, fmt.Sprintf(`document.querySelector("#step-out").textContent.endsWith("tick %d\n")`, i))
		waitJS(t, ctx, fmt.Sprintf(`document.querySelector("#step-err").textContent.endsWith("warn %d\n")`, i))
	}
	if got := text(t, ctx, "#out-note"); got != "(live)" {
		t.Errorf("stdout note = %q, want (live)", got)
	}
	waitJS(t, ctx, `window.notReloaded === true`)
}
