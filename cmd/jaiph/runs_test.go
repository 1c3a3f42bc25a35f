package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// runsJSON runs `jaiph runs --json` in dir and returns its runs' statuses.
func runsJSON(t *testing.T, dir string) []string {
	t.Helper()
	cmd := exec.Command(os.Args[0], "runs", "--json")
	cmd.Dir = dir
	cmd.Env = testEnv(dir)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("jaiph runs --json: %v", err)
	}
	var doc struct {
		Runs []struct {
			Status string `json:"status"`
			Source string `json:"source"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatalf("jaiph runs --json: %v\n%s", err, out)
	}
	var got []string
	for _, r := range doc.Runs {
		got = append(got, r.Source+" "+r.Status)
	}
	return got
}

// TestRunsAfterKillNine: while a run is live, jaiph runs says running; after
// kill -9 of jaiph (no chance to record its end) the kernel has released its
// lock and the run says interrupted, never running.
func TestRunsAfterKillNine(t *testing.T) {
	dir := workspace(t, map[string]string{"flow.jh": `workflow step {
  echo ready > ready
  sleep 30
}
workflow default {
  run step
}
`})
	cmd := exec.Command(os.Args[0], "run", "flow.jh")
	cmd.Dir = dir
	cmd.Env = testEnv(dir)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "ready")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the run never became ready")
		}
	}
	if got := runsJSON(t, dir); len(got) != 1 || got[0] != "flow.jh running" {
		t.Fatalf("live run: %v, want [flow.jh running]", got)
	}
	if err := cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	if got := runsJSON(t, dir); len(got) != 1 || got[0] != "flow.jh interrupted" {
		t.Fatalf("after kill -9: %v, want [flow.jh interrupted]", got)
	}
	ends, _ := filepath.Glob(filepath.Join(dir, ".jaiph", "runs", "*", "*", ".run.end"))
	if len(ends) != 0 {
		t.Errorf("a killed run has an end record: %v", ends)
	}
}
