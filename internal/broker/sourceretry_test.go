package broker_test

// A delivery (or a served run) whose sources the broker cannot give for a
// moment is handed back with a delay that grows with its deliveries,
// never redelivered at once: a broker that keeps failing must not make
// the workers spin on the message.
//
// The failure is the one sourceread_test.go makes (the subject mapping
// of the object store's stream info to a subject of the test's), with a
// responder that counts: it answers JetStream's 503 (no leader) to the
// first few requests, then the real stream info, read from the broker
// before the mapping was added. So the number of failed reads is exact
// and no step of the test races the worker's redeliveries. What the
// worker asks of the broker is read on the wire: its acknowledgements
// of the work message ($JS.ACK.<stream>.<consumer>...), which carry the
// message's delivery count in their subject and the delay of a Nak in
// their body. No wall clock is read; every wait is for a message or a log
// line, with the package's deadline as a safety net only.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/jaiph-go/jaiph/internal/served"
)

// flakySources makes the next fails reads of the sources' stream info
// fail with JetStream's 503, then answer as the broker does, until the
// test ends. It returns how many requests were answered so far.
func flakySources(t *testing.T, srv *testServer, nc *nats.Conn, fails int) func() int {
	t.Helper()
	real, err := nc.Request(sourcesInfo, nil, deadline)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(real.Data), `"error"`) {
		t.Fatalf("the sources' stream info: %s", real.Data)
	}
	const away = "jaiph.test.sources-flaky"
	unavailable := clusterNotAvail(t)
	var mu sync.Mutex
	n := 0
	sub, err := nc.Subscribe(away, func(m *nats.Msg) {
		mu.Lock()
		n++
		answer := real.Data
		if n <= fails {
			answer = unavailable
		}
		mu.Unlock()
		_ = m.Respond(answer)
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	acc := srv.s.GlobalAccount()
	if err := acc.AddMapping(sourcesInfo, away); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		acc.RemoveMapping(sourcesInfo)
		_ = sub.Unsubscribe()
	})
	return func() int {
		mu.Lock()
		defer mu.Unlock()
		return n
	}
}

// workAck is an acknowledgement a worker sent for a work message: the
// message's delivery count and what was sent (+ACK, -NAK, -NAK with its
// delay, +TERM...).
type workAck struct {
	delivered int
	body      string
}

func (a workAck) String() string { return fmt.Sprintf("delivery %d: %s", a.delivered, a.body) }

// watchAcks sends on the returned channel every acknowledgement of a
// message of stream but the heartbeats (+WPI), in the order sent.
func watchAcks(t *testing.T, nc *nats.Conn, stream string) <-chan workAck {
	t.Helper()
	acks := make(chan workAck, 100)
	sub, err := nc.Subscribe("$JS.ACK.>", func(m *nats.Msg) {
		tok := strings.Split(strings.TrimPrefix(m.Subject, "$JS.ACK."), ".")
		// v1: <stream>.<consumer>.<delivered>.<sseq>.<cseq>.<ts>.<pending>;
		// v2: <domain>.<account hash>.<stream>.<consumer>.<delivered>...
		at := 0
		if len(tok) >= 9 {
			at = 2
		}
		if len(tok) < at+7 || tok[at] != stream || string(m.Data) == "+WPI" {
			return
		}
		n, _ := strconv.Atoi(tok[at+2])
		acks <- workAck{delivered: n, body: string(m.Data)}
	})
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = sub.Unsubscribe() })
	return acks
}

// unavailable503 is how the worker's log gives the error of the answer
// flakySources fails reads with.
const unavailable503 = "nats: API error: code=503 err_code=10008 description=JetStream system temporarily unavailable"

// nakDelay is the body of a Nak asking for a redelivery after d.
func nakDelay(d time.Duration) string { return fmt.Sprintf(`-NAK {"delay": %d}`, d.Nanoseconds()) }

// retryDelays are the delays the hand-backs after a message's deliveries
// 1, 2, 3, ... ask for: 100 ms doubled each time (at most 5 s).
var retryDelays = []time.Duration{100 * time.Millisecond, 200 * time.Millisecond, 400 * time.Millisecond, 800 * time.Millisecond}

// checkAcks reads acknowledgements until an +ACK (or the deadline), and
// checks them: a Nak with the growing delay after each of the first
// fails deliveries, then the +ACK of the next.
func checkAcks(t *testing.T, acks <-chan workAck, fails int, log func() string) {
	t.Helper()
	var got []workAck
	timeout := time.NewTimer(deadline)
	defer timeout.Stop()
	for len(got) == 0 || got[len(got)-1].body != "+ACK" {
		select {
		case a := <-acks:
			got = append(got, a)
		case <-timeout.C:
			t.Fatalf("no +ACK; acknowledgements so far: %v\nworker log:\n%s", got, log())
		}
	}
	var want []workAck
	for n := 1; n <= fails; n++ {
		want = append(want, workAck{n, nakDelay(retryDelays[n-1])})
	}
	want = append(want, workAck{fails + 1, "+ACK"})
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("acknowledgements of the work message:\n got %v\nwant %v\nworker log:\n%s", got, want, log())
	}
}

// TestSourcesReadBackoff: while the broker keeps failing to give a
// delivery's sources, its hand-backs ask for a redelivery 100 ms, 200 ms,
// 400 ms, 800 ms later (its deliveries 1 to 4: the first unclaimed, the
// others claimed and released), never at once; the fifth reads them and
// the run succeeds with the target run once.
func TestSourcesReadBackoff(t *testing.T) {
	const fails = 4
	srv, nc, dir, r := queuedRun(t)
	answered := flakySources(t, srv, nc, fails)
	acks := watchAcks(t, nc, "JAIPH_WORK")
	w := startWorker(t, srv.url(), "a", dir, 1)
	checkAcks(t, acks, fails, w.log.text)
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d, want 0\nstderr:\n%s\nworker log:\n%s", code, r.stderr.String(), w.log.text())
	}
	if got := strings.Join(lines(t, filepath.Join(dir, "done.txt")), "\n"); got != "ran m1" {
		t.Fatalf("done.txt: %q, want the delivery once", got)
	}
	log := w.log.text()
	if n := strings.Count(log, "handing back message 001 to flow::work: the run's sources are not on the broker: "+unavailable503); n != fails {
		t.Fatalf("%d hand-backs with the reason in the worker log, want %d:\n%s", n, fails, log)
	}
	// The first delivery's claim is lazy (never written): the later ones
	// were claimed, then released.
	if n := strings.Count(log, "handed back message 001 to flow::work"); n != fails-1 {
		t.Fatalf("%d claimed hand-backs, want %d:\n%s", n, fails-1, log)
	}
	if n := answered(); n != fails+1 {
		t.Fatalf("%d reads of the sources' stream info, want %d (one a delivery; the sources then cached)", n, fails+1)
	}
}

// TestServedSourcesReadTransient: a served run (jaiph serve on the
// broker) whose sources the broker cannot give for a moment is not
// failed: its work message is handed back, with the same growing delay
// as a delivery's, and the run stays queued, unclaimed (its record
// untouched), until a worker reads them; then it runs once and succeeds.
func TestServedSourcesReadTransient(t *testing.T) {
	const fails = 3
	srv := startServer(t)
	dir := workspace(t, servedFlow)
	a := startReplica(t, srv.url(), dir)
	// Queued with no worker yet: the replica has stored the sources.
	code, body := a.do(t, "POST", "/v1/workflows/greet/runs", `{"name":"x"}`)
	if code/100 != 2 {
		t.Fatalf("start: %d %s", code, body)
	}
	id := decodeRun(t, body).RunID
	nc, err := nats.Connect(srv.url())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	// (The run, once running, reads the sources' stream info too: it
	// opens the broker's inbox for its channels. The log shows the
	// failed reads were the worker's.)
	flakySources(t, srv, nc, fails)
	acks := watchAcks(t, nc, "JAIPH_SERVE_WORK")
	w := startWorker(t, srv.url(), "w", t.TempDir(), 1)
	checkAcks(t, acks, fails, w.log.text)
	w.log.wait(t, "run "+id+" ended: ")
	_, body = a.do(t, "GET", "/v1/runs/"+id, "")
	run := decodeRun(t, body)
	// Attempt 1: claimed once, when its sources were read.
	if run.Status != served.StatusSucceeded || run.ResultText != "hi x" || run.Worker != "w" || run.Attempt != 1 {
		t.Fatalf("the run: %s, want succeeded by w at attempt 1\nworker log:\n%s", body, w.log.text())
	}
	log := w.log.text()
	if n := strings.Count(log, "handing back run "+id+": the run's sources are not on the broker: "+unavailable503); n != fails {
		t.Fatalf("%d hand-backs with the reason in the worker log, want %d:\n%s", n, fails, log)
	}
}

// TestSourcesCorrupt: sources whose stored chunks no longer hash to their
// digest (a chunk added behind the object store's back) are no transient
// failure either: another read reads the same chunks. The target fails at
// once with the reason, and nothing runs.
func TestSourcesCorrupt(t *testing.T) {
	srv, nc, dir, r := queuedRun(t)
	js, err := jetstream.New(nc)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), deadline)
	defer cancel()
	obs, err := js.ObjectStore(ctx, "JAIPH_SRC")
	if err != nil {
		t.Fatal(err)
	}
	list, err := obs.List(ctx)
	if err != nil || len(list) != 1 {
		t.Fatalf("the sources: %v %v", list, err)
	}
	if _, err := js.Publish(ctx, "$O.JAIPH_SRC.C."+list[0].NUID, []byte("#")); err != nil {
		t.Fatal(err)
	}
	w := startWorker(t, srv.url(), "a", dir, 1)
	want := "refused message 001 to flow::work: the run's sources on the broker are corrupt: " + jetstream.ErrDigestMismatch.Error()
	if line := waitFirst(t, w.log, "refused message 001", "handing back message 001", "delivered message 001"); !strings.Contains(line, want) {
		t.Fatalf("the worker did not refuse the delivery with the reason (%q): %s\nworker log:\n%s", want, line, w.log.text())
	}
	if code := r.wait(t); code != 1 {
		t.Fatalf("exit %d, want 1\nstderr:\n%s", code, r.stderr.String())
	}
	if _, err := os.Stat(filepath.Join(dir, "done.txt")); err == nil {
		t.Fatal("done.txt exists: the target ran")
	}
}
