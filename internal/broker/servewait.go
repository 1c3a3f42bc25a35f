package broker

// This file answers: how does a served run wait in a receive without
// holding a worker, and what wakes it?
//
// The messages for a served run's received channels are keys of the
// runs' bucket: each payload at msg.<run>.<channel>.<id>, and the
// channel's list of them, in the order they came, at msgs.<run>.<channel>
// (every look is a read by key: none costs more with more runs). A
// receive takes the first that matches by a compare-and-set on the list
// that marks it taken (each is received once; the journal keeps its key,
// so a resumed run reads the same payload again). A receive that finds none
// does not wait on the worker: the run stops there (runtime.ErrSuspend),
// its record says suspended and what it waits for, and the worker's slot
// is free. A message sent to it, or its timeout (timer.<run>, armed by
// every replica from a watch that replays at start, so it survives
// restarts), queues the run again; the next worker rebuilds it from its
// records and resumes it, and the receive takes the message — or times
// out, measured from when it first waited.

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/jaiph-go/jaiph/internal/served"
	"github.com/jaiph-go/jaiph/runtime"
)

// channelToken is channel as one token of a key: declared channel names
// are identifiers; anything else is hex-encoded.
func channelToken(channel string) string {
	for _, c := range channel {
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return "x" + hex.EncodeToString([]byte(channel))
		}
	}
	return channel
}

func msgPrefix(id, channel string) string { return "msg." + id + "." + channelToken(channel) + "." }

// msgIndex is the key of the list of the run's messages on channel.
func msgIndex(id, channel string) string { return "msgs." + id + "." + channelToken(channel) }

func timerKey(id string) string { return "timer." + id }

// waitingKey marks a suspended run in the index of the runs waiting on
// channel with key (Waiting): a webhook looks up the runs waiting with
// its key among those marks only, not among every run waiting on the
// channel (10,000 of them: 6 s a webhook, read one by one).
func waitingKey(channel, key, id string) string { return waitingPrefix(channel, key) + id }

func waitingPrefix(channel, key string) string {
	return "waiting." + channelToken(channel) + "." + keyToken(key) + "."
}

// keyToken is a receive's key as one token of a key: a digest (keys are
// any text, of any length; Waiting compares the record's own key).
func keyToken(key string) string {
	sum := sha256.Sum256([]byte(key))
	return "k" + hex.EncodeToString(sum[:12])
}

// runMessage is a message's entry in its channel's list; its payload is
// the value of Ref (read by key: no look costs more with more runs).
type runMessage struct {
	Ref   string `json:"ref"`
	Key   string `json:"key,omitempty"`
	Taken bool   `json:"taken,omitempty"`
}

// putMessage stores a message for the run's channel: its payload, then
// its entry at the end of the channel's list.
func putMessage(ctx context.Context, kv *ledger, id, channel, key, payload string) error {
	ref := msgPrefix(id, channel) + newRunID()
	if _, err := create(ctx, kv, ref, []byte(payload)); err != nil {
		return err
	}
	return changeMessages(ctx, kv, id, channel, func(list []runMessage) ([]runMessage, bool) {
		return append(list, runMessage{Ref: ref, Key: key}), true
	})
}

// changeMessages applies change to the channel's list, a compare-and-set
// retried while another writer moved it; change says whether to write.
func changeMessages(ctx context.Context, kv *ledger, id, channel string, change func([]runMessage) ([]runMessage, bool)) error {
	k := msgIndex(id, channel)
	for {
		list, rev, err := readMessages(ctx, kv, id, channel)
		if err != nil {
			return err
		}
		list, write := change(list)
		if !write {
			return nil
		}
		val, _ := json.Marshal(list)
		if rev == 0 {
			_, err = kv.kv.Create(ctx, k, val)
			if errors.Is(err, jetstream.ErrKeyExists) {
				continue
			}
		} else {
			_, err = update(ctx, kv, k, val, rev)
			if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
				continue
			}
		}
		return err
	}
}

// readMessages is the channel's list and its revision (0: none yet).
func readMessages(ctx context.Context, kv *ledger, id, channel string) ([]runMessage, uint64, error) {
	e, err := kv.get(ctx, msgIndex(id, channel))
	if errors.Is(err, errNoRecord) {
		return nil, 0, nil
	}
	if err != nil {
		return nil, 0, err
	}
	var list []runMessage
	if err := json.Unmarshal(e.value, &list); err != nil {
		return nil, 0, fmt.Errorf("the messages of %s: %w", channel, err)
	}
	return list, e.rev, nil
}

// matches says m is one a receive (with key when hasKey) takes.
func (m runMessage) matches(key string, hasKey bool) bool {
	return !m.Taken && (!hasKey || m.Key == key)
}

// pending says a message the receive takes is there.
func pending(ctx context.Context, kv *ledger, id, channel, key string, hasKey bool) (bool, error) {
	list, _, err := readMessages(ctx, kv, id, channel)
	for _, m := range list {
		if m.matches(key, hasKey) {
			return true, err
		}
	}
	return false, err
}

// takeMessage takes the oldest matching message: ok is false when there
// is none. Its reference is what the journal keeps.
func takeMessage(ctx context.Context, kv *ledger, id, channel, key string, hasKey bool) (string, string, bool, error) {
	ref := ""
	err := changeMessages(ctx, kv, id, channel, func(list []runMessage) ([]runMessage, bool) {
		ref = ""
		for i, m := range list {
			if m.matches(key, hasKey) {
				list[i].Taken, ref = true, m.Ref
				return list, true
			}
		}
		return list, false
	})
	if err != nil || ref == "" {
		return "", "", false, err
	}
	e, err := kv.get(ctx, ref)
	if err != nil {
		return "", "", false, fmt.Errorf("message %s: %w", ref, err)
	}
	return string(e.value), ref, true, nil
}

// msgReceiver is a served run's runtime.Receiver on the broker.
type msgReceiver struct {
	ctx   context.Context // outlives the run's own: a take completes
	kv    *ledger
	id    string
	prior *served.Waiting // what the run waited for when it was suspended
	keyed bool            // prior had a key

	mu    sync.Mutex
	wait  *served.Waiting // set when a receive suspends the run
	waitK bool
}

var _ runtime.ReceiverOpener = (*msgReceiver)(nil)

func (r *msgReceiver) OpenReceiver(runtime.Host) runtime.Receiver { return r }

// Declare: the replica knows the received channels from the program.
func (r *msgReceiver) Declare([]string) error { return nil }

func (r *msgReceiver) Put(channel, key, payload string) error {
	return putMessage(r.ctx, r.kv, r.id, channel, key, payload)
}

func (r *msgReceiver) Wait(_ context.Context, channel, key string, hasKey bool, timeout time.Duration) (string, string, error) {
	payload, ref, ok, err := takeMessage(r.ctx, r.kv, r.id, channel, key, hasKey)
	if err != nil {
		return "", "", err
	}
	if ok {
		return payload, ref, nil
	}
	now := time.Now().UTC()
	since := now
	r.mu.Lock()
	defer r.mu.Unlock()
	// The first receive that waits after a resume is the one the run was
	// suspended in: its time counts from the first wait.
	if p := r.prior; p != nil && p.Channel == channel && p.Key == key && r.keyed == hasKey {
		since = p.Since
	}
	r.prior = nil
	wt := &served.Waiting{Channel: channel, Key: key, Since: since}
	if timeout > 0 {
		at := since.Add(timeout)
		if !now.Before(at) {
			return "", "", runtime.ErrReceiveTimeout
		}
		wt.TimeoutAt = &at
	}
	r.wait, r.waitK = wt, hasKey
	return "", "", runtime.ErrSuspend
}

func (r *msgReceiver) Taken(_ string, ref string) (string, error) {
	e, err := r.kv.get(r.ctx, ref)
	if err != nil {
		return "", fmt.Errorf("message %s: %w", ref, err)
	}
	return string(e.value), nil
}

// suspended is the wait a receive suspended the run in, if any.
func (r *msgReceiver) suspended() (*served.Waiting, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.wait, r.waitK
}

// waitsFor says the suspended record's receive takes a message with key.
func waitsFor(r *serveRecord, channel, key string) bool {
	return r.Suspended && r.Waiting != nil && r.Waiting.Channel == channel && (!r.WaitKeyed || r.Waiting.Key == key)
}

// wake queues the suspended run id again when ready says its wait is
// over (a message, its timeout); why is logged.
func wake(ctx context.Context, kv *ledger, js jetstream.JetStream, log io.Writer, who, id, why string, ready func(*serveRecord) bool) error {
	for {
		r, rev, err := readServeRecord(ctx, kv, id)
		if err != nil || !ready(r) {
			return err
		}
		err = queueAgain(ctx, kv, js, r, rev)
		if errors.Is(err, jetstream.ErrKeyRevisionMismatch) {
			continue
		}
		if err == nil {
			_ = kv.kv.Delete(ctx, timerKey(id))
			fmt.Fprintf(log, "%s: run %s: %s; queued for a worker\n", who, id, why)
		}
		return err
	}
}

// queueAgain sets the record (at rev) queued under its next work message
// and publishes that message; a record that moved is
// jetstream.ErrKeyRevisionMismatch.
func queueAgain(ctx context.Context, kv *ledger, js jetstream.JetStream, r *serveRecord, rev uint64) error {
	wasWaiting := r.Suspended && r.Waiting != nil
	if wasWaiting {
		// Back among the runs the watchdog looks at (suspend took it out),
		// before it can be lost there.
		if _, err := kv.kv.Put(ctx, activeKey(r.RunID), nil); err != nil {
			return err
		}
	}
	r.Status, r.Worker, r.Suspended = served.StatusQueued, "", false
	r.Queued++
	val, _ := json.Marshal(r)
	if _, err := update(ctx, kv, serveRunKey(r.RunID), val, rev); err != nil {
		return err
	}
	body, _ := json.Marshal(map[string]any{"run": r.RunID, "n": r.Queued})
	_, err := publish(ctx, js, serveWorkSubject(r.RunID), body, workMsgID(r.RunID, r.Queued))
	if wasWaiting {
		// After the publish: a worker can take the run meanwhile, and a
		// stale mark is harmless (Waiting reads the record).
		_ = kv.drop(ctx, waitingKey(r.Waiting.Channel, r.Waiting.Key, r.RunID))
	}
	return err
}

// suspend records that the claimed run waits in wt without a worker,
// arms its timeout, and wakes it at once when its message arrived while
// it was being suspended (the sender saw it running).
func (w *Worker) suspend(ctx context.Context, kv *ledger, claim *servedClaim, wt *served.Waiting, keyed bool) error {
	id := claim.r.RunID
	// The watchdog reads every active run's record at each pass: a
	// suspended run is not one of them (thousands may wait for days); its
	// message or its timer wakes it. Taken out first: a sender that wakes
	// it after the write below puts it back.
	retire(ctx, kv, id)
	err := claim.write(ctx, w.Name, func(r *serveRecord) {
		r.Suspended, r.Waiting, r.WaitKeyed, r.Worker = true, wt, keyed, ""
		r.Heartbeat = time.Now().UTC()
	})
	if err != nil {
		_, _ = kv.kv.Put(ctx, activeKey(id), nil) // still running here: watched
		return err
	}
	if _, err := kv.kv.Put(ctx, waitingKey(wt.Channel, wt.Key, id), []byte(id)); err != nil {
		return err
	}
	if wt.TimeoutAt != nil {
		val, _ := json.Marshal(map[string]time.Time{"at": *wt.TimeoutAt})
		if _, err := kv.kv.Put(ctx, timerKey(id), val); err != nil {
			return err
		}
	}
	return wake(ctx, kv, w.js, w.Log, "worker "+w.Name, id, "its message arrived as it was suspended", func(r *serveRecord) bool {
		if !r.Suspended || r.Waiting == nil {
			return false
		}
		ok, err := pending(ctx, kv, id, r.Waiting.Channel, r.Waiting.Key, r.WaitKeyed)
		return err == nil && ok
	})
}

// Signal sends payload to the run's channel (a message from outside): it
// waits there until a receive takes it, and wakes the run when it is
// suspended in a receive that takes it.
func (b *ServeBackend) Signal(ctx context.Context, id, channel, key, payload string) error {
	r, _, err := b.getRecord(ctx, id)
	if err != nil {
		return err
	}
	if served.Terminal(r.Status) {
		return fmt.Errorf("%w (%s)", served.ErrTerminal, r.Status)
	}
	if !slices.Contains(r.Receives, channel) {
		return fmt.Errorf("%w: %q", served.ErrNotReceiving, channel)
	}
	if err := putMessage(ctx, b.kv, id, channel, key, payload); err != nil {
		return err
	}
	return wake(ctx, b.kv, b.js, b.o.Log, "jaiph serve", id, "a message on "+channel+" arrived", func(r *serveRecord) bool {
		return waitsFor(r, channel, key)
	})
}

// timers arms the suspended runs' timeouts from a watch of timer.* (the
// existing ones first: a restarted replica arms them again) until ctx
// ends. Every replica arms every timer; the compare-and-set of wake lets
// one of them queue the run.
func (b *ServeBackend) timers(ctx context.Context) error {
	watch, err := b.kv.kv.Watch(ctx, "timer.*")
	if err != nil {
		return err
	}
	go func() {
		defer watch.Stop()
		armed := map[string]*time.Timer{}
		defer func() {
			for _, t := range armed {
				t.Stop()
			}
		}()
		for e := range watch.Updates() {
			if e == nil {
				continue
			}
			id := strings.TrimPrefix(e.Key(), "timer.")
			if t := armed[id]; t != nil {
				t.Stop()
				delete(armed, id)
			}
			var v struct {
				At time.Time `json:"at"`
			}
			if e.Operation() != jetstream.KeyValuePut || json.Unmarshal(e.Value(), &v) != nil {
				continue
			}
			armed[id] = time.AfterFunc(time.Until(v.At), func() { b.timeUp(ctx, id) })
		}
	}()
	return nil
}

// timeUp queues the run whose receive's timeout passed: the resumed
// receive fails with E_TIMEOUT.
func (b *ServeBackend) timeUp(ctx context.Context, id string) {
	err := wake(ctx, b.kv, b.js, b.o.Log, "jaiph serve", id, "its receive timed out", func(r *serveRecord) bool {
		return r.Suspended && r.Waiting != nil && r.Waiting.TimeoutAt != nil && !time.Now().Before(*r.Waiting.TimeoutAt)
	})
	if err == nil {
		if r, _, gerr := readServeRecord(ctx, b.kv, id); errors.Is(gerr, served.ErrNotFound) || (gerr == nil && !r.Suspended) {
			_ = b.kv.kv.Delete(ctx, timerKey(id))
		}
	}
}

// Waiting lists the suspended runs waiting on channel with key, from
// their index (a stale mark, of a run woken meanwhile, is left out).
func (b *ServeBackend) Waiting(ctx context.Context, channel, key string) ([]served.Run, error) {
	prefix := waitingPrefix(channel, key)
	var out []served.Run
	for seq := uint64(0); ; {
		k, e, err := b.kv.leaderNext(ctx, prefix+"*", seq)
		if errors.Is(err, errNoRecord) {
			return out, nil
		}
		if err != nil {
			return nil, err
		}
		seq = e.rev + 1
		if e.value == nil {
			continue // a mark deleted
		}
		r, _, err := readServeRecord(ctx, b.kv, strings.TrimPrefix(k, prefix))
		if err == nil && r.Suspended && r.Waiting != nil && r.Waiting.Channel == channel && r.Waiting.Key == key {
			out = append(out, r.Run)
		}
	}
}

// snapshotName is the object (in the artifact store, beside the run's
// published files <run>/…, never listed with them) holding the records a
// suspended run left: its next attempt reads them at once instead of
// picking its lines out of the record stream among every other run's.
func snapshotName(id string) string { return id + ".records" }

type snapshot struct {
	Attempt int      `json:"attempt"`
	Summary [][]byte `json:"summary"`
	Journal [][]byte `json:"journal"`
}

// snapshot stores the run's lines as its suspension left them. Without it
// (a failure here), the next attempt reads the record stream.
func (m *recordMirror) snapshot() {
	m.mu.Lock()
	val, _ := json.Marshal(snapshot{Attempt: m.attempt, Summary: m.lines[0], Journal: m.lines[1]})
	m.mu.Unlock()
	obs, err := m.w.js.ObjectStore(m.ctx, serveArtStore)
	if err == nil {
		_, err = obs.PutBytes(context.WithoutCancel(m.ctx), snapshotName(m.id), val)
	}
	if err != nil {
		m.w.logf("worker %s: run %s: no snapshot of its records (the next attempt reads the record stream): %v", m.w.Name, m.id, err)
	}
}

// readSnapshot is the records the run's previous attempt left when it
// was suspended; ok is false when that attempt left none (it was lost, or
// ran to no receive).
func (w *Worker) readSnapshot(ctx context.Context, r *serveRecord) ([][]byte, [][]byte, bool) {
	obs, err := w.js.ObjectStore(ctx, serveArtStore)
	if err != nil {
		return nil, nil, false
	}
	val, err := obs.GetBytes(ctx, snapshotName(r.RunID))
	if err != nil {
		return nil, nil, false
	}
	var s snapshot
	if json.Unmarshal(val, &s) != nil || s.Attempt != r.Attempt-1 {
		return nil, nil, false
	}
	return s.Summary, s.Journal, true
}
