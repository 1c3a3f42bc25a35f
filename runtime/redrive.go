package runtime

// This file answers: how does `jaiph redrive` deliver a run's dead letters
// again (docs/inbox-files.md "Redrive")? A runtime reopens the run's
// directory instead of creating one and calls each letter's target as a
// root step, with the message's content, channel and sender, recording
// the attempt as a drain does; what the target sends is then delivered by
// the routes of the workflow that had dispatched it.

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/lowered"
)

// Reopen makes rt write into the existing run directory dir (a redrive):
// reattach. Redeliveries are journaled as the run's deliveries were, but
// a redrive delivers and never replays: two letters may be the same call.
// (The run's inbox transport numbers its messages after the run's.)
func (rt *Runtime) Reopen(dir string) error {
	rt.dirOnce.Do(func() {
		if _, rt.dirErr = rt.reattach(dir); rt.dirErr == nil {
			rt.journal.resuming = false
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
// read from d, $2 the channel, $3 the sender; JAIPH_DISPATCH_* set),
// recording its start and end in d. Status 0: d commits before Redeliver
// goes on, so the caller may then remove the letter; what
// the target sent is then queued in an inbox with the routes of the
// workflow that had dispatched the letter, and delivered as that
// workflow's drain did (retries, dead letters, E_DISPATCH_DEPTH). Any
// other status: d stores it as a dead letter again (one attempt more),
// with its INBOX_DEAD event. The target's stderr of a failed attempt goes
// to stderr. Reopen must have been called.
func (rt *Runtime) Redeliver(ctx context.Context, l Letter, d Deliveries, stderr io.Writer) (Redelivery, error) {
	failed := Redelivery{Status: 1}
	t := rt.bodies[l.Target]
	if t == nil {
		return failed, fmt.Errorf("the target %s no longer exists", l.Target)
	}
	data, err := d.Content(l.Seq, l.Channel)
	if err != nil {
		return failed, err
	}
	if rt.opts.Transport != nil {
		return rt.redeliverRemote(ctx, l, t, data, stderr)
	}
	m := message{seq: l.Seq, name: l.Channel, sender: l.Sender}
	root := &frame{rt: rt, env: envFromList(rt.opts.Env)}
	if orch := rt.router(l.Channel, t.Symbol); orch != nil {
		ib, err := rt.openInbox(ctx, orch, "", int(rt.seq.Load())+1, 1, root.env)
		if err != nil {
			return failed, fmt.Errorf("cannot create inbox: %w", err)
		}
		defer ib.queue.Close()
		root.inbox, root.ownsInbox = ib, true
	}
	if err := d.Started(m.seq, t.Symbol, l.Attempt); err != nil {
		return failed, err
	}
	rt.emit(&event.Event{Type: event.DispatchStart, InboxSeq: m.seq, Channel: m.name, Target: t.Symbol, Sender: m.sender, Time: time.Now()})
	start := time.Now()
	status, _, err := rt.rootCall(ctx, root, callSpec{body: t, args: []string{data, m.name, m.sender},
		stdin: strings.NewReader(""), stdout: io.Discard, stderr: stderr, dir: rt.opts.Workspace,
		setEnv: [][2]string{{"JAIPH_DISPATCH_CHANNEL", m.name}, {"JAIPH_DISPATCH_SENDER", m.sender}}})
	if err != nil && status == 0 {
		status = 1
	}
	elapsed := time.Since(start).Milliseconds()
	rt.emit(&event.Event{Type: event.DispatchFinish, InboxSeq: m.seq, Channel: m.name, Target: t.Symbol, Sender: m.sender,
		Status: &status, ElapsedMS: &elapsed, Time: time.Now()})
	if lerr := d.Ended(m.seq, t.Symbol, l.Attempt, status); lerr != nil {
		return failed, lerr
	}
	if status != 0 {
		// Its INBOX_DEAD is at a root step's depth.
		if derr := d.Dead(m.seq, m.name, m.sender, t.Symbol, l.Attempt, status, 0); derr != nil {
			return Redelivery{Status: status}, derr
		}
		return Redelivery{Status: status}, err
	}
	// The commit point of the redrive: durable before the letter is removed.
	serr := d.Commit()
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
			if lowered.ChannelName(r.Channel) != channel || !slices.Contains(r.Targets, target) {
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
	sent := int(root.inbox.sent.Load())
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

// redeliverRemote is Redeliver for a run whose inbox is on a broker: the
// letter goes back on the broker for a worker, and what it sends is
// delivered there too.
func (rt *Runtime) redeliverRemote(ctx context.Context, l Letter, t *lowered.Body, content string, stderr io.Writer) (Redelivery, error) {
	failed := Redelivery{Status: 1}
	orch := rt.router(l.Channel, t.Symbol)
	if orch == nil {
		return failed, fmt.Errorf("no single workflow routes %q to %s", l.Channel, t.Symbol)
	}
	channel := ""
	for _, r := range orch.Routes {
		if lowered.ChannelName(r.Channel) == l.Channel {
			channel = r.Channel
		}
	}
	settings := map[string]string{}
	env := envFromList(rt.opts.Env)
	for _, k := range []string{"JAIPH_INBOX_RETRIES", "JAIPH_INBOX_RETRY_BACKOFF", "JAIPH_INBOX_MAX_DISPATCH_DEPTH", "JAIPH_INBOX_LEASE"} {
		if v := env.get(k); v != "" {
			settings[k] = v
		}
	}
	rt.applyScope(env, orch)
	for k := range settings {
		settings[k] = env.get(k)
	}
	q, err := rt.opts.Transport.Open(ctx, rt.orchestrator(orch, "", 0, 1, settings), rt)
	if err != nil {
		return failed, err
	}
	defer q.Close()
	rq, ok := q.(Redeliverer)
	if !ok {
		return failed, fmt.Errorf("this inbox transport cannot redeliver")
	}
	if err := rq.Redeliver(ctx, l.Seq, channel, l.Sender, content, t.Symbol, l.Attempt); err != nil {
		return failed, err
	}
	drained := q.Drain(ctx, stderr)
	status, sent := rq.Outcome(l.Seq, t.Symbol)
	followUp := 0
	if status == 0 && drained != 0 {
		followUp = drained
	}
	return Redelivery{Status: status, Sent: sent, FollowUp: followUp}, nil
}
