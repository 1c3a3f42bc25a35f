package broker

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// TestSourcesLost: a broker error reading a delivery's sources fails its
// target only when no later read can undo it (the sources or their store
// gone, what is stored corrupt); anything else hands the delivery back.
func TestSourcesLost(t *testing.T) {
	apiErr := func(e *server.ApiError) error {
		return &jetstream.APIError{Code: e.Code, ErrorCode: jetstream.ErrorCode(e.ErrCode), Description: e.Description}
	}
	for _, tc := range []struct {
		err  error
		lost bool
	}{
		{jetstream.ErrObjectNotFound, true},
		{jetstream.ErrBucketNotFound, true},
		{jetstream.ErrStreamNotFound, true},
		{apiErr(server.NewJSStreamNotFoundError()), true},
		{jetstream.ErrDigestMismatch, true},
		{fmt.Errorf("reading: %w", jetstream.ErrDigestMismatch), true},
		{jetstream.ErrBadObjectMeta, true},
		{jetstream.ErrInvalidDigestFormat, true},
		// no leader, a broker away or slow, a worker stopping
		{apiErr(server.NewJSClusterNotAvailError()), false},
		{apiErr(server.NewJSInsufficientResourcesError()), false},
		{nats.ErrNoResponders, false},
		{nats.ErrTimeout, false},
		{context.DeadlineExceeded, false}, // also how a permissions violation ends
		{context.Canceled, false},
		{nats.ErrConnectionReconnecting, false},
		{errors.New("something new"), false},
	} {
		if got := sourcesLost(tc.err); got != tc.lost {
			t.Errorf("sourcesLost(%v) = %v, want %v", tc.err, got, tc.lost)
		}
	}
}

// TestSourcesRetry: the delay before a message whose sources could not be
// read is delivered again doubles from 100 ms with its deliveries, up to
// the consumers' AckWait.
func TestSourcesRetry(t *testing.T) {
	ms := time.Millisecond
	for n, want := range map[uint64]time.Duration{0: 100 * ms, 1: 100 * ms, 2: 200 * ms, 3: 400 * ms, 4: 800 * ms, 5: 1600 * ms,
		6: 3200 * ms, 7: 5 * time.Second, 8: 5 * time.Second, 100: 5 * time.Second, 1 << 63: 5 * time.Second} {
		if got := sourcesRetry(n); got != want {
			t.Errorf("sourcesRetry(%d) = %s, want %s", n, got, want)
		}
	}
}
