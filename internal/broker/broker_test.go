package broker_test

// End-to-end tests of the broker inbox: a real JetStream server in this
// process (broker.Serve on a loopback port), the real jaiph-full binary as
// the orchestrating run and as `jaiph worker` subprocesses. Nothing here
// asserts a duration: waits are for events (a log line, an exit) with a
// generous deadline whose expiry is a failure.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/jaiph-go/jaiph/internal/broker"
	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/sandbox"
	"github.com/jaiph-go/jaiph/internal/sandbox/sandboxtest"
)

var jaiphFull string // the binary under test

var (
	defaultOnce sync.Once
	defaultPath string
	defaultErr  error
)

// defaultJaiph is the default build (no broker linked in), built on first
// use beside jaiphFull, where it looks for jaiph-full to hand runs on a
// broker to.
func defaultJaiph(t *testing.T) string {
	t.Helper()
	defaultOnce.Do(func() {
		defaultPath = filepath.Join(filepath.Dir(jaiphFull), "jaiph")
		out, err := exec.Command("go", "build", "-o", defaultPath, "github.com/jaiph-go/jaiph/cmd/jaiph").CombinedOutput()
		if err != nil {
			defaultErr = fmt.Errorf("building jaiph: %v\n%s", err, out)
		}
	})
	if defaultErr != nil {
		t.Fatal(defaultErr)
	}
	return defaultPath
}

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "jaiph-broker-test-")
	if err != nil {
		panic(err)
	}
	jaiphFull = filepath.Join(dir, "jaiph-full")
	// Static (no cgo), as the Docker sandbox mounts it into containers.
	build := exec.Command("go", "build", "-tags", "full", "-o", jaiphFull, "github.com/jaiph-go/jaiph/cmd/jaiph")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	out, err := build.CombinedOutput()
	if err != nil {
		fmt.Fprintf(os.Stderr, "building jaiph-full: %v\n%s", err, out)
		os.Exit(1)
	}
	os.Setenv("TMPDIR", dir) // killed runs leave their jaiph-rv-* behind
	// The runs' keys (internal/store/chain), never in the real home.
	os.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	os.Unsetenv("JAIPH_KEY_DIR")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// deadline bounds every wait; reaching it fails the test.
const deadline = 120 * time.Second

// sizeFromEnv reads a size that `make stress` raises.
func sizeFromEnv(name string, def int) int {
	if n, err := strconv.Atoi(os.Getenv(name)); err == nil && n > 0 {
		return n
	}
	return def
}

// testServer is an embedded broker that a test can restart on its store.
type testServer struct {
	t     testing.TB
	store string
	addr  string
	s     *server.Server
}

func startServer(t *testing.T) *testServer {
	t.Helper()
	ts := &testServer{t: t, store: t.TempDir(), addr: "127.0.0.1:0"}
	ts.start()
	t.Cleanup(ts.stop)
	return ts
}

func (ts *testServer) start() {
	s, err := broker.Serve(broker.ServerOptions{Listen: ts.addr, StoreDir: ts.store})
	if err != nil {
		ts.t.Fatalf("broker: %v", err)
	}
	ts.s = s
	ts.addr = strings.TrimPrefix(s.ClientURL(), "nats://") // the port it picked, for a restart
}

func (ts *testServer) stop() {
	if ts.s != nil {
		ts.s.Shutdown()
		ts.s.WaitForShutdown()
		ts.s = nil
	}
}

func (ts *testServer) url() string { return "nats://" + ts.addr }

// logWatcher keeps a process's stderr lines and lets a test wait for one.
type logWatcher struct {
	mu    sync.Mutex
	cond  *sync.Cond
	lines []string
	done  bool
}

func newLogWatcher() *logWatcher {
	w := &logWatcher{}
	w.cond = sync.NewCond(&w.mu)
	return w
}

func (w *logWatcher) read(r *bufio.Scanner) {
	for r.Scan() {
		w.mu.Lock()
		w.lines = append(w.lines, time.Now().Format("05.000")+" "+r.Text())
		w.cond.Broadcast()
		w.mu.Unlock()
	}
	w.mu.Lock()
	w.done = true
	w.cond.Broadcast()
	w.mu.Unlock()
}

// wait returns the first line containing s, failing the test at the deadline.
func (w *logWatcher) wait(t *testing.T, s string) string {
	t.Helper()
	timer := time.AfterFunc(deadline, func() {
		w.mu.Lock()
		w.done = true
		w.cond.Broadcast()
		w.mu.Unlock()
	})
	defer timer.Stop()
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := 0; ; i++ {
		for ; i < len(w.lines); i++ {
			if strings.Contains(w.lines[i], s) {
				return w.lines[i]
			}
		}
		if w.done {
			t.Fatalf("no line with %q; got:\n%s", s, strings.Join(w.lines, "\n"))
		}
		w.cond.Wait()
		i--
	}
}

func (w *logWatcher) text() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return strings.Join(w.lines, "\n")
}

// worker is a `jaiph worker` subprocess.
type worker struct {
	cmd    *exec.Cmd
	log    *logWatcher
	exited chan struct{} // closed when the process has been waited for
}

func startWorker(t *testing.T, url, name, dir string, concurrency int, env ...string) *worker {
	t.Helper()
	return startWorkerWith(t, url, name, dir, []string{"--concurrency", strconv.Itoa(concurrency)}, env)
}

// startWorkerWith starts a worker with more flags.
func startWorkerWith(t *testing.T, url, name, dir string, flags, env []string) *worker {
	t.Helper()
	return startWorkerCmd(t, nil, url, name, dir, flags, env)
}

// startWorkerCmd starts a worker behind a command prefix (e.g. `ip netns
// exec NS`), nil for none.
func startWorkerCmd(t *testing.T, prefix []string, url, name, dir string, flags, env []string) *worker {
	t.Helper()
	w := launchWorker(t, prefix, url, name, dir, flags, env)
	w.log.wait(t, "serving")
	return w
}

// launchWorker starts a worker process and returns before it serves.
func launchWorker(t *testing.T, prefix []string, url, name, dir string, flags, env []string) *worker {
	t.Helper()
	argv := append(append(append([]string(nil), prefix...), jaiphFull, "worker", "--inbox", url, "--name", name, "--dir", dir), flags...)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w := &worker{cmd: cmd, log: newLogWatcher(), exited: make(chan struct{})}
	read := make(chan struct{})
	go func() { w.log.read(bufio.NewScanner(stderr)); close(read) }()
	go func() { <-read; _ = cmd.Wait(); close(w.exited) }()
	t.Cleanup(func() {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGCONT)
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
		<-w.exited
	})
	return w
}

// run is an orchestrating `jaiph run --inbox` subprocess.
type run struct {
	cmd    *exec.Cmd
	stdout lockedBuffer
	stderr lockedBuffer
	done   chan struct{}
	code   int
}

// lockedBuffer is a buffer a process writes while a test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func startRun(t *testing.T, url, dir, file string, env []string, args ...string) *run {
	t.Helper()
	r := &run{done: make(chan struct{})}
	r.cmd = exec.Command(jaiphFull, append([]string{"run", "--inbox", url, file}, args...)...)
	r.cmd.Dir = dir
	r.cmd.Env = append(os.Environ(), env...)
	r.cmd.Stdout, r.cmd.Stderr = &r.stdout, &r.stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		_ = r.cmd.Wait()
		r.code = r.cmd.ProcessState.ExitCode()
		close(r.done)
	}()
	t.Cleanup(func() { _ = r.cmd.Process.Kill(); <-r.done })
	return r
}

func (r *run) wait(t *testing.T) int {
	t.Helper()
	select {
	case <-r.done:
		return r.code
	case <-time.After(deadline):
		t.Fatalf("the run did not end; stdout:\n%s\nstderr:\n%s", r.stdout.String(), r.stderr.String())
	}
	return -1
}

// workspace writes a workflow file into a fresh workspace.
func workspace(t *testing.T, src string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "flow.jh"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// lines returns a file's lines, sorted.
func lines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	l := strings.Split(strings.TrimSpace(string(b)), "\n")
	sort.Strings(l)
	return l
}

// newestRun is the run directory of the workspace's newest run.
func newestRun(t *testing.T, dir string) string {
	t.Helper()
	runs, _ := filepath.Glob(filepath.Join(dir, ".jaiph", "runs", "*", "*"))
	if len(runs) == 0 {
		t.Fatal("no run directory")
	}
	sort.Strings(runs)
	return runs[len(runs)-1]
}

// summary parses every line of the run's run_summary.jsonl.
func summary(t *testing.T, runDir string) []*event.Event {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(runDir, "run_summary.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	var out []*event.Event
	for i, l := range bytes.Split(bytes.TrimSpace(b), []byte("\n")) {
		e, err := event.Parse(l)
		if err != nil {
			t.Fatalf("run_summary.jsonl line %d: %v", i+1, err)
		}
		out = append(out, e)
	}
	return out
}

// inboxJSON is `jaiph inbox --json` of a run.
type inboxJSON struct {
	Messages []struct {
		Seq     string `json:"seq"`
		State   string `json:"state"`
		Targets []struct {
			Target   string `json:"target"`
			State    string `json:"state"`
			Attempts int    `json:"attempts"`
			Worker   string `json:"worker"`
			Since    string `json:"since"`
		} `json:"targets"`
	} `json:"messages"`
}

func inbox(t *testing.T, runDir string) inboxJSON {
	t.Helper()
	out, err := exec.Command(jaiphFull, "inbox", runDir, "--json").Output()
	if err != nil {
		t.Fatalf("jaiph inbox: %v", err)
	}
	var ib inboxJSON
	if err := json.Unmarshal(out, &ib); err != nil {
		t.Fatalf("jaiph inbox --json: %v\n%s", err, out)
	}
	return ib
}

const fanOut = `channel jobs

config {
  run.inbox_max_dispatch_depth = 1000000
}

workflow left {
  echo "left $1"
  echo "left $1" >> done.txt
}

workflow right {
  echo "right $1" >> done.txt
}

workflow default {
  i=0
  while [ "$i" -lt "$1" ]; do
    i=$((i + 1))
    jobs <- echo "m$i"
  done
  jobs -> left, right
}
`

// TestManyWorkers: three workers, every message delivered to both targets
// exactly once, the summary valid, the artifacts in the run directory and
// `jaiph inbox` in agreement.
func TestManyWorkers(t *testing.T) {
	n := sizeFromEnv("JAIPH_STRESS_BROKER_MESSAGES", 100)
	srv := startServer(t)
	dir := workspace(t, fanOut)
	for i := 1; i <= 3; i++ {
		startWorker(t, srv.url(), fmt.Sprintf("w%d", i), dir, 2)
	}
	r := startRun(t, srv.url(), dir, "flow.jh", nil, strconv.Itoa(n))
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, r.stdout.String(), r.stderr.String())
	}
	var want []string
	for i := 1; i <= n; i++ {
		want = append(want, fmt.Sprintf("left m%d", i), fmt.Sprintf("right m%d", i))
	}
	sort.Strings(want)
	if got := lines(t, filepath.Join(dir, "done.txt")); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("deliveries: got %d lines, want %d (each message to each target once)", len(got), len(want))
	}
	runDir := newestRun(t, dir)
	events := summary(t, runDir)
	starts, ends, outs := 0, 0, 0
	for _, e := range events {
		switch e.Type {
		case event.DispatchStart:
			if !strings.HasPrefix(e.Worker, "w") {
				t.Fatalf("INBOX_DISPATCH_START names no worker: %+v", e)
			}
			starts++
		case event.DispatchFinish:
			ends++
		case event.StepEnd:
			if e.Func == "flow::left" {
				if e.OutFile == "" {
					t.Fatalf("left's STEP_END names no artifact: %+v", e)
				}
				b, err := os.ReadFile(e.OutFile)
				if err != nil || !strings.HasPrefix(string(b), "left m") {
					t.Fatalf("artifact %s: %q, %v", e.OutFile, b, err)
				}
				outs++
			}
		}
	}
	if starts != 2*n || ends != 2*n || outs != n {
		t.Fatalf("summary: %d dispatch starts, %d completions, %d left artifacts; want %d, %d, %d", starts, ends, outs, 2*n, 2*n, n)
	}
	checkDispatchOrder(t, events)
	if names := streams(t, srv.url()); strings.Join(names, " ") != "JAIPH_DLQ JAIPH_WORK OBJ_JAIPH_SRC" {
		t.Fatalf("streams left on the broker after the run passed: %v (its ledger and events should be gone)", names)
	}
	if !regexp.MustCompile(`▸ workflow left \(1="m1", 2="jobs", 3="default"\) on w[123]\n`).MatchString(r.stdout.String()) {
		t.Fatalf("the progress tree does not show which worker ran m1:\n%s", r.stdout.String())
	}
	runsCmd := exec.Command(jaiphFull, "runs", "--json")
	runsCmd.Dir = dir
	if out, err := runsCmd.Output(); err != nil || !strings.Contains(string(out), `"status": "passed"`) {
		t.Fatalf("jaiph runs --json: %v\n%s", err, out)
	}
	ib := inbox(t, runDir)
	if len(ib.Messages) != n {
		t.Fatalf("jaiph inbox lists %d messages, want %d", len(ib.Messages), n)
	}
	for _, m := range ib.Messages {
		if m.State != "delivered" || len(m.Targets) != 2 {
			t.Fatalf("jaiph inbox: message %s is %s with %d targets", m.Seq, m.State, len(m.Targets))
		}
	}
}

const slow = `channel jobs
channel report

workflow work {
  echo "start $1" >> done.txt
  sleep "$2"
  report <- echo "report $1"
  echo "end $1" >> done.txt
}

workflow reviewer {
  echo "review $1" >> reviews.txt
}

workflow default {
  jobs <- echo "m1"
  jobs -> work
  report -> reviewer
}
`

// slowFlow is slow with work sleeping for the given seconds.
func slowFlow(seconds string) string {
	return strings.Replace(slow, `sleep "$2"`, `sleep `+seconds, 1)
}

// TestWorkerKilled: a worker is killed with SIGKILL in the middle of a
// delivery; after its lease the delivery completes on the other worker,
// once, and the only repeat is the delivery that was in flight. The
// killed attempt ends: in the summary every step start has its end, the
// lost attempt's steps and delivery end as lost naming the worker, the
// tree shows it, and what it logged before it died is kept.
func TestWorkerKilled(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, strings.Replace(slowFlow("3"), `echo "start $1" >> done.txt`, `echo "start $1" >> done.txt
  log "working on $1"
  echo "partial $1"`, 1))
	env := []string{"JAIPH_INBOX_LEASE=1s"}
	a := startWorker(t, srv.url(), "a", dir, 1)
	r := startRun(t, srv.url(), dir, "flow.jh", env)
	a.log.wait(t, "claimed message 001")
	waitLine(t, filepath.Join(dir, "done.txt"), "start m1")
	waitFor(t, "the run shows the attempt's log", func() bool { return strings.Contains(r.stdout.String(), "working on m1") })
	// What the step printed so far reaches the run with the heartbeats.
	waitFor(t, "the run has the running step's output", func() bool {
		outs, _ := filepath.Glob(filepath.Join(dir, ".jaiph", "runs", "*", "*", "*.out"))
		for _, o := range outs {
			if b, _ := os.ReadFile(o); strings.Contains(string(b), "partial m1") {
				return true
			}
		}
		return false
	})
	_ = syscall.Kill(-a.cmd.Process.Pid, syscall.SIGKILL)
	b := startWorker(t, srv.url(), "b", dir, 1)
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, r.stdout.String(), r.stderr.String())
	}
	b.log.wait(t, "delivered message 001")
	got := strings.Join(lines(t, filepath.Join(dir, "done.txt")), "\n")
	if got != "end m1\nstart m1\nstart m1" {
		t.Fatalf("done.txt:\n%s\nwant one end and two starts (the killed attempt's and the retry's)", got)
	}
	if rv := strings.Join(lines(t, filepath.Join(dir, "reviews.txt")), "\n"); rv != "review report m1" {
		t.Fatalf("reviews.txt: %q, want the report once", rv)
	}
	out := r.stdout.String()
	if !regexp.MustCompile(`(?m)✗ workflow work \(\d+s\) lost: worker a stopped renewing its lease`).MatchString(out) {
		t.Fatalf("the tree does not end the killed attempt as lost:\n%s", out)
	}
	open := map[string]int{}
	var lostStep, lostDelivery *event.Event
	logs := 0
	for _, e := range summary(t, newestRun(t, dir)) {
		switch {
		case e.Type == event.StepStart:
			open[e.ID]++
		case e.Type == event.StepEnd:
			open[e.ID]--
			if e.Lost != "" {
				lostStep = e
			}
		case e.Type == event.DispatchFinish && e.Lost != "":
			lostDelivery = e
		case e.Type == event.Log && e.Message == "working on m1":
			logs++
		}
	}
	for id, n := range open {
		if n != 0 {
			t.Errorf("step %s: %d starts without an end in run_summary.jsonl", id, n)
		}
	}
	if lostStep == nil || lostStep.Name != "work" || lostStep.Worker != "a" || *lostStep.Status == 0 ||
		!strings.HasPrefix(lostStep.Lost, "worker a stopped renewing its lease") {
		t.Errorf("no STEP_END of the killed attempt's workflow work, lost with worker a: %+v", lostStep)
	} else if b, err := os.ReadFile(lostStep.OutFile); err != nil || !strings.HasSuffix(string(b), "partial m1\n") {
		t.Errorf("the lost attempt's out_file %q holds %q (%v), want what it printed before it died", lostStep.OutFile, b, err)
	}
	if lostDelivery == nil || lostDelivery.Worker != "a" || lostDelivery.InboxSeq != "001" {
		t.Errorf("no INBOX_DISPATCH_COMPLETE of the killed attempt, lost with worker a: %+v", lostDelivery)
	}
	if logs != 2 {
		t.Errorf("the summary has %d logs \"working on m1\", want 2 (the killed attempt's is kept)", logs)
	}
}

// TestFencing: a worker stopped (SIGSTOP) past its lease loses the
// delivery to another worker; when it continues, its completion is
// rejected: its target's message is never sent and the delivery counts
// once.
func TestFencing(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, slowFlow("2"))
	env := []string{"JAIPH_INBOX_LEASE=1s"}
	a := startWorker(t, srv.url(), "a", dir, 1)
	r := startRun(t, srv.url(), dir, "flow.jh", env)
	a.log.wait(t, "claimed message 001")
	_ = syscall.Kill(a.cmd.Process.Pid, syscall.SIGSTOP) // the worker, not its target
	b := startWorker(t, srv.url(), "b", dir, 1)
	b.log.wait(t, "delivered message 001")
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, r.stdout.String(), r.stderr.String())
	}
	_ = syscall.Kill(a.cmd.Process.Pid, syscall.SIGCONT)
	a.log.wait(t, "lost the claim")
	if rv := strings.Join(lines(t, filepath.Join(dir, "reviews.txt")), "\n"); rv != "review report m1" {
		t.Fatalf("reviews.txt: %q, want the report once (the fenced worker's send must not count)", rv)
	}
	ib := inbox(t, newestRun(t, dir))
	if len(ib.Messages) != 2 {
		t.Fatalf("jaiph inbox lists %d messages, want 2", len(ib.Messages))
	}
	if strings.Contains(a.log.text(), "delivered message 001") {
		t.Fatalf("the fenced worker reported a delivery:\n%s", a.log.text())
	}
}

// waitFor polls cond until it holds (what: the state waited for).
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for stop := time.Now().Add(deadline); time.Now().Before(stop); time.Sleep(20 * time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatalf("never: %s", what)
}

// waitLine waits for a line with s in the file at path.
func waitLine(t *testing.T, path, s string) {
	t.Helper()
	stop := time.Now().Add(deadline)
	for time.Now().Before(stop) {
		if b, err := os.ReadFile(path); err == nil && strings.Contains(string(b), s) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("%s never got %q", path, s)
}

const flaky = `channel jobs

config {
  run.inbox_retries = 1
  run.inbox_retry_backoff = "10ms"
}

workflow work {
  case "$1" in
    m3|m7) [ -f fixed ] || { echo "cannot $1" >&2; exit 4; } ;;
  esac
  echo "done $1" >> done.txt
}

workflow default {
  for i in 1 2 3 4 5 6 7 8 9 10; do
    jobs <- echo "m$i"
  done
  jobs -> work
}
`

// TestDeadLetters: two of ten messages always fail: eight are delivered,
// two become dead letters after their retry while the rest flow, and
// jaiph redrive delivers them once after the target is fixed.
func TestDeadLetters(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, flaky)
	a := startWorker(t, srv.url(), "a", dir, 2)
	b := startWorker(t, srv.url(), "b", dir, 2)
	r := startRun(t, srv.url(), dir, "flow.jh", nil)
	if code := r.wait(t); code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, r.stdout.String(), r.stderr.String())
	}
	if got := len(lines(t, filepath.Join(dir, "done.txt"))); got != 8 {
		t.Fatalf("%d delivered, want 8", got)
	}
	runDir := newestRun(t, dir)
	dead := map[string]int{}
	for _, m := range inbox(t, runDir).Messages {
		if m.State == "dead" {
			dead[m.Seq] = m.Targets[0].Attempts
		}
	}
	if len(dead) != 2 || dead["003"] != 2 || dead["007"] != 2 {
		t.Fatalf("dead letters: %v, want 003 and 007 after 2 attempts each", dead)
	}
	if err := os.WriteFile(filepath.Join(dir, "fixed"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	// The run's broker URL is in its records: the default build hands the
	// redrive to jaiph-full beside it, which goes through the broker, and
	// a worker delivers each letter.
	redrive := exec.Command(defaultJaiph(t), "redrive", runDir)
	redrive.Dir = dir
	out, err := redrive.CombinedOutput()
	if err != nil {
		t.Fatalf("jaiph redrive: %v\n%s", err, out)
	}
	for _, want := range []string{"003 jobs -> flow::work: delivered (attempt 3)", "007 jobs -> flow::work: delivered (attempt 3)"} {
		if !strings.Contains(string(out), want) {
			t.Fatalf("jaiph redrive printed:\n%s\nwant a line %q", out, want)
		}
	}
	if !strings.Contains(a.log.text()+b.log.text(), "delivered message 003") {
		t.Fatalf("no worker delivered the redriven letter:\n%s\n%s", a.log.text(), b.log.text())
	}
	if got := len(lines(t, filepath.Join(dir, "done.txt"))); got != 10 {
		t.Fatalf("%d delivered after the redrive, want 10", got)
	}
	for _, m := range inbox(t, runDir).Messages {
		if m.State != "delivered" {
			t.Fatalf("after the redrive, jaiph inbox shows message %s %s", m.Seq, m.State)
		}
	}
}

// oneJob is a flow whose default workflow sends one message to work,
// whose body is given.
func oneJob(work string) string {
	return "channel jobs\n\nworkflow work {\n" + work + "}\n\nworkflow default {\n  jobs <- echo \"m1\"\n  jobs -> work\n}\n"
}

var crashing = oneJob("  sh -c 'kill -9 $PPID'\n")

// TestCrashLoop: a delivery whose worker always dies ends as a dead letter
// instead of looping forever.
func TestCrashLoop(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, crashing)
	r := startRun(t, srv.url(), dir, "flow.jh", []string{"JAIPH_INBOX_LEASE=500ms"})
	for i := 0; ; i++ {
		if i == 10 {
			t.Fatalf("still running after %d worker crashes", i)
		}
		w := startWorker(t, srv.url(), fmt.Sprintf("w%d", i), dir, 1)
		select {
		case <-r.done:
		case <-w.exited:
			continue // the target killed it: start another
		}
		break
	}
	if code := r.wait(t); code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, r.stdout.String(), r.stderr.String())
	}
	if !strings.Contains(r.stderr.String(), "lost its worker 3 times") {
		t.Fatalf("stderr does not say why:\n%s", r.stderr.String())
	}
}

// TestUnreachableBroker: one clear error and exit 1 before anything runs.
func TestUnreachableBroker(t *testing.T) {
	dir := workspace(t, fanOut)
	r := startRun(t, "nats://127.0.0.1:1", dir, "flow.jh", nil, "1")
	if code := r.wait(t); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if !strings.Contains(r.stderr.String(), "cannot reach the broker at nats://127.0.0.1:1") {
		t.Fatalf("stderr:\n%s", r.stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, ".jaiph", "runs")); err == nil {
		t.Fatal("a run directory was created: something ran")
	}
}

// TestBrokerWithoutJetStream: a NATS server without JetStream is refused
// at once, with the fix, not waited on as a cluster still electing.
func TestBrokerWithoutJetStream(t *testing.T) {
	s, err := server.NewServer(&server.Options{Host: "127.0.0.1", Port: server.RANDOM_PORT, NoLog: true, NoSigs: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	t.Cleanup(func() { s.Shutdown(); s.WaitForShutdown() })
	if !s.ReadyForConnections(20 * time.Second) {
		t.Fatal("the server did not start")
	}
	dir := workspace(t, fanOut)
	r := startRun(t, s.ClientURL(), dir, "flow.jh", nil, "1")
	if code := r.wait(t); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
	if want := "has no JetStream (start it with -js, or use `jaiph broker`)"; !strings.Contains(r.stderr.String(), want) {
		t.Fatalf("stderr:\n%s\nwant %q", r.stderr.String(), want)
	}
}

const steady = `channel jobs

config {
  run.inbox_max_dispatch_depth = 1000000
}

workflow work {
  sleep 0.02
  echo "done $1" >> done.txt
}

workflow default {
  i=0
  while [ "$i" -lt "$1" ]; do
    i=$((i + 1))
    jobs <- echo "m$i"
  done
  jobs -> work
}
`

// TestBrokerRestart: the broker stops in the middle of the drain and
// starts again on the same store; the run, the workers and the messages
// all survive it, and every delivery is made.
func TestBrokerRestart(t *testing.T) {
	n := sizeFromEnv("JAIPH_STRESS_BROKER_MESSAGES", 100)
	srv := startServer(t)
	dir := workspace(t, steady)
	w := startWorker(t, srv.url(), "a", dir, 2)
	r := startRun(t, srv.url(), dir, "flow.jh", nil, strconv.Itoa(n))
	w.log.wait(t, fmt.Sprintf("delivered message %03d", n/4))
	srv.stop()
	srv.start()
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s\nworker:\n%s", code, r.stdout.String(), r.stderr.String(), w.log.text())
	}
	// A delivery in flight at the restart may run again (its ack was lost
	// with the connection); no other repeats.
	checkDelivered(t, dir, n, 2)
	ib := inbox(t, newestRun(t, dir))
	if len(ib.Messages) != n {
		t.Fatalf("jaiph inbox lists %d messages, want %d", len(ib.Messages), n)
	}
}

// cluster is three in-process JetStream servers routed into one cluster.
type cluster struct {
	t       *testing.T
	servers []*server.Server
	urls    []string
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

func startCluster(t *testing.T) *cluster {
	t.Helper()
	c := &cluster{t: t}
	for _, o := range clusterOptions(t) {
		c.startNode(o)
	}
	c.waitMetaLeader()
	return c
}

// clusterOptions are three in-process nodes routed to each other.
func clusterOptions(t *testing.T) []*server.Options {
	ports := []int{freePort(t), freePort(t), freePort(t)}
	var routes []string
	for _, p := range ports {
		routes = append(routes, fmt.Sprintf("nats://127.0.0.1:%d", p))
	}
	var opts []*server.Options
	for i, p := range ports {
		opts = append(opts, &server.Options{ServerName: fmt.Sprintf("n%d", i), Host: "127.0.0.1", Port: server.RANDOM_PORT,
			JetStream: true, StoreDir: t.TempDir(), NoLog: true, NoSigs: true,
			Cluster: server.ClusterOpts{Name: "jaiph", Host: "127.0.0.1", Port: p},
			Routes:  server.RoutesFromStr(strings.Join(routes, ","))})
	}
	return opts
}

// startNode starts one node; t.Cleanup stops it.
func (c *cluster) startNode(o *server.Options) {
	t := c.t
	s, err := server.NewServer(o)
	if err != nil {
		t.Fatal(err)
	}
	s.Start()
	if !s.ReadyForConnections(20 * time.Second) {
		t.Fatalf("cluster node %s did not start", o.ServerName)
	}
	c.servers = append(c.servers, s)
	c.urls = append(c.urls, s.ClientURL())
	t.Cleanup(func() {
		s.Shutdown()
		s.WaitForShutdown()
	})
}

// waitMetaLeader returns once the cluster elected its JetStream meta
// leader: JetStream is usable from then on.
func (c *cluster) waitMetaLeader() {
	t := c.t
	stop := time.Now().Add(deadline)
	for !c.servers[0].JetStreamIsCurrent() || !hasMetaLeader(c.servers) {
		if time.Now().After(stop) {
			t.Fatal("the cluster elected no JetStream leader")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func hasMetaLeader(servers []*server.Server) bool {
	for _, s := range servers {
		if s.JetStreamIsLeader() {
			return true
		}
	}
	return false
}

func (c *cluster) url() string { return strings.Join(c.urls, ",") }

// TestClusterNodeLoss: a three-node cluster with R3 streams loses one node
// in the middle of the drain; nothing is lost.
func TestClusterNodeLoss(t *testing.T) {
	n := sizeFromEnv("JAIPH_STRESS_BROKER_MESSAGES", 100)
	c := startCluster(t)
	dir := workspace(t, steady)
	env := []string{"JAIPH_INBOX_REPLICAS=3"}
	w := startWorker(t, c.url(), "a", dir, 2, env...)
	r := startRun(t, c.url(), dir, "flow.jh", env, strconv.Itoa(n))
	w.log.wait(t, fmt.Sprintf("delivered message %03d", n/4))
	checkReplicas(t, c.urls[0], "JAIPH_WORK", 3)
	c.servers[2].Shutdown() // whichever it leads, the others take over
	c.servers[2].WaitForShutdown()
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s\nworker:\n%s", code, r.stdout.String(), r.stderr.String(), w.log.text())
	}
	checkDelivered(t, dir, n, 2)
}

// checkReplicas fails unless the stream has the replicas.
func checkReplicas(t *testing.T, url, stream string, want int) {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	st, err := js.Stream(context.Background(), stream)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.CachedInfo().Config.Replicas; got != want {
		t.Fatalf("stream %s has %d replicas, want %d", stream, got, want)
	}
}

const chain = `channel jobs
channel report

config {
  run.inbox_max_dispatch_depth = 1000000
}

workflow work {
  sleep 0.02
  echo "work $1" >> done.txt
  report <- echo "report $1"
}

workflow reviewer {
  echo "review $1" >> reviews.txt
}

workflow default {
  i=0
  while [ "$i" -lt "$1" ]; do
    i=$((i + 1))
    jobs <- echo "m$i"
  done
  jobs -> work
  report -> reviewer
}
`

// TestOrchestratorKilled: the orchestrating run is killed with SIGKILL in
// the middle of the drain; jaiph resume reattaches to the run's ledger and
// streams and finishes it, redoing nothing that completed.
func TestOrchestratorKilled(t *testing.T) {
	n := sizeFromEnv("JAIPH_STRESS_BROKER_MESSAGES", 100) / 2
	srv := startServer(t)
	dir := workspace(t, chain)
	w := startWorker(t, srv.url(), "a", dir, 2)
	r := startRun(t, srv.url(), dir, "flow.jh", nil, strconv.Itoa(n))
	w.log.wait(t, fmt.Sprintf("delivered message %03d", n/4))
	_ = r.cmd.Process.Kill()
	r.wait(t)
	runDir := newestRun(t, dir)
	resumeRun(t, srv.url(), dir, runDir, w)
	for _, f := range []string{"done.txt", "reviews.txt"} {
		got := lines(t, filepath.Join(dir, f))
		seen := map[string]int{}
		for _, l := range got {
			seen[l]++
		}
		if len(seen) != n {
			t.Fatalf("%s has %d distinct lines, want %d", f, len(seen), n)
		}
		// Deliveries ran once each; a kill cannot make a worker repeat one.
		for l, c := range seen {
			if c != 1 {
				t.Fatalf("%s: %q %d times", f, l, c)
			}
		}
	}
	starts := 0
	for _, e := range summary(t, runDir) {
		if e.Type == event.StepStart && e.Func == "flow::work" {
			starts++
		}
	}
	// More starts than deliveries: each attempt in flight at the kill has
	// its open step shown again in the resumed attempt (the worker's two
	// slots, docs/distributed.md), and a quick delivery whose events were
	// being shown as the run was killed shows them again.
	if starts < n || starts > n+3 {
		t.Fatalf("the summary shows %d work steps, want %d (three more at most: the two slots' attempts shown again, and the events shown as the run was killed)", starts, n)
	}
	ib := inbox(t, runDir)
	if len(ib.Messages) != 2*n {
		t.Fatalf("jaiph inbox lists %d messages, want %d", len(ib.Messages), 2*n)
	}
	for _, m := range ib.Messages {
		if m.State != "delivered" {
			t.Fatalf("jaiph inbox: message %s is %s", m.Seq, m.State)
		}
	}
}

const replaying = `channel jobs

workflow work {
  printf '%s\n' "$1" >> done.txt
}

workflow produce {
  jobs <- echo "m1"
}

workflow default {
  run produce
  if [ ! -f resumed ]; then
    touch ready
    sleep 20
  fi
  jobs -> work
}
`

// TestResumeReplayedSends: a managed call that sent a message completed
// before the orchestrator was killed; jaiph resume replays the call, so
// its message goes to the broker queue again (not to a file journal the
// broker run never opened), and the resumed drain waits for its delivery.
func TestResumeReplayedSends(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, replaying)
	r := startRun(t, srv.url(), dir, "flow.jh", nil)
	waitLine(t, filepath.Join(dir, "ready"), "")
	_ = r.cmd.Process.Kill()
	r.wait(t)
	if err := os.WriteFile(filepath.Join(dir, "resumed"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	w := startWorker(t, srv.url(), "a", dir, 1)
	runDir := newestRun(t, dir)
	// The default build, with no --inbox: the run's records name its
	// broker, so jaiph hands the resume to jaiph-full beside it.
	resume := exec.Command(defaultJaiph(t), "resume", runDir)
	resume.Dir = dir
	if out, err := resume.CombinedOutput(); err != nil {
		t.Fatalf("jaiph resume: %v\n%s\nworker:\n%s", err, out, w.log.text())
	}
	if got := lines(t, filepath.Join(dir, "done.txt")); len(got) != 1 || got[0] != "m1" {
		t.Fatalf("done.txt: %q, want the replayed call's message once", got)
	}
	ib := inbox(t, runDir)
	if len(ib.Messages) != 1 || ib.Messages[0].State != "delivered" {
		t.Fatalf("jaiph inbox: %+v, want message 001 delivered", ib.Messages)
	}
}

const echoing = `channel jobs

workflow work {
  printf '%s\n' "$1" >> got.txt
}

workflow default {
  jobs <- printf '%s' "$1"
  jobs <- printf '%s' "$2"
  jobs -> work
}
`

// resumeRun runs `jaiph resume --inbox url runDir` in dir and fails t
// (with worker w's log) when the resume fails.
func resumeRun(t *testing.T, url, dir, runDir string, w *worker) {
	t.Helper()
	resume := exec.Command(jaiphFull, "resume", "--inbox", url, runDir)
	resume.Dir = dir
	if out, err := resume.CombinedOutput(); err != nil {
		t.Fatalf("jaiph resume: %v\n%s\nworker:\n%s", err, out, w.log.text())
	}
}

// TestBadInput: a malformed work message is moved to the dead-letter
// stream with its reason and the worker goes on serving; hostile payloads
// reach the target as data on a worker, never as code.
func TestBadInput(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, echoing)
	w := startWorker(t, srv.url(), "a", dir, 1)
	js := jsClient(t, srv.url())
	ctx := context.Background()
	if _, err := js.Publish(ctx, "jaiph.work.garbage", []byte(`{"run": 42,`)); err != nil {
		t.Fatal(err)
	}
	w.log.wait(t, "rejected malformed delivery on jaiph.work.garbage")
	dlq, err := js.Stream(ctx, "JAIPH_DLQ")
	if err != nil {
		t.Fatal(err)
	}
	raw, err := dlq.GetLastMsgForSubject(ctx, "jaiph.dlq.garbage")
	if err != nil {
		t.Fatalf("the malformed message is not in JAIPH_DLQ: %v", err)
	}
	if string(raw.Data) != `{"run": 42,` || !strings.Contains(raw.Header.Get("Jaiph-Reason"), "malformed delivery") {
		t.Fatalf("JAIPH_DLQ holds %q with reason %q", raw.Data, raw.Header.Get("Jaiph-Reason"))
	}
	hostile := []string{`$(touch pwned1)`, "`touch pwned2`; touch pwned3 && echo ${IFS}x"}
	r := startRun(t, srv.url(), dir, "flow.jh", nil, hostile...)
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, r.stdout.String(), r.stderr.String())
	}
	got, _ := os.ReadFile(filepath.Join(dir, "got.txt"))
	if want := hostile[0] + "\n" + hostile[1] + "\n"; string(got) != want && string(got) != hostile[1]+"\n"+hostile[0]+"\n" {
		t.Fatalf("got.txt = %q, want the payloads verbatim", got)
	}
	for _, f := range []string{"pwned1", "pwned2", "pwned3"} {
		if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
			t.Fatalf("a payload ran as code: %s exists", f)
		}
	}
}

// streams lists the broker's streams, sorted.
func streams(t *testing.T, url string) []string {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	js, _ := jetstream.New(nc)
	var names []string
	l := js.StreamNames(context.Background())
	for n := range l.Name() {
		names = append(names, n)
	}
	if l.Err() != nil {
		t.Fatal(l.Err())
	}
	sort.Strings(names)
	return names
}

const single = `channel jobs

config {
  run.inbox_retries = 1
  run.inbox_retry_backoff = "10ms"
}

workflow work {
  echo "ran $1" >> done.txt
}

workflow default {
  jobs <- echo "m1"
  jobs -> work
}
`

// TestRefusals: a worker of another jaiph-go version leaves a delivery to
// a worker of the run's version (a rolling upgrade), and the run says what
// it waits for; a worker that finds sources whose hash is not the
// delivery's refuses it with the reason; it is retried, then a dead
// letter; nothing runs.
func TestRefusals(t *testing.T) {
	t.Run("version", func(t *testing.T) {
		other := filepath.Join(t.TempDir(), "jaiph-full")
		out, err := exec.Command("go", "build", "-tags", "full", "-ldflags",
			"-X github.com/jaiph-go/jaiph/internal/buildinfo.buildVersion=v0.0.0-other", "-o", other,
			"github.com/jaiph-go/jaiph/cmd/jaiph").CombinedOutput()
		if err != nil {
			t.Fatalf("%v\n%s", err, out)
		}
		srv := startServer(t)
		dir := workspace(t, single)
		old := jaiphFull
		jaiphFull = other
		w := startWorker(t, srv.url(), "old", dir, 1)
		jaiphFull = old
		r := startRun(t, srv.url(), dir, "flow.jh", nil)
		w.log.wait(t, "left message 001 to flow::work for another worker")
		waitRunText(t, dir, "message 001 to flow::work waits: worker old runs jaiph-go v0.0.0-other")
		if _, err := os.Stat(filepath.Join(dir, "done.txt")); err == nil {
			t.Fatal("the worker of another version ran the delivery")
		}
		startWorker(t, srv.url(), "new", dir, 1)
		if code := r.wait(t); code != 0 {
			t.Fatalf("exit %d, want 0 (a worker of the run's version took it)\nstderr:\n%s", code, r.stderr.String())
		}
		if got := strings.Join(lines(t, filepath.Join(dir, "done.txt")), "\n"); got != "ran m1" {
			t.Fatalf("done.txt: %q, want the delivery once", got)
		}
	})
	t.Run("sources", func(t *testing.T) {
		srv := startServer(t)
		dir := workspace(t, single)
		hash := broker.Sources{Entry: "flow.jh", Files: map[string][]byte{"flow.jh": []byte(single)}}.Hash()
		nc, err := nats.Connect(srv.url())
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		js, _ := jetstream.New(nc)
		ctx := context.Background()
		obs, err := js.CreateObjectStore(ctx, jetstream.ObjectStoreConfig{Bucket: "JAIPH_SRC"})
		if err != nil {
			t.Fatal(err)
		}
		tampered := strings.Replace(single, `echo "ran $1" >> done.txt`, `touch tampered`, 1)
		b, _ := json.Marshal(broker.Sources{Entry: "flow.jh", Files: map[string][]byte{"flow.jh": []byte(tampered)}})
		if _, err := obs.PutBytes(ctx, hash, b); err != nil {
			t.Fatal(err)
		}
		startWorker(t, srv.url(), "a", dir, 1)
		r := startRun(t, srv.url(), dir, "flow.jh", nil)
		if code := r.wait(t); code != 1 {
			t.Fatalf("exit %d, want 1\nstderr:\n%s", code, r.stderr.String())
		}
		if !strings.Contains(r.stderr.String(), "the sources' hash is") {
			t.Fatalf("stderr does not give the reason:\n%s", r.stderr.String())
		}
		for _, f := range []string{"done.txt", "tampered"} {
			if _, err := os.Stat(filepath.Join(dir, f)); err == nil {
				t.Fatalf("%s exists: something ran", f)
			}
		}
	})
}

// checkDelivered fails unless done.txt has "done mI" for every message
// 1…n, with at most inFlight repeats (the deliveries in flight at a fault).
func checkDelivered(t *testing.T, dir string, n, inFlight int) {
	t.Helper()
	got := lines(t, filepath.Join(dir, "done.txt"))
	seen := map[string]bool{}
	for _, l := range got {
		seen[l] = true
	}
	for i := 1; i <= n; i++ {
		if !seen[fmt.Sprintf("done m%d", i)] {
			t.Fatalf("message m%d was never delivered (%d lines)", i, len(got))
		}
	}
	if extra := len(got) - n; extra > inFlight {
		t.Fatalf("%d repeated deliveries; at most the %d in flight may repeat", extra, inFlight)
	}
}

var loud = oneJob(`  head -c 3000000 /dev/zero | tr '\0' x
  echo
  head -c 10 /dev/zero | tr '\0' y >&2
`)

// TestLargeArtifact: a remote step's 3 MB of output (past the broker's
// message size) arrives whole in the run directory.
func TestLargeArtifact(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, loud)
	startWorker(t, srv.url(), "a", dir, 1)
	r := startRun(t, srv.url(), dir, "flow.jh", nil)
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, r.stdout.String(), r.stderr.String())
	}
	for _, e := range summary(t, newestRun(t, dir)) {
		if e.Type == event.StepEnd && e.Func == "flow::work" {
			out, err := os.ReadFile(e.OutFile)
			if err != nil || len(out) != 3000001 || out[0] != 'x' {
				t.Fatalf("the .out artifact has %d bytes (%v), want 3000001", len(out), err)
			}
			errOut, err := os.ReadFile(e.ErrFile)
			if err != nil || string(errOut) != "yyyyyyyyyy" {
				t.Fatalf("the .err artifact is %q (%v)", errOut, err)
			}
			return
		}
	}
	t.Fatal("no STEP_END of work in the summary")
}

const boxed = `channel jobs
channel report

workflow work {
  if [ -x /jaiph/bin/jaiph ]; then where=container; else where=host; fi
  echo "work $1 in $where" >> done.txt
  report <- echo "report $1"
}

workflow reviewer {
  echo "review $1" >> reviews.txt
}

workflow default {
  for i in 1 2 3; do
    jobs <- echo "m$i"
  done
  jobs -> work
  report -> reviewer
}
`

// TestSandboxedWorker: jaiph worker --sandbox docker runs each delivery in
// a container (a real Docker Engine, the busybox test image); the
// deliveries, their sends, events and artifacts come back as from a host
// worker.
func TestSandboxedWorker(t *testing.T) {
	sandboxtest.Need(t)
	srv := startServer(t)
	dir := workspace(t, boxed)
	w := startWorkerWith(t, srv.url(), "boxed", dir, []string{"--concurrency", "2", "--sandbox", "docker"},
		[]string{"JAIPH_DOCKER_IMAGE=" + sandboxtest.Busybox, "JAIPH_DOCKER_NETWORK=none"})
	r := startRun(t, srv.url(), dir, "flow.jh", nil)
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, r.stdout.String(), r.stderr.String())
	}
	got := strings.Join(lines(t, filepath.Join(dir, "done.txt")), "\n")
	if got != "work m1 in container\nwork m2 in container\nwork m3 in container" {
		t.Fatalf("done.txt:\n%s\nwant every delivery once, in a container", got)
	}
	if rv := strings.Join(lines(t, filepath.Join(dir, "reviews.txt")), "\n"); rv != "review report m1\nreview report m2\nreview report m3" {
		t.Fatalf("reviews.txt: %q, want each report once", rv)
	}
	// This worker's containers only: other tests (cmd/jaiph's sandbox
	// tests) may run theirs on the same daemon at the same time.
	mine := fmt.Sprintf("label=%s=%d", sandbox.LabelHostPID, w.cmd.Process.Pid)
	if out, _ := exec.Command("docker", "ps", "-aq", "--filter", "label="+sandbox.LabelSandbox+"=1", "--filter", mine).Output(); strings.TrimSpace(string(out)) != "" {
		t.Fatalf("containers left behind: %s", out)
	}
}

// checkDispatchOrder checks that each delivery shows, in the summary, its
// INBOX_DISPATCH_START, then its target's STEP_START and STEP_END, then
// its INBOX_DISPATCH_COMPLETE, whichever of the ledger and the event
// stream brought them first (a quick delivery's events come with its
// result).
func checkDispatchOrder(t *testing.T, events []*event.Event) {
	t.Helper()
	stage := map[string]int{}    // "target m<i>" → 1 started, 2 step started, 3 step ended, 4 complete
	steps := map[string]string{} // a delivered target's step id → its key
	step := func(e *event.Event) string {
		if e.Type == event.StepEnd {
			return steps[e.ID]
		}
		if !e.Dispatched || len(e.Params) == 0 {
			return ""
		}
		steps[e.ID] = e.Func + " " + e.Params[0][1]
		return steps[e.ID]
	}
	advance := func(key string, from, to int, e *event.Event) {
		if stage[key] != from {
			t.Fatalf("summary: %s of %s at stage %d, want %d (start, step start, step end, complete): %+v", e.Type, key, stage[key], from, e)
		}
		stage[key] = to
	}
	for _, e := range events {
		switch e.Type {
		case event.DispatchStart, event.DispatchFinish:
			n, err := strconv.Atoi(e.InboxSeq)
			if err != nil {
				t.Fatalf("summary: inbox_seq %q", e.InboxSeq)
			}
			key := fmt.Sprintf("%s m%d", e.Target, n)
			if e.Type == event.DispatchStart {
				advance(key, 0, 1, e)
			} else {
				advance(key, 3, 4, e)
			}
		case event.StepStart:
			if key := step(e); key != "" {
				advance(key, 1, 2, e)
			}
		case event.StepEnd:
			if key := step(e); key != "" {
				advance(key, 2, 3, e)
			}
		}
	}
	for key, st := range stage {
		if st != 4 {
			t.Fatalf("summary: %s ended at stage %d, want 4 (complete)", key, st)
		}
	}
}
