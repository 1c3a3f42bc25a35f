package broker_test

// The broker's answers to the faults an operator found on a real cluster
// (issue 32): a stopping worker loses nothing, one run's lease never
// changes another's, a delivery whose work message vanished is queued
// again by the orchestrator's watchdog, shared streams never lose
// replicas, targets learn their delivery's id and attempt, and a worker
// that cannot write its directory says so at start.

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/jaiph-go/jaiph/internal/event"
)

// TestGracefulStop: SIGTERM stops a worker from claiming and lets the
// delivery it holds finish; a second SIGTERM hands a held delivery back to
// the queue, where another worker takes it. Nothing is lost, nothing but
// the handed-back attempt repeats.
func TestGracefulStop(t *testing.T) {
	t.Run("finish", func(t *testing.T) {
		srv := startServer(t)
		dir := workspace(t, slowFlow("2"))
		a := startWorker(t, srv.url(), "a", dir, 1)
		r := startRun(t, srv.url(), dir, "flow.jh", nil)
		waitLine(t, filepath.Join(dir, "done.txt"), "start m1")
		// jaiph inbox says where the delivery is.
		for stop := time.Now().Add(deadline); ; time.Sleep(20 * time.Millisecond) {
			ib := inbox(t, newestRun(t, dir))
			if len(ib.Messages) == 1 && len(ib.Messages[0].Targets) == 1 {
				if d := ib.Messages[0].Targets[0]; d.State == "delivering" && d.Worker == "a" && d.Since != "" {
					break
				}
			}
			if time.Now().After(stop) {
				t.Fatalf("jaiph inbox never showed the delivery on worker a: %+v", ib)
			}
		}
		_ = a.cmd.Process.Signal(syscall.SIGTERM)
		a.log.wait(t, "stopping: claiming nothing more")
		a.log.wait(t, "delivered message 001")
		a.log.wait(t, "worker a: stopped")
		<-a.exited
		if code := a.cmd.ProcessState.ExitCode(); code != 0 {
			t.Fatalf("the stopped worker exited %d, want 0\n%s", code, a.log.text())
		}
		// The report message the delivery sent waits for a worker.
		startWorker(t, srv.url(), "b", dir, 1)
		if code := r.wait(t); code != 0 {
			t.Fatalf("exit %d\nstderr:\n%s", code, r.stderr.String())
		}
		if got := strings.Join(lines(t, filepath.Join(dir, "done.txt")), "\n"); got != "end m1\nstart m1" {
			t.Fatalf("done.txt:\n%s\nwant the held delivery once, finished", got)
		}
	})
	t.Run("hand back", func(t *testing.T) {
		srv := startServer(t)
		dir := workspace(t, strings.Replace(slow, `sleep "$2"`, `[ -f fast ] || sleep 60`, 1))
		a := startWorker(t, srv.url(), "a", dir, 1)
		r := startRun(t, srv.url(), dir, "flow.jh", nil)
		waitLine(t, filepath.Join(dir, "done.txt"), "start m1")
		_ = a.cmd.Process.Signal(syscall.SIGTERM)
		a.log.wait(t, "stopping: claiming nothing more")
		_ = a.cmd.Process.Signal(syscall.SIGTERM)
		a.log.wait(t, "handed back message 001")
		<-a.exited
		// The second attempt need not sleep.
		if err := os.WriteFile(filepath.Join(dir, "fast"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		b := startWorker(t, srv.url(), "b", dir, 1)
		b.log.wait(t, "claimed message 001 to flow::work (attempt 2)")
		if code := r.wait(t); code != 0 {
			t.Fatalf("exit %d\nstderr:\n%s", code, r.stderr.String())
		}
		if got := strings.Join(lines(t, filepath.Join(dir, "done.txt")), "\n"); got != "end m1\nstart m1\nstart m1" {
			t.Fatalf("done.txt:\n%s\nwant the handed-back attempt's start, then one whole delivery", got)
		}
		if rv := strings.Join(lines(t, filepath.Join(dir, "reviews.txt")), "\n"); rv != "review report m1" {
			t.Fatalf("reviews.txt: %q, want the report once", rv)
		}
		// The handed-back attempt ended, as handed back, and every step
		// that started ended.
		open, handedBack := map[string]int{}, 0
		var finished []string // each INBOX_DISPATCH_COMPLETE's worker and reason, for the failure
		for _, e := range summary(t, newestRun(t, dir)) {
			switch e.Type {
			case event.StepStart:
				open[e.ID]++
			case event.StepEnd:
				open[e.ID]--
			case event.DispatchFinish:
				finished = append(finished, e.Worker+": "+e.Lost)
				// The same whether or not the orchestrator saw the
				// record before b claimed it (a busy machine).
				if e.Worker == "a" && e.Lost == "worker a handed it back as it stopped" {
					handedBack++
				}
			}
		}
		for id, n := range open {
			if n != 0 {
				t.Errorf("step %s: %d starts without an end", id, n)
			}
		}
		if handedBack != 1 {
			t.Errorf("%d INBOX_DISPATCH_COMPLETE of worker a's attempt lost as handed back, want 1; all (worker: lost): %q", handedBack, finished)
		}
	})
}

// TestLeasePerRun: run A (lease 30 s, a delivery of 4 s) is in flight when
// run B starts with a 1 s lease: A's delivery runs once. (When the lease
// was the shared consumer's AckWait, B's start made A's in-flight delivery
// expire and run again.)
func TestLeasePerRun(t *testing.T) {
	srv := startServer(t)
	dirA := workspace(t, slowFlow("4"))
	dirB := workspace(t, oneJob("  echo \"ran $1\" >> b.txt\n"))
	startWorker(t, srv.url(), "a1", dirA, 1)
	startWorker(t, srv.url(), "a2", dirA, 1)
	startWorker(t, srv.url(), "b", dirB, 1)
	ra := startRun(t, srv.url(), dirA, "flow.jh", []string{"JAIPH_INBOX_LEASE=30s"})
	waitLine(t, filepath.Join(dirA, "done.txt"), "start m1")
	rb := startRun(t, srv.url(), dirB, "flow.jh", []string{"JAIPH_INBOX_LEASE=1s"})
	if code := rb.wait(t); code != 0 {
		t.Fatalf("run B: exit %d\nstderr:\n%s", code, rb.stderr.String())
	}
	if code := ra.wait(t); code != 0 {
		t.Fatalf("run A: exit %d\nstderr:\n%s", code, ra.stderr.String())
	}
	if got := strings.Join(lines(t, filepath.Join(dirA, "done.txt")), "\n"); got != "end m1\nstart m1" {
		t.Fatalf("run A's done.txt:\n%s\nwant its delivery once", got)
	}
}

// TestWatchdog: a delivery whose work message vanished from the broker
// (deleted by hand here; a terminated message or a lost publish in the
// field) is queued again by the orchestrator, and delivered once.
func TestWatchdog(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, single)
	r := startRun(t, srv.url(), dir, "flow.jh", []string{"JAIPH_INBOX_LEASE=1s"})
	js := jsClient(t, srv.url())
	deleteWorkMessage(t, js, nil)
	waitRunText(t, dir, "message 001 to flow::work was queued with no work message on the broker; queued again")
	startWorker(t, srv.url(), "a", dir, 1)
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", code, r.stderr.String())
	}
	if got := strings.Join(lines(t, filepath.Join(dir, "done.txt")), "\n"); got != "ran m1" {
		t.Fatalf("done.txt: %q, want the delivery once", got)
	}
}

// jsClient is a JetStream client of the broker at url, closed with t.
func jsClient(t *testing.T, url string) jetstream.JetStream {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	return js
}

// deleteWorkMessage waits for the first work message on the broker and
// deletes it, after calling before (if not nil) with its subject
// (jaiph.work.<run>.<key>): what before does happens while the message
// is still there for the run's watchdog to see.
func deleteWorkMessage(t *testing.T, js jetstream.JetStream, before func(subject string)) {
	t.Helper()
	ctx := context.Background()
	for stop := time.Now().Add(deadline); ; {
		if st, err := js.Stream(ctx, "JAIPH_WORK"); err == nil {
			if m, err := st.GetMsg(ctx, 1); err == nil {
				if before != nil {
					before(m.Subject)
				}
				if err := st.DeleteMsg(ctx, m.Sequence); err != nil {
					t.Fatal(err)
				}
				return
			}
		}
		if time.Now().After(stop) {
			t.Fatal("the run queued no work message")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestWatchdogLostRecord: a claimed delivery whose ledger record and work
// message are both gone (a replica that came back without the record; a
// worker that dead-lettered the message after looking for the record ten
// times) while its worker stalls is recorded and queued again by the
// orchestrator, and delivered once by another worker; the stalled one,
// when it continues, is fenced. (A delivery that was never claimed has
// no record to lose: TestWatchdog.)
func TestWatchdogLostRecord(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, slowFlow("2"))
	a := startWorker(t, srv.url(), "a", dir, 1)
	r := startRun(t, srv.url(), dir, "flow.jh", []string{"JAIPH_INBOX_LEASE=1s"})
	js := jsClient(t, srv.url())
	ctx := context.Background()
	a.log.wait(t, "claimed message 001")
	_ = syscall.Kill(a.cmd.Process.Pid, syscall.SIGSTOP)
	deleteWorkMessage(t, js, func(subject string) {
		// The run has shown the attempt (from the claim or the
		// attempt's events): it knows the delivery was claimed, whether
		// or not its watch saw the record before it went.
		waitRunFile(t, dir, "run_summary.jsonl", `"type":"INBOX_DISPATCH_START"`)
		// jaiph.work.<run>.<key>, the key itself dotted (d.001.0)
		run, key, _ := strings.Cut(strings.TrimPrefix(subject, "jaiph.work."), ".")
		kv, err := js.KeyValue(ctx, "JAIPH_"+run)
		if err != nil {
			t.Fatal(err)
		}
		if err := kv.Purge(ctx, key); err != nil {
			t.Fatal(err)
		}
	})
	waitRunText(t, dir, "message 001 to flow::work had no ledger record on the broker; recorded and queued again")
	b := startWorker(t, srv.url(), "b", dir, 1)
	b.log.wait(t, "delivered message 001")
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", code, r.stderr.String())
	}
	_ = syscall.Kill(a.cmd.Process.Pid, syscall.SIGCONT)
	a.log.wait(t, "lost the claim")
	if rv := strings.Join(lines(t, filepath.Join(dir, "reviews.txt")), "\n"); rv != "review report m1" {
		t.Fatalf("reviews.txt: %q, want the report once", rv)
	}
}

// TestStalledWorkerTakenOver: a worker stopped (SIGSTOP) in the middle of
// a delivery, with no other worker waiting on JetStream's redelivery: the
// orchestrator's watchdog sees the claim's heartbeats stop and queues the
// delivery again; another worker delivers it; the stalled worker, when it
// continues, is fenced.
func TestStalledWorkerTakenOver(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, slowFlow("2"))
	a := startWorker(t, srv.url(), "a", dir, 1)
	r := startRun(t, srv.url(), dir, "flow.jh", []string{"JAIPH_INBOX_LEASE=1s"})
	a.log.wait(t, "claimed message 001")
	_ = syscall.Kill(a.cmd.Process.Pid, syscall.SIGSTOP)
	waitRunText(t, dir, "message 001 to flow::work: worker a stopped renewing its lease; queued again")
	b := startWorker(t, srv.url(), "b", dir, 1)
	b.log.wait(t, "delivered message 001")
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", code, r.stderr.String())
	}
	_ = syscall.Kill(a.cmd.Process.Pid, syscall.SIGCONT)
	a.log.wait(t, "lost the claim")
	if rv := strings.Join(lines(t, filepath.Join(dir, "reviews.txt")), "\n"); rv != "review report m1" {
		t.Fatalf("reviews.txt: %q, want the report once", rv)
	}
}

// TestDeliveryEnv: a target sees its delivery's id (the same for every
// attempt) and its attempt number.
func TestDeliveryEnv(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, `channel jobs

config {
  run.inbox_retries = 1
  run.inbox_retry_backoff = "10ms"
}

workflow work {
  echo "$JAIPH_DELIVERY_ID $JAIPH_ATTEMPT" >> ids.txt
  [ "$JAIPH_ATTEMPT" = 2 ]
}

workflow default {
  jobs <- echo "m1"
  jobs -> work
}
`)
	startWorker(t, srv.url(), "a", dir, 1)
	r := startRun(t, srv.url(), dir, "flow.jh", nil)
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", code, r.stderr.String())
	}
	got := lines(t, filepath.Join(dir, "ids.txt"))
	if len(got) != 2 || !strings.HasSuffix(got[0], ".d.001.0 1") || !strings.HasSuffix(got[1], ".d.001.0 2") ||
		strings.TrimSuffix(got[0], " 1") != strings.TrimSuffix(got[1], " 2") {
		t.Fatalf("ids.txt: %q, want one delivery id with attempts 1 and 2", got)
	}
}

// TestWorkerDirUnwritable: a worker whose --dir it cannot write fails at
// start with the reason, not at every delivery.
func TestWorkerDirUnwritable(t *testing.T) {
	srv := startServer(t)
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(jaiphFull, "worker", "--inbox", srv.url(), "--dir", filepath.Join(file, "sub")).CombinedOutput()
	if code := exitCode(err); code != 1 || !strings.Contains(string(out), "the worker cannot write there") {
		t.Fatalf("exit %d:\n%s\nwant exit 1 saying the directory is not writable", code, out)
	}
}

func exitCode(err error) int {
	if ee, ok := err.(*exec.ExitError); ok {
		return ee.ExitCode()
	}
	if err != nil {
		return -1
	}
	return 0
}

// TestReplicasNeverShrink: on a three-node cluster, a worker and a run
// that ask for no replicas leave the shared R3 streams at R3.
func TestReplicasNeverShrink(t *testing.T) {
	c := startCluster(t)
	dir := workspace(t, single)
	startWorker(t, c.url(), "a", dir, 1, "JAIPH_INBOX_REPLICAS=3")
	checkReplicas(t, c.urls[0], "JAIPH_WORK", 3)
	first := startRun(t, c.url(), dir, "flow.jh", []string{"JAIPH_INBOX_REPLICAS=3"})
	if code := first.wait(t); code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", code, first.stderr.String())
	}
	checkReplicas(t, c.urls[0], "OBJ_JAIPH_SRC", 3)
	startWorker(t, c.url(), "b", dir, 1)
	r := startRun(t, c.url(), dir, "flow.jh", nil)
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", code, r.stderr.String())
	}
	checkReplicas(t, c.urls[0], "JAIPH_WORK", 3)
	checkReplicas(t, c.urls[0], "JAIPH_DLQ", 3)
	checkReplicas(t, c.urls[0], "OBJ_JAIPH_SRC", 3)
}

// waitRunText waits until a file of the workspace's newest run directory
// has s: what the drain says goes to the orchestrating step's stderr
// artifact, as the file inbox's messages do.
func waitRunText(t *testing.T, dir, s string) {
	t.Helper()
	waitRunFile(t, dir, "*.err", s)
}

// waitRunFile waits until a file of a run in dir whose name matches glob
// contains s.
func waitRunFile(t *testing.T, dir, glob, s string) {
	t.Helper()
	stop := time.Now().Add(deadline)
	for {
		runs, _ := filepath.Glob(filepath.Join(dir, ".jaiph", "runs", "*", "*", glob))
		for _, f := range runs {
			if b, err := os.ReadFile(f); err == nil && strings.Contains(string(b), s) {
				return
			}
		}
		if time.Now().After(stop) {
			t.Fatalf("no run artifact has %q", s)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestConnectWaitsForCluster: a worker and a run that reach a node whose
// cluster has no JetStream leader yet (a node back before its peers, a
// cluster starting) wait for one, rather than failing on the first 503.
func TestConnectWaitsForCluster(t *testing.T) {
	opts := clusterOptions(t)
	c := &cluster{t: t}
	c.startNode(opts[0]) // alone: no quorum, no meta leader
	apiErrors := func() int64 {
		v, err := c.servers[0].Varz(nil)
		if err != nil || v.JetStream.Stats == nil {
			return 0
		}
		return int64(v.JetStream.Stats.API.Errors)
	}
	nc, err := nats.Connect(c.urls[0])
	if err != nil {
		t.Fatal(err)
	}
	js, _ := jetstream.New(nc)
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	_, err = js.AccountInfo(ctx)
	cancel()
	nc.Close()
	if err == nil {
		t.Fatal("a lone node of a three-node cluster answered JetStream requests")
	}
	before := apiErrors()
	dir := workspace(t, single)
	w := launchWorker(t, nil, c.urls[0], "a", dir, []string{"--concurrency", "1"}, nil)
	r := startRun(t, c.urls[0], dir, "flow.jh", nil)
	// Both asked more than once (the answers counted as API errors by
	// the node): each is waiting, not failed.
	for stop := time.Now().Add(deadline); apiErrors() < before+4; {
		if time.Now().After(stop) {
			t.Fatalf("the node counted %d JetStream API errors since the probe, want 4 (two tries each)\nrun stderr:\n%s\nworker:\n%s",
				apiErrors()-before, r.stderr.String(), w.log.text())
		}
		time.Sleep(20 * time.Millisecond)
	}
	c.startNode(opts[1])
	c.startNode(opts[2])
	w.log.wait(t, "serving")
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s\nworker:\n%s", code, r.stderr.String(), w.log.text())
	}
	if got := strings.Join(lines(t, filepath.Join(dir, "done.txt")), "\n"); got != "ran m1" {
		t.Fatalf("done.txt: %q, want the delivery once", got)
	}
}
