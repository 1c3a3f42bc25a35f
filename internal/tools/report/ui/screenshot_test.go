package ui_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestScreenshot writes the README's picture of the run viewer to the file
// JAIPH_UI_SCREENSHOT names (`make screenshot`: docs/report-screenshot.png)
// and is skipped without it. The run is fixed (times, output, one file the
// workflow wrote), so on one machine the picture comes out the same: a
// failed deploy, its step tree, the failed rule's numbered stdout and
// stderr with the search box's matches of "/var" marked, and the Files tab
// counting the file.
func TestScreenshot(t *testing.T) {
	dst := os.Getenv("JAIPH_UI_SCREENSHOT")
	if dst == "" {
		t.Skip("`make screenshot` sets JAIPH_UI_SCREENSHOT to the picture to write")
	}
	root := t.TempDir()
	rel := "2026-11-23/07-05-00-deploy.jh"
	writeRun(t, root, rel, "deploy.jh", time.Date(2026, 11, 23, 7, 5, 0, 0, time.UTC), []fxStep{
		{kind: "function", name: "build", params: [][2]string{{"arg1", "v1.2"}}, out: "compiling 4 packages\nbuilt dist/app v1.2 (12.4 MB)"},
		{kind: "function", name: "upload", params: [][2]string{{"arg1", "dist/app"}}, out: "uploaded dist/app to staging"},
		{kind: "rule", name: "disk_free", params: [][2]string{{"arg1", "/var"}},
			out: "checking /\n/: 41% used\nchecking /var\n/var: 100% used, 0 B free", err: boom, status: 3},
	})
	report := filepath.Join(root, filepath.FromSlash(rel), "artifacts", "build-report.txt")
	if err := os.MkdirAll(filepath.Dir(report), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(report, []byte("dist/app v1.2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	url := serve(t, root)
	t.Setenv("TZ", "UTC") // Chromium's, for the times on the page
	ctx := browser(t)
	do(t, ctx, "open the run",
		chromedp.Navigate(url+"/"),
		chromedp.Click(chromedp.Search(`//a[@class="run-link"][text()="deploy.jh"]`)),
		chromedp.WaitVisible(stepButton("disk_free")))
	do(t, ctx, "open the failed step", chromedp.Click(stepButton("disk_free")))
	waitJS(t, ctx, `document.querySelector("#step-err").textContent.includes("boom") && document.querySelector("#tab-files").textContent === "Files (1)"`)
	do(t, ctx, "search", chromedp.SendKeys(chromedp.ID("log-q"), "/var"))
	waitJS(t, ctx, `document.querySelector("#log-count").textContent === "1 of 3"`)
	// Nothing focused or hovered: no caret or focus ring in the picture.
	eval(t, ctx, `(document.activeElement.blur(), true)`)
	shot, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(dst, shot, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("wrote %s", dst)
}
