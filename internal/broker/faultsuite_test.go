package broker_test

// The standing fault-injection suite (issue 32), Jepsen-style: a real
// three-process cluster (jaiph broker nodes, R3 streams), real workers and
// a real orchestrator, a sink target whose every effect is counted, and a
// fault injected at a random moment of the drain. Each trial checks that
// every message had its effect, that repeats are only deliveries in flight
// at the fault, that the run ends within a bound (never a hang), and that
// the streams keep their replica count.
//
// `make test` runs one short trial of each kind with a fixed seed;
// `make stress` runs JAIPH_STRESS_FAULT_TRIALS trials of each kind with
// JAIPH_STRESS_FAULT_MESSAGES messages (docs/distributed.md records them).

import (
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jaiph-go/jaiph/internal/event"
)

// sink counts effects: each delivery appends its message, delivery id and
// attempt (one short O_APPEND write, atomic on a local file system).
const sink = `channel jobs

config {
  run.inbox_max_dispatch_depth = 1000000
}

workflow sink {
  printf '%s %s %s\n' "$1" "$JAIPH_DELIVERY_ID" "$JAIPH_ATTEMPT" >> sink.txt
}

workflow default {
  i=0
  while [ "$i" -lt "$1" ]; do
    i=$((i + 1))
    jobs <- echo "m$i"
  done
  jobs -> sink
}
`

// faultKinds are the faults a trial injects, one kind at a time; "mixed"
// injects two of the others at once.
var faultKinds = []string{"worker-kill", "worker-stop", "worker-term", "orchestrator-kill", "node-kill", "node-stop", "two-leases", "mixed"}

func TestFaultTrials(t *testing.T) {
	trials := sizeFromEnv("JAIPH_STRESS_FAULT_TRIALS", 1)
	n := sizeFromEnv("JAIPH_STRESS_FAULT_MESSAGES", 60)
	seed := int64(sizeFromEnv("JAIPH_FAULT_SEED", 1))
	kinds := faultKinds
	if k := os.Getenv("JAIPH_FAULT_KINDS"); k != "" {
		kinds = strings.Split(k, ",")
	}
	c := startProcCluster(t, "jaiph")
	for _, kind := range kinds {
		for i := range trials {
			rng := rand.New(rand.NewSource(seed*1000 + int64(i)*31 + int64(len(kind))))
			t.Run(fmt.Sprintf("%s/%d", kind, i), func(t *testing.T) {
				start := time.Now()
				res := faultTrial(t, c, kind, n, rng)
				t.Logf("fault %s trial %d: %d messages, %d effects (%d repeats, %d in flight at the faults), %s",
					kind, i, n, res.effects, res.effects-n, res.inFlight, time.Since(start).Round(10*time.Millisecond))
			})
		}
	}
}

type trialResult struct{ effects, inFlight int }

// faultTrial runs one drain of n messages through three workers (two slots
// each) on c, injecting kind at a random moment.
func faultTrial(t *testing.T, c *procCluster, kind string, n int, rng *rand.Rand) trialResult {
	dir := workspace(t, sink)
	sinkFile := filepath.Join(dir, "sink.txt")
	env := []string{"JAIPH_INBOX_REPLICAS=3", "JAIPH_INBOX_LEASE=3s"}
	var workers []*worker
	for i := range 3 {
		workers = append(workers, startWorkerWith(t, c.url(), fmt.Sprintf("w%d", i), dir,
			[]string{"--concurrency", "2", "--shutdown-timeout", "0"}, env))
	}
	r := startRun(t, c.url(), dir, "flow.jh", env, strconv.Itoa(n))
	var other *run
	otherDir := ""
	// The fault comes after a random share of the effects (10–70 %).
	at := n/10 + rng.Intn(max(n*6/10, 1))
	waitLines(t, sinkFile, at, r)
	inFlight := 0
	slots := 6 // deliveries a worker set can hold at once
	inject := func(kind string) {
		switch kind {
		case "worker-kill":
			w := workers[rng.Intn(len(workers))]
			_ = syscall.Kill(-w.cmd.Process.Pid, syscall.SIGKILL)
			inFlight += 2
			workers = append(workers, startWorkerWith(t, c.url(), fmt.Sprintf("w%d", len(workers)), dir,
				[]string{"--concurrency", "2"}, env))
		case "worker-stop":
			w := workers[rng.Intn(len(workers))]
			_ = syscall.Kill(w.cmd.Process.Pid, syscall.SIGSTOP)
			inFlight += 2
			// Up to 2.5 leases: often past the takeover, then fenced.
			time.Sleep(time.Duration(1000+rng.Intn(4000)) * time.Millisecond)
			_ = syscall.Kill(w.cmd.Process.Pid, syscall.SIGCONT)
		case "worker-term":
			w := workers[rng.Intn(len(workers))]
			_ = w.cmd.Process.Signal(syscall.SIGTERM)
			workers = append(workers, startWorkerWith(t, c.url(), fmt.Sprintf("w%d", len(workers)), dir,
				[]string{"--concurrency", "2"}, env))
		case "orchestrator-kill":
			_ = r.cmd.Process.Kill()
			<-r.done
			resume := exec.Command(jaiphFull, "resume", "--inbox", c.url(), newestRun(t, dir))
			resume.Dir = dir
			r = &run{cmd: resume, done: make(chan struct{})}
			resume.Stdout, resume.Stderr = &r.stdout, &r.stderr
			if err := resume.Start(); err != nil {
				t.Fatal(err)
			}
			rr := r
			go func() { _ = rr.cmd.Wait(); rr.code = rr.cmd.ProcessState.ExitCode(); close(rr.done) }()
			t.Cleanup(func() { _ = rr.cmd.Process.Kill(); <-rr.done })
		case "node-kill":
			i := rng.Intn(3)
			c.kill9(i)
			inFlight += slots
			time.Sleep(time.Duration(rng.Intn(3000)) * time.Millisecond)
			c.restart(i)
		case "node-stop":
			i := rng.Intn(3)
			c.stop(i)
			inFlight += slots
			time.Sleep(time.Duration(1000+rng.Intn(4000)) * time.Millisecond)
			c.cont(i)
		case "two-leases":
			// Another run with a short lease, on the same workers (whose
			// --dir is dir: its effects land in dir/sink2.txt).
			otherDir = workspace(t, strings.Replace(sink, "sink.txt", "sink2.txt", 1))
			other = startRun(t, c.url(), otherDir, "flow.jh", []string{"JAIPH_INBOX_REPLICAS=3", "JAIPH_INBOX_LEASE=1s"}, "20")
		}
	}
	if kind == "mixed" {
		simple := faultKinds[:len(faultKinds)-1]
		a, b := simple[rng.Intn(len(simple))], simple[rng.Intn(len(simple))]
		t.Logf("mixed: %s and %s", a, b)
		inject(a)
		if a == "orchestrator-kill" && b == "orchestrator-kill" {
			b = "worker-kill"
		}
		inject(b)
	} else {
		inject(kind)
	}
	// The bound: the run ends (never a hang) within the test deadline. A
	// hang is shown whole: the orchestrator's goroutines (SIGQUIT), where
	// each delivery is, the workers' and nodes' logs.
	select {
	case <-r.done:
	case <-time.After(deadline):
		_ = r.cmd.Process.Signal(syscall.SIGQUIT)
		<-r.done
		ib, _ := exec.Command(jaiphFull, "inbox", newestRun(t, dir)).CombinedOutput()
		var open []string
		for _, l := range strings.Split(string(ib), "\n") {
			if !strings.Contains(l, "delivered") {
				open = append(open, l)
			}
		}
		t.Fatalf("the run did not end within %s\nundelivered (jaiph inbox):\n%s\nstderr (goroutines):\n%s\nworkers:\n%s\nnodes:\n%s",
			deadline, tail(strings.Join(open, "\n"), 40), r.stderr.String(), workerLogs(workers), tail(c.logs(), 60))
	}
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s\nworkers:\n%s\nnodes:\n%s", code, r.stdout.String(), r.stderr.String(),
			workerLogs(workers), tail(c.logs(), 40))
	}
	if other != nil {
		if code := other.wait(t); code != 0 {
			t.Fatalf("the short-lease run: exit %d\nstderr:\n%s", code, other.stderr.String())
		}
		checkEffects(t, filepath.Join(dir, "sink2.txt"), 20, 0)
	}
	// No event is dropped: every delivery's step ended in the run's
	// summary, not counting the ends the run wrote for attempts lost with
	// their worker (an attempt in flight at a fault may show twice), and
	// every step that started ended.
	ends, open := 0, map[string]int{}
	for _, e := range summary(t, newestRun(t, dir)) {
		switch e.Type {
		case event.StepStart:
			open[e.ID]++
		case event.StepEnd:
			open[e.ID]--
			if e.Func == "flow::sink" && e.Lost == "" {
				ends++
			}
		}
	}
	if ends < n {
		t.Fatalf("the summary has %d STEP_END of flow::sink for %d messages: events were dropped", ends, n)
	}
	// A killed orchestrator's attempt too: resume ended its open steps
	// as interrupted, and showed again those that went on.
	for id, o := range open {
		if o > 0 {
			t.Fatalf("step %s started and never ended in the run's summary", id)
		}
	}
	effects := checkEffects(t, sinkFile, n, inFlight)
	checkReplicas(t, c.url(), "JAIPH_WORK", 3)
	return trialResult{effects: effects, inFlight: inFlight}
}

// checkEffects fails unless every message m1…mn had its effect, and at
// most inFlight effects repeat (the deliveries in flight at the faults).
func checkEffects(t *testing.T, path string, n, inFlight int) int {
	t.Helper()
	got := lines(t, path)
	seen := map[string]int{}
	for _, l := range got {
		seen[strings.Fields(l)[0]]++
	}
	for i := 1; i <= n; i++ {
		if seen[fmt.Sprintf("m%d", i)] == 0 {
			t.Fatalf("m%d had no effect (%d effects for %d messages)", i, len(got), n)
		}
	}
	if extra := len(got) - n; extra > inFlight {
		var repeated []string
		for m, k := range seen {
			if k > 1 {
				repeated = append(repeated, fmt.Sprintf("%s×%d", m, k))
			}
		}
		t.Fatalf("%d repeated effects (%s); at most the %d in flight at the faults may repeat", extra, strings.Join(repeated, " "), inFlight)
	}
	return len(got)
}
