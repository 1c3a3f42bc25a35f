package broker_test

// A worker reads a delivery's sources from the broker's object store
// (JAIPH_SRC). When the broker cannot give them for a moment, the delivery
// is handed back, not failed; when they are gone for good, the target
// fails with the reason.
//
// The transient failures are caused deterministically through the
// server's subject mapping (Account.AddMapping): once the run has stored
// its sources and queued its delivery (and before a worker exists), the
// request the worker makes first for the sources, the object store's
// stream info, is mapped to a subject of the test's, so JetStream never
// sees it. With nobody on that subject the server itself answers "no
// responders"; with the test's responder there, the answer is the 503
// JetStream gives while a cluster has no leader (its own ApiError value).
// The mapping is removed once the worker has handed the delivery back.
// Nothing else the run or the worker does goes through that subject. The
// missing sources are really deleted from the broker. Each wait is for an
// event (a message, a log line, an exit) with the package's generous
// deadline as a safety net only.

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// sourcesInfo is the subject of the first request a worker makes for a
// delivery's sources: the info of the object store's stream.
const sourcesInfo = "$JS.API.STREAM.INFO.OBJ_JAIPH_SRC"

// sourcesFlow sends one message to work, which records it in done.txt. No
// retries: a failed attempt fails the run.
var sourcesFlow = oneJob(`  echo "ran $1" >> done.txt
`)

// queuedRun starts the server and a run of sourcesFlow with no worker, and
// returns once the run has queued its delivery: by then its sources are
// on the broker (a run stores them before it queues anything) and it makes
// no more requests about them.
func queuedRun(t *testing.T) (*testServer, *nats.Conn, string, *run) {
	t.Helper()
	srv := startServer(t)
	nc, err := nats.Connect(srv.url())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	queued, err := nc.SubscribeSync("jaiph.work.>")
	if err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	dir := workspace(t, sourcesFlow)
	r := startRun(t, srv.url(), dir, "flow.jh", nil)
	if _, err := queued.NextMsg(deadline); err != nil {
		t.Fatalf("the run queued no delivery: %v\nstderr:\n%s", err, r.stderr.String())
	}
	_ = queued.Unsubscribe()
	return srv, nc, dir, r
}

// waitFirst returns the first line of w with one of wants (the earliest
// line, whichever it has), failing the test at the deadline.
func waitFirst(t *testing.T, w *logWatcher, wants ...string) string {
	t.Helper()
	expired := false
	timer := time.AfterFunc(deadline, func() {
		w.mu.Lock()
		expired = true
		w.cond.Broadcast()
		w.mu.Unlock()
	})
	defer timer.Stop()
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := 0; ; {
		for ; i < len(w.lines); i++ {
			for _, s := range wants {
				if strings.Contains(w.lines[i], s) {
					return w.lines[i]
				}
			}
		}
		if w.done || expired {
			t.Fatalf("no line with any of %q; got:\n%s", wants, strings.Join(w.lines, "\n"))
		}
		w.cond.Wait()
	}
}

// TestSourcesReadTransient: a worker whose read of a delivery's sources
// fails for a transient reason hands the delivery back, first unclaimed
// (a quick delivery's first attempt writes no claim before it runs), then
// claimed (the claim released); once the broker answers again the
// delivery runs once and the run succeeds. The target never fails: the
// run has no retries, so a failed attempt would fail it.
func TestSourcesReadTransient(t *testing.T) {
	for _, tc := range []struct {
		name string
		// answer is what the test's subject answers with, nil for nobody
		// there: the server replies "no responders" itself.
		answer  []byte
		wantErr string
	}{
		{name: "no-responders", wantErr: "no responders available for request"},
		// The 503 of a cluster with no JetStream leader (the error
		// TestPartitions/ledger-partition met), as the server words it.
		{name: "no-leader", answer: clusterNotAvail(t), wantErr: "JetStream system temporarily unavailable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, nc, dir, r := queuedRun(t)
			const away = "jaiph.test.sources-away"
			if tc.answer != nil {
				sub, err := nc.Subscribe(away, func(m *nats.Msg) { _ = m.Respond(tc.answer) })
				if err != nil {
					t.Fatal(err)
				}
				defer sub.Unsubscribe()
				if err := nc.Flush(); err != nil {
					t.Fatal(err)
				}
			}
			acc := srv.s.GlobalAccount()
			if err := acc.AddMapping(sourcesInfo, away); err != nil {
				t.Fatal(err)
			}
			mapped := true
			defer func() {
				if mapped {
					acc.RemoveMapping(sourcesInfo)
				}
			}()
			w := startWorker(t, srv.url(), "a", dir, 1)
			// The claimed hand-back comes after the unclaimed one (the
			// message's second delivery claims before it runs).
			line := waitFirst(t, w.log, "handed back message 001", "refused message 001", "delivered message 001")
			if !strings.Contains(line, "handed back message 001") {
				t.Fatalf("the worker did not hand the delivery back: %s\nworker log:\n%s", line, w.log.text())
			}
			acc.RemoveMapping(sourcesInfo)
			mapped = false
			if code := r.wait(t); code != 0 {
				t.Fatalf("exit %d, want 0 (the delivery handed back, then run)\nstderr:\n%s\nworker log:\n%s", code, r.stderr.String(), w.log.text())
			}
			if got := strings.Join(lines(t, filepath.Join(dir, "done.txt")), "\n"); got != "ran m1" {
				t.Fatalf("done.txt: %q, want the delivery once", got)
			}
			log := w.log.text()
			want := "handing back message 001 to flow::work: the run's sources are not on the broker: "
			first := strings.Index(log, want)
			if first < 0 || !strings.Contains(log[first:], tc.wantErr) {
				t.Fatalf("the worker log does not say why it handed the delivery back (%q):\n%s", tc.wantErr, log)
			}
			if claimed := strings.Index(log, "claimed message 001"); claimed < first {
				t.Fatalf("the first hand-back was of a claimed attempt; want an unclaimed one first (the first delivery's claim is lazy):\n%s", log)
			}
			if strings.Contains(log, "refused message") {
				t.Fatalf("the worker refused the delivery:\n%s", log)
			}
			ib := inbox(t, newestRun(t, dir))
			if len(ib.Messages) != 1 || ib.Messages[0].State != "delivered" {
				t.Fatalf("jaiph inbox: %+v, want message 001 delivered", ib.Messages)
			}
		})
	}
}

// clusterNotAvail is the JetStream API's answer while the cluster has no
// leader.
func clusterNotAvail(t *testing.T) []byte {
	b, err := json.Marshal(struct {
		Type  string           `json:"type"`
		Error *server.ApiError `json:"error"`
	}{"io.nats.jetstream.api.v1.stream_info_response", server.NewJSClusterNotAvailError()})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestSourcesMissing: sources the broker does not have (the object, or
// the whole store, deleted) are no transient failure: the target fails at
// once with the reason, and nothing runs.
func TestSourcesMissing(t *testing.T) {
	for _, tc := range []struct {
		name    string
		remove  func(context.Context, jetstream.JetStream) error
		wantErr string
	}{
		{name: "object", wantErr: "nats: object not found", remove: func(ctx context.Context, js jetstream.JetStream) error {
			obs, err := js.ObjectStore(ctx, "JAIPH_SRC")
			if err != nil {
				return err
			}
			list, err := obs.List(ctx)
			if err != nil {
				return err
			}
			for _, o := range list {
				if err := obs.Delete(ctx, o.Name); err != nil {
					return err
				}
			}
			return nil
		}},
		{name: "bucket", wantErr: "nats: bucket not found", remove: func(ctx context.Context, js jetstream.JetStream) error {
			return js.DeleteObjectStore(ctx, "JAIPH_SRC")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv, nc, dir, r := queuedRun(t)
			js, err := jetstream.New(nc)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), deadline)
			defer cancel()
			if err := tc.remove(ctx, js); err != nil {
				t.Fatal(err)
			}
			w := startWorker(t, srv.url(), "a", dir, 1)
			line := waitFirst(t, w.log, "refused message 001", "handing back message 001", "delivered message 001")
			if !strings.Contains(line, "refused message 001 to flow::work: the run's sources are not on the broker: "+tc.wantErr) {
				t.Fatalf("the worker did not refuse the delivery with the reason: %s\nworker log:\n%s", line, w.log.text())
			}
			if code := r.wait(t); code != 1 {
				t.Fatalf("exit %d, want 1\nstderr:\n%s", code, r.stderr.String())
			}
			if want := "the run's sources are not on the broker: " + tc.wantErr; !strings.Contains(r.stderr.String(), want) {
				t.Fatalf("stderr does not give the reason (%q):\n%s", want, r.stderr.String())
			}
			if _, err := os.Stat(filepath.Join(dir, "done.txt")); err == nil {
				t.Fatal("done.txt exists: the target ran")
			}
		})
	}
}
