package runtime

// This file answers: where does an orchestrator's message go? A Transport
// opens each orchestrator's Queue; the runtime's send and drain builtins
// hand a message to it and wait on its Drain, and never know what carries
// it or where it is kept. A queue delivers its messages itself (a broker's,
// on workers) or lets the runtime deliver them in this process
// (Host.DrainHere, dispatch.go), as the file inbox does. The transports
// are packages of their own that import this one, never the reverse
// (docs/architecture.md).

import (
	"context"
	"fmt"
	"io"
	"iter"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/lowered"
)

// Transport opens the queue of each orchestrator of a run (Options.Inbox,
// Options.Transport).
type Transport interface {
	Open(ctx context.Context, o Orchestrator, h Host) (Queue, error)
}

// Orchestrator is what a transport knows of the workflow whose routes
// receive the messages.
type Orchestrator struct {
	Symbol     string // module::name of the workflow with routes
	StepID     string // its step id: remote steps are shown under it
	Seq        int    // its step number (0 for a redrive's)
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
	// Dir is the directory of the run's messages, which the orchestrator
	// gets as JAIPH_INBOX_DIR ("" for none).
	Dir() string
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
	// Emit writes an event to the run's summary and observers: a remote
	// step's, as a local step's would be, or a message's.
	Emit(e *event.Event)
	// EmitAll is Emit of events that reach the summary in one write (a
	// remote attempt's steps, shown together: a write each showed in
	// profiles).
	EmitAll(es []*event.Event)
	// NextSeq allocates a step number of the run.
	NextSeq() int
	// DrainHere delivers the messages of a queue whose deliveries run in
	// this process: the runtime's drain (dispatch.go). A queue's Drain
	// calls it with its own ctx.
	DrainHere(ctx context.Context, m Mailbox, stderr io.Writer) int
}

// Mailbox is a queue delivered in this process (Host.DrainHere).
type Mailbox interface {
	Deliveries
	// Take returns the messages stored since the last Take, in the order
	// they were numbered, and forgets them.
	Take() iter.Seq[Message]
}

// Message is a stored message: its number ("001"), its channel's symbol
// (D9) and its sender.
type Message struct {
	Seq, Channel, Sender string
}

// Deliveries reads stored messages and records what became of their
// deliveries, where `jaiph inbox` and `jaiph redrive` read it back.
// channel is a channel's declared name.
type Deliveries interface {
	// Content is the payload of message seq.
	Content(seq, channel string) (string, error)
	// Started and Ended record an attempt at delivering message seq to
	// the workflow target.
	Started(seq, target string, attempt int) error
	Ended(seq, target string, attempt, status int) error
	// Dead stores message seq as a dead letter for target after attempts
	// attempts, the last with status, and emits its INBOX_DEAD (depth:
	// the event's).
	Dead(seq, channel, sender, target string, attempts, status, depth int) error
	// Commit makes what was recorded durable.
	Commit() error
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

// EmitAll implements Host.
func (rt *Runtime) EmitAll(es []*event.Event) { rt.emitAll(es) }

// NextSeq implements Host.
func (rt *Runtime) NextSeq() int { return rt.nextSeq() }

// Deliver runs a delivery on a worker: the target workflow is the root
// call, with the message as its arguments and the dispatch variables set,
// and its sends go to d.Queue.
func (rt *Runtime) Deliver(ctx context.Context, d Delivery) (int, error) {
	b := rt.bodies[d.Target]
	if b == nil || b.Kind != lowered.Workflow {
		return 1, fmt.Errorf("no workflow %s in the delivered sources", d.Target)
	}
	rt.args = []string{d.Payload, lowered.ChannelName(d.Channel), d.Sender}
	root := &frame{rt: rt, env: envFromList(rt.opts.Env), inbox: &inbox{queue: d.Queue}}
	status, value, err := rt.rootCall(ctx, root, callSpec{body: b, args: rt.args, stdin: rt.opts.Stdin,
		stdout: io.Discard, stderr: rt.opts.StrayStderr, dir: rt.opts.Workspace,
		setEnv: [][2]string{{"JAIPH_DISPATCH_CHANNEL", lowered.ChannelName(d.Channel)}, {"JAIPH_DISPATCH_SENDER", d.Sender}}})
	rt.value = value
	return status, err
}
