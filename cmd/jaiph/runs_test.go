package main

import (
	"encoding/json"
	"math/rand/v2"
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
	ends, _ := filepath.Glob(filepath.Join(dir, ".jaiph", "state", "runs", "*", "run.end"))
	if len(ends) != 0 {
		t.Errorf("a killed run has an end record: %v", ends)
	}
}

// TestRunsKillNineLoop kills jaiph with SIGKILL at random moments of a
// run (before its run directory exists, while it writes its records, while
// steps run, after it ended) and checks that jaiph runs never lists it as
// running: interrupted when killed, passed when it had ended (or recorded
// its end just before the kill).
// JAIPH_STRESS_SIGNAL_LOOPS scales it up (make stress).
func TestRunsKillNineLoop(t *testing.T) {
	dir := workspace(t, map[string]string{"flow.jh": `workflow step {
  sleep 0.01
}
workflow default {
  for i in 1 2 3 4 5 6 7 8 9 10; do
    run step
  done
}
`})
	tally := map[string]int{}
	for i := 0; i < signalLoops(8); i++ {
		before := len(runsJSON(t, dir))
		cmd := exec.Command(os.Args[0], "run", "flow.jh")
		cmd.Dir = dir
		cmd.Env = testEnv(dir)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		time.Sleep(time.Duration(rand.IntN(250)) * time.Millisecond)
		killed := cmd.Process.Kill() == nil
		err := cmd.Wait()
		if killed && err == nil {
			killed = false // it had ended on its own just before
		}
		got := runsJSON(t, dir)
		switch {
		case len(got) == before && killed: // killed before the run dir existed
			tally["no run"]++
		case len(got) != before+1:
			t.Fatalf("iteration %d: %d runs listed after %d", i, len(got), before)
		// Killed after recording its end, it passed.
		case killed && got[0] == "flow.jh interrupted", got[0] == "flow.jh passed":
			tally[got[0]]++
		default:
			t.Fatalf("iteration %d (killed %v): newest run %q", i, killed, got[0])
		}
	}
	t.Logf("kill -9 at random moments: %v", tally)
}
