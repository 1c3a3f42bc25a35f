package broker_test

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jaiph-go/jaiph/internal/served"
	"github.com/jaiph-go/jaiph/internal/tools/serve"
)

const waitFlow = `channel approvals
channel nudges

# Asks twice: any approval, then the one keyed k2.
export workflow ask {
  trap 'echo trap >> "$MARK_DIR/exit.txt"' EXIT
  run first
  answer = <- approvals
  echo "got $answer"
  second = <- approvals key "k2"
  return "answers: $answer + $second"
}

workflow first {
  echo ran >> "$MARK_DIR/first.txt"
}

# Gives up after a second, and says so.
export workflow impatient {
  run nudged || echo "no nudge came"
  return "gave up"
}

workflow nudged {
  x = <- nudges timeout "1s"
}

export workflow hello {
  return "hi"
}
`

// waitSuspended polls the run on r until it waits in a receive on
// channel (with key) and no worker holds it.
func (r *replica) waitSuspended(t *testing.T, id, channel, key string) served.Run {
	t.Helper()
	for end := time.Now().Add(deadline); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		_, b := r.do(t, "GET", "/v1/runs/"+id, "")
		run := decodeRun(t, b)
		if w := run.Waiting; w != nil && w.Channel == channel && w.Key == key && run.Worker == "" && run.Status == served.StatusRunning {
			return run
		}
		if served.Terminal(run.Status) {
			t.Fatalf("the run ended instead of waiting on %s: %+v", channel, run)
		}
	}
	t.Fatalf("run %s did not come to wait on %s (key %q)", id, channel, key)
	return served.Run{}
}

// TestServedRunWaits: a served run on the broker waits in its receives
// holding no worker (the only worker's single slot runs another run
// meanwhile, and the worker is killed -9 while the run waits); messages
// sent through the other replica wake it on a new worker, which resumes
// it from its journal (the step before the receive is not run again);
// keys route messages (a webhook's send rule finds the run by its key);
// a message sent before the receive waits for it;
// a timeout fails the receive after its time; refusals are 409.
func TestServedRunWaits(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, waitFlow)
	marks := t.TempDir()
	a := startReplica(t, srv.url(), dir)
	hooks := `{"webhooks": {"ci": {"secret_env": "CI_HOOK_SECRET", "scheme": "hmac-sha256", "rules": [
	  {"action": "send", "channel": "approvals", "key": "/pr"}]}}}`
	if err := os.WriteFile(filepath.Join(dir, "inlets.json"), []byte(hooks), 0o644); err != nil {
		t.Fatal(err)
	}
	b := startReplicaWith(t, srv.url(), dir, func(c *serve.Config) { c.Inlets = "inlets.json" }, "CI_HOOK_SECRET=s3cret")
	w1 := startWorker(t, srv.url(), "w1", t.TempDir(), 1, "MARK_DIR="+marks)

	code, body := a.do(t, "POST", "/v1/workflows/ask/runs", "")
	if code != http.StatusAccepted {
		t.Fatalf("start: %d %s", code, body)
	}
	id := decodeRun(t, body).RunID
	b.waitSuspended(t, id, "approvals", "")
	// The worker's one slot is free: another run goes through.
	if code, body := a.do(t, "POST", "/v1/workflows/hello/runs?wait=true", ""); code != 200 || decodeRun(t, body).ResultText != "hi" {
		t.Fatalf("a run while ask waits: %d %s", code, body)
	}
	_ = syscall.Kill(-w1.cmd.Process.Pid, syscall.SIGKILL)
	<-w1.exited
	startWorker(t, srv.url(), "w2", t.TempDir(), 1, "MARK_DIR="+marks)

	if code, body := b.do(t, "POST", "/v1/runs/"+id+"/channels/approvals", `{"payload":"yes; $(touch /tmp/pwned) `+"`id`"+`"}`); code != http.StatusAccepted {
		t.Fatalf("send: %d %s", code, body)
	}
	b.waitSuspended(t, id, "approvals", "k2")
	if code, body := b.do(t, "POST", "/v1/runs/"+id+"/channels/approvals", `{"payload":"not this one","key":"k9"}`); code != http.StatusAccepted {
		t.Fatalf("send k9: %d %s", code, body)
	}
	// A webhook's send rule finds the run waiting with the key.
	hook := `{"pr":"k2"}`
	mac := hmac.New(sha256.New, []byte("s3cret"))
	mac.Write([]byte(hook))
	if code, body := b.do(t, "POST", "/hooks/ci", hook, "X-Signature", hex.EncodeToString(mac.Sum(nil))); code != http.StatusAccepted || !strings.Contains(string(body), id) {
		t.Fatalf("webhook send: %d %s", code, body)
	}
	run := b.waitRun(t, id)
	if want := "answers: yes; $(touch /tmp/pwned) `id` + " + hook; run.Status != served.StatusSucceeded || run.ResultText != want || run.Worker != "w2" {
		t.Fatalf("after the answers: %+v, want result %q", run, want)
	}
	// Its output is the whole body's, though it ran in three attempts (the
	// resumed body runs again, its calls replayed).
	if want := "got yes; $(touch /tmp/pwned) `id`\n"; run.Output != want {
		t.Errorf("output %q, want %q", run.Output, want)
	}
	if got := lines(t, filepath.Join(marks, "first.txt")); len(got) != 1 {
		t.Errorf("first ran %d times, want once (replayed after each wait): %v", len(got), got)
	}
	// The body's EXIT trap runs at its end, not at each suspension (as
	// when a run waits in place).
	if got := lines(t, filepath.Join(marks, "exit.txt")); len(got) != 1 {
		t.Errorf("the EXIT trap ran %d times, want once: %v", len(got), got)
	}
	if code, body := b.do(t, "POST", "/v1/runs/"+id+"/channels/approvals", `{"payload":"late"}`); code != http.StatusConflict || !strings.Contains(string(body), "E_RUN_TERMINAL") {
		t.Errorf("send to an ended run: %d %s", code, body)
	}

	// Sent at once, before (or as) the run receives: the messages wait.
	code, body = a.do(t, "POST", "/v1/workflows/ask/runs", "")
	if code != http.StatusAccepted {
		t.Fatalf("start: %d %s", code, body)
	}
	early := decodeRun(t, body).RunID
	if code, body := b.do(t, "POST", "/v1/runs/"+early+"/channels/nowhere", `{"payload":"x"}`); code != http.StatusConflict || !strings.Contains(string(body), "E_NOT_RECEIVING") {
		t.Errorf("send to a channel the run does not receive on: %d %s", code, body)
	}
	for _, m := range []string{`{"payload":"first"}`, `{"payload":"second","key":"k2"}`} {
		if code, body := b.do(t, "POST", "/v1/runs/"+early+"/channels/approvals", m); code != http.StatusAccepted {
			t.Fatalf("early send: %d %s", code, body)
		}
	}
	if run := a.waitRun(t, early); run.Status != served.StatusSucceeded || run.ResultText != "answers: first + second" {
		t.Fatalf("early messages: %+v", run)
	}

	// A timeout: the receive fails with E_TIMEOUT after a second, handled.
	code, body = a.do(t, "POST", "/v1/workflows/impatient/runs", "")
	if code != http.StatusAccepted {
		t.Fatalf("start: %d %s", code, body)
	}
	slow := decodeRun(t, body).RunID
	waiting := b.waitSuspended(t, slow, "nudges", "")
	if waiting.Waiting.TimeoutAt == nil || waiting.Waiting.TimeoutAt.Sub(waiting.Waiting.Since) != time.Second {
		t.Errorf("waiting: %+v", waiting.Waiting)
	}
	run = b.waitRun(t, slow)
	if run.Status != served.StatusSucceeded || run.ResultText != "gave up" || !strings.Contains(run.Output, "no nudge came") {
		t.Fatalf("after the timeout: %+v", run)
	}
	_, events := b.do(t, "GET", "/v1/runs/"+slow+"/events", "")
	if !strings.Contains(string(events), "E_TIMEOUT") {
		t.Errorf("no E_TIMEOUT in the events:\n%s", events)
	}
	// The ended runs' marks (among the active runs, among those waiting
	// on a channel) are gone without a trace: a delete marker per run
	// would be read by every pass of the watchdog, for ever.
	for _, f := range []string{"active.*", "waiting.>"} {
		if left := bucketSubjects(t, srv.url(), f); len(left) != 0 {
			t.Errorf("the ended runs left %v in the bucket", left)
		}
	}
}

// tickClock is a schedule's clock the test moves: each After is a
// channel the test fires.
type tickClock struct {
	mu    sync.Mutex
	now   time.Time
	waits chan chan time.Time
}

func (c *tickClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *tickClock) After(time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	c.waits <- ch
	return ch
}

// fire moves the clock to the scheduler's next tick (5 minutes on) and
// fires it, once the scheduler waits for it.
func (c *tickClock) fire(t *testing.T) {
	t.Helper()
	select {
	case ch := <-c.waits:
		c.mu.Lock()
		c.now = c.now.Add(5 * time.Minute)
		now := c.now
		c.mu.Unlock()
		ch <- now
	case <-time.After(deadline):
		t.Fatal("the scheduler does not wait for a tick")
	}
}

// TestServeScheduleOncePerTick: two replicas on the broker fire the same
// schedule at the same ticks; each tick starts one run (its claim on the
// broker is the tick's idempotency key).
func TestServeScheduleOncePerTick(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, waitFlow)
	sched := `{"schedules": {"often": {"cron": "*/5 * * * *", "tz": "UTC", "workflow": "hello"}}}`
	if err := os.WriteFile(filepath.Join(dir, "inlets.json"), []byte(sched), 0o644); err != nil {
		t.Fatal(err)
	}
	var clocks []*tickClock
	var replicas []*replica
	for range 2 {
		c := &tickClock{now: time.Date(2027, 1, 1, 3, 1, 0, 0, time.UTC), waits: make(chan chan time.Time)}
		clocks = append(clocks, c)
		replicas = append(replicas, startReplicaWith(t, srv.url(), dir, func(cfg *serve.Config) { cfg.Inlets, cfg.Clock = "inlets.json", c }))
	}
	startWorker(t, srv.url(), "w1", t.TempDir(), 2)
	runs := func() []served.Run {
		_, b := replicas[1].do(t, "GET", "/v1/runs?limit=100", "")
		var page struct{ Runs []served.Run }
		if err := json.Unmarshal(b, &page); err != nil {
			t.Fatal(err)
		}
		return page.Runs
	}
	for tick, at := range []string{"2027-01-01T03:05:00Z", "2027-01-01T03:10:00Z"} {
		var wg sync.WaitGroup
		for _, c := range clocks {
			wg.Add(1)
			go func() { defer wg.Done(); c.fire(t) }()
		}
		wg.Wait()
		// Each replica handled its tick once it waits for the next one.
		for _, c := range clocks {
			ch := <-c.waits
			go func() { c.waits <- ch }()
		}
		// The run a tick starts is recorded as the replica hands it on,
		// which may come after the replica waits again: wait for it (a
		// second run for the same tick would still fail the check).
		list := runs()
		for deadline := time.Now().Add(30 * time.Second); len(list) < tick+1 && time.Now().Before(deadline); list = runs() {
			time.Sleep(20 * time.Millisecond)
		}
		if len(list) != tick+1 || list[0].CorrelationID != "sched:often:"+at {
			t.Fatalf("after tick %s: %+v", at, list)
		}
		replicas[0].waitRun(t, list[0].RunID)
	}
}

// TestServedRunTimerSurvivesRestart: the only replica stops while a run
// waits with a timeout, and the timeout passes with no replica up; the
// replica started next arms the timer from the broker and the receive
// times out on a worker.
func TestServedRunTimerSurvivesRestart(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, waitFlow)
	a := startReplica(t, srv.url(), dir)
	startWorker(t, srv.url(), "w1", t.TempDir(), 1)
	code, body := a.do(t, "POST", "/v1/workflows/impatient/runs", "")
	if code != http.StatusAccepted {
		t.Fatalf("start: %d %s", code, body)
	}
	id := decodeRun(t, body).RunID
	w := a.waitSuspended(t, id, "nudges", "")
	a.stop()
	// The due time passes while no replica runs.
	time.Sleep(time.Until(*w.Waiting.TimeoutAt) + 500*time.Millisecond)
	b := startReplica(t, srv.url(), dir)
	run := b.waitRun(t, id)
	if run.Status != served.StatusSucceeded || run.ResultText != "gave up" || !strings.Contains(run.Output, "no nudge came") {
		t.Fatalf("after the restart: %+v", run)
	}
}
