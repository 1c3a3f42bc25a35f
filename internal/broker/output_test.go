package broker_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/jaiph-go/jaiph/internal/event"
)

// markers prints "marker 1" … "marker N", each once the test allowed it
// (the file goI it creates), then waits until the test says finish: the
// test decides when each line is printed and when the step ends.
const markers = `channel jobs

workflow work {
  for i in 1 2 3 4 5 6; do
    echo "marker $i"
    until [ -f "go$i" ]; do sleep 0.02; done
  done
  until [ -f finish ]; do sleep 0.05; done
  echo "done $1" >> done.txt
}

workflow default {
  jobs <- echo "m1"
  jobs -> work
}
`

// TestWorkerKilledKeepsLastOutput: what a step printed right before its
// worker was killed with SIGKILL is in the lost attempt's record, not
// only what it had printed by the attempt's last heartbeat. The step
// prints a line, the test waits until the line is in the run directory
// (the orchestrator's view), lets the step print the next, six times,
// then kills the worker: the lost attempt's out_file ends with the sixth.
//
// With a 5 s lease heartbeats come every 1.67 s (a third of the lease
// and of the consumer's AckWait); output forwarded only with them needs a
// heartbeat for each line (the next line is printed after the one before
// reached the run), at least five between the first line's arrival and
// the sixth's. The ledger record's revision counts them: forwarded as it
// is written, the six lines need far fewer.
func TestWorkerKilledKeepsLastOutput(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, markers)
	a := startWorker(t, srv.url(), "a", dir, 1)
	r := startRun(t, srv.url(), dir, "flow.jh", []string{"JAIPH_INBOX_LEASE=5s"})
	a.log.wait(t, "claimed message 001")
	js := jsClient(t, srv.url())
	shown := func(line string) func() bool {
		return func() bool {
			outs, _ := filepath.Glob(filepath.Join(dir, ".jaiph", "runs", "*", "*", "*.out"))
			for _, o := range outs {
				if b, _ := os.ReadFile(o); strings.Contains(string(b), line+"\n") {
					return true
				}
			}
			return false
		}
	}
	var first uint64
	for i := 1; i <= 6; i++ {
		waitFor(t, fmt.Sprintf("the run shows marker %d", i), shown(fmt.Sprintf("marker %d", i)))
		if i == 1 {
			first = beats(t, js)
		}
		if i < 6 {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("go%d", i)), nil, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	n := beats(t, js) - first
	t.Logf("%d heartbeats while five lines went from the step to the run", n)
	if n >= 5 {
		t.Errorf("%d heartbeats while five lines went from the step to the run: output waits for heartbeats", n)
	}
	_ = syscall.Kill(-a.cmd.Process.Pid, syscall.SIGKILL)
	for _, f := range []string{"go6", "finish"} {
		if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	startWorker(t, srv.url(), "b", dir, 1)
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, r.stdout.String(), r.stderr.String())
	}
	var lost *event.Event
	for _, e := range summary(t, newestRun(t, dir)) {
		if e.Type == event.StepEnd && e.Lost != "" && e.Name == "work" {
			lost = e
		}
	}
	if lost == nil || lost.Worker != "a" {
		t.Fatalf("no lost STEP_END of worker a's attempt at work: %+v", lost)
	}
	b, err := os.ReadFile(lost.OutFile)
	if err != nil || string(b) != "marker 1\nmarker 2\nmarker 3\nmarker 4\nmarker 5\nmarker 6\n" {
		t.Fatalf("the lost attempt's out_file %q holds %q (%v), want the six lines, the last printed right before the kill", lost.OutFile, b, err)
	}
}

// beats is the revision of the run's delivery d.001.0 in its ledger: it
// grows by one with each heartbeat of a running attempt.
func beats(t *testing.T, js jetstream.JetStream) uint64 {
	t.Helper()
	ctx := context.Background()
	for name := range js.KeyValueStoreNames(ctx).Name() {
		if !strings.HasPrefix(name, "JAIPH_") || strings.HasPrefix(name, "JAIPH_SERVE") {
			continue
		}
		kv, err := js.KeyValue(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		e, err := kv.Get(ctx, "d.001.0")
		if err != nil {
			t.Fatal(err)
		}
		return e.Revision()
	}
	t.Fatal("no run ledger on the broker")
	return 0
}
