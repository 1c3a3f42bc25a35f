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

	"github.com/jaiph-go/jaiph/codegen"
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
}

// runInbox holds what the whole run's inboxes share: the directory and the
// message counter.
type runInbox struct {
	once sync.Once
	err  error
	dir  string

	mu       sync.Mutex
	seq      int
	journals int
}

// inboxDir creates <run_dir>/inbox once.
func (rt *Runtime) inboxDir() (string, error) {
	ri := &rt.inboxes
	ri.once.Do(func() {
		ri.dir = filepath.Join(rt.runDir, "inbox")
		ri.err = os.MkdirAll(ri.dir, 0o755)
	})
	return ri.dir, ri.err
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
	if ri.dir != "" && ri.err == nil {
		_ = writeFileAtomic(filepath.Join(ri.dir, ".seq"), []byte(strconv.Itoa(ri.seq)), false)
	}
}

// channelName is the declared name of a channel symbol.
func channelName(sym string) string { return sym[strings.LastIndex(sym, "::")+2:] }

// enqueue stores a message (inbox.md §3). The message file is complete on
// disk (written to a temporary name, synced, renamed) before its journal
// line exists, so no reader ever sees a torn message.
func (rt *Runtime) enqueue(ib *inbox, channel, sender, content string) error {
	ri := &rt.inboxes
	name := channelName(channel)
	ri.mu.Lock()
	defer ri.mu.Unlock()
	n := ri.seq + 1
	seq := fmt.Sprintf("%03d", n)
	file := seq + "-" + name + ".txt"
	if err := writeFileAtomic(filepath.Join(ri.dir, file), []byte(content), true); err != nil {
		return err
	}
	ri.seq = n
	if _, err := io.WriteString(ib.journal, name+":"+seq+":"+sender+"\n"); err != nil {
		return err
	}
	ib.mu.Lock()
	ib.entries = append(ib.entries, message{seq: seq, channel: channel, name: name, sender: sender})
	ib.mu.Unlock()

	e := &Event{Type: InboxEnqueue, InboxSeq: seq, Channel: name, Sender: sender, Time: time.Now()}
	e.PayloadPreview = content
	if r := []rune(content); len(r) > 4096 {
		e.PayloadPreview = string(r[:4096]) + "..."
		ref := "inbox/" + file
		e.PayloadRef = &ref
	}
	rt.emit(e)
	return nil
}

// writeFileAtomic writes data under a temporary name in the same directory
// and renames it into place; sync also flushes it to disk first.
func writeFileAtomic(path string, data []byte, sync bool) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-*")
	if err != nil {
		return err
	}
	_, err = tmp.Write(data)
	if err == nil && sync {
		err = tmp.Sync()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
	}
	return err
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
		return builtinStatus(ctx, f, args)
	}
	hc := interp.HandlerCtx(ctx)
	ib := f.inbox
	if ib == nil || !f.ownsInbox {
		return 0
	}
	max := envInt(hc.Env.Get("JAIPH_INBOX_MAX_DISPATCH_DEPTH").String(), 100)
	parallel := hc.Env.Get("JAIPH_INBOX_PARALLEL").String() == "true"
	env := snapshotEnv(hc.Env)
	depth, cursor := 0, 0
	for {
		ib.mu.Lock()
		snapshot := append([]message(nil), ib.entries[cursor:]...)
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
			cursor++
			if depth > max {
				fmt.Fprintf(hc.Stderr, "jaiph: E_DISPATCH_DEPTH — dispatch loop exceeded %d iterations (possible circular sends)\n", max)
				wg.Wait()
				return 1
			}
			targets := ib.routes[m.channel]
			if len(targets) == 0 {
				continue
			}
			data, err := os.ReadFile(filepath.Join(f.rt.inboxes.dir, m.seq+"-"+m.name+".txt"))
			if err != nil {
				fmt.Fprintf(hc.Stderr, "jaiph: cannot read message %s on %q: %v\n", m.seq, m.name, err)
				wg.Wait()
				return 1
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
	callEnv := env.clone(false)
	callEnv.setExported("JAIPH_DISPATCH_CHANNEL", m.name)
	callEnv.setExported("JAIPH_DISPATCH_SENDER", m.sender)
	status, _, err := rt.call(ctx, f, callSpec{body: t, args: []string{content, m.name, m.sender},
		stdin: hc.Stdin, stdout: hc.Stdout, stderr: hc.Stderr, env: callEnv, dir: hc.Dir})
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
