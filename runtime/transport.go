package runtime

// This file answers: where does an orchestrator's message go? The Queue is
// the one seam: the runtime's send and drain builtins hand a message to the
// orchestrator's Queue and wait on its Drain; they never know what carries
// it. Two implementations: the file inbox (fileQueue, inbox.go), the
// default, and a Transport's queue when the run's inbox is carried beyond
// this process (a broker, `jaiph run --inbox URL`: internal/broker, which
// lives outside the runtime, so the default binary links none of it).

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/lowered"
)

// Transport opens the queue of an orchestrator whose deliveries run
// elsewhere.
type Transport interface {
	Open(ctx context.Context, o Orchestrator, h Host) (Queue, error)
}

// Orchestrator is what a transport knows of the workflow whose routes
// receive the messages.
type Orchestrator struct {
	Symbol     string // module::name of the workflow with routes
	StepID     string // its step id: remote steps are shown under it
	ChildDepth int    // the depth of a step it calls
	// Routes maps a channel symbol to its targets' symbols, in route order.
	Routes map[string][]string
	// Env holds the orchestrator's JAIPH_* settings (retries, backoff,
	// depth limit, lease) as its drain reads them.
	Env map[string]string
}

// Queue takes an orchestrator's sends and drains them through the
// transport.
type Queue interface {
	// Send stores one message durably (or, for a delivery running on a
	// worker, records it with the delivery's result) before it returns.
	Send(ctx context.Context, channel, sender, content string) error
	// Drain blocks until every delivery of the queue, and of the messages
	// those deliveries sent, is final. It returns the drain's status: 0,
	// or 1 with the reason written to stderr.
	Drain(ctx context.Context, stderr io.Writer) int
	Close()
}

// Redeliverer is a Queue that can deliver a dead letter again (`jaiph
// redrive` of a run whose inbox is on a broker): Redeliver queues message
// seq (channel is the channel symbol) for target once more, as attempt
// attempt; Drain then waits for it and for what it sends; Outcome tells
// the letter's own status and how many messages it sent.
type Redeliverer interface {
	Redeliver(ctx context.Context, seq, channel, sender, content, target string, attempt int) error
	Outcome(seq, target string) (status, sent int)
}

// Host is what a transport may do to the run that opened it.
type Host interface {
	// RunDir is the run directory; RunID the run's id.
	RunDir() string
	RunID() string
	// Emit writes an event of a remote step to the run's summary and
	// observers, as a local step's would be.
	Emit(e *event.Event)
	// NextSeq allocates a step number of the run.
	NextSeq() int
	// StoreMessage writes a message into the run's inbox directory
	// (NNN-<channel>.txt and its journal line) and emits its
	// INBOX_ENQUEUE, as the file inbox would.
	StoreMessage(seq, channel, sender, content string) error
	// DeliveryStarted and DeliveryEnded journal an attempt in
	// inbox/.deliveries (with run.inbox_retries, as the file drain does);
	// DeadLetter stores a dead letter and emits its INBOX_DEAD.
	DeliveryStarted(seq, target string, attempt int) error
	DeliveryEnded(seq, target string, attempt, status int) error
	DeadLetter(seq, channel, sender, target string, attempts, status, depth int) error
}

// Delivery is a message delivered to a target on a worker (Options.Delivery):
// the root call is the target, and what it sends goes to Queue.
type Delivery struct {
	Target                   string // the target workflow's symbol
	Payload, Channel, Sender string
	Queue                    Queue
}

// Emit implements Host.
func (rt *Runtime) Emit(e *event.Event) { rt.emit(e) }

// NextSeq implements Host.
func (rt *Runtime) NextSeq() int { return rt.nextSeq() }

// StoreMessage implements Host: the message's file and journal line in the
// run's inbox directory, so `jaiph inbox` reads a broker run as a file one.
func (rt *Runtime) StoreMessage(seq, channel, sender, content string) error {
	dir, err := rt.inboxDir()
	if err != nil {
		return err
	}
	name := channelName(channel)
	file := seq + "-" + name + ".txt"
	ri := &rt.inboxes
	// A resumed run queues its messages again: one already stored, with
	// the same content, keeps its file and journal line.
	if old, err := os.ReadFile(filepath.Join(dir, file)); err != nil || string(old) != content {
		if err := os.WriteFile(filepath.Join(dir, file), []byte(content), 0o644); err != nil {
			return err
		}
		ri.logMu.Lock()
		j, err := os.OpenFile(filepath.Join(dir, ".queue"), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		if err == nil {
			_, err = j.WriteString(name + ":" + seq + ":" + sender + "\n")
			j.Close()
		}
		ri.logMu.Unlock()
		if err != nil {
			return err
		}
	}
	ri.mu.Lock()
	if n, _ := strconv.Atoi(seq); n > ri.seq {
		ri.seq = n
	}
	ri.mu.Unlock()
	e := &event.Event{Type: event.InboxEnqueue, InboxSeq: seq, Channel: name, Sender: sender, PayloadPreview: content, Time: time.Now()}
	if head, cut := cutRunes(content, 4096); cut {
		ref := "inbox/" + file
		e.PayloadPreview, e.PayloadRef = head+"...", &ref
	}
	rt.emit(e)
	return nil
}

// DeliveryStarted implements Host.
func (rt *Runtime) DeliveryStarted(seq, target string, attempt int) error {
	return rt.inboxes.logDelivery(fmt.Sprintf("start %s %s %d\n", seq, target, attempt), false)
}

// DeliveryEnded implements Host.
func (rt *Runtime) DeliveryEnded(seq, target string, attempt, status int) error {
	return rt.inboxes.logDelivery(fmt.Sprintf("end %s %s %d %d\n", seq, target, attempt, status), false)
}

// DeadLetter implements Host.
func (rt *Runtime) DeadLetter(seq, channel, sender, target string, attempts, status, depth int) error {
	return rt.storeDeadLetter(message{seq: seq, channel: channel, name: channelName(channel), sender: sender}, target, attempts, status, depth)
}

// openRemote opens the transport's queue for orchestrator b (call.go): the
// run's first orchestrator only; nested ones keep the file inbox (D6).
func (rt *Runtime) openRemote(ctx context.Context, f *frame, env mapEnviron) (Queue, error) {
	if rt.opts.Transport == nil || rt.remoteOpened.Swap(true) {
		return nil, nil
	}
	settings := map[string]string{}
	for _, k := range []string{"JAIPH_INBOX_RETRIES", "JAIPH_INBOX_RETRY_BACKOFF", "JAIPH_INBOX_MAX_DISPATCH_DEPTH", "JAIPH_INBOX_LEASE", "JAIPH_INBOX_PARALLEL"} {
		if v := env.get(k); v != "" {
			settings[k] = v
		}
	}
	return rt.opts.Transport.Open(ctx, rt.orchestrator(f.body, f.id, f.stackLen, settings), rt)
}

// orchestrator describes workflow b with routes to a transport.
func (rt *Runtime) orchestrator(b *lowered.Body, stepID string, childDepth int, settings map[string]string) Orchestrator {
	o := Orchestrator{Symbol: b.Symbol, StepID: stepID, ChildDepth: childDepth, Env: settings, Routes: map[string][]string{}}
	for _, r := range b.Routes {
		for _, t := range r.Targets {
			if rt.bodies[t] != nil {
				o.Routes[r.Channel] = append(o.Routes[r.Channel], t)
			}
		}
	}
	return o
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
		if channelName(r.Channel) == l.Channel {
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
	q, err := rt.opts.Transport.Open(ctx, rt.orchestrator(orch, "", 1, settings), rt)
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

// Deliver runs a delivery on a worker: the target workflow is the root
// call, with the message as its arguments and the dispatch variables set,
// and its sends go to d.Queue.
func (rt *Runtime) Deliver(ctx context.Context, d Delivery) (int, error) {
	b := rt.bodies[d.Target]
	if b == nil || b.Kind != lowered.Workflow {
		return 1, fmt.Errorf("no workflow %s in the delivered sources", d.Target)
	}
	rt.args = []string{d.Payload, channelName(d.Channel), d.Sender}
	root := &frame{rt: rt, env: envFromList(rt.opts.Env), inbox: &inbox{remote: d.Queue}}
	status, value, err := rt.rootCall(ctx, root, callSpec{body: b, args: rt.args, stdin: rt.opts.Stdin,
		stdout: io.Discard, stderr: rt.opts.StrayStderr, dir: rt.opts.Workspace,
		setEnv: [][2]string{{"JAIPH_DISPATCH_CHANNEL", channelName(d.Channel)}, {"JAIPH_DISPATCH_SENDER", d.Sender}}})
	rt.value = value
	return status, err
}
