package runtime

// This file answers: how does `jaiph redrive` deliver a run's dead letters
// again (docs/inbox-files.md "Redrive")? A runtime reopens the run's
// directory instead of creating one and calls each letter's target as a
// root step, with the message's content, channel and sender, logging the
// attempt in inbox/.deliveries like a drain does.

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/jaiph-go/jaiph/event"
)

// Reopen makes rt write into the existing run directory dir (a redrive),
// whose last message number is lastMessage: reattach, with message numbers
// after the run's. Redeliveries are journaled as the run's deliveries
// were, but a redrive delivers and never replays: two letters may be the
// same call.
func (rt *Runtime) Reopen(dir string, lastMessage int) error {
	rt.dirOnce.Do(func() {
		if _, rt.dirErr = rt.reattach(dir); rt.dirErr == nil {
			rt.journal.resuming = false
			rt.inboxes.seq = lastMessage // inbox/.seq is rewritten when rt closes
		}
	})
	return rt.dirErr
}

// Letter is one dead letter to deliver again: message Seq on the declared
// channel Channel, sent by Sender, for the workflow Target; Attempt is the
// number of this attempt (the attempts so far + 1).
type Letter struct {
	Seq, Channel, Sender, Target string
	Attempt                      int
}

// Redeliver delivers l once, as the drain's dispatch does ($1 the content,
// $2 the channel, $3 the sender; JAIPH_DISPATCH_* set), logging `start`
// and `end` in inbox/.deliveries. Status 0: the end line is synced before
// Redeliver returns, so the caller may then remove the dead/ file. Any
// other status: a `dead` line (the letter stays dead, one attempt more)
// and an INBOX_DEAD event. The target's stderr of a failed attempt goes to
// stderr. Reopen must have been called.
func (rt *Runtime) Redeliver(ctx context.Context, l Letter, stderr io.Writer) (int, error) {
	t := rt.bodies[l.Target]
	if t == nil {
		return 1, fmt.Errorf("the target %s no longer exists", l.Target)
	}
	dir, err := rt.inboxDir()
	if err != nil {
		return 1, err
	}
	data, err := os.ReadFile(filepath.Join(dir, l.Seq+"-"+l.Channel+".txt"))
	if err != nil {
		return 1, err
	}
	m := message{seq: l.Seq, name: l.Channel, sender: l.Sender}
	ri := &rt.inboxes
	if err := ri.logDelivery(fmt.Sprintf("start %s %s %d\n", m.seq, t.Symbol, l.Attempt), false); err != nil {
		return 1, err
	}
	rt.emit(&event.Event{Type: event.DispatchStart, InboxSeq: m.seq, Channel: m.name, Target: t.Symbol, Sender: m.sender, Time: time.Now()})
	start := time.Now()
	root := &frame{rt: rt, env: envFromList(rt.opts.Env)}
	status, _, err := rt.rootCall(ctx, root, callSpec{body: t, args: []string{string(data), m.name, m.sender},
		stdin: strings.NewReader(""), stdout: io.Discard, stderr: stderr, dir: rt.opts.Workspace,
		setEnv: [][2]string{{"JAIPH_DISPATCH_CHANNEL", m.name}, {"JAIPH_DISPATCH_SENDER", m.sender}}})
	if err != nil && status == 0 {
		status = 1
	}
	elapsed := time.Since(start).Milliseconds()
	rt.emit(&event.Event{Type: event.DispatchFinish, InboxSeq: m.seq, Channel: m.name, Target: t.Symbol, Sender: m.sender,
		Status: &status, ElapsedMS: &elapsed, Time: time.Now()})
	if lerr := ri.logDelivery(fmt.Sprintf("end %s %s %d %d\n", m.seq, t.Symbol, l.Attempt, status), false); lerr != nil {
		return 1, lerr
	}
	if status == 0 {
		// The commit point of the redrive: durable before dead/ changes.
		ri.logMu.Lock()
		serr := ri.deliveries.Sync()
		ri.logMu.Unlock()
		return status, serr
	}
	// deadLetter takes only the depth from its frame: a root step's.
	if derr := rt.deadLetter(&frame{rt: rt, stackLen: 1}, m, t, l.Attempt, status); derr != nil {
		return status, derr
	}
	return status, err
}
