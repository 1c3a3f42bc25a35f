package main

import (
	"bufio"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// servedProcess is a `jaiph serve` process (this test binary acting as
// jaiph, which hands serve to the jaiph-full TestMain built) and its
// address.
type servedProcess struct {
	cmd    *exec.Cmd
	base   string
	stderr *strings.Builder
	done   chan error
}

func startServe(t *testing.T, dir string, env ...string) *servedProcess {
	t.Helper()
	cmd := exec.Command(os.Args[0], "serve", "--port", "0", "tools.jh")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), append([]string{"JAIPH_TEST_AS_JAIPH=1", "HOME=" + dir, "JAIPH_KEY_DIR=" + filepath.Join(t.TempDir(), "keys")}, env...)...)
	pipe, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	p := &servedProcess{cmd: cmd, stderr: &strings.Builder{}, done: make(chan error, 1)}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		listening := regexp.MustCompile(`listening on (http://\S+)`)
		for sc.Scan() {
			p.stderr.WriteString(sc.Text() + "\n")
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
			}
		}
		close(addr)
		p.done <- cmd.Wait()
	}()
	base, ok := <-addr
	if !ok {
		t.Fatalf("jaiph serve did not start:\n%s", p.stderr)
	}
	p.base = base
	t.Cleanup(func() { cmd.Process.Kill() })
	return p
}

// curl runs curl with args and returns its stdout.
func curl(t *testing.T, args ...string) string {
	t.Helper()
	out, err := exec.Command("curl", append([]string{"-sS", "--max-time", "60"}, args...)...).Output()
	if err != nil {
		t.Fatalf("curl %v: %v", args, err)
	}
	return string(out)
}

// TestServeProcess drives the real `jaiph serve` with curl: a run and its
// events, then SIGTERM with a run in progress (interrupted, recorded, its
// programs gone, exit 0), then kill -9 with a run in progress (a restart
// reports it interrupted; the run's programs went with the server).
func TestServeProcess(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatal("curl is needed (.ci/run installs it)")
	}
	dir := t.TempDir()
	src := "# Greets.\nexport workflow hello {\n  name=\"$1\"\n  echo \"hello $name\"\n  return \"hi $name\"\n}\n\nexport workflow slow {\n  secs=\"$1\"\n  sleep \"$secs\"\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "tools.jh"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	const tok = "process-token"
	auth := "Authorization: Bearer " + tok
	p := startServe(t, dir, "JAIPH_SERVE_TOKEN="+tok)
	out := curl(t, "-X", "POST", "-H", auth, "-H", "Content-Type: application/json", "-d", `{"name":"curl"}`, p.base+"/v1/workflows/hello/runs?wait=true")
	var full map[string]any
	json.Unmarshal([]byte(out), &full)
	if full["status"] != "succeeded" || full["result_text"] != "hi curl" {
		t.Fatalf("run: %s", out)
	}
	id := full["run_id"].(string)
	sse := curl(t, "-N", "-H", auth, "-H", "Accept: text/event-stream", p.base+"/v1/runs/"+id+"/events")
	if !strings.Contains(sse, `"type":"WORKFLOW_END"`) || !strings.Contains(sse, "event: end\ndata: {\"run_id\":\""+id) {
		t.Errorf("event stream:\n%s", sse)
	}
	if code := curl(t, "-o", "/dev/null", "-w", "%{http_code}", p.base+"/v1/runs"); code != "401" {
		t.Errorf("without the token: %s", code)
	}

	// SIGTERM with a run in progress.
	out = curl(t, "-X", "POST", "-H", auth, "-H", "Content-Type: application/json", "-d", `{"secs":"1000.511"}`, p.base+"/v1/workflows/slow/runs")
	json.Unmarshal([]byte(out), &full)
	slow := full["run_id"].(string)
	waitProcess(t, "1000.511", true)
	p.cmd.Process.Signal(syscall.SIGTERM)
	if err := <-p.done; err != nil {
		t.Errorf("after SIGTERM: %v\n%s", err, p.stderr)
	}
	waitProcess(t, "1000.511", false)
	rec, err := os.ReadFile(filepath.Join(dir, ".jaiph", "serve", "runs.jsonl"))
	if err != nil || !strings.Contains(string(rec), `{"run_id":"`+slow+`","workflow":"slow","status":"interrupted"`) {
		t.Errorf("record after SIGTERM: %v %s", err, rec)
	}

	// kill -9 with a run in progress.
	p = startServe(t, dir, "JAIPH_SERVE_TOKEN="+tok)
	out = curl(t, "-X", "POST", "-H", auth, "-H", "Content-Type: application/json", "-d", `{"secs":"1000.512"}`, p.base+"/v1/workflows/slow/runs")
	json.Unmarshal([]byte(out), &full)
	killed := full["run_id"].(string)
	waitProcess(t, "1000.512", true)
	p.cmd.Process.Kill()
	<-p.done
	waitProcess(t, "1000.512", false) // the run's process group went with it
	p = startServe(t, dir, "JAIPH_SERVE_TOKEN="+tok)
	out = curl(t, "-H", auth, p.base+"/v1/runs/"+killed)
	if !strings.Contains(out, `"status":"interrupted"`) {
		t.Errorf("after kill -9 and restart: %s", out)
	}
	if out := curl(t, "-H", auth, p.base+"/v1/runs/"+id); !strings.Contains(out, `"result_text":"hi curl"`) {
		t.Errorf("an earlier run after restarts: %s", out)
	}
	p.cmd.Process.Signal(syscall.SIGINT)
	if err := <-p.done; err != nil {
		t.Errorf("after SIGINT: %v", err)
	}
}

// waitProcess waits until a process whose command line holds marker is
// there (or gone).
func waitProcess(t *testing.T, marker string, there bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if hasProcess(marker) == there {
			return
		}
	}
	t.Fatalf("process %q there: %v, want %v", marker, !there, there)
}

func hasProcess(marker string) bool {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		f, err := os.Open(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(f)
		f.Close()
		if strings.Contains(string(b), marker) && !strings.Contains(string(b), "curl") {
			return true
		}
	}
	return false
}
