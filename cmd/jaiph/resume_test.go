package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jaiph-go/jaiph/runtime"
)

// resumeFlow makes five managed calls, two of them prompts; after call N
// it signals its own jaiph process when the file killN exists (removed
// first, so the resumed run goes on) and waits for the signal to stop the
// run (SIGINT is handled asynchronously). The kill runs in a shell line of
// the body: shell lines run again on resume, managed calls do not.
const resumeFlow = `function stamp {
  echo "$1" >> work.txt
  echo "stamped $1"
}

rule has_work {
  test -s work.txt
}

workflow finish {
  echo "finish $1" >> work.txt
  return "done $1"
}

workflow default {
  run stamp one
  [ -f kill1 ] && rm kill1 && sh -c "kill -$SIG \$PPID; exec sleep 5 >/dev/null 2>&1"
  a = prompt "first"
  [ -f kill2 ] && rm kill2 && sh -c "kill -$SIG \$PPID; exec sleep 5 >/dev/null 2>&1"
  ensure has_work
  [ -f kill3 ] && rm kill3 && sh -c "kill -$SIG \$PPID; exec sleep 5 >/dev/null 2>&1"
  b = prompt "second $a"
  [ -f kill4 ] && rm kill4 && sh -c "kill -$SIG \$PPID; exec sleep 5 >/dev/null 2>&1"
  r = run finish "$b"
  [ -f kill5 ] && rm kill5 && sh -c "kill -$SIG \$PPID; exec sleep 5 >/dev/null 2>&1"
  log "result: $r"
  echo "$r" > result.txt
}
`

// resumeAgent answers "answer N", N counting its invocations in
// agent_count.
const resumeAgent = `#!/bin/sh
n=$(( $(cat agent_count 2>/dev/null || echo 0) + 1 ))
echo $n > agent_count
echo "{\"type\":\"result\",\"result\":\"answer $n\"}"
`

func resumeWorkspace(t *testing.T) string {
	dir := workspace(t, map[string]string{"flow.jh": resumeFlow, "bin/cursor-agent": resumeAgent})
	if err := os.Chmod(filepath.Join(dir, "bin/cursor-agent"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

func jaiphIn(dir, sig string, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "JAIPH_") && !strings.HasPrefix(kv, "PATH=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "JAIPH_TEST_AS_JAIPH=1", "NO_COLOR=1", "HOME="+dir, "SIG="+sig,
		"PATH="+filepath.Join(dir, "bin")+":"+os.Getenv("PATH"))
	return cmd
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// TestResumeAfterKill kills jaiph (SIGKILL, then SIGINT) after each of the
// five managed calls in turn and resumes the run: the agent ran twice in
// all, the workspace files and the output are an uninterrupted run's, the
// calls that had completed show as replayed, and the summary is one valid
// sequence.
func TestResumeAfterKill(t *testing.T) {
	ref := resumeWorkspace(t)
	out, err := jaiphIn(ref, "KILL", "run", "flow.jh").CombinedOutput()
	if err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}
	wantWork, wantResult := readFile(t, filepath.Join(ref, "work.txt")), readFile(t, filepath.Join(ref, "result.txt"))
	if !strings.Contains(string(out), "ℹ result: done answer 2") {
		t.Fatalf("uninterrupted output:\n%s", out)
	}
	for _, sig := range []string{"KILL", "INT"} {
		for n := 1; n <= 5; n++ {
			dir := resumeWorkspace(t)
			if err := os.WriteFile(filepath.Join(dir, "kill"+strconv.Itoa(n)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
			out, err := jaiphIn(dir, sig, "run", "flow.jh").CombinedOutput()
			if err == nil {
				t.Fatalf("SIG%s after call %d: the run was not stopped:\n%s", sig, n, out)
			}
			// The killed attempt's temporary directory (among the run's
			// records), which only a SIGKILL leaves behind, goes with the
			// resume.
			records, _ := filepath.Glob(filepath.Join(dir, ".jaiph/state/runs/*"))
			if len(records) != 1 {
				t.Fatalf("SIG%s after call %d: %d runs' records", sig, n, len(records))
			}
			killedTmp := filepath.Join(records[0], "tmp")
			if fi, err := os.Stat(killedTmp); (err == nil && fi.IsDir()) != (sig == "KILL") {
				t.Errorf("SIG%s after call %d: the killed attempt's %s: %v", sig, n, killedTmp, err)
			}
			out, err = jaiphIn(dir, sig, "resume").CombinedOutput()
			if err != nil {
				t.Fatalf("SIG%s after call %d: resume: %v\n%s", sig, n, err, out)
			}
			if _, err := os.Stat(killedTmp); err == nil {
				t.Errorf("SIG%s after call %d: %s is still there after the resume", sig, n, killedTmp)
			}
			if got := strings.Count(string(out), "(replayed)"); got != n {
				t.Errorf("SIG%s after call %d: %d replayed calls, want %d:\n%s", sig, n, got, n, out)
			}
			if !strings.Contains(string(out), "ℹ result: done answer 2") || !strings.Contains(string(out), "✓ PASS") {
				t.Errorf("SIG%s after call %d: resumed output:\n%s", sig, n, out)
			}
			if got := readFile(t, filepath.Join(dir, "agent_count")); got != "2\n" {
				t.Errorf("SIG%s after call %d: agent ran %q times, want 2", sig, n, got)
			}
			if got := readFile(t, filepath.Join(dir, "work.txt")); got != wantWork {
				t.Errorf("SIG%s after call %d: work.txt %q, want %q", sig, n, got, wantWork)
			}
			if got := readFile(t, filepath.Join(dir, "result.txt")); got != wantResult {
				t.Errorf("SIG%s after call %d: result.txt %q, want %q", sig, n, got, wantResult)
			}
			sums, _ := filepath.Glob(filepath.Join(dir, ".jaiph/runs/*/*/run_summary.jsonl"))
			if len(sums) != 1 {
				t.Fatalf("SIG%s after call %d: %d run dirs, want the one resumed", sig, n, len(sums))
			}
			checkSequence(t, sums[0], 1)
		}
	}
}

// checkSequence checks a summary: every line is a version-1 event, step
// numbers are unique, every STEP_START has one STEP_END after it and every
// INBOX_DISPATCH_START one INBOX_DISPATCH_COMPLETE, no step or delivery is
// open at a RUN_RESUMED (resume ended those a killed attempt left open,
// saying so: runtime.InterruptedWhy), and there are resumes RUN_RESUMED
// events (-1: any number). It returns how many ends resume wrote.
func checkSequence(t *testing.T, path string, resumes int) int {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	open, seqs, resumed, delivering, interrupted := map[string]bool{}, map[int]bool{}, 0, map[string]bool{}, 0
	sc := bufio.NewScanner(f)
	for line := 1; sc.Scan(); line++ {
		var e struct {
			Type, ID, Target, Lost string
			InboxSeq               string `json:"inbox_seq"`
			Seq                    int
			Version                int `json:"event_version"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil || e.Version != 1 {
			t.Fatalf("%s:%d: not a version-1 event: %s", path, line, sc.Text())
		}
		if e.Lost == runtime.InterruptedWhy {
			interrupted++
		}
		switch e.Type {
		case "STEP_START", "STEP_REPLAYED":
			if seqs[e.Seq] {
				t.Errorf("%s:%d: step number %d again", path, line, e.Seq)
			}
			seqs[e.Seq] = true
			open[e.ID] = e.Type == "STEP_START"
		case "STEP_END":
			if !open[e.ID] {
				t.Errorf("%s:%d: STEP_END of a step not open", path, line)
			}
			open[e.ID] = false
		case "INBOX_DISPATCH_START":
			if delivering[e.InboxSeq+" "+e.Target] {
				t.Errorf("%s:%d: message %s to %s started again while its delivery is open", path, line, e.InboxSeq, e.Target)
			}
			delivering[e.InboxSeq+" "+e.Target] = true
		case "INBOX_DISPATCH_COMPLETE":
			if !delivering[e.InboxSeq+" "+e.Target] {
				t.Errorf("%s:%d: INBOX_DISPATCH_COMPLETE of a delivery not open", path, line)
			}
			delivering[e.InboxSeq+" "+e.Target] = false
		case "RUN_RESUMED":
			resumed++
			for id, o := range open {
				if o {
					t.Errorf("%s:%d: step %s still open at RUN_RESUMED", path, line, id)
				}
			}
			for d, o := range delivering {
				if o {
					t.Errorf("%s:%d: delivery of message %s still open at RUN_RESUMED", path, line, d)
				}
			}
		}
	}
	for id, o := range open {
		if o {
			t.Errorf("%s: step %s never ended", path, id)
		}
	}
	for d, o := range delivering {
		if o {
			t.Errorf("%s: delivery of message %s never ended", path, d)
		}
	}
	if resumes >= 0 && resumed != resumes {
		t.Errorf("%s: %d RUN_RESUMED events, want %d", path, resumed, resumes)
	}
	return interrupted
}

// TestResumeRefusesLiveRun: a run whose process still holds the lock is
// not resumed.
func TestResumeRefusesLiveRun(t *testing.T) {
	dir := workspace(t, map[string]string{"slow.jh": "workflow default {\n  touch started\n  sleep 30\n}\n"})
	run := jaiphIn(dir, "KILL", "run", "slow.jh")
	if err := run.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = run.Process.Kill(); _ = run.Wait() }()
	for i := 0; ; i++ {
		if _, err := os.Stat(filepath.Join(dir, "started")); err == nil {
			break
		}
		if i > 1000 {
			t.Fatal("the run never started")
		}
		time.Sleep(10 * time.Millisecond)
	}
	runDirs, _ := filepath.Glob(filepath.Join(dir, ".jaiph/runs/*/*"))
	if len(runDirs) != 1 {
		t.Fatalf("%d run dirs", len(runDirs))
	}
	out, err := jaiphIn(dir, "KILL", "resume", runDirs[0]).CombinedOutput()
	if code := exitCodeOf(err); code != 1 || !strings.Contains(string(out), "is still running") {
		t.Fatalf("resume of a live run: exit %d\n%s", code, out)
	}
}

func exitCodeOf(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// resumeInboxFlow: producer sends m1…m5 to an orchestrator whose target
// kills jaiph when it delivers a message with a kill_<message> file.
const resumeInboxFlow = `channel work

workflow target {
  echo "$1" >> delivered.txt
  if [ -f "kill_$1" ]; then rm "kill_$1"; sh -c "kill -9 \$PPID; exec sleep 5 >/dev/null 2>&1"; fi
}

workflow producer {
  for i in 1 2 3 4 5; do
    work <- echo "m$i"
  done
}

workflow default {
  work -> target
  run producer
}
`

// TestResumeInbox kills a run while it delivers m3, resumes it, kills the
// resume while it delivers m5 and resumes again: the producer's messages
// come back from the journal (it is replayed, not run), completed
// deliveries are replayed, and the only repeated deliveries are the two
// that were in flight at a kill.
func TestResumeInbox(t *testing.T) {
	dir := workspace(t, map[string]string{"flow.jh": resumeInboxFlow, "kill_m3": "", "kill_m5": ""})
	if out, err := jaiphIn(dir, "KILL", "run", "flow.jh").CombinedOutput(); err == nil {
		t.Fatalf("the run was not killed:\n%s", out)
	}
	if out, err := jaiphIn(dir, "KILL", "resume").CombinedOutput(); err == nil {
		t.Fatalf("the first resume was not killed:\n%s", out)
	}
	out, err := jaiphIn(dir, "KILL", "resume").CombinedOutput()
	if err != nil {
		t.Fatalf("second resume: %v\n%s", err, out)
	}
	if !strings.Contains(string(out), "↺ workflow producer (replayed)") {
		t.Errorf("producer not replayed:\n%s", out)
	}
	if got, want := readFile(t, filepath.Join(dir, "delivered.txt")), "m1\nm2\nm3\nm3\nm4\nm5\nm5\n"; got != want {
		t.Errorf("delivered %q, want %q", got, want)
	}
	sums, _ := filepath.Glob(filepath.Join(dir, ".jaiph/runs/*/*/run_summary.jsonl"))
	if len(sums) != 1 {
		t.Fatalf("%d run dirs", len(sums))
	}
	// Each kill was in the middle of a delivery: its step and the
	// delivery were ended by the resume after it, as interrupted.
	if n := checkSequence(t, sums[0], 2); n < 4 {
		t.Errorf("resume ended %d steps and deliveries as interrupted, want at least 4 (the delivery and its step, twice)", n)
	}
}

// resumeDrainFlow: 1,000 messages, each to two routed targets, delivered
// in parallel; each delivery appends "<target> <message>" to delivered.txt.
func resumeDrainFlow(n int) string {
	return `config {
  run.inbox_parallel = true
  run.inbox_max_dispatch_depth = 100000
}

channel work

workflow ta {
  echo "a $1" >> delivered.txt
}

workflow tb {
  echo "b $1" >> delivered.txt
}

workflow producer {
  i=0
  while [ "$i" -lt ` + strconv.Itoa(n) + ` ]; do
    i=$((i + 1))
    work <- echo "m$i"
  done
}

workflow default {
  work -> ta, tb
  run producer
}
`
}

// TestResumeDrainKill kills a parallel drain of 1,000 messages to two
// targets with kill -9 at random moments (the run, then up to two
// resumes) and resumes until the run passes: every message reached both
// targets, and each kill repeated at most the 64 deliveries that can be in
// flight (maxParallelDispatch). Fresh workspaces until 10 kills landed, or
// JAIPH_STRESS_RESUME_KILLS (`make stress`).
func TestResumeDrainKill(t *testing.T) {
	const n = 1000
	kills := 10
	if v, err := strconv.Atoi(os.Getenv("JAIPH_STRESS_RESUME_KILLS")); err == nil && v > 0 {
		kills = v
	}
	// How long an uninterrupted run takes here: kills land within it.
	ref := workspace(t, map[string]string{"flow.jh": resumeDrainFlow(n)})
	start := time.Now()
	if out, err := jaiphIn(ref, "KILL", "run", "flow.jh").CombinedOutput(); err != nil {
		t.Fatalf("uninterrupted run: %v\n%s", err, out)
	}
	span := time.Since(start)
	seed := time.Now().UnixNano()
	t.Logf("seed %d, run %v", seed, span)
	rnd := rand.New(rand.NewSource(seed))
	total := 0
	for scenario := 0; total < kills && scenario < 4*kills; scenario++ {
		total += drainKillScenario(t, rnd, span, n)
	}
	if total < kills {
		t.Errorf("only %d kills landed", total)
	}
}

// recordedPassed reports whether the workspace's run recorded its end as
// passed (run.end).
func recordedPassed(t *testing.T, dir string) bool {
	ends, _ := filepath.Glob(filepath.Join(dir, ".jaiph/state/runs/*/run.end"))
	for _, e := range ends {
		var end struct{ Status string }
		if data, err := os.ReadFile(e); err == nil && json.Unmarshal(data, &end) == nil && end.Status == "passed" {
			return true
		}
	}
	return false
}

// drainKillScenario runs resumeDrainFlow(n) in a fresh workspace, kills
// it up to 3 times at random moments within span, resumes it until it
// passes, checks the deliveries and returns the number of kills.
func drainKillScenario(t *testing.T, rnd *rand.Rand, span time.Duration, n int) int {
	const inFlight = 64
	dir := workspace(t, map[string]string{"flow.jh": resumeDrainFlow(n)})
	args, killed, passed := []string{"run", "flow.jh"}, 0, false
	var output bytes.Buffer
	for attempt := 0; attempt < 10 && !passed; attempt++ {
		cmd := jaiphIn(dir, "KILL", args...)
		output.Reset()
		cmd.Stdout, cmd.Stderr = &output, &output
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		var err error
		if attempt < 3 {
			select {
			case err = <-done:
			case <-time.After(time.Duration(rnd.Int63n(int64(span)))):
				_ = cmd.Process.Kill()
				err = <-done
				killed++
			}
		} else {
			err = <-done
		}
		// A kill that lands after the run recorded its end as passed (and
		// before the process exited) ends the scenario too: resume rightly
		// refuses a passed run.
		passed = err == nil || recordedPassed(t, dir)
		// A kill before the run recorded itself leaves nothing to resume.
		if metas, _ := filepath.Glob(filepath.Join(dir, ".jaiph/state/runs/*/run.json")); len(metas) > 0 {
			args = []string{"resume"}
		}
	}
	if !passed {
		t.Fatalf("the run never passed after %d kills; the last attempt:\n%s", killed, output.String())
	}
	counts := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(readFile(t, filepath.Join(dir, "delivered.txt"))), "\n") {
		counts[line]++
	}
	dups := 0
	for i := 1; i <= n; i++ {
		for _, target := range []string{"a", "b"} {
			c := counts[target+" m"+strconv.Itoa(i)]
			if c == 0 {
				t.Errorf("message m%d never reached %s", i, target)
			}
			dups += max(c-1, 0)
		}
	}
	t.Logf("%d kills, %d repeated deliveries", killed, dups)
	if dups > killed*inFlight {
		t.Errorf("%d repeated deliveries after %d kills, more than %d in flight each", dups, killed, inFlight)
	}
	if len(counts) != 2*n {
		t.Errorf("%d distinct deliveries, want %d", len(counts), 2*n)
	}
	// Every attempt ended: no step or delivery open at a RUN_RESUMED (a
	// resume killed before it wrote its own is not counted: any number).
	if sums, _ := filepath.Glob(filepath.Join(dir, ".jaiph/runs/*/*/run_summary.jsonl")); len(sums) == 1 {
		checkSequence(t, sums[0], -1)
	}
	return killed
}
