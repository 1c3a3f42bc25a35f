package broker_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nats-io/nats.go"
)

const quickAndHeld = `channel jobs

workflow quick {
  echo "quick $1"
}

workflow held {
  while [ ! -e release ]; do sleep 0.05; done
}

workflow default {
  jobs <- echo m1
  jobs <- echo m2
  jobs <- echo m3
  jobs -> TARGET
}
`

// ledgerWrites follows every ledger write on the broker at url (a KV put
// is a publish on $KV.<bucket>.<key>) and returns, per delivery key, the
// states its record was written with, in order.
func ledgerWrites(t *testing.T, url string) func() map[string][]string {
	t.Helper()
	nc, err := nats.Connect(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	// A channel, not a callback: the client puts each message on it
	// before it reads the flush's reply, so after Flush it holds every
	// write the broker made before.
	ch := make(chan *nats.Msg, 1<<16)
	if _, err := nc.ChanSubscribe("$KV.>", ch); err != nil {
		t.Fatal(err)
	}
	if err := nc.Flush(); err != nil {
		t.Fatal(err)
	}
	states := map[string][]string{}
	return func() map[string][]string {
		if err := nc.Flush(); err != nil {
			t.Fatal(err)
		}
		for {
			select {
			case m := <-ch:
				key := m.Subject[strings.LastIndex(m.Subject, ".d.")+1:]
				var r struct {
					State string `json:"s"`
				}
				if strings.HasPrefix(key, "d.") && json.Unmarshal(m.Data, &r) == nil && r.State != "" {
					states[key] = append(states[key], r.State)
				}
			default:
				out := map[string][]string{}
				for k, v := range states {
					out[k] = slices.Clone(v)
				}
				return out
			}
		}
	}
}

// TestQuickDeliveryWritesOnce: a delivery done before --claim-after writes
// its ledger record once (the worker creates it), with its result and its events (the run still
// shows each delivery's start, steps and end in that order), and its
// worker never says it claimed it; one that runs longer is claimed while
// it runs, and the worker says so once the ledger holds the claim.
func TestQuickDeliveryWritesOnce(t *testing.T) {
	t.Run("quick", func(t *testing.T) {
		srv := startServer(t)
		writes := ledgerWrites(t, srv.url())
		dir := workspace(t, strings.Replace(quickAndHeld, "TARGET", "quick", 1))
		w := startWorkerWith(t, srv.url(), "a", dir, []string{"--claim-after", "1h"}, nil)
		r := startRun(t, srv.url(), dir, "flow.jh", nil)
		if code := r.wait(t); code != 0 {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, r.stdout.String(), r.stderr.String())
		}
		got := writes()
		for _, key := range []string{"d.001.0", "d.002.0", "d.003.0"} {
			if strings.Join(got[key], " ") != "done" {
				t.Errorf("ledger writes of %s: %v, want [done] (created by the worker with its result)", key, got[key])
			}
		}
		w.log.wait(t, "delivered message 003")
		if strings.Contains(w.log.text(), "claimed message") {
			t.Errorf("the worker says it claimed a delivery it never claimed:\n%s", w.log.text())
		}
		checkDispatchOrder(t, summary(t, newestRun(t, dir)))
	})
	t.Run("held", func(t *testing.T) {
		srv := startServer(t)
		writes := ledgerWrites(t, srv.url())
		dir := workspace(t, strings.Replace(quickAndHeld, "TARGET", "held", 1))
		w := startWorkerWith(t, srv.url(), "b", dir, []string{"--claim-after", "10ms"}, nil)
		r := startRun(t, srv.url(), dir, "flow.jh", nil)
		w.log.wait(t, "claimed message 001")
		if got := writes()["d.001.0"]; !slices.Contains(got, "claimed") {
			t.Errorf("ledger writes of d.001.0 while its target runs: %v, want a claim", got)
		}
		if err := os.WriteFile(filepath.Join(dir, "release"), nil, 0o644); err != nil {
			t.Fatal(err)
		}
		if code := r.wait(t); code != 0 {
			t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, r.stdout.String(), r.stderr.String())
		}
		checkDispatchOrder(t, summary(t, newestRun(t, dir)))
	})
}
