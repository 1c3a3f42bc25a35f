package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// runUnderFileLimit runs the real binary under `ulimit -n nofile` (set by bash)
// in dir and returns its exit code, stdout and stderr.
func runUnderFileLimit(t *testing.T, dir string, nofile int, args ...string) (int, string, string) {
	t.Helper()
	script := fmt.Sprintf(`ulimit -n %d && exec "$0" "$@"`, nofile)
	cmd := exec.Command("/usr/bin/bash", append([]string{"-c", script, os.Args[0]}, args...)...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "JAIPH_TEST_AS_JAIPH=1", "NO_COLOR=1", "HOME="+dir)
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	if err != nil && cmd.ProcessState == nil {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()
}

// TestNoSilentFaultWithoutDescriptors starts 300 background jobs, each
// running a program, with 128 file descriptors: many cannot start or cannot
// create their artifacts. The run must fail, and every failed job must have
// its error text: in its err_content, or on the run's stderr naming its .err
// artifact when that could not be created or read.
func TestNoSilentFaultWithoutDescriptors(t *testing.T) {
	dir := workspace(t, map[string]string{"flow.jh": `
workflow job {
  sleep 0.3
  echo "job $1"
}
workflow default {
  for i in $(seq 300); do
    run job "$i" &
  done
  wait
}
`})
	code, _, stderr := runUnderFileLimit(t, dir, 128, "run", "flow.jh")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	if !strings.Contains(stderr, "system errors; the first: ") || !strings.Contains(stderr, "Too many open files") {
		t.Errorf("stderr lacks the fault summary:\n%s", tailOf(stderr))
	}
	runs, _ := filepath.Glob(filepath.Join(dir, ".jaiph", "runs", "*", "*"))
	if len(runs) != 1 {
		t.Fatalf("run directories: %v", runs)
	}
	failed := 0
	for _, e := range summaryEvents(t, runs[0]) {
		if e["type"] != "STEP_END" || e["name"] != "job" || e["status"] == 0.0 {
			continue
		}
		failed++
		errFile := filepath.Join(runs[0], fmt.Sprintf("%06d-flow__job.err", int(e["seq"].(float64))))
		text, _ := e["err_content"].(string)
		// Its text could not be written to, or read back from, its artifact.
		if text == "" && !strings.Contains(stderr, "jaiph: cannot write "+errFile+": Too many open files") &&
			!strings.Contains(stderr, "jaiph: cannot read "+errFile+": Too many open files") {
			t.Errorf("job %v failed with status %v and no error text", e["seq"], e["status"])
		}
	}
	if failed == 0 {
		t.Fatalf("no job failed: the descriptor limit did not bite")
	}
	t.Logf("%d of 300 jobs failed, each with its error text", failed)
}

// TestPipeFailureIsReported: a pipeline that cannot get a pipe fails its
// step with the error on its stderr (the runner stops with a fatal error
// that used to be dropped, leaving status 1 and no text).
func TestPipeFailureIsReported(t *testing.T) {
	dir := workspace(t, map[string]string{"flow.jh": `
workflow default {
  echo start
  for i in $(seq 200); do
    exec {fd}>/dev/null || break
  done
  echo a | cat
  echo "not reached"
}
`})
	code, _, stderr := runUnderFileLimit(t, dir, 64, "run", "flow.jh")
	if code != 1 {
		t.Errorf("exit %d, want 1", code)
	}
	want := "  Output of failed step:\n    start\n    /dev/null: Too many open files\n    jaiph: pipe2: Too many open files\n"
	if !strings.HasSuffix(stderr, want) {
		t.Errorf("stderr does not end with\n%s\ngot:\n%s", want, stderr)
	}
}

// TestFaultFailsJaiphTest: in `jaiph test` a run that hit a system error
// fails its test, though the step's own status is 0 (`wait` ignores the
// background job's failure).
func TestFaultFailsJaiphTest(t *testing.T) {
	dir := workspace(t, map[string]string{"flow.jh": `
workflow default {
  for i in $(seq 200); do
    exec {fd}>/dev/null || break
  done
  sleep 0 &
  wait
}
`, "flow.test.jh": `
import "flow.jh" as flow

test "runs" {
  out = flow.default
}
`})
	code, stdout, stderr := runUnderFileLimit(t, dir, 64, "test", "flow.test.jh")
	if code != 1 || !strings.Contains(stdout+stderr, "system errors; the first: ") {
		t.Errorf("exit %d, want 1 and the fault summary; stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}

// TestDroppedDescriptorsAreClosed: a body that opens and drops descriptors
// in a loop, each in a way bash's process closes at once (a subshell's end,
// `exec N>&-`, one here-document on a descriptor replacing another), runs
// 500 times under 64 descriptors. Files left open until Go's collector ran
// ended such a run with "Too many open files" where bash went on.
func TestDroppedDescriptorsAreClosed(t *testing.T) {
	for _, step := range []string{
		`( exec {fd}>f2 )`,
		`x=$(exec {fd}>f2)`,
		`( echo x {fd}>f2 )`,
		`( for j in $(seq 100); do exec 3>f2; exec 3>&-; done )`,
		`( for j in $(seq 100); do exec {fd}>f2; exec {fd}>&-; done )`,
		`exec 4<<< x; exec 4<&-`,
		`exec 4<<< x`,
		`exec {fd}<<< x; exec {fd}<&-`,
		`exec 3>f2 3>f1`,
	} {
		t.Run(step, func(t *testing.T) {
			dir := workspace(t, map[string]string{"flow.jh": fmt.Sprintf(`
workflow default {
  for i in $(seq 500); do
    %s
  done
  echo done
}
`, step)})
			code, _, stderr := runUnderFileLimit(t, dir, 64, "run", "flow.jh")
			if code != 0 {
				t.Errorf("exit %d, want 0:\n%s", code, tailOf(stderr))
			}
		})
	}
}
