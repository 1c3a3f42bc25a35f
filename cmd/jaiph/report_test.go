package main

import (
	"bufio"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
)

// jaiph report serves the embedded browser UI (internal/tools/report/ui), not the
// placeholder a report.Config without UI gets: the run list page and the
// assets it loads, from the binary alone.
func TestReportServesUI(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".jaiph"), 0o755); err != nil {
		t.Fatal(err)
	}
	url := startReport(t, jaiphIn(dir, "", "report", "--port", "0")) + "/"
	get := func(path string) string {
		resp, err := http.Get(url + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
		}
		return string(body)
	}
	if page := get(""); !strings.Contains(page, "<title>Jaiph runs</title>") || !strings.Contains(page, "assets/list.js") {
		t.Errorf("GET / is not the UI's run list:\n%s", page)
	}
	for _, asset := range []string{"assets/list.js", "assets/common.js", "assets/styles.css", "run.html"} {
		if len(get(asset)) == 0 {
			t.Errorf("GET %s: empty", asset)
		}
	}
}

// startReport starts `jaiph report --port 0` (cmd), stopped with SIGINT
// when the test ends, and returns its base URL (no trailing slash).
func startReport(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGINT)
		cmd.Wait()
	})
	line, err := bufio.NewReader(stdout).ReadString('\n')
	base := regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(line)
	if err != nil || base == "" {
		t.Fatalf("no URL in %q (%v)", line, err)
	}
	return base
}
