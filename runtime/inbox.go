package runtime

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"mvdan.cc/sh/v3/interp"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/exec/shellbuiltin"
	"github.com/jaiph-go/jaiph/internal/lowered"
	inboxfiles "github.com/jaiph-go/jaiph/internal/store/inbox"
)

// inbox is the message queue of one orchestrator (a workflow with routes,
// inbox.md). Nested orchestrators get their own (D6); message numbers and
// files are shared by the whole run, so they never repeat.
type inbox struct {
	// remote, when set, carries the sends and the drain (transport.go);
	// the fields below are then unused.
	remote Queue

	journal *inboxfiles.Journal
	routes  map[string][]*lowered.Body // channel symbol → targets, in route order

	sent atomic.Int64 // messages queued (a redrive reports how many)
}

// message is an entry being dispatched.
type message struct {
	seq     string // "001"
	channel string // channel symbol (D9: declaring module + name)
	name    string // declared channel name: $2, file name
	sender  string
}

// inboxDir opens the run's inbox directory once.
func (rt *Runtime) inboxDir() (string, error) {
	err := rt.inboxes.Open(rt.runDir, rt.emit)
	return rt.inboxes.Dir(), err
}

// openInbox registers the routes of orchestrator b (inbox.md §2). The first
// orchestrator of the run journals to inbox/.queue, nested ones to
// inbox/.queue-<step seq> (D6).
func (rt *Runtime) openInbox(b *lowered.Body, stepSeq int) (*inbox, error) {
	if _, err := rt.inboxDir(); err != nil {
		return nil, err
	}
	j, err := rt.inboxes.OpenJournal(stepSeq)
	if err != nil {
		return nil, err
	}
	ib := &inbox{journal: j, routes: map[string][]*lowered.Body{}}
	for _, r := range b.Routes {
		for _, t := range r.Targets {
			if target := rt.bodies[t]; target != nil {
				ib.routes[r.Channel] = append(ib.routes[r.Channel], target)
			}
		}
	}
	return ib, nil
}

func (ib *inbox) close() { ib.queue(nil).Close() }

// enqueue stores a message in ib (inbox.Files.Enqueue).
func (rt *Runtime) enqueue(ib *inbox, channel, sender, content string) error {
	return rt.inboxes.Enqueue(ib.journal, channel, sender, content)
}

// send queues a message in ib; f is the caller that sends it.
func (ib *inbox) send(ctx context.Context, f *frame, channel, sender, content string) error {
	if err := ib.queue(f).Send(ctx, channel, sender, content); err != nil {
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
	if f.inbox == nil {
		fmt.Fprintf(hc.Stderr, "jaiph: send to channel %q without an active inbox\n", lowered.ChannelName(args[0]))
		return 1
	}
	if err := f.inbox.send(ctx, f, args[0], args[1], args[2]); err != nil {
		fmt.Fprintf(hc.Stderr, "jaiph: cannot queue message on %q: %v\n", lowered.ChannelName(args[0]), err)
		return 1
	}
	f.rt.journal.sent(f.jid, f.inboxOwner(), args[0], args[1], args[2])
	return 0
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
// 0 it dispatches the orchestrator's queue (inbox.md §4); otherwise it
// returns STATUS and leaves the queue alone.
func builtinDrain(ctx context.Context, f *frame, args []string) int {
	if len(args) > 0 && args[0] != "0" {
		return shellbuiltin.StatusArg(args)
	}
	ib := f.inbox
	if ib == nil || !f.ownsInbox {
		return 0
	}
	return ib.queue(f).Drain(ctx, interp.HandlerCtx(ctx).Stderr)
}

// queue is the Queue that carries ib's messages (transport.go): the
// transport's, or the file inbox's own (fileQueue); f is the orchestrator
// (or a caller inside it) whose call drains or sends.
func (ib *inbox) queue(f *frame) Queue {
	if ib.remote != nil {
		return ib.remote
	}
	return fileQueue{f: f, ib: ib}
}

// fileQueue is the file inbox behind the transport seam: Send stores a
// message in the run directory (enqueue), Drain dispatches the queue in
// this process (drainFiles).
type fileQueue struct {
	f  *frame
	ib *inbox
}

func (q fileQueue) Send(_ context.Context, channel, sender, content string) error {
	return q.f.rt.enqueue(q.ib, channel, sender, content)
}

func (q fileQueue) Drain(ctx context.Context, _ io.Writer) int { return drainFiles(ctx, q.f, q.ib) }

func (q fileQueue) Close() { q.ib.journal.Close() }

// drainFiles is the file inbox's drain (inbox.md §4): the orchestrator's
// queue dispatched in this process, by routes, in order or in parallel,
// with retries, dead letters and the depth limit. ctx is the drain
// builtin's handler context.
func drainFiles(ctx context.Context, f *frame, ib *inbox) int {
	hc := interp.HandlerCtx(ctx)
	max := envInt(hc.Env.Get("JAIPH_INBOX_MAX_DISPATCH_DEPTH").String(), 0)
	hint := "" // for whoever hit the default without knowing it can be raised
	if max == 0 {
		max, hint = 100, "; raise the limit with run.inbox_max_dispatch_depth in config or JAIPH_INBOX_MAX_DISPATCH_DEPTH"
	}
	parallel := hc.Env.Get("JAIPH_INBOX_PARALLEL").String() == "true"
	pol, err := deliveryPolicyFrom(func(name string) string { return hc.Env.Get(name).String() })
	if err != nil {
		fmt.Fprintln(hc.Stderr, err.Error())
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
			return f.rt.dispatch(ctx, f, env, m, t, data)
		}
		status, isDead := f.rt.deliver(ctx, f, env, m, t, data, pol, hc.Stderr)
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
		// Take the unprocessed entries and drop the processed ones, so a
		// long-running orchestrator's memory stays flat.
		for e := range ib.journal.Take() {
			taken++
			depth++
			if depth > max {
				fmt.Fprintf(hc.Stderr, "jaiph: E_DISPATCH_DEPTH — dispatch loop exceeded %d iterations (possible circular sends)%s\n", max, hint)
				wg.Wait()
				return 1
			}
			targets := ib.routes[e.Channel]
			if len(targets) == 0 {
				continue
			}
			m := message{seq: e.Seq, channel: e.Channel, name: lowered.ChannelName(e.Channel), sender: e.Sender}
			data, err := f.rt.inboxes.Content(m.seq, m.name)
			if err != nil {
				fmt.Fprintf(hc.Stderr, "jaiph: cannot read message %s on %q: %v\n", m.seq, m.name, err)
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

// dispatch calls one target with the message (inbox.md §4 "dispatch").
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
