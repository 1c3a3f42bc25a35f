package broker_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/runtime"
)

// holding delivers m1 and m2 to work, which holds each until the test
// creates release_<message>.
const holding = `channel jobs

workflow work {
  echo "working on $1"
  echo "$1" >> started.txt
  until [ -f "release_$1" ]; do sleep 0.05; done
  echo "$1" >> done.txt
}

workflow default {
  jobs <- echo "m1"
  jobs <- echo "m2"
  jobs -> work
}
`

// TestOrchestratorKilledAttemptsEnd: the orchestrating run is killed with
// SIGKILL while two deliveries are in flight on two workers; jaiph resume
// ends what the killed attempt left open (every step and delivery, as
// interrupted) and shows both attempts again: one completes on its
// worker after the resume, the other's worker is killed after the resume
// and that attempt ends as lost. In every attempt of the run (between
// RUN_RESUMED events) every start has its end, in the summary and in the
// resumed run's tree.
func TestOrchestratorKilledAttemptsEnd(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, holding)
	env := []string{"JAIPH_INBOX_LEASE=1s"}
	a := startWorker(t, srv.url(), "a", dir, 1, env...)
	b := startWorker(t, srv.url(), "b", dir, 1, env...)
	r := startRun(t, srv.url(), dir, "flow.jh", env)
	// Both attempts running, and shown by the run (their steps started).
	waitFor(t, "both deliveries' steps shown by the run", func() bool {
		return strings.Count(r.stdout.String(), "▸ workflow work") == 2
	})
	// What they printed reached the run (their parts).
	for _, m := range []string{"m1", "m2"} {
		waitFor(t, "the run has what the step on "+m+" printed", func() bool {
			outs, _ := filepath.Glob(filepath.Join(dir, ".jaiph", "runs", "*", "*", "*.out"))
			for _, o := range outs {
				if b, _ := os.ReadFile(o); strings.Contains(string(b), "working on "+m) {
					return true
				}
			}
			return false
		})
	}
	_ = r.cmd.Process.Kill()
	r.wait(t)
	runDir := newestRun(t, dir)
	// Which worker holds which message.
	keep, lose, kept, lost := a, b, "a", "b"
	if strings.Contains(b.log.text(), "claimed message 001") {
		keep, lose, kept, lost = b, a, "b", "a"
	}

	resume := exec.Command(jaiphFull, "resume", "--inbox", srv.url(), runDir)
	resume.Dir = dir
	resume.Env = append(os.Environ(), env...)
	var out lockedBuffer
	resume.Stdout, resume.Stderr = &out, &out
	if err := resume.Start(); err != nil {
		t.Fatal(err)
	}
	var resumeErr error
	done := make(chan struct{})
	go func() { resumeErr = resume.Wait(); close(done) }()
	t.Cleanup(func() { _ = resume.Process.Kill(); <-done })
	// The resumed run shows both attempts again.
	waitFor(t, "the resumed run shows both attempts", func() bool {
		return strings.Count(out.String(), "▸ workflow work") == 2
	})
	_ = syscall.Kill(-lose.cmd.Process.Pid, syscall.SIGKILL)
	<-lose.exited
	for _, f := range []string{"release_m1", "release_m2"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := startWorker(t, srv.url(), "c", dir, 1, env...)
	select {
	case <-done:
		if resumeErr != nil {
			t.Fatalf("jaiph resume: %v\n%s", resumeErr, out.String())
		}
	case <-time.After(deadline):
		t.Fatalf("jaiph resume did not end:\n%s\nworker %s:\n%s\nworker c:\n%s", out.String(), kept, keep.log.text(), c.log.text())
	}
	if got := strings.Join(lines(t, filepath.Join(dir, "done.txt")), "\n"); got != "m1\nm2" {
		t.Fatalf("done.txt: %q, want each message once", got)
	}
	tree := out.String()
	if !regexp.MustCompile(`(?m)✗ workflow work \(\d+s\) lost: worker ` + lost + ` stopped renewing its lease`).MatchString(tree) {
		t.Errorf("the resumed tree does not end the attempt of worker %s as lost:\n%s", lost, tree)
	}
	if n := strings.Count(tree, "✓ workflow work"); n != 2 {
		t.Errorf("the resumed tree shows %d workflow work passing, want 2 (%s's attempt and c's retry):\n%s", n, kept, tree)
	}

	// Every attempt of the run ends within it.
	segment, interrupted := 0, 0
	steps, deliveries := map[string]int{}, map[string]int{}
	var lostEnd *event.Event
	check := func() {
		for id, n := range steps {
			if n != 0 {
				t.Errorf("attempt %d of the run: step %s has %d starts without an end", segment, id, n)
			}
		}
		for d, n := range deliveries {
			if n != 0 {
				t.Errorf("attempt %d of the run: delivery %s has %d starts without an end", segment, d, n)
			}
		}
		steps, deliveries = map[string]int{}, map[string]int{}
	}
	for _, e := range summary(t, runDir) {
		switch e.Type {
		case event.RunResumed:
			check()
			segment++
		case event.StepStart:
			steps[e.ID]++
		case event.StepEnd:
			steps[e.ID]--
			if steps[e.ID] < 0 {
				t.Errorf("attempt %d of the run: STEP_END of %s (%s) without its start", segment, e.ID, e.Func)
				steps[e.ID] = 0
			}
		case event.DispatchStart:
			deliveries[e.InboxSeq]++
		case event.DispatchFinish:
			deliveries[e.InboxSeq]--
			if deliveries[e.InboxSeq] < 0 {
				t.Errorf("attempt %d of the run: INBOX_DISPATCH_COMPLETE of %s without its start", segment, e.InboxSeq)
				deliveries[e.InboxSeq] = 0
			}
		}
		if e.Lost == runtime.InterruptedWhy {
			if segment != 0 || *e.Status != 137 {
				t.Errorf("an end as interrupted in attempt %d of the run, status %d", segment, *e.Status)
			}
			interrupted++
			if e.Type == event.StepEnd && e.Name == "work" {
				if b, err := os.ReadFile(e.OutFile); err != nil || !strings.Contains(string(b), "working on m") {
					t.Errorf("the interrupted step's out_file %q holds %q (%v), want what reached the run", e.OutFile, b, err)
				}
			}
		}
		if e.Type == event.StepEnd && segment == 1 && strings.HasPrefix(e.Lost, "worker "+lost) {
			lostEnd = e
		}
	}
	check()
	if segment != 1 {
		t.Fatalf("%d RUN_RESUMED, want 1", segment)
	}
	// The killed attempt: the orchestrator's step, the two deliveries and
	// their two steps.
	if interrupted != 5 {
		t.Errorf("resume ended %d steps and deliveries as interrupted, want 5", interrupted)
	}
	if lostEnd == nil || lostEnd.Name != "work" || lostEnd.Worker != lost {
		t.Errorf("no lost STEP_END of worker %s's attempt after the resume: %+v", lost, lostEnd)
	} else if b, err := os.ReadFile(lostEnd.OutFile); err != nil || !strings.Contains(string(b), "working on") {
		t.Errorf("the lost attempt's out_file %q holds %q (%v)", lostEnd.OutFile, b, err)
	}
}
