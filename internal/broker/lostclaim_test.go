package broker

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nats-io/nats.go/jetstream"
)

// TestLogNotRecorded: a result the ledger refuses because the claim moved
// on is said as the loss of the claim, the words a heartbeat that sees
// the loss first uses; any other refusal says the delivery comes again.
func TestLogNotRecorded(t *testing.T) {
	d := &delivery{Key: "d.001.0", Seq: "001", Target: "flow::work"}
	for _, tc := range []struct {
		err  error
		want string
	}{
		{errGone, "worker a: lost the claim of d.001.0 (message 001 to flow::work) at the finish: nats: key revision mismatch: the run's ledger is gone; its result is dropped"},
		{fmt.Errorf("wrapped: %w", jetstream.ErrKeyRevisionMismatch), "worker a: lost the claim of d.001.0 (message 001 to flow::work) at the finish: wrapped: nats: key revision mismatch; its result is dropped"},
		{jetstream.ErrNoHeartbeat, "worker a: the result of message 001 to flow::work was not recorded (nats: no heartbeat received); it will be delivered again"},
	} {
		var log strings.Builder
		w := &Worker{Name: "a", Log: &log}
		w.logNotRecorded(d, "result", tc.err)
		if got := strings.TrimSuffix(log.String(), "\n"); got != tc.want {
			t.Errorf("%v:\n got %s\nwant %s", tc.err, got, tc.want)
		}
	}
}
