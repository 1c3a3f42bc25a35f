package fileinbox

import (
	"context"
	"errors"
	"time"

	"github.com/jaiph-go/jaiph/internal/store/inbox"
	"github.com/jaiph-go/jaiph/runtime"
)

var _ runtime.ReceiverOpener = (*Transport)(nil)

// OpenReceiver implements runtime.ReceiverOpener: the received channels'
// messages in the run's inbox/recv/ (docs/inbox-files.md).
func (t *Transport) OpenReceiver(h runtime.Host) runtime.Receiver {
	return receiver{t.files.Received(h.RunDir())}
}

type receiver struct{ r *inbox.Received }

func (r receiver) Declare(channels []string) error { return r.r.Declare(channels) }

func (r receiver) Put(channel, key, payload string) error { return r.r.Put(channel, key, payload) }

func (r receiver) Wait(ctx context.Context, channel, key string, hasKey bool, timeout time.Duration) (string, string, error) {
	p, name, err := r.r.Wait(ctx, channel, key, hasKey, timeout)
	if errors.Is(err, inbox.ErrTimeout) {
		return "", "", runtime.ErrReceiveTimeout
	}
	return p, name, err
}

func (r receiver) Taken(channel, ref string) (string, error) { return r.r.Read(channel, ref) }
