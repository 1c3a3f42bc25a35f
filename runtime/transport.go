package runtime

// This file answers: where does an orchestrator's message go when the run's
// inbox is carried beyond this process (a broker, `jaiph run --inbox URL`)?
// The file inbox (inbox.go) is the default and needs none of this. A
// Transport is the one seam: the runtime's send and drain builtins hand a
// message to the orchestrator's Queue and wait on its Drain; they never know
// which transport carries it. Implementations live outside the runtime
// (internal/broker), so the default binary links none of them.

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"mvdan.cc/sh/v3/interp"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/lowered"
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
	if n := atoiOr(seq, 0); n > ri.seq {
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

func atoiOr(s string, def int) int {
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return def
		}
		n = n*10 + int(c-'0')
	}
	return n
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
	o := Orchestrator{Symbol: f.body.Symbol, StepID: f.id, ChildDepth: f.stackLen, Env: settings, Routes: map[string][]string{}}
	for _, r := range f.body.Routes {
		for _, t := range r.Targets {
			if rt.bodies[t] != nil {
				o.Routes[r.Channel] = append(o.Routes[r.Channel], t)
			}
		}
	}
	return rt.opts.Transport.Open(ctx, o, rt)
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

// remoteDrain is the drain of an orchestrator whose queue is remote.
func remoteDrain(ctx context.Context, ib *inbox) int {
	return ib.remote.Drain(ctx, interp.HandlerCtx(ctx).Stderr)
}
