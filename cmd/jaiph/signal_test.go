package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// signalFlow starts, in the background, a managed call whose program
// ignores SIGINT and SIGTERM, one that does not, and a grandchild behind a
// plain shell, then waits for them: every kind of process a signal must
// reach, and a step open when it arrives.
const signalFlow = `function coop {
  bash -c 'sleep 30 & wait'
}
function stubborn {
  bash -c 'trap "" TERM INT; sleep 30 & wait'
}
workflow default {
  run coop &
  run stubborn &
  bash -c 'sleep 300 & wait' &
  echo ready > ready
  wait
}
`

// signalLoops is how many random interleavings TestSignalLoop tries:
// JAIPH_STRESS_SIGNAL_LOOPS (make stress: 200), else 24.
func signalLoops(def int) int {
	if n, err := strconv.Atoi(os.Getenv("JAIPH_STRESS_SIGNAL_LOOPS")); err == nil && n > 0 {
		return n
	}
	return def
}

// TestSignalLoop sends SIGINT or SIGTERM at a random moment of a run (while
// it starts, while its steps start, or once every process runs), to jaiph's
// pid or, as Ctrl-C does, to its whole process group, and checks every
// time: the exit status is 128+signal, no process the run started is left,
// and every step and workflow the summary opened is closed.
func TestSignalLoop(t *testing.T) {
	loops := signalLoops(24)
	var mu sync.Mutex
	tally := map[string]int{}
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i := 0; i < loops; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			sig := []syscall.Signal{syscall.SIGINT, syscall.SIGTERM}[i%2]
			toGroup := i%4 < 2
			delay := time.Duration(rand.IntN(300)) * time.Millisecond
			if i%3 == 0 {
				delay = -1 // once the body said it is ready
			}
			what, err := signalOnce(t, sig, toGroup, delay, fmt.Sprintf("%d-%d", os.Getpid(), i))
			mu.Lock()
			defer mu.Unlock()
			tally[what]++
			if err != nil {
				t.Errorf("iteration %d (%v to %s, delay %v): %v", i, sig, map[bool]string{true: "group", false: "pid"}[toGroup], delay, err)
			}
		}()
	}
	wg.Wait()
	// The line make stress reports.
	t.Logf("signal loop: %d runs (%d signalled before any step, %d with steps open): wrong exit status %d, leaked processes %d, open steps %d",
		loops, tally["before any step"], tally["steps open"], tally["wrong exit status"], tally["leaked processes"], tally["open steps"])
}

// signalOnce runs signalFlow, signals it after delay (-1: after the ready
// file appears) and checks the aftermath. It returns the phase the signal
// hit ("before any step", "steps open").
func signalOnce(t *testing.T, sig syscall.Signal, toGroup bool, delay time.Duration, mark string) (string, error) {
	dir := workspace(t, map[string]string{"flow.jh": signalFlow})
	cmd := exec.Command(os.Args[0], "run", "flow.jh")
	cmd.Dir = dir
	cmd.Env = append(testEnv(dir), "JAIPH_SIGTEST_MARK="+mark)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true} // its own group, as a shell's job
	if err := cmd.Start(); err != nil {
		return "", err
	}
	if delay < 0 {
		deadline := time.Now().Add(20 * time.Second)
		for {
			if _, err := os.Stat(filepath.Join(dir, "ready")); err == nil {
				time.Sleep(50 * time.Millisecond) // the programs start
				break
			}
			if time.Now().After(deadline) {
				_ = cmd.Process.Kill()
				_ = cmd.Wait()
				return "", fmt.Errorf("never ready; stderr: %s", errb.String())
			}
			time.Sleep(5 * time.Millisecond)
		}
	} else {
		time.Sleep(delay)
	}
	target := cmd.Process.Pid
	if toGroup {
		target = -target
	}
	if err := syscall.Kill(target, sig); err != nil {
		return "", err
	}
	waitErr := cmd.Wait()
	status := 0
	var ee *exec.ExitError
	switch {
	case waitErr == nil:
	case errors.As(waitErr, &ee):
		status = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			// The signal came before jaiph could handle it: a shell
			// reports the same 128+signal.
			status = 128 + int(ws.Signal())
		}
	default:
		return "", waitErr
	}
	if want := 128 + int(sig); status != want {
		return "wrong exit status", fmt.Errorf("exit status %d, want %d\nstdout:\n%s\nstderr:\n%s", status, want, out.String(), errb.String())
	}
	if left := processesMarked(mark); len(left) > 0 {
		for _, p := range left {
			_ = syscall.Kill(p, syscall.SIGKILL)
		}
		return "leaked processes", fmt.Errorf("processes left running: %v", left)
	}
	return summaryClosed(dir)
}

// testEnv is the environment runProcess gives the binary.
func testEnv(dir string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "JAIPH_") && !strings.HasPrefix(kv, "NO_COLOR=") {
			env = append(env, kv)
		}
	}
	return append(env, "JAIPH_TEST_AS_JAIPH=1", "NO_COLOR=1", "HOME="+dir)
}

// sleepsMarked counts the live `sleep` processes marked with mark (see
// processesMarked).
func sleepsMarked(mark string) int {
	n := 0
	for _, pid := range processesMarked(mark) {
		if comm, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/comm"); err == nil && string(comm) == "sleep\n" {
			n++
		}
	}
	return n
}

// processesMarked lists the live (not zombie) processes whose environment
// holds JAIPH_SIGTEST_MARK=mark: everything the run started inherits it.
func processesMarked(mark string) []int {
	entries, _ := os.ReadDir("/proc")
	want := []byte("JAIPH_SIGTEST_MARK=" + mark + "\x00")
	var pids []int
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
		if err != nil || !bytes.Contains(env, want) {
			continue
		}
		stat, _ := os.ReadFile("/proc/" + e.Name() + "/stat")
		if i := bytes.LastIndexByte(stat, ')'); i > 0 && bytes.HasPrefix(bytes.TrimSpace(stat[i+1:]), []byte("Z")) {
			continue
		}
		pids = append(pids, pid)
	}
	return pids
}

// summaryClosed checks that every line of the run's summary is JSON and
// every opened step and workflow is closed.
func summaryClosed(dir string) (string, error) {
	runs, _ := filepath.Glob(filepath.Join(dir, ".jaiph", "runs", "*", "*", "run_summary.jsonl"))
	if len(runs) == 0 {
		return "before any step", nil
	}
	f, err := os.Open(runs[0])
	if err != nil {
		return "", err
	}
	defer f.Close()
	open := map[string]bool{}
	workflows := 0
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var e struct {
			Type string `json:"type"`
			ID   string `json:"id"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return "open steps", fmt.Errorf("summary line %q is not JSON: %v", sc.Text(), err)
		}
		switch e.Type {
		case "STEP_START":
			open[e.ID] = true
		case "STEP_END":
			delete(open, e.ID)
		case "WORKFLOW_START":
			workflows++
		case "WORKFLOW_END":
			workflows--
		}
	}
	if len(open) > 0 || workflows != 0 {
		return "open steps", fmt.Errorf("summary leaves %d steps and %d workflows open", len(open), workflows)
	}
	return "steps open", nil
}

// TestKillNineLoop kills jaiph with SIGKILL once its programs run and checks
// that none of them outlives it by more than the grace period: the run's
// keeper (internal/exec/procgroup) ends the group. JAIPH_STRESS_SIGNAL_LOOPS
// scales it up too.
func TestKillNineLoop(t *testing.T) {
	loops := max(4, signalLoops(4)/2)
	var leaked atomic.Int32
	var wg sync.WaitGroup
	sem := make(chan struct{}, 4)
	for i := 0; i < loops; i++ {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer func() { <-sem; wg.Done() }()
			mark := fmt.Sprintf("k%d-%d", os.Getpid(), i)
			dir := workspace(t, map[string]string{"flow.jh": signalFlow})
			cmd := exec.Command(os.Args[0], "run", "flow.jh")
			cmd.Dir = dir
			cmd.Env = append(testEnv(dir), "JAIPH_SIGTEST_MARK="+mark)
			if err := cmd.Start(); err != nil {
				t.Error(err)
				return
			}
			// Once its three sleeps run (the body's `ready` comes before its
			// background jobs have started them: on a loaded machine 150 ms
			// later they sometimes had not, and the test saw nothing).
			for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(5 * time.Millisecond) {
				if sleepsMarked(mark) >= 3 || time.Now().After(deadline) {
					break
				}
			}
			time.Sleep(time.Duration(rand.IntN(100)) * time.Millisecond)
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			if len(processesMarked(mark)) == 0 {
				t.Errorf("iteration %d: no process of the run found right after kill -9 (the test sees nothing)", i)
			}
			// The keeper sends SIGTERM, then SIGKILL 2 s later.
			deadline := time.Now().Add(4 * time.Second)
			for len(processesMarked(mark)) > 0 && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			if left := processesMarked(mark); len(left) > 0 {
				for _, p := range left {
					_ = syscall.Kill(p, syscall.SIGKILL)
				}
				t.Errorf("iteration %d: processes alive 4 s after kill -9 of jaiph: %v", i, left)
				leaked.Add(1)
			}
		}()
	}
	wg.Wait()
	t.Logf("kill -9 loop: %d runs: runs leaving processes alive 4 s later %d", loops, leaked.Load())
}
