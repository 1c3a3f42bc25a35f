package runtime

// This file answers: how does a receive step (`x = <- CHANNEL [key …]
// [timeout …]`, beyond the reference: docs/language.md#receives) wait for
// its message, and where does a send to a received channel go? The
// messages are kept by a Receiver (the file inbox's: internal/fileinbox),
// which knows where; the runtime knows only which channels its program
// receives on.

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"syscall"
	"time"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/lowered"
)

// Receiver keeps the messages of the channels a run receives on.
type Receiver interface {
	// Declare records, when the run directory is made, the channels (by
	// their declared names) the run receives on: `jaiph send` refuses the
	// others.
	Declare(channels []string) error
	// Put stores a message of the run's own send on a received channel.
	Put(channel, key, payload string) error
	// Wait blocks until a message on channel (with key when hasKey)
	// arrives and takes it, until timeout passes (0: none; ErrReceiveTimeout)
	// or until ctx ends. It returns the payload and a reference to the
	// message (no payload: what the journal keeps).
	Wait(ctx context.Context, channel, key string, hasKey bool, timeout time.Duration) (payload, ref string, err error)
	// Taken is the payload of the message ref that a receive took.
	Taken(channel, ref string) (string, error)
}

// ReceiverOpener opens the Receiver of a run once its directory is made
// (Options.Received).
type ReceiverOpener interface {
	OpenReceiver(h Host) Receiver
}

// ErrReceiveTimeout is what Receiver.Wait returns when the timeout passed.
var ErrReceiveTimeout = errors.New("timed out")

// ErrSuspend is what Receiver.Wait returns when the run is not to wait in
// this process (a served run on the broker: a waiting run holds no
// worker). The run stops there as if killed, its receive begun and not
// ended in its journal, and Suspended says so; it continues — resumed
// from its journal, nothing that completed runs again — when its message
// or its timeout arrives.
var ErrSuspend = errors.New("the run waits for its message outside this process")

// receivedChannels are the symbols of the channels the program's receive
// steps name.
func (rt *Runtime) receivedChannels() map[string]bool {
	rt.recvOnce.Do(func() {
		rt.received = map[string]bool{}
		for _, b := range rt.bodies {
			for _, st := range b.Steps {
				if st.Kind == lowered.StepReceive {
					rt.received[st.Channel] = true
				}
			}
		}
	})
	return rt.received
}

// declareReceived opens the receiver and records the received channels
// (ensureRunDir).
func (rt *Runtime) declareReceived() error {
	chs := rt.receivedChannels()
	if len(chs) == 0 || rt.opts.Received == nil {
		return nil
	}
	rt.receiver = rt.opts.Received.OpenReceiver(rt)
	names := make([]string, 0, len(chs))
	for sym := range chs {
		names = append(names, lowered.ChannelName(sym))
	}
	sort.Strings(names)
	return rt.receiver.Declare(names)
}

// sendReceived stores a send to a received channel; handled is false for
// any other channel.
func (f *frame) sendReceived(channel, content string) (handled bool, err error) {
	if !f.rt.receivedChannels()[channel] {
		return false, nil
	}
	if f.rt.receiver == nil {
		return true, fmt.Errorf("no run directory")
	}
	return true, f.rt.receiver.Put(lowered.ChannelName(channel), "", content)
}

// builtinReceive is `jaiph::receive <id> [KEY]`: it waits for the
// channel's message and prints its payload for a capture. A resumed run
// replays a receive that completed (its payload is journaled); one that
// was waiting when the run was killed waits again, and gets what was sent
// meanwhile.
func builtinReceive(ctx context.Context, f *frame, args []string) int {
	st, args := stepRecord(ctx, f, lowered.StepReceive, args)
	if st == nil {
		return 1
	}
	hc := interp.HandlerCtx(ctx)
	key := ""
	if st.HasKey && len(args) > 0 {
		key = args[0]
	}
	ch := lowered.ChannelName(st.Channel)
	rt := f.rt
	if rt.receiver == nil {
		fmt.Fprintf(hc.Stderr, "jaiph: receive on channel %q without a run directory\n", ch)
		return 1
	}
	var timeout time.Duration
	if st.Timeout != "" {
		timeout, _ = time.ParseDuration(st.Timeout) // checked by validate
	}
	id := f.callID("<-"+st.Channel, []string{key})
	payload := ""
	// The journal keeps the message's reference, never its payload (a
	// payload with a credential would be masked there, and the receive
	// could not be replayed).
	r := rt.journal.begin(f, id, string(lowered.StepReceive), st.Channel, []string{key}, false)
	if r != nil {
		p, err := rt.receiver.Taken(ch, r.Value)
		if err != nil {
			fmt.Fprintf(hc.Stderr, "jaiph: cannot replay the receive on channel %q: %v\n", ch, err)
			return 1
		}
		payload = p
	} else {
		rt.emit(&event.Event{Type: event.ReceiveWait, ID: f.id, Channel: ch, Key: key, Timeout: st.Timeout,
			Depth: f.stackLen, Time: time.Now(), RunID: rt.runID})
		start := time.Now()
		p, ref, err := rt.receiver.Wait(ctx, ch, key, st.HasKey, timeout)
		if errors.Is(err, ErrSuspend) {
			// The journal keeps the receive begun: the resumed run waits again.
			rt.suspend()
			return (&Interrupted{Signal: syscall.SIGTERM}).Status()
		}
		if err != nil {
			status := 1
			switch {
			case errors.Is(err, ErrReceiveTimeout):
				what := fmt.Sprintf("channel %q", ch)
				if st.HasKey {
					what += fmt.Sprintf(" with key %q", key)
				}
				fmt.Fprintf(hc.Stderr, "jaiph: E_TIMEOUT no message on %s within %s\n", what, st.Timeout)
			case ctx.Err() != nil:
				status = 130
				fmt.Fprintf(hc.Stderr, "jaiph: receive on channel %q interrupted\n", ch)
			default:
				fmt.Fprintf(hc.Stderr, "jaiph: cannot receive on channel %q: %v\n", ch, err)
			}
			rt.journal.end(id, status, "", "")
			return status
		}
		payload = p
		rt.journal.end(id, 0, ref, "")
		rt.emit(&event.Event{Type: event.Receive, ID: f.id, Channel: ch, Key: key,
			PayloadPreview: preview(rt.redact.String(payload)), WaitedMS: time.Since(start).Milliseconds(),
			Depth: f.stackLen, Time: time.Now(), RunID: rt.runID})
	}
	if st.Capture {
		fmt.Fprint(hc.Stdout, payload)
	}
	return 0
}

// preview is the first 24 characters of a payload, as INBOX_ENQUEUE's.
func preview(s string) string {
	r := []rune(s)
	if len(r) > 24 {
		return string(r[:24]) + "..."
	}
	return s
}
