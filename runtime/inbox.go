package runtime

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"mvdan.cc/sh/v3/interp"

	"github.com/jaiph-go/jaiph/codegen"
	"github.com/jaiph-go/jaiph/internal/atomicfile"
	"github.com/jaiph-go/jaiph/shellbuiltin"
)

// inbox is the message queue of one orchestrator (a workflow with routes,
// inbox.md). Nested orchestrators get their own (D6); message numbers and
// files are shared by the whole run, so they never repeat.
type inbox struct {
	journal *os.File                   // append-only `<channel>:<NNN>:<sender>` lines
	routes  map[string][]*codegen.Body // channel symbol → targets, in route order

	mu      sync.Mutex
	entries []message
}

// message is one queued entry.
type message struct {
	seq     string // "001"
	channel string // channel symbol (D9: declaring module + name)
	name    string // declared channel name: $2, file name
	sender  string
	// content is kept for messages up to the preview size; longer ones are
	// read back from their file when dispatched.
	content string
	small   bool
}

// runInbox holds what the whole run's inboxes share: the directory and the
// message counter.
type runInbox struct {
	once sync.Once
	dir  string

	mu       sync.Mutex
	err      error // creating the directory or storing messages failed
	seq      int
	journals int
	pending  []*pendingMessage
	npending atomic.Int32 // len(pending), read without the lock by emit

	commitMu sync.Mutex // one group commit at a time
}

// inboxDir creates <run_dir>/inbox once.
func (rt *Runtime) inboxDir() (string, error) {
	ri := &rt.inboxes
	ri.once.Do(func() {
		ri.dir = filepath.Join(rt.runDir, "inbox")
		if err := os.MkdirAll(ri.dir, 0o755); err != nil {
			ri.fail(err)
		}
	})
	return ri.dir, ri.failed()
}

// openInbox registers the routes of orchestrator b (inbox.md §2). The first
// orchestrator of the run journals to inbox/.queue, nested ones to
// inbox/.queue-<step seq> (D6).
func (rt *Runtime) openInbox(b *codegen.Body, stepSeq int) (*inbox, error) {
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
	ib := &inbox{journal: j, routes: map[string][]*codegen.Body{}}
	mod := rt.modules[strings.TrimSuffix(b.Symbol, "::"+b.Name)]
	for _, r := range b.Workflow.Routes {
		ch := mod.Ref(r.Channel)
		for _, t := range r.Targets {
			if target := rt.bodies[mod.Ref(t.Ref)]; target != nil {
				ib.routes[ch] = append(ib.routes[ch], target)
			}
		}
	}
	return ib, nil
}

func (ib *inbox) close() { ib.journal.Close() }

// saveSeq records the last message number in inbox/.seq (once, when the run
// closes, rather than per message).
func (ri *runInbox) saveSeq() {
	ri.mu.Lock()
	defer ri.mu.Unlock()
	if ri.dir != "" {
		_ = atomicfile.Write(filepath.Join(ri.dir, ".seq"), []byte(strconv.Itoa(ri.seq)), 0o644)
	}
}

// channelName is the declared name of a channel symbol.
func channelName(sym string) string { return sym[strings.LastIndex(sym, "::")+2:] }

// pendingMessage is a message whose file is written under a temporary name
// but not yet synced, renamed and journalled.
type pendingMessage struct {
	ib       *inbox
	m        message
	tmp      string
	file     string // NNN-<channel>.txt
	preview  string
	ref      *string
	queuedAt time.Time
}

// maxPendingMessages bounds the messages waiting for a group commit, which
// keeps memory flat however many a workflow sends.
const maxPendingMessages = 1024

// enqueue stores a message (inbox.md §3). Its content goes to a temporary
// file at once (so write errors reach the sender); the message joins the
// queue in a group commit (commitMessages) that syncs the files, renames
// them to their final names and only then appends their journal lines and
// INBOX_ENQUEUE events. So no reader ever sees a torn message and a crash
// never leaves a half one, at one sync per batch instead of per message.
func (rt *Runtime) enqueue(ib *inbox, channel, sender, content string) error {
	ri := &rt.inboxes
	if err := ri.failed(); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(ri.dir, ".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.WriteString(content)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(tmp.Name())
		return err
	}
	name := channelName(channel)
	p := &pendingMessage{ib: ib, tmp: tmp.Name(), preview: content, queuedAt: time.Now()}
	if r := []rune(content); len(r) > 4096 {
		p.preview = string(r[:4096]) + "..."
	}
	ri.mu.Lock()
	ri.seq++
	p.m = message{seq: fmt.Sprintf("%03d", ri.seq), channel: channel, name: name, sender: sender}
	if p.preview == content {
		p.m.content, p.m.small = content, true
	}
	p.file = p.m.seq + "-" + name + ".txt"
	if p.preview != content {
		ref := "inbox/" + p.file
		p.ref = &ref
	}
	ri.pending = append(ri.pending, p)
	n := len(ri.pending)
	ri.npending.Store(int32(n))
	ri.mu.Unlock()
	if n >= maxPendingMessages {
		return rt.commitMessages()
	}
	return nil
}

// commitMessages completes the pending messages in sequence order. It runs
// before any other event is emitted, before each drain snapshot and when
// the run closes, so the summary order is the one of synchronous sends.
func (rt *Runtime) commitMessages() error {
	ri := &rt.inboxes
	ri.commitMu.Lock()
	defer ri.commitMu.Unlock()
	ri.mu.Lock()
	batch := ri.pending
	ri.pending = nil
	ri.npending.Store(0)
	ri.mu.Unlock()
	if len(batch) == 0 {
		return ri.failed()
	}
	tmps := make([]string, len(batch))
	for i, p := range batch {
		tmps[i] = p.tmp
	}
	err := syncFiles(ri.dir, tmps)
	for _, p := range batch {
		if err != nil {
			os.Remove(p.tmp)
			continue
		}
		err = os.Rename(p.tmp, filepath.Join(ri.dir, p.file))
		if err != nil {
			os.Remove(p.tmp)
		}
	}
	if err != nil {
		ri.fail(fmt.Errorf("cannot store messages: %w", err))
		return ri.failed()
	}
	lines := map[*inbox][]byte{}
	var order []*inbox
	for _, p := range batch {
		if _, ok := lines[p.ib]; !ok {
			order = append(order, p.ib)
		}
		lines[p.ib] = append(lines[p.ib], p.m.name+":"+p.m.seq+":"+p.m.sender+"\n"...)
	}
	for _, ib := range order {
		if _, err := ib.journal.Write(lines[ib]); err != nil {
			ri.fail(fmt.Errorf("cannot append to the inbox journal: %w", err))
		}
	}
	for _, p := range batch {
		p.ib.mu.Lock()
		p.ib.entries = append(p.ib.entries, p.m)
		p.ib.mu.Unlock()
		rt.emitEvent(&Event{Type: InboxEnqueue, InboxSeq: p.m.seq, Channel: p.m.name, Sender: p.m.sender,
			PayloadPreview: p.preview, PayloadRef: p.ref, Time: p.queuedAt})
	}
	return ri.failed()
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

// fsyncEach fsyncs each file.
func fsyncEach(paths []string) error {
	for _, p := range paths {
		f, err := os.OpenFile(p, os.O_WRONLY, 0)
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
	if err := f.rt.enqueue(f.inbox, args[0], args[1], args[2]); err != nil {
		fmt.Fprintf(hc.Stderr, "jaiph: cannot queue message on %q: %v\n", channelName(args[0]), err)
		return 1
	}
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
	hc := interp.HandlerCtx(ctx)
	ib := f.inbox
	if ib == nil || !f.ownsInbox {
		return 0
	}
	max := envInt(hc.Env.Get("JAIPH_INBOX_MAX_DISPATCH_DEPTH").String(), 100)
	parallel := hc.Env.Get("JAIPH_INBOX_PARALLEL").String() == "true"
	env := snapshotEnv(hc.Env)
	depth := 0
	for {
		if err := f.rt.commitMessages(); err != nil {
			fmt.Fprintf(hc.Stderr, "jaiph: %v\n", err)
			return 1
		}
		// Take the unprocessed entries and drop the processed ones, so a
		// long-running orchestrator's memory stays flat.
		ib.mu.Lock()
		snapshot := ib.entries
		ib.entries = nil
		ib.mu.Unlock()
		if len(snapshot) == 0 {
			return 0
		}
		var wg sync.WaitGroup
		slots := make(chan struct{}, maxParallelDispatch)
		var failMu sync.Mutex
		failed := false
		for _, m := range snapshot {
			depth++
			if depth > max {
				fmt.Fprintf(hc.Stderr, "jaiph: E_DISPATCH_DEPTH — dispatch loop exceeded %d iterations (possible circular sends); raise the limit with run.inbox_max_dispatch_depth in config or JAIPH_INBOX_MAX_DISPATCH_DEPTH\n", max)
				wg.Wait()
				return 1
			}
			targets := ib.routes[m.channel]
			if len(targets) == 0 {
				continue
			}
			data := []byte(m.content)
			if !m.small {
				var err error
				if data, err = os.ReadFile(filepath.Join(f.rt.inboxes.dir, m.seq+"-"+m.name+".txt")); err != nil {
					fmt.Fprintf(hc.Stderr, "jaiph: cannot read message %s on %q: %v\n", m.seq, m.name, err)
					wg.Wait()
					return 1
				}
			}
			for _, t := range targets {
				if !parallel {
					if f.rt.dispatch(ctx, f, env, m, t, string(data)) != 0 {
						return 1
					}
					continue
				}
				wg.Add(1)
				slots <- struct{}{}
				go func(m message, t *codegen.Body) {
					defer func() { <-slots; wg.Done() }()
					if f.rt.dispatch(ctx, f, env, m, t, string(data)) != 0 {
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
func (rt *Runtime) dispatch(ctx context.Context, f *frame, env mapEnviron, m message, t *codegen.Body, content string) int {
	if ctx.Err() != nil {
		return 1
	}
	hc := interp.HandlerCtx(ctx)
	rt.emit(&Event{Type: DispatchStart, InboxSeq: m.seq, Channel: m.name, Target: t.Symbol, Sender: m.sender, Time: time.Now()})
	start := time.Now()
	status, _, err := rt.call(ctx, f, callSpec{body: t, args: []string{content, m.name, m.sender},
		stdin: hc.Stdin, stdout: hc.Stdout, stderr: hc.Stderr, env: env, dir: hc.Dir,
		setEnv: [][2]string{{"JAIPH_DISPATCH_CHANNEL", m.name}, {"JAIPH_DISPATCH_SENDER", m.sender}}})
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(hc.Stderr, "jaiph: %v\n", err)
		if status == 0 {
			status = 1
		}
	}
	elapsed := time.Since(start).Milliseconds()
	rt.emit(&Event{Type: DispatchFinish, InboxSeq: m.seq, Channel: m.name, Target: t.Symbol, Sender: m.sender,
		Status: &status, ElapsedMS: &elapsed, Time: time.Now()})
	return status
}
