package runtime

// This file answers: what does a run journal so that `jaiph resume` can
// replay what already completed (docs/durability.md "Journal and resume")?

import (
	"bufio"
	"context"
	"encoding/json"
	"hash/fnv"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/jaiph-go/jaiph/internal/redact"
)

// journalRecord is one line of the journal: a call's start ("start"), its
// end ("end") or a message it sent ("send").
type journalRecord struct {
	T       string   `json:"t"`
	ID      string   `json:"id"`
	Kind    string   `json:"kind,omitempty"`
	Callee  string   `json:"callee,omitempty"`
	Args    []string `json:"args,omitempty"`
	Status  *int     `json:"status,omitempty"`
	Value   string   `json:"value,omitempty"`
	Out     string   `json:"out,omitempty"` // the .out artifact's name in the run dir
	Channel string   `json:"channel,omitempty"`
	Sender  string   `json:"sender,omitempty"`
	Content string   `json:"content,omitempty"`
	Box     string   `json:"box,omitempty"` // identity of the orchestrator whose inbox got the message
	// Redacted: a credential was masked in Args, Value or Content, so the
	// record cannot stand for the call on resume (docs/security.md).
	Redacted bool `json:"redacted,omitempty"`
	line     int  // of a send record: its line in the journal
}

// journal appends records with a group commit: start and send records wait
// in buf (up to 64 KB) and reach the file (synced when JAIPH_INBOX_FSYNC,
// with their MACs: chain.go) together with the next end record, in one
// write, before the caller of the ended call goes on. A start lost with
// buf had no completed call after it, so a resume runs it live anyway.
type journal struct {
	mu  sync.Mutex
	out appender // nil once closed
	buf []byte
	err error

	// What the interrupted attempt(s) left, when resuming.
	ended   map[string]*journalRecord // id → end record
	started map[string]int            // id → line of its last start record
	parents map[string]bool           // calls that made calls
	sends   []*journalRecord          // in order
	// masked: calls a resume runs live because a record of theirs (their
	// value, or a message they or a call under them sent) was redacted.
	masked map[string]bool
	redact *redact.Redactor
	// resuming: the journal had records, so replay applies.
	resuming bool
}

// openJournal loads what the journal at path holds (nothing when it does
// not exist) and appends to it through out.
func openJournal(path string, out appender, r *redact.Redactor) *journal {
	j := &journal{out: out, ended: map[string]*journalRecord{}, started: map[string]int{},
		parents: map[string]bool{}, masked: map[string]bool{}, redact: r}
	if data, err := os.Open(path); err == nil {
		sc := bufio.NewScanner(data)
		sc.Buffer(nil, 1<<30)
		for line := 1; sc.Scan(); line++ {
			var r journalRecord
			if json.Unmarshal(sc.Bytes(), &r) != nil {
				continue // a torn last line: its call never ended durably
			}
			switch r.T {
			case "start":
				j.started[r.ID] = line
				if i := strings.LastIndexByte(r.ID, '/'); i > 0 {
					j.parents[r.ID[:i]] = true
				}
			case "end":
				j.ended[r.ID] = &r
				if r.Redacted {
					j.masked[r.ID] = true
				}
			case "send":
				r.line = line
				j.sends = append(j.sends, &r)
				// Replaying any call the sender is part of would send
				// the masked content.
				for id := r.ID; r.Redacted && id != ""; id = parentID(id) {
					j.masked[id] = true
				}
			}
		}
		data.Close()
		j.resuming = len(j.started) > 0
	}
	return j
}

func (j *journal) add(r *journalRecord, flush bool) {
	j.mu.Lock()
	defer j.mu.Unlock()
	j.buf = append(appendRecord(j.buf, r), '\n')
	// Records waiting for an end record may go out early (many sends
	// before the first end): earlier is never wrong, and memory stays flat.
	if (!flush && len(j.buf) < 64<<10) || j.out == nil || j.err != nil {
		return
	}
	j.err = j.out.Append(j.buf)
	j.buf = j.buf[:0]
}

func (j *journal) close() {
	j.mu.Lock()
	defer j.mu.Unlock()
	if j.out != nil {
		if len(j.buf) > 0 && j.err == nil {
			j.err = j.out.Append(j.buf)
		}
		j.out.Close()
		j.out = nil
	}
}

// callID is the deterministic identity of a call made by caller: the
// caller's identity, the callee, a hash of its arguments and the
// occurrence of that same (callee, arguments) within the caller. The
// caller keeps 12 bytes per distinct call (an orchestrator dispatching
// many messages keeps one entry per distinct message).
func (caller *frame) callID(callee string, args []string) string {
	h := fnv.New64a()
	for _, a := range args {
		h.Write([]byte(strconv.Itoa(len(a))))
		h.Write([]byte{':'})
		h.Write([]byte(a))
	}
	sum := h.Sum64()
	h.Write([]byte(callee))
	key := h.Sum64()
	caller.occMu.Lock()
	if caller.occ == nil {
		caller.occ = map[uint64]uint32{}
	}
	caller.occ[key]++
	n := caller.occ[key]
	caller.occMu.Unlock()
	return caller.jid + "/" + callee + "(" + strconv.FormatUint(sum, 16) + ")#" + strconv.FormatUint(uint64(n), 10)
}

// begin journals the start of call id, made by caller, and tells whether
// a resume replays it: it completed with status 0 and the run has not
// diverged where caller is. A call absent from the journal, or a call that
// failed without making calls, runs live and diverges: the later calls of
// its caller and of the caller's callers run live (up to the delivery it
// is part of: deliveries are independent, so one that runs live, as a
// delivery that was queued or in flight does, diverges nothing else). A
// call started but not ended, or failed after making calls (an ancestor of
// the interruption or of the failure), runs live without diverging. The
// run's root call always runs live: a run that did not pass can have a
// root that returned 0 (a fault failed it), and replaying that root would
// pass the run without running anything.
func (j *journal) begin(caller *frame, id, kind, callee string, args []string, delivery bool) *journalRecord {
	if j == nil {
		return nil
	}
	if j.resuming && !caller.diverged() {
		if r := j.ended[id]; r != nil && r.Status != nil && *r.Status == 0 && caller.body != nil && !j.masked[id] {
			return r
		}
		if _, started := j.started[id]; !delivery && (!started || (j.ended[id] != nil && !j.parents[id])) {
			for g := caller; g != nil; g = g.caller {
				g.divergedHere.Store(true)
				if g.delivery {
					break
				}
			}
		}
	}
	r := &journalRecord{T: "start", ID: id, Kind: kind, Callee: callee, Args: args}
	if j.redact != nil {
		r.Args = append([]string(nil), args...)
		r.Redacted = j.redact.Strings(r.Args)
	}
	j.add(r, false)
	return nil
}

// parentID is the identity of the call that made call id ("" for the root).
func parentID(id string) string {
	if i := strings.LastIndexByte(id, '/'); i > 0 {
		return id[:i]
	}
	return ""
}

// diverged tells whether f or a caller of f made a call that diverged.
func (f *frame) diverged() bool {
	for g := f; g != nil; g = g.caller {
		if g.divergedHere.Load() {
			return true
		}
	}
	return false
}

// end journals how call id ended; out is its kept .out artifact (a path).
func (j *journal) end(id string, status int, value, out string) {
	if j == nil {
		return
	}
	if out != "" {
		out = filepath.Base(out)
	}
	r := &journalRecord{T: "end", ID: id, Status: &status, Value: j.redact.String(value), Out: out}
	r.Redacted = r.Value != value
	j.add(r, true)
}

// sent journals a message sent by call id into the inbox of call box.
func (j *journal) sent(id, box, channel, sender, content string) {
	if j == nil {
		return
	}
	r := &journalRecord{T: "send", ID: id, Box: box, Channel: channel, Sender: sender, Content: j.redact.String(content)}
	r.Redacted = r.Content != content
	j.add(r, false)
}

// replaySends re-enqueues into ib, in the journal's order, the messages
// that call id and the calls under it sent to an inbox outside it (those
// sent to an orchestrator within it were delivered there).
func (rt *Runtime) replaySends(ctx context.Context, ib *inbox, id string) {
	j := rt.journal
	if ib == nil {
		return
	}
	for _, r := range j.sends {
		// Only the sends of the attempt in which the call completed: an
		// earlier attempt killed during the call sent some of them too.
		if r.line < j.started[id] || r.line < j.started[r.ID] {
			continue
		}
		inside := r.ID == id || strings.HasPrefix(r.ID, id+"/")
		boxInside := r.Box == id || strings.HasPrefix(r.Box, id+"/")
		if inside && !boxInside {
			// Not journaled again: the record above stays in the journal
			// for a later resume, which would otherwise send it twice.
			_ = ib.send(ctx, r.Channel, r.Sender, r.Content)
		}
	}
}

// inboxOwner is the identity of the orchestrator whose inbox f sends to.
func (f *frame) inboxOwner() string {
	for g := f; g != nil; g = g.caller {
		if g.ownsInbox {
			return g.jid
		}
	}
	return ""
}
