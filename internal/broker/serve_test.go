package broker_test

// Served runs on the broker (`jaiph serve --inbox`): two replicas in this
// process, `jaiph worker` subprocesses, a real broker.

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/jaiph-go/jaiph/internal/broker"
	"github.com/jaiph-go/jaiph/internal/served"
	"github.com/jaiph-go/jaiph/internal/tools/serve"
)

const serveToken = "broker-serve-token"

const servedFlow = `# Greets.
export workflow greet {
  name="$1"
  echo "hello $name"
  printf 'published %s\n' "$name" > "$JAIPH_ARTIFACTS_DIR/report.txt"
  return "hi $name"
}

# Two steps; the second waits for the go file.
export workflow twostep {
  run first
  run second
  return "both done"
}

workflow first {
  echo ran >> "$MARK_DIR/first.txt"
}

workflow second {
  echo started >> "$MARK_DIR/second.txt"
  while [ ! -f "$MARK_DIR/go" ]; do sleep 0.05; done
}

export workflow slow {
  secs="$1"
  sleep "$secs"
}

channel jobs

# Sends a job to another worker and waits for it.
export workflow fan {
  jobs <- echo "m1"
  jobs -> work
  return "fanned"
}

workflow work {
  echo "worked $1" >> "$MARK_DIR/work.txt"
  while [ ! -f "$MARK_DIR/go" ]; do sleep 0.05; done
}
`

// replica is a jaiph serve on the broker, in this process.
type replica struct {
	base string
	stop func()
}

var installOnce sync.Once

func startReplica(t *testing.T, url, dir string, env ...string) *replica {
	t.Helper()
	return startReplicaWith(t, url, dir, nil, env...)
}

// startReplicaWith is startReplica with the configuration changed by set.
func startReplicaWith(t *testing.T, url, dir string, set func(*serve.Config), env ...string) *replica {
	t.Helper()
	installOnce.Do(broker.Install) // as jaiph-full's init does
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	c := serve.Config{Host: "127.0.0.1", Paths: []string{"flow.jh"}, Dir: dir, Inbox: url, Log: io.Discard,
		Environ: append(os.Environ(), append([]string{"JAIPH_SERVE_TOKEN=" + serveToken, "JAIPH_SERVE_LEASE=1s"}, env...)...),
		Ready:   func(a string) { ready <- a }}
	if set != nil {
		set(&c)
	}
	go func() { done <- serve.Serve(ctx, c) }()
	select {
	case a := <-ready:
		r := &replica{base: "http://" + a}
		var once sync.Once
		r.stop = func() { once.Do(func() { cancel(); <-done }) }
		t.Cleanup(r.stop)
		return r
	case err := <-done:
		cancel()
		t.Fatalf("serve: %v", err)
	}
	return nil
}

func (r *replica) do(t *testing.T, method, path, body string, headers ...string) (int, []byte) {
	t.Helper()
	var rd io.Reader
	if body != "" {
		rd = strings.NewReader(body)
	}
	req, _ := http.NewRequest(method, r.base+path, rd)
	req.Header.Set("Authorization", "Bearer "+serveToken)
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, b
}

func decodeRun(t *testing.T, b []byte) served.Run {
	t.Helper()
	var r served.Run
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return r
}

// waitRun polls the run on r until it is terminal.
func (r *replica) waitRun(t *testing.T, id string) served.Run {
	t.Helper()
	for end := time.Now().Add(deadline); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		_, b := r.do(t, "GET", "/v1/runs/"+id, "")
		if run := decodeRun(t, b); served.Terminal(run.Status) {
			return run
		}
	}
	t.Fatalf("run %s did not end", id)
	return served.Run{}
}

// TestServeReplicas: a run started through one replica is read, streamed,
// downloaded and cancelled through another; an Idempotency-Key holds
// across replicas.
func TestServeReplicas(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, servedFlow)
	a := startReplica(t, srv.url(), dir)
	b := startReplica(t, srv.url(), dir)
	startWorker(t, srv.url(), "w1", t.TempDir(), 2)

	code, body := a.do(t, "POST", "/v1/workflows/greet/runs", `{"name":"replica"}`)
	if code != http.StatusAccepted {
		t.Fatalf("start: %d %s", code, body)
	}
	run := b.waitRun(t, decodeRun(t, body).RunID)
	if run.Status != served.StatusSucceeded || run.ResultText != "hi replica" || run.Worker != "w1" || run.Attempt != 1 ||
		!strings.HasPrefix(run.Integrity, "sealed") || run.Output != "hello replica\n" {
		t.Fatalf("on b: %+v", run)
	}
	_, events := b.do(t, "GET", "/v1/runs/"+run.RunID+"/events", "")
	if !strings.Contains(string(events), `"type":"WORKFLOW_END"`) || !strings.Contains(string(events), `"run_id":"`+run.RunID+`"`) {
		t.Errorf("events on b:\n%s", events)
	}
	_, sse := b.do(t, "GET", "/v1/runs/"+run.RunID+"/events", "", "Accept", "text/event-stream")
	if strings.Count(string(sse), "data: {\"type\"") != strings.Count(string(events), "\n") || !strings.Contains(string(sse), "event: end") {
		t.Errorf("stream on b:\n%s", sse)
	}
	_, list := b.do(t, "GET", "/v1/runs/"+run.RunID+"/artifacts", "")
	if !strings.Contains(string(list), `"path":"report.txt"`) {
		t.Errorf("artifacts on b: %s", list)
	}
	if code, file := b.do(t, "GET", "/v1/runs/"+run.RunID+"/artifacts/report.txt", ""); code != 200 || string(file) != "published replica\n" {
		t.Errorf("download on b: %d %q", code, file)
	}
	if code, _ := b.do(t, "GET", "/v1/runs/"+run.RunID+"/artifacts/..%2frun.json", ""); code != 404 {
		t.Errorf("traversal on b: %d", code)
	}

	// Live events from the start, through b, of a run started on a.
	code, body = a.do(t, "POST", "/v1/workflows/slow/runs", `{"secs":"1000.611"}`)
	if code != http.StatusAccepted {
		t.Fatalf("slow: %d %s", code, body)
	}
	slow := decodeRun(t, body)
	req, _ := http.NewRequest("GET", b.base+"/v1/runs/"+slow.RunID+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+serveToken)
	req.Header.Set("Accept", "text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	for sc.Scan() && !strings.Contains(sc.Text(), `"type":"STEP_START"`) {
	}
	code, body = b.do(t, "POST", "/v1/runs/"+slow.RunID+"/cancel", "")
	if c := decodeRun(t, body); code != 200 || c.Status != served.StatusCancelled {
		t.Fatalf("cancel on b: %d %s", code, body)
	}
	ended := false
	for sc.Scan() {
		if sc.Text() == "event: end" {
			ended = true
		}
	}
	if !ended {
		t.Errorf("the stream did not end with the run")
	}
	waitGone(t, "1000.611")

	// One Idempotency-Key, two replicas, many requests: one run.
	var wg sync.WaitGroup
	ids := make(chan string, 10)
	for i := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			r := a
			if i%2 == 1 {
				r = b
			}
			code, body := r.do(t, "POST", "/v1/workflows/greet/runs", `{"name":"once"}`, "Idempotency-Key", "k-1")
			if code == 200 || code == 202 {
				ids <- decodeRun(t, body).RunID
			} else {
				t.Errorf("keyed request: %d %s", code, body)
			}
		}()
	}
	wg.Wait()
	close(ids)
	first := ""
	for id := range ids {
		if first == "" {
			first = id
		}
		if id != first {
			t.Errorf("two runs for one key: %s and %s", first, id)
		}
	}
	if code, body := b.do(t, "POST", "/v1/workflows/greet/runs", `{"name":"other"}`, "Idempotency-Key", "k-1"); code != 409 {
		t.Errorf("key with other arguments: %d %s", code, body)
	}
}

// waitGone waits until no process's command line holds marker.
func waitGone(t *testing.T, marker string) {
	t.Helper()
	for end := time.Now().Add(deadline); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		if !hasProcess(marker) {
			return
		}
	}
	t.Fatalf("a process with %q is still there", marker)
}

func hasProcess(marker string) bool {
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && strings.Contains(string(b), marker) {
			return true
		}
	}
	return false
}

// TestServedRunWorkerKilled: the worker running a served run is killed
// -9; another worker continues the run from its journal: the call that
// completed is not run again, and the run ends on the second worker.
func TestServedRunWorkerKilled(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, servedFlow)
	marks := t.TempDir()
	a := startReplica(t, srv.url(), dir)
	w1 := startWorker(t, srv.url(), "w1", t.TempDir(), 1, "MARK_DIR="+marks)
	code, body := a.do(t, "POST", "/v1/workflows/twostep/runs", "")
	if code != http.StatusAccepted {
		t.Fatalf("start: %d %s", code, body)
	}
	id := decodeRun(t, body).RunID
	waitLine(t, filepath.Join(marks, "second.txt"), "started")
	_ = syscall.Kill(-w1.cmd.Process.Pid, syscall.SIGKILL)
	<-w1.exited
	startWorker(t, srv.url(), "w2", t.TempDir(), 1, "MARK_DIR="+marks)
	for end := time.Now().Add(deadline); len(lines(t, filepath.Join(marks, "second.txt"))) < 2; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatal("the run did not continue on w2")
		}
	}
	if err := os.WriteFile(filepath.Join(marks, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	run := a.waitRun(t, id)
	if run.Status != served.StatusSucceeded || run.Worker != "w2" || run.Attempt != 2 || run.ResultText != "both done" {
		t.Fatalf("after the takeover: %+v", run)
	}
	if got := lines(t, filepath.Join(marks, "first.txt")); len(got) != 1 {
		t.Errorf("first ran %d times, want once (replayed on w2): %v", len(got), got)
	}
	_, events := a.do(t, "GET", "/v1/runs/"+id+"/events", "")
	if !strings.Contains(string(events), `"type":"RUN_RESUMED"`) {
		t.Errorf("no RUN_RESUMED in the events:\n%s", events)
	}
}

// TestServeReplicaKilled: a replica process is killed -9 while a client
// waits on it; the run goes on, and the client's retry on another replica
// with the same Idempotency-Key gets that run, started once.
func TestServeReplicaKilled(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, servedFlow)
	marks := t.TempDir()
	startWorker(t, srv.url(), "w1", t.TempDir(), 1, "MARK_DIR="+marks)
	cmd := exec.Command(jaiphFull, "serve", "--port", "0", "--inbox", srv.url(), "flow.jh")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "JAIPH_SERVE_TOKEN="+serveToken)
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	log := newLogWatcher()
	go log.read(bufio.NewScanner(stderr))
	addr := regexp.MustCompile(`listening on (http://\S+)`).FindStringSubmatch(log.wait(t, "listening on"))
	a := &replica{base: addr[1]}
	b := startReplica(t, srv.url(), dir)

	waited := make(chan int, 1)
	go func() {
		req, _ := http.NewRequest("POST", a.base+"/v1/workflows/twostep/runs?wait=true", nil)
		req.Header.Set("Authorization", "Bearer "+serveToken)
		req.Header.Set("Idempotency-Key", "retry-me")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			waited <- -1 // the replica died under the request
			return
		}
		res.Body.Close()
		waited <- res.StatusCode
	}()
	waitLine(t, filepath.Join(marks, "second.txt"), "started")
	_ = cmd.Process.Kill()
	if code := <-waited; code != -1 {
		t.Fatalf("the waiting request on the killed replica: %d, want a failed request", code)
	}
	// The client retries on b: the same run, nothing started again.
	code, body := b.do(t, "POST", "/v1/workflows/twostep/runs", "", "Idempotency-Key", "retry-me")
	if code != http.StatusOK {
		t.Fatalf("retry on b: %d %s", code, body)
	}
	id := decodeRun(t, body).RunID
	if err := os.WriteFile(filepath.Join(marks, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	run := b.waitRun(t, id)
	if run.Status != served.StatusSucceeded || run.Attempt != 1 {
		t.Fatalf("the run: %+v", run)
	}
	if got := lines(t, filepath.Join(marks, "first.txt")); len(got) != 1 {
		t.Errorf("first ran %d times, want once", len(got))
	}
	_, list := b.do(t, "GET", "/v1/runs", "")
	var page struct{ Total int }
	json.Unmarshal(list, &page)
	if page.Total != 1 {
		t.Errorf("%d runs on the broker, want 1: %s", page.Total, list)
	}
}

// TestServeExecute: a replica with --execute runs runs itself, no worker
// needed.
func TestServeExecute(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, servedFlow)
	a := serveExecuting(t, srv, dir)
	code, body := a.do(t, "POST", "/v1/workflows/greet/runs?wait=true", `{"name":"self"}`)
	if run := decodeRun(t, body); code != 200 || run.Status != served.StatusSucceeded || run.ResultText != "hi self" ||
		!strings.HasSuffix(run.Worker, "/serve") {
		t.Fatalf("run: %d %s", code, body)
	}
}

// serveExecuting starts `jaiph serve --inbox --execute` on dir's flow.jh
// (the replica runs what it serves) until the test ends.
func serveExecuting(t *testing.T, srv *testServer, dir string) *replica {
	t.Helper()
	installOnce.Do(broker.Install)
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	c := serve.Config{Host: "127.0.0.1", Paths: []string{"flow.jh"}, Dir: dir, Inbox: srv.url(), Execute: true, Log: io.Discard,
		Environ: append(os.Environ(), "JAIPH_SERVE_TOKEN="+serveToken), Ready: func(a string) { ready <- a }}
	go func() { done <- serve.Serve(ctx, c) }()
	select {
	case addr := <-ready:
		t.Cleanup(func() { cancel(); <-done })
		return &replica{base: "http://" + addr}
	case err := <-done:
		cancel()
		t.Fatalf("serve: %v", err)
		return nil
	}
}

// TestServedRunStdin: a run served on the broker reads /dev/null, as a
// delivery does; it used to be an empty pipe, one a run, left open for
// Go's collector to close.
func TestServedRunStdin(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, `export workflow input {
  fd0=$(readlink /proc/self/fd/0)
  return "$fd0"
}
`)
	a := serveExecuting(t, srv, dir)
	code, body := a.do(t, "POST", "/v1/workflows/input/runs?wait=true", `{}`)
	if run := decodeRun(t, body); code != 200 || run.Status != served.StatusSucceeded || run.ResultText != "/dev/null" {
		t.Fatalf("run: %d %s", code, body)
	}
}

// TestServePrune: retention removes a served run that ended before its
// window (record, events, files) and keeps one still queued, and the
// sources it needs.
func TestServePrune(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, servedFlow)
	a := startReplica(t, srv.url(), dir)
	w := startWorker(t, srv.url(), "w1", t.TempDir(), 1)
	_, body := a.do(t, "POST", "/v1/workflows/greet/runs?wait=true", `{"name":"old"}`)
	old := decodeRun(t, body)
	if old.Status != served.StatusSucceeded {
		t.Fatalf("run: %s", body)
	}
	_ = syscall.Kill(-w.cmd.Process.Pid, syscall.SIGKILL)
	<-w.exited
	_, body = a.do(t, "POST", "/v1/workflows/greet/runs", `{"name":"queued"}`)
	queued := decodeRun(t, body)
	js := jsClient(t, srv.url())
	rep, err := broker.Prune(context.Background(), js, 0, time.Now().Add(time.Second), false)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rep.Served, ",") != old.RunID || len(rep.Sources) != 0 {
		t.Fatalf("pruned served %v, sources %v; want only %s", rep.Served, rep.Sources, old.RunID)
	}
	if code, _ := a.do(t, "GET", "/v1/runs/"+old.RunID, ""); code != 404 {
		t.Errorf("the pruned run: %d", code)
	}
	if code, _ := a.do(t, "GET", "/v1/runs/"+queued.RunID, ""); code != 200 {
		t.Errorf("the queued run: %d", code)
	}
	// Nothing of it is left in the bucket, not even a marker that a
	// listing of the runs would read for ever.
	if left := bucketSubjects(t, srv.url(), "*."+old.RunID); len(left) != 0 {
		t.Errorf("the pruned run left %v in the bucket", left)
	}
	// Its sources stayed: a worker runs it.
	startWorker(t, srv.url(), "w2", t.TempDir(), 1)
	if run := a.waitRun(t, queued.RunID); run.Status != served.StatusSucceeded {
		t.Errorf("the queued run after the prune: %+v", run)
	}
}

// TestServedRunDeliveries: a served run's messages are deliveries on the
// broker, taken by any worker; when the worker orchestrating the run dies
// mid-drain, the next one continues the run and the delivery completes
// once.
func TestServedRunDeliveries(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, servedFlow)
	marks := t.TempDir()
	a := startReplica(t, srv.url(), dir)
	// The run's deliveries take the workers' lease setting.
	w1 := startWorker(t, srv.url(), "w1", t.TempDir(), 1, "MARK_DIR="+marks, "JAIPH_INBOX_LEASE=1s")
	_, body := a.do(t, "POST", "/v1/workflows/fan/runs", "")
	id := decodeRun(t, body).RunID
	// w1 takes the run (one slot for runs, one for deliveries); a second
	// worker takes the delivery once w1 is gone, or w1 does.
	for end := time.Now().Add(deadline); ; time.Sleep(20 * time.Millisecond) {
		_, b := a.do(t, "GET", "/v1/runs/"+id, "")
		if decodeRun(t, b).Worker == "w1" {
			break
		}
		if time.Now().After(end) {
			t.Fatal("w1 did not take the run")
		}
	}
	waitLine(t, filepath.Join(marks, "work.txt"), "worked m1")
	_ = syscall.Kill(-w1.cmd.Process.Pid, syscall.SIGKILL)
	<-w1.exited
	startWorker(t, srv.url(), "w2", t.TempDir(), 1, "MARK_DIR="+marks, "JAIPH_INBOX_LEASE=1s")
	if err := os.WriteFile(filepath.Join(marks, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	run := a.waitRun(t, id)
	if run.Status != served.StatusSucceeded || run.ResultText != "fanned" || run.Worker != "w2" {
		t.Fatalf("the run: %+v", run)
	}
	_, events := a.do(t, "GET", "/v1/runs/"+id+"/events", "")
	if !strings.Contains(string(events), `"worker":"w`) {
		t.Errorf("the delivery did not run on a worker:\n%s", events)
	}
}

// bucketSubjects lists the keys of the served runs' bucket that match
// filter and still hold a message — a value, or a delete marker that
// every listing of the prefix would read again.
func bucketSubjects(t *testing.T, url, filter string) []string {
	t.Helper()
	st, err := jsClient(t, url).Stream(context.Background(), "KV_JAIPH_SERVE_RUNS")
	if err != nil {
		t.Fatal(err)
	}
	info, err := st.Info(context.Background(), jetstream.WithSubjectFilter("$KV.JAIPH_SERVE_RUNS."+filter))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for s := range info.State.Subjects {
		out = append(out, strings.TrimPrefix(s, "$KV.JAIPH_SERVE_RUNS."))
	}
	return out
}
