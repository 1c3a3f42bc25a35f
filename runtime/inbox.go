package runtime

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"mvdan.cc/sh/v3/interp"

	"github.com/jaiph-go/jaiph/internal/atomicfile"
	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/exec/shellbuiltin"
	"github.com/jaiph-go/jaiph/internal/rawfile"
	"github.com/jaiph-go/jaiph/lowered"
)

// inbox is the message queue of one orchestrator (a workflow with routes,
// inbox.md). Nested orchestrators get their own (D6); message numbers and
// files are shared by the whole run, so they never repeat.
type inbox struct {
	// remote, when set, carries the sends and the drain (transport.go);
	// the fields below are then unused.
	remote Queue

	journal *os.File                   // append-only `<channel>:<NNN>:<sender>` lines
	routes  map[string][]*lowered.Body // channel symbol → targets, in route order

	mu      sync.Mutex
	entries []entry // committed, not yet dispatched
	// names interns channel symbols and senders: an entry holds indexes,
	// so 100,000 queued messages cost 1.2 MB, not their strings.
	names []string
	index map[string]uint32
}

// entry is one queued message; its content stays in its file.
type entry struct {
	seq             uint32
	channel, sender uint32 // indexes into inbox.names
}

// message is an entry being dispatched.
type message struct {
	seq     string // "001"
	channel string // channel symbol (D9: declaring module + name)
	name    string // declared channel name: $2, file name
	sender  string
}

// runInbox holds what the whole run's inboxes share: the directory, the
// message counter and the commit queue.
type runInbox struct {
	once sync.Once
	dir  string

	fsync bool // JAIPH_INBOX_FSYNC=true: every commit syncs

	mu       sync.Mutex
	err      error // creating the directory or storing messages failed
	seq      int
	journals int
	pending  []*pendingMessage

	commitMu sync.Mutex // one group commit at a time

	logMu      sync.Mutex
	deliveries *os.File // inbox/.deliveries, opened by the first logged delivery (inbox_retry.go)
}

// inboxDir creates <run_dir>/inbox and its inbox/.tmp once.
func (rt *Runtime) inboxDir() (string, error) {
	ri := &rt.inboxes
	ri.once.Do(func() {
		ri.dir = filepath.Join(rt.runDir, "inbox")
		ri.fsync = rt.env("JAIPH_INBOX_FSYNC") == "true"
		if err := os.MkdirAll(filepath.Join(ri.dir, ".tmp"), 0o755); err != nil {
			ri.fail(err)
		}
	})
	return ri.dir, ri.failed()
}

// openInbox registers the routes of orchestrator b (inbox.md §2). The first
// orchestrator of the run journals to inbox/.queue, nested ones to
// inbox/.queue-<step seq> (D6).
func (rt *Runtime) openInbox(b *lowered.Body, stepSeq int) (*inbox, error) {
	dir, err := rt.inboxDir()
	if err != nil {
		return nil, err
	}
	ri := &rt.inboxes
	ri.mu.Lock()
	name := ".queue"
	if ri.journals > 0 {
		name = fmt.Sprintf(".queue-%06d", stepSeq)
	}
	ri.journals++
	ri.mu.Unlock()
	j, err := os.OpenFile(filepath.Join(dir, name), os.O_CREATE|os.O_WRONLY|os.O_APPEND|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	ib := &inbox{journal: j, routes: map[string][]*lowered.Body{}, index: map[string]uint32{}}
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

// intern returns the index of s in ib.names (ib.mu held).
func (ib *inbox) intern(s string) uint32 {
	i, ok := ib.index[s]
	if !ok {
		i = uint32(len(ib.names))
		ib.names = append(ib.names, s)
		ib.index[s] = i
	}
	return i
}

// close records the last message number in inbox/.seq, removes the empty
// inbox/.tmp and syncs the inbox, once, when the run closes (.seq is not
// rewritten per message: the journals hold every number).
func (ri *runInbox) close() {
	ri.mu.Lock()
	defer ri.mu.Unlock()
	if ri.dir != "" {
		_ = atomicfile.Write(filepath.Join(ri.dir, ".seq"), []byte(strconv.Itoa(ri.seq)), 0o644)
		os.Remove(filepath.Join(ri.dir, ".tmp"))
		_ = ri.sync()
	}
	ri.logMu.Lock()
	if ri.deliveries != nil {
		if ri.fsync {
			_ = ri.deliveries.Sync()
		}
		ri.deliveries.Close()
	}
	ri.logMu.Unlock()
}

// channelName is the declared name of a channel symbol.
func channelName(sym string) string { return sym[strings.LastIndex(sym, "::")+2:] }

// pendingMessage is a sent message whose content is in a temporary file,
// waiting for the group commit that gives it its number.
type pendingMessage struct {
	ib              *inbox
	channel, sender string
	tmp             string
	preview         string
	ref             bool // preview truncated: the event names the file
	queuedAt        time.Time
	done            bool  // committed or failed (read and written under commitMu)
	err             error // why it failed
}

// enqueue stores a message (inbox.md §3) and returns once it is complete
// under its final name, with its number and journal line:
//
//  1. its content is written to inbox/.tmp/<random> (no reader looks there,
//     so a crash mid-write leaves nothing that looks like a message);
//  2. a group commit (commit) then, per message, allocates the next number,
//     renames the file to inbox/NNN-<channel>.txt, appends its journal line
//     and writes its INBOX_ENQUEUE event.
//
// Concurrent senders share one commit; a sender returns only after the
// commit that holds its message, so a send that returned 0 survives a
// kill -9 of jaiph (the kernel has the files). With JAIPH_INBOX_FSYNC=true
// each commit also syncs (contents before their names, names and journal
// lines before the senders return), so it survives a power loss too; that
// costs about 1 ms per commit here, i.e. per send of a sequential sender
// (docs/performance.md). Otherwise the inbox is synced when the run ends.
//
// After a crash the journals (.queue, .queue-*) tell exactly which
// messages exist: each line names a complete file. The one exception is
// the message whose commit was cut between its rename and its journal
// line: at most one NNN-<channel>.txt without a journal line, numbered
// right after the highest journalled number; its send never returned.
// Files left in inbox/.tmp are not messages, nor is a last journal line
// without its newline (a failed write; every later send fails).
func (rt *Runtime) enqueue(ib *inbox, channel, sender, content string) error {
	ri := &rt.inboxes
	if err := ri.failed(); err != nil {
		return err
	}
	// Plain system calls, not an *os.File: its registration with the poller
	// would be five calls more per message (internal/rawfile).
	tmp, err := rawfile.WriteTemp(filepath.Join(ri.dir, ".tmp"), content)
	if err != nil {
		return err
	}
	p := &pendingMessage{ib: ib, channel: channel, sender: sender, tmp: tmp, preview: content, queuedAt: time.Now()}
	if head, cut := cutRunes(content, 4096); cut {
		p.preview, p.ref = head+"...", true
	}
	ri.mu.Lock()
	ri.pending = append(ri.pending, p)
	ri.mu.Unlock()
	ri.commitMu.Lock()
	defer ri.commitMu.Unlock()
	if !p.done {
		rt.commit()
	}
	return p.err
}

// commit stores every pending message (commitMu held): the sender that
// gets the lock first commits the messages of everyone who queued
// meanwhile.
func (rt *Runtime) commit() {
	ri := &rt.inboxes
	ri.mu.Lock()
	batch := ri.pending
	ri.pending = nil
	ri.mu.Unlock()
	var err error
	if ri.fsync {
		tmps := make([]string, len(batch))
		for i, p := range batch {
			tmps[i] = p.tmp
		}
		err = syncFiles(ri.dir, tmps)
	}
	n := 0 // messages stored
	for _, p := range batch {
		if err == nil {
			err = rt.store(p)
		}
		if err != nil {
			os.Remove(p.tmp)
			continue
		}
		n++
	}
	if err == nil && ri.fsync && n > 0 {
		if err = ri.sync(); err != nil {
			n = 0 // stored, but not durable
		}
	}
	if err != nil {
		ri.fail(fmt.Errorf("cannot store messages: %w", err))
	}
	for i, p := range batch {
		p.done = true
		if i >= n {
			p.err = ri.failed()
		}
	}
}

// sync makes the inbox's names and journals durable.
func (ri *runInbox) sync() error {
	paths, _ := filepath.Glob(filepath.Join(ri.dir, ".queue*"))
	return syncFiles(ri.dir, append(paths, ri.dir))
}

// store gives a message its number, its final name and its journal
// line, then queues it and writes its INBOX_ENQUEUE event.
func (rt *Runtime) store(p *pendingMessage) error {
	ri := &rt.inboxes
	ri.mu.Lock()
	n := ri.seq + 1 // commits are serial (commitMu); taken once stored, so no gaps
	ri.mu.Unlock()
	seq, name := fmt.Sprintf("%03d", n), channelName(p.channel)
	file := seq + "-" + name + ".txt"
	if err := os.Rename(p.tmp, filepath.Join(ri.dir, file)); err != nil {
		return err
	}
	if _, err := p.ib.journal.WriteString(name + ":" + seq + ":" + p.sender + "\n"); err != nil {
		os.Remove(filepath.Join(ri.dir, file)) // no final file without its journal line
		return fmt.Errorf("journal: %w", err)
	}
	ri.mu.Lock()
	ri.seq = n
	ri.mu.Unlock()
	e := &event.Event{Type: event.InboxEnqueue, InboxSeq: seq, Channel: name, Sender: p.sender, PayloadPreview: p.preview, Time: p.queuedAt}
	if p.ref {
		ref := "inbox/" + file
		e.PayloadRef = &ref
	}
	rt.emit(e) // before a drain can see the entry: ENQUEUE precedes its dispatch
	ib := p.ib
	ib.mu.Lock()
	ib.entries = append(ib.entries, entry{seq: uint32(n), channel: ib.intern(p.channel), sender: ib.intern(p.sender)})
	ib.mu.Unlock()
	return nil
}

func (ri *runInbox) fail(err error) {
	ri.mu.Lock()
	if ri.err == nil {
		ri.err = err
	}
	ri.mu.Unlock()
}

func (ri *runInbox) failed() error {
	ri.mu.Lock()
	defer ri.mu.Unlock()
	return ri.err
}

// fsyncEach fsyncs each file or directory.
func fsyncEach(paths []string) error {
	for _, p := range paths {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		err = f.Sync()
		f.Close()
		if err != nil {
			return err
		}
	}
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
		fmt.Fprintf(hc.Stderr, "jaiph: send to channel %q without an active inbox\n", channelName(args[0]))
		return 1
	}
	if err := f.inbox.queue(f).Send(ctx, args[0], args[1], args[2]); err != nil {
		fmt.Fprintf(hc.Stderr, "jaiph: cannot queue message on %q: %v\n", channelName(args[0]), err)
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
		// Take the unprocessed entries and drop the processed ones, so a
		// long-running orchestrator's memory stays flat.
		ib.mu.Lock()
		snapshot, names := ib.entries, ib.names
		ib.entries = nil
		ib.mu.Unlock()
		if len(snapshot) == 0 {
			if dead {
				return 1
			}
			return 0
		}
		var wg sync.WaitGroup
		slots := make(chan struct{}, maxParallelDispatch)
		var failMu sync.Mutex
		failed := false
		for _, e := range snapshot {
			depth++
			if depth > max {
				fmt.Fprintf(hc.Stderr, "jaiph: E_DISPATCH_DEPTH — dispatch loop exceeded %d iterations (possible circular sends)%s\n", max, hint)
				wg.Wait()
				return 1
			}
			targets := ib.routes[names[e.channel]]
			if len(targets) == 0 {
				continue
			}
			m := message{seq: fmt.Sprintf("%03d", e.seq), channel: names[e.channel], sender: names[e.sender]}
			m.name = channelName(m.channel)
			data, err := rawfile.ReadFile(filepath.Join(f.rt.inboxes.dir, m.seq+"-"+m.name+".txt"))
			if err != nil {
				fmt.Fprintf(hc.Stderr, "jaiph: cannot read message %s on %q: %v\n", m.seq, m.name, err)
				wg.Wait()
				return 1
			}
			for _, t := range targets {
				if !parallel {
					if send(m, t, string(data)) != 0 {
						return 1
					}
					continue
				}
				wg.Add(1)
				slots <- struct{}{}
				go func(m message, t *lowered.Body) {
					defer func() { <-slots; wg.Done() }()
					if send(m, t, string(data)) != 0 {
						failMu.Lock()
						failed = true
						failMu.Unlock()
					}
				}(m, t)
			}
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
