package broker_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// TestSendsKeepTheirOrder: a body's sends go to the broker pipelined
// (docs/distributed.md, "Sends are pipelined"), yet one worker with one
// slot takes them in the order they were sent, as the file inbox does.
func TestSendsKeepTheirOrder(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, `channel jobs

workflow work {
  echo "got $1"
}

workflow default {
  i=0
  while [ "$i" -lt 60 ]; do
    i=$((i + 1))
    jobs <- echo "m$i"
  done
  jobs -> work
}
`)
	w := startWorker(t, srv.url(), "a", dir, 1)
	r := startRun(t, srv.url(), dir, "flow.jh", nil)
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", code, r.stdout.String(), r.stderr.String())
	}
	w.log.wait(t, "delivered message 060")
	var got []string
	for _, m := range regexp.MustCompile(`delivered message (\d+)`).FindAllStringSubmatch(w.log.text(), -1) {
		got = append(got, m[1])
	}
	for i, seq := range got {
		if want := fmt.Sprintf("%03d", i+1); seq != want {
			t.Fatalf("delivery %d was of message %s, want %s (in send order); all: %v", i+1, seq, want, got)
		}
	}
	if len(got) != 60 {
		t.Fatalf("%d deliveries, want 60: %v", len(got), got)
	}
}

// TestRefusedSendFailsTheRun: a delivery the broker will not take (here
// its work stream was deleted under the run) fails the run with the
// message it was for and the reason, after the send returned, at the
// drain; nothing hangs.
func TestRefusedSendFailsTheRun(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, `channel jobs

workflow work {
  :
}

workflow default {
  jobs <- echo m1
  touch sent
  while [ ! -e go ]; do sleep 0.05; done
  jobs <- echo m2
  jobs -> work
}
`)
	r := startRun(t, srv.url(), dir, "flow.jh", nil)
	for deadline := time.Now().Add(30 * time.Second); ; {
		if _, err := os.Stat(filepath.Join(dir, "sent")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the body never sent its first message\nstderr:\n%s", r.stderr.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	js := jsClient(t, srv.url())
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := js.DeleteStream(ctx, "JAIPH_WORK"); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if code := r.wait(t); code != 1 {
		t.Fatalf("exit %d, want 1\nstderr:\n%s", code, r.stderr.String())
	}
	if !strings.Contains(r.stderr.String(), "cannot queue the delivery of message 002 to flow::work: no stream on the broker takes it any more") {
		t.Fatalf("stderr does not name the message the broker refused:\n%s", r.stderr.String())
	}
}
