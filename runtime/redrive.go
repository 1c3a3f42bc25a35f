package runtime

// This file answers: how does `jaiph redrive` deliver a run's dead letters
// again (docs/inbox-files.md "Redrive")? A runtime reopens the run's
// directory instead of creating one and calls each letter's target as a
// root step, with the message's content, channel and sender, logging the
// attempt in inbox/.deliveries like a drain does; what the target sends is
// then delivered by the routes of the workflow that had dispatched it.

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"mvdan.cc/sh/v3/interp"
	"mvdan.cc/sh/v3/syntax"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/lowered"
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
			// A redrive's inboxes journal to .queue-<step seq>, numbered
			// after the run's steps: the run's .queue stays as it was.
			rt.inboxes.journals = 1
			rt.redriving = true
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

// Redelivery is what became of one redelivered letter.
type Redelivery struct {
	Status int // the target's
	// Sent counts the messages the target sent; FollowUp is the status of
	// their delivery (0: each delivered, or none sent).
	Sent, FollowUp int
}

// Redeliver delivers l once, as the drain's dispatch does ($1 the content,
// $2 the channel, $3 the sender; JAIPH_DISPATCH_* set), logging `start`
// and `end` in inbox/.deliveries. Status 0: the end line is synced before
// Redeliver goes on, so the caller may then remove the dead/ file; what
// the target sent is then queued in an inbox with the routes of the
// workflow that had dispatched the letter, and delivered as that
// workflow's drain did (retries, dead letters, E_DISPATCH_DEPTH). Any
// other status: a `dead` line (the letter stays dead, one attempt more)
// and an INBOX_DEAD event. The target's stderr of a failed attempt goes to
// stderr. Reopen must have been called.
func (rt *Runtime) Redeliver(ctx context.Context, l Letter, stderr io.Writer) (Redelivery, error) {
	failed := Redelivery{Status: 1}
	t := rt.bodies[l.Target]
	if t == nil {
		return failed, fmt.Errorf("the target %s no longer exists", l.Target)
	}
	dir, err := rt.inboxDir()
	if err != nil {
		return failed, err
	}
	data, err := os.ReadFile(filepath.Join(dir, l.Seq+"-"+l.Channel+".txt"))
	if err != nil {
		return failed, err
	}
	if rt.opts.Transport != nil {
		return rt.redeliverRemote(ctx, l, t, string(data), stderr)
	}
	m := message{seq: l.Seq, name: l.Channel, sender: l.Sender}
	ri := &rt.inboxes
	root := &frame{rt: rt, env: envFromList(rt.opts.Env)}
	if orch := rt.router(l.Channel, t.Symbol); orch != nil {
		ib, err := rt.openInbox(orch, int(rt.seq.Load())+1)
		if err != nil {
			return failed, fmt.Errorf("cannot create inbox: %w", err)
		}
		defer ib.close()
		root.inbox, root.ownsInbox = ib, true
	}
	if err := ri.logDelivery(fmt.Sprintf("start %s %s %d\n", m.seq, t.Symbol, l.Attempt), false); err != nil {
		return failed, err
	}
	rt.emit(&event.Event{Type: event.DispatchStart, InboxSeq: m.seq, Channel: m.name, Target: t.Symbol, Sender: m.sender, Time: time.Now()})
	start := time.Now()
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
		return failed, lerr
	}
	if status != 0 {
		// deadLetter takes only the depth from its frame: a root step's.
		if derr := rt.deadLetter(&frame{rt: rt, stackLen: 1}, m, t, l.Attempt, status); derr != nil {
			return Redelivery{Status: status}, derr
		}
		return Redelivery{Status: status}, err
	}
	// The commit point of the redrive: durable before dead/ changes.
	ri.logMu.Lock()
	serr := ri.deliveries.Sync()
	ri.logMu.Unlock()
	if serr != nil || root.inbox == nil {
		return Redelivery{}, serr
	}
	return rt.followUp(ctx, root, stderr)
}

// router is the workflow whose routes send the channel named channel to
// target, when exactly one does: the orchestrator that dispatched the
// letter in the run. Several (the same channel name routed to the same
// target by two workflows): none, and a send in the target fails as it
// does outside any orchestrator.
func (rt *Runtime) router(channel, target string) *lowered.Body {
	var found *lowered.Body
	for _, b := range rt.bodies {
		for _, r := range b.Routes {
			if channelName(r.Channel) != channel || !slices.Contains(r.Targets, target) {
				continue
			}
			if found != nil && found != b {
				return nil
			}
			found = b
		}
	}
	return found
}

// followUp delivers what a redelivered target sent to root's inbox: the
// orchestrator's own drain builtin, run by a runner whose frame owns the
// inbox, so routes, run.inbox_parallel, retries and dead letters behave
// as in the run. The targets' stdout is in their artifacts only, as the
// redelivered one's is.
func (rt *Runtime) followUp(ctx context.Context, root *frame, stderr io.Writer) (Redelivery, error) {
	root.inbox.mu.Lock()
	sent := len(root.inbox.entries)
	root.inbox.mu.Unlock()
	if sent == 0 {
		return Redelivery{}, nil
	}
	drain, err := syntax.NewParser().Parse(strings.NewReader("jaiph::drain 0\n"), "redrive")
	if err != nil {
		return Redelivery{}, err
	}
	status, _, err := rt.asRoot(ctx, func(ctx context.Context) (int, string, error) {
		r, err := newRunner(runnerConfig{env: root.env, dir: rt.opts.Workspace, params: []string{"--"},
			stdin: strings.NewReader(""), stdout: io.Discard, stderr: stderr, jaiph: rt.execMiddleware, funcs: rt.commandFunc})
		if err != nil {
			return 1, "", err
		}
		err = r.Run(context.WithValue(ctx, frameKey{}, root), drain)
		if st, ok := interp.IsExitStatus(err); ok {
			return int(st), "", nil
		}
		if err != nil {
			return 1, "", err
		}
		return 0, "", nil
	})
	return Redelivery{Sent: sent, FollowUp: status}, err
}
