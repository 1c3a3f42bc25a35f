package runtime

// This file answers: what do the send and drain builtins do, and how does
// a drain deliver an orchestrator's messages in this process (DrainHere:
// routes, order or run.inbox_parallel, the depth limit)? Where messages
// are kept is the transport's (transport.go).

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jaiph-go/jaiph/internal/envflag"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/exec/shellbuiltin"
	"github.com/jaiph-go/jaiph/lowered"
)

// inbox is an orchestrator's queue (a workflow with routes,
// docs/language.md#the-inbox) as the calls inside it see it. Nested orchestrators get their own (D6).
type inbox struct {
	queue Queue
	// body is the orchestrator, whose routes a drain here follows (nil
	// for the queue of a delivery run on a worker, which never drains).
	body *lowered.Body
	sent atomic.Int64 // messages queued (a redrive reports how many)
}

// message is a message being dispatched.
type message struct {
	seq    string // "001"
	name   string // its channel's declared name: $2
	sender string
}

// openInbox opens the queue of orchestrator b, whose call is step stepSeq
// (stepID) and whose callees are at childDepth: the run's first
// orchestrator's on Options.Transport when one is set, every other's on
// Options.Inbox (D6). env is the call's, whose inbox settings the
// transport gets.
func (rt *Runtime) openInbox(ctx context.Context, b *lowered.Body, stepID string, stepSeq, childDepth int, env mapEnviron) (*inbox, error) {
	tr := rt.opts.Inbox
	if rt.opts.Transport != nil && !rt.remoteOpened.Swap(true) {
		tr = rt.opts.Transport
	}
	if tr == nil {
		return nil, fmt.Errorf("no inbox transport (runtime.Options.Inbox)")
	}
	settings := map[string]string{}
	for _, k := range []string{"JAIPH_INBOX_RETRIES", "JAIPH_INBOX_RETRY_BACKOFF", "JAIPH_INBOX_MAX_DISPATCH_DEPTH", "JAIPH_INBOX_LEASE", "JAIPH_INBOX_PARALLEL"} {
		if v := env.get(k); v != "" {
			settings[k] = v
		}
	}
	q, err := tr.Open(ctx, rt.orchestrator(b, stepID, stepSeq, childDepth, settings), rt)
	if err != nil {
		return nil, err
	}
	return &inbox{queue: q, body: b}, nil
}

// orchestrator describes workflow b with routes to a transport.
func (rt *Runtime) orchestrator(b *lowered.Body, stepID string, stepSeq, childDepth int, settings map[string]string) Orchestrator {
	o := Orchestrator{Symbol: b.Symbol, StepID: stepID, Seq: stepSeq, ChildDepth: childDepth, Env: settings, Routes: map[string][]string{}}
	for _, r := range b.Routes {
		for _, t := range r.Targets {
			if rt.bodies[t] != nil {
				o.Routes[r.Channel] = append(o.Routes[r.Channel], t)
			}
		}
	}
	return o
}

// send queues a message in ib.
func (ib *inbox) send(ctx context.Context, channel, sender, content string) error {
	if err := ib.queue.Send(ctx, channel, sender, content); err != nil {
		return err
	}
	ib.sent.Add(1)
	return nil
}

// builtinSend is `jaiph::send CHANNEL SENDER CONTENT`: it queues a message in
// the caller's inbox; without one it fails and writes nothing (D3).
func builtinSend(ctx context.Context, f *frame, args []string) int {
	hc := interp.HandlerCtx(ctx)
	if len(args) != 3 {
		fmt.Fprintln(hc.Stderr, "jaiph: internal error: send needs channel, sender and content")
		return 1
	}
	if handled, err := f.sendReceived(args[0], args[2]); handled {
		if err != nil {
			fmt.Fprintf(hc.Stderr, "jaiph: cannot queue message on %q: %v\n", lowered.ChannelName(args[0]), err)
			return 1
		}
		return 0
	}
	if f.inbox == nil {
		fmt.Fprintf(hc.Stderr, "jaiph: send to channel %q without an active inbox\n", lowered.ChannelName(args[0]))
		return 1
	}
	if err := f.inbox.send(ctx, args[0], args[1], args[2]); err != nil {
		fmt.Fprintf(hc.Stderr, "jaiph: cannot queue message on %q: %v\n", lowered.ChannelName(args[0]), err)
		return 1
	}
	f.rt.journal.sent(f.jid, f.inboxOwner(), args[0], args[1], args[2])
	return 0
}

// DispatchDepth is the limit on an orchestrator's dispatches
// (docs/language.md#the-drain) for its run.inbox_max_dispatch_depth
// setting (0: not set, which is 100), and the E_DISPATCH_DEPTH error of a
// drain past it.
func DispatchDepth(setting int) (limit int, exceeded error) {
	limit, hint := setting, ""
	if limit <= 0 { // for whoever hit the default without knowing it can be raised
		limit, hint = 100, "; raise the limit with run.inbox_max_dispatch_depth in config or JAIPH_INBOX_MAX_DISPATCH_DEPTH"
	}
	return limit, fmt.Errorf("E_DISPATCH_DEPTH — dispatch loop exceeded %d iterations (possible circular sends)%s", limit, hint)
}

// envInt reads a positive integer setting, or def.
func envInt(v string, def int) int {
	if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n > 0 {
		return n
	}
	return def
}

// maxParallelDispatch bounds the targets running at once in parallel mode,
// so a snapshot of thousands of messages cannot exhaust file descriptors or
// memory; the rest start as soon as slots free up.
const maxParallelDispatch = 64

// builtinDrain is `jaiph::drain STATUS`: after a body that ended with STATUS
// 0 it dispatches the orchestrator's queue (docs/language.md#the-drain);
// otherwise it returns STATUS and leaves the queue alone.
func builtinDrain(ctx context.Context, f *frame, args []string) int {
	if len(args) > 0 && args[0] != "0" {
		return shellbuiltin.StatusArg(args)
	}
	ib := f.inbox
	if ib == nil || !f.ownsInbox {
		return 0
	}
	return ib.queue.Drain(ctx, interp.HandlerCtx(ctx).Stderr)
}

// DrainHere implements Host: the runtime's drain, for a transport whose
// deliveries run in this process (docs/language.md#the-drain). It takes
// mb's messages and calls each one's targets by the orchestrator's
// routes, in order or in parallel (run.inbox_parallel), retried with dead
// letters (run.inbox_retries, dispatch_retry.go), until none is left or
// the dispatch depth limit is passed. ctx is the one Queue.Drain got from
// the drain builtin.
func (rt *Runtime) DrainHere(ctx context.Context, mb Mailbox, stderr io.Writer) int {
	f := frameOf(ctx)
	if f == nil || f.rt != rt || f.inbox == nil || f.inbox.body == nil {
		fmt.Fprintln(stderr, "jaiph: internal error: a drain outside its orchestrator")
		return 1
	}
	routes := map[string][]*lowered.Body{} // channel symbol → targets, in route order
	for _, r := range f.inbox.body.Routes {
		for _, t := range r.Targets {
			if target := rt.bodies[t]; target != nil {
				routes[r.Channel] = append(routes[r.Channel], target)
			}
		}
	}
	hc := interp.HandlerCtx(ctx)
	max, tooDeep := DispatchDepth(envInt(hc.Env.Get("JAIPH_INBOX_MAX_DISPATCH_DEPTH").String(), 0))
	parallel := envflag.True(hc.Env.Get("JAIPH_INBOX_PARALLEL").String())
	pol, err := deliveryPolicyFrom(func(name string) string { return hc.Env.Get(name).String() })
	if err != nil {
		fmt.Fprintln(stderr, err.Error())
		return 1
	}
	env := snapshotEnv(hc.Env)
	// send calls one target: as the reference does (status returned, the
	// drain stops on a failure), or with run.inbox_retries through deliver,
	// whose failures are dead letters that let the drain go on (dead).
	var deadMu sync.Mutex
	dead := false
	send := func(m message, t *lowered.Body, data string) int {
		if pol.retries == 0 {
			return rt.dispatch(ctx, f, env, m, t, data)
		}
		status, isDead := rt.deliver(ctx, f, env, m, t, data, pol, mb, stderr)
		if isDead {
			deadMu.Lock()
			dead = true
			deadMu.Unlock()
			return 0
		}
		return status
	}
	depth := 0
	for {
		var wg sync.WaitGroup
		slots := make(chan struct{}, maxParallelDispatch)
		var failMu sync.Mutex
		failed := false
		taken := 0
		for e := range mb.Take() {
			taken++
			depth++
			if depth > max {
				fmt.Fprintf(stderr, "jaiph: %v\n", tooDeep)
				wg.Wait()
				return 1
			}
			targets := routes[e.Channel]
			if len(targets) == 0 {
				continue
			}
			m := message{seq: e.Seq, name: lowered.ChannelName(e.Channel), sender: e.Sender}
			data, err := mb.Content(m.seq, m.name)
			if err != nil {
				fmt.Fprintf(stderr, "jaiph: cannot read message %s on %q: %v\n", m.seq, m.name, err)
				wg.Wait()
				return 1
			}
			for _, t := range targets {
				if !parallel {
					if send(m, t, data) != 0 {
						return 1
					}
					continue
				}
				wg.Add(1)
				slots <- struct{}{}
				go func(m message, t *lowered.Body) {
					defer func() { <-slots; wg.Done() }()
					if send(m, t, data) != 0 {
						failMu.Lock()
						failed = true
						failMu.Unlock()
					}
				}(m, t)
			}
		}
		if taken == 0 {
			if dead {
				return 1
			}
			return 0
		}
		wg.Wait()
		if failed {
			return 1
		}
		if ctx.Err() != nil {
			return 1
		}
	}
}

// dispatch calls one target with the message (docs/language.md#the-inbox).
func (rt *Runtime) dispatch(ctx context.Context, f *frame, env mapEnviron, m message, t *lowered.Body, content string) int {
	if ctx.Err() != nil {
		return 1
	}
	hc := interp.HandlerCtx(ctx)
	rt.emit(&event.Event{Type: event.DispatchStart, InboxSeq: m.seq, Channel: m.name, Target: t.Symbol, Sender: m.sender, Time: time.Now()})
	start := time.Now()
	replayed := false
	status, _, err := rt.call(ctx, f, callSpec{body: t, args: []string{content, m.name, m.sender},
		stdin: hc.Stdin, stdout: hc.Stdout, stderr: hc.Stderr, env: env, dir: hc.Dir, replayed: &replayed,
		setEnv: [][2]string{{"JAIPH_DISPATCH_CHANNEL", m.name}, {"JAIPH_DISPATCH_SENDER", m.sender}}})
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(hc.Stderr, "jaiph: %v\n", err)
		if status == 0 {
			status = 1
		}
	}
	elapsed := time.Since(start).Milliseconds()
	rt.emit(&event.Event{Type: event.DispatchFinish, InboxSeq: m.seq, Channel: m.name, Target: t.Symbol, Sender: m.sender,
		Status: &status, ElapsedMS: &elapsed, Time: time.Now(), Replayed: replayed})
	return status
}
