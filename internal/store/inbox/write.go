package inbox

// This file answers: how does a sent message become a file of the inbox
// (the group commit), how does a broker run's message get there, and what
// does the inbox keep of a run that ended?

import (
	"errors"
	"fmt"
	"iter"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jaiph-go/jaiph/internal/atomicfile"
	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/rawfile"
	"github.com/jaiph-go/jaiph/internal/redact"
	"github.com/jaiph-go/jaiph/internal/shellscan"
	"github.com/jaiph-go/jaiph/lowered"
)

// Files is the inbox directory of one run as the run writes it: the
// message counter, the commit queue and the delivery log that every
// orchestrator of the run shares, so message numbers never repeat. A
// broker run's orchestrator stores its messages here too (Store).
type Files struct {
	fsync bool // JAIPH_INBOX_FSYNC=true: every commit syncs

	// mask masks the run's credentials in the message files; the real
	// payloads go to priv (private.go). recordsOf names the run's records.
	mask      *redact.Redactor
	recordsOf func() string
	priv      *payloads // nil: files hold payloads as sent

	once sync.Once
	dir  string
	emit func(*event.Event)

	mu       sync.Mutex
	err      error // creating the directory or storing messages failed
	seq      int
	journals int
	pending  []*pendingMessage

	commitMu sync.Mutex // one group commit at a time

	logMu      sync.Mutex      // the delivery log, and Store's journal lines
	deliveries *os.File        // inbox/.deliveries, opened by the first logged delivery (deliveries.go)
	stored     *os.File        // .queue, opened by the first Store
	inQueue    map[string]bool // the numbers .queue has a line for, once a resumed run's Store asked (journaled)
}

// New returns the inbox files of a run that are not there yet (Open makes
// them); fsync makes every commit and dead letter durable before it
// returns (JAIPH_INBOX_FSYNC=true).
func New(fsync bool) *Files { return &Files{fsync: fsync} }

// Continue makes the files of a run that had some (a redrive) go on after
// them: messages numbered after last, and every journal named after its
// orchestrator's step, so the run's .queue stays as it was. Call it
// before Open.
func (fs *Files) Continue(last int) { fs.seq, fs.journals = last, 1 }

// Open creates <runDir>/inbox and its .tmp, once, and opens the log of
// real payloads (Mask); emit then gets the INBOX_ENQUEUE and INBOX_DEAD
// events of what is stored. It returns the first failure to create or to
// store, every time after it.
func (fs *Files) Open(runDir string, emit func(*event.Event)) error {
	fs.once.Do(func() {
		fs.dir, fs.emit = filepath.Join(runDir, Dir), emit
		if err := os.MkdirAll(filepath.Join(fs.dir, tmpDir), 0o755); err != nil {
			fs.fail(err)
			return
		}
		if fs.recordsOf == nil {
			return
		}
		// A run with records opens their log even without credentials in
		// its environment: a resume or redrive of a run that had some
		// reads it (and marks the numbers it reuses).
		if records := fs.recordsOf(); records != "" || fs.mask != nil {
			p, err := openPayloads(records)
			if err != nil {
				fs.fail(fmt.Errorf("cannot open the run's message payloads: %w", err))
				return
			}
			p.sameFS = fs.fsync && records != "" && sameFS(fs.dir, records)
			fs.priv = p
		}
	})
	return fs.failed()
}

// Dir is the inbox directory ("" before Open).
func (fs *Files) Dir() string { return fs.dir }

// Close records the last message number in inbox/.seq, removes the empty
// inbox/.tmp and syncs the inbox, once, when the run ends (.seq is not
// rewritten per message: the journals hold every number).
func (fs *Files) Close() {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if fs.dir != "" {
		_ = atomicfile.Write(filepath.Join(fs.dir, seqFile), []byte(strconv.Itoa(fs.seq)), 0o644)
		os.Remove(filepath.Join(fs.dir, tmpDir))
		_ = fs.sync()
	}
	fs.logMu.Lock()
	if fs.deliveries != nil {
		if fs.fsync {
			_ = fs.deliveries.Sync()
		}
		fs.deliveries.Close()
	}
	if fs.stored != nil {
		fs.stored.Close()
		fs.stored = nil
	}
	fs.logMu.Unlock()
	if fs.priv != nil {
		fs.priv.close()
	}
}

// Journal is the queue of one orchestrator (a workflow with routes): its
// journal file and the messages stored since the last Take. Nested
// orchestrators get their own (D6).
type Journal struct {
	files *Files
	file  *os.File // append-only `<channel>:<NNN>:<sender>` lines

	mu      sync.Mutex
	entries []entry // stored, not yet taken
	// names interns channel symbols and senders: an entry holds indexes,
	// so 100,000 queued messages cost 1.2 MB, not their strings.
	names []string
	index map[string]uint32
}

// entry is one queued message; its content stays in its file.
type entry struct {
	seq             uint32
	channel, sender uint32 // indexes into Journal.names
}

// Queued is a message stored and not yet taken: its number, its
// channel's symbol (D9) and its sender.
type Queued struct {
	Seq, Channel, Sender string
}

// OpenJournal starts the journal of an orchestrator whose step number is
// stepSeq: the run's first writes .queue, the others .queue-<stepSeq>.
func (fs *Files) OpenJournal(stepSeq int) (*Journal, error) {
	fs.mu.Lock()
	name := journalFile(fs.journals == 0, stepSeq)
	fs.journals++
	fs.mu.Unlock()
	f, err := os.OpenFile(filepath.Join(fs.dir, name), os.O_CREATE|os.O_WRONLY|os.O_APPEND|os.O_TRUNC, 0o644)
	if err != nil {
		return nil, err
	}
	return &Journal{files: fs, file: f, index: map[string]uint32{}}, nil
}

// Close closes the journal file.
func (j *Journal) Close() error { return j.file.Close() }

// Take returns the messages stored since the last Take, in number order,
// and forgets them, so a long-running orchestrator's memory stays flat.
func (j *Journal) Take() iter.Seq[Queued] {
	j.mu.Lock()
	taken, names := j.entries, j.names
	j.entries = nil
	j.mu.Unlock()
	return func(yield func(Queued) bool) {
		for _, e := range taken {
			if !yield(Queued{Seq: Number(int(e.seq)), Channel: names[e.channel], Sender: names[e.sender]}) {
				return
			}
		}
	}
}

// intern returns the index of s in j.names (j.mu held).
func (j *Journal) intern(s string) uint32 {
	i, ok := j.index[s]
	if !ok {
		i = uint32(len(j.names))
		j.names = append(j.names, s)
		j.index[s] = i
	}
	return i
}

// pendingMessage is a sent message whose content is in a temporary file,
// waiting for the group commit that gives it its number.
type pendingMessage struct {
	j               *Journal
	channel, sender string
	tmp             string
	raw             string   // a payload that held a credential ("": none)
	sum             [16]byte // sumOf its masked file
	preview         string
	ref             bool // preview truncated: the event names the file
	queuedAt        time.Time
	done            bool  // committed or failed (read and written under commitMu)
	err             error // why it failed
}

// Enqueue stores a message sent on the channel symbol channel in j
// (docs/language.md#sends) and returns once it is complete under its
// final name, with its number and journal line:
//
//  1. its content, with the run's credentials masked (Mask), is written
//     to inbox/.tmp/<random> (no reader looks there, so a crash mid-write
//     leaves nothing that looks like a message);
//  2. a group commit (commit) then appends the real payloads of the
//     messages whose files hold them masked to the log among the run's
//     records (private.go; one write for the batch), and per message
//     allocates the next number, renames the file to
//     inbox/NNN-<channel>.txt, appends its journal line and writes its
//     INBOX_ENQUEUE event.
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
func (fs *Files) Enqueue(j *Journal, channel, sender, content string) error {
	if err := fs.failed(); err != nil {
		return err
	}
	p := &pendingMessage{j: j, channel: channel, sender: sender, queuedAt: time.Now()}
	file := content // what the message file holds
	if fs.priv != nil {
		if m := fs.mask.String(content); m != content {
			p.raw, p.sum, file = content, sumOf(m), m
		}
	}
	// Plain system calls, not an *os.File: its registration with the poller
	// would be five calls more per message (internal/rawfile).
	tmp, err := rawfile.WriteTemp(filepath.Join(fs.dir, tmpDir), file)
	if err != nil {
		return err
	}
	p.tmp, p.preview = tmp, file
	if head, cut := event.CutRunes(file, previewMax); cut {
		p.preview, p.ref = head+"...", true
	}
	fs.mu.Lock()
	fs.pending = append(fs.pending, p)
	fs.mu.Unlock()
	fs.commitMu.Lock()
	defer fs.commitMu.Unlock()
	if !p.done {
		fs.commit()
	}
	return p.err
}

// previewMax bounds an INBOX_ENQUEUE's payload_preview, in characters; a
// longer payload's event names its file (payload_ref).
const previewMax = 4096

// commit stores every pending message (commitMu held): the sender that
// gets the lock first commits the messages of everyone who queued
// meanwhile.
func (fs *Files) commit() {
	fs.mu.Lock()
	batch := fs.pending
	fs.pending = nil
	base := fs.seq // the batch is numbered base+1… (store), unless a message fails, which fails the rest
	fs.mu.Unlock()
	var err error
	if fs.priv != nil && fs.priv.wanted(batch) {
		ks := make([]kept, len(batch))
		for i, p := range batch {
			ks[i] = kept{seq: uint32(base + i + 1), raw: p.raw, sum: p.sum}
		}
		// On the inbox's file system the log is synced with the batch's
		// files below, in one syncfs; elsewhere it needs an fsync of its own.
		err = fs.priv.keep(ks, fs.fsync && !fs.priv.sameFS)
	}
	if err == nil && fs.fsync {
		tmps := make([]string, len(batch), len(batch)+1)
		for i, p := range batch {
			tmps[i] = p.tmp
		}
		if fs.priv != nil && fs.priv.sameFS {
			if log := fs.priv.file(); log != "" {
				tmps = append(tmps, log)
			}
		}
		err = syncFiles(fs.dir, tmps)
	}
	n := 0 // messages stored
	for _, p := range batch {
		if err == nil {
			err = fs.store(p)
		}
		if err != nil {
			os.Remove(p.tmp)
			continue
		}
		n++
	}
	if err == nil && fs.fsync && n > 0 {
		if err = fs.sync(); err != nil {
			n = 0 // stored, but not durable
		}
	}
	if err != nil {
		fs.fail(fmt.Errorf("cannot store messages: %w", err))
	}
	for i, p := range batch {
		p.done = true
		if i >= n {
			p.err = fs.failed()
		}
	}
}

// sync makes the inbox's names and journals durable.
func (fs *Files) sync() error {
	paths, _ := filepath.Glob(filepath.Join(fs.dir, queueFile+"*"))
	return syncFiles(fs.dir, append(paths, fs.dir))
}

// store gives a message its number, its final name and its journal
// line, then writes its INBOX_ENQUEUE event and queues it.
func (fs *Files) store(p *pendingMessage) error {
	fs.mu.Lock()
	n := fs.seq + 1 // commits are serial (commitMu); taken once stored, so no gaps
	fs.mu.Unlock()
	seq, name := Number(n), lowered.ChannelName(p.channel)
	file := MessageFile(seq, name)
	if err := os.Rename(p.tmp, filepath.Join(fs.dir, file)); err != nil {
		return err
	}
	if _, err := p.j.file.WriteString(journalLine(name, seq, p.sender)); err != nil {
		os.Remove(filepath.Join(fs.dir, file)) // no final file without its journal line
		return fmt.Errorf("journal: %w", err)
	}
	fs.mu.Lock()
	fs.seq = n
	fs.mu.Unlock()
	e := &event.Event{Type: event.InboxEnqueue, InboxSeq: seq, Channel: name, Sender: p.sender, PayloadPreview: p.preview, Time: p.queuedAt}
	if p.ref {
		ref := Dir + "/" + file
		e.PayloadRef = &ref
	}
	fs.emit(e) // before a drain can take the entry: ENQUEUE precedes its dispatch
	j := p.j
	j.mu.Lock()
	j.entries = append(j.entries, entry{seq: uint32(n), channel: j.intern(p.channel), sender: j.intern(p.sender)})
	j.mu.Unlock()
	return nil
}

// journalLine is a message's line in its orchestrator's journal.
func journalLine(channel, seq, sender string) string {
	return channel + ":" + seq + ":" + sender + "\n"
}

// parseJournalLine splits a journal line (without its newline) as
// journalLine wrote it; ok is false for a line it cannot have written.
func parseJournalLine(line string) (channel, seq, sender string, ok bool) {
	channel, rest, ok1 := strings.Cut(line, ":")
	seq, sender, ok2 := strings.Cut(rest, ":")
	return channel, seq, sender, ok1 && ok2 && channel != "" && shellscan.IsDigits(seq)
}

// Store writes message seq, numbered by a broker (a broker run's message,
// sent on the channel symbol channel), with its line in .queue, and emits
// its INBOX_ENQUEUE, so `jaiph inbox` reads a broker run as a file one.
// The file holds content masked, as Enqueue's do, and the real payload
// goes to the run's log of them first. A resumed run stores its messages
// again: one already stored with the same content keeps its file and
// journal line.
func (fs *Files) Store(seq, channel, sender, content string) error {
	if err := fs.failed(); err != nil {
		return err
	}
	name := lowered.ChannelName(channel)
	file := MessageFile(seq, name)
	masked := content
	if n, err := strconv.ParseUint(seq, 10, 32); fs.priv != nil && err == nil {
		k := kept{seq: uint32(n)}
		if masked = fs.mask.String(content); masked != content {
			k.raw, k.sum = content, sumOf(masked)
		}
		if raw, ok, _ := fs.priv.raw(k.seq, []byte(masked)); !ok || raw != content { // else kept already
			if err := fs.priv.keep([]kept{k}, fs.fsync); err != nil {
				return err
			}
		}
	}
	created, err := writeNew(filepath.Join(fs.dir, file), masked)
	if err != nil {
		return err
	}
	fs.logMu.Lock()
	// A file that was there already is a resumed run's message: its line
	// may be missing all the same (the killed run wrote the file and
	// not yet the line), and is written once.
	if created || !fs.journaled(seq) {
		if fs.stored == nil {
			fs.stored, err = os.OpenFile(filepath.Join(fs.dir, queueFile), os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
		}
		if err == nil {
			_, err = fs.stored.WriteString(journalLine(name, seq, sender))
		}
		if err == nil && fs.inQueue != nil {
			fs.inQueue[seq] = true
		}
	}
	fs.logMu.Unlock()
	if err != nil {
		return err
	}
	fs.mu.Lock()
	if n, _ := strconv.Atoi(seq); n > fs.seq {
		fs.seq = n
	}
	fs.mu.Unlock()
	e := &event.Event{Type: event.InboxEnqueue, InboxSeq: seq, Channel: name, Sender: sender, PayloadPreview: masked, Time: time.Now()}
	if head, cut := event.CutRunes(masked, previewMax); cut {
		ref := Dir + "/" + file
		e.PayloadPreview, e.PayloadRef = head+"...", &ref
	}
	fs.emit(e)
	return nil
}

// journaled tells whether .queue has a line for message seq (fs.logMu
// held). It reads .queue once, the first time a resumed run asks.
func (fs *Files) journaled(seq string) bool {
	if fs.inQueue == nil {
		fs.inQueue = map[string]bool{}
		_ = eachLine(filepath.Join(fs.dir, queueFile), func(_ int, line string) error {
			if _, seq, _, ok := parseJournalLine(line); ok {
				fs.inQueue[seq] = true
			}
			return nil
		})
	}
	return fs.inQueue[seq]
}

// writeNew writes content to path unless path holds it already, and
// tells whether it created path. Creating exclusively first costs a fresh
// run's message one system call less than reading before writing; plain
// system calls (internal/rawfile) five less than an *os.File.
func writeNew(path, content string) (bool, error) {
	err := rawfile.WriteNew(path, content, 0o644)
	if errors.Is(err, os.ErrExist) {
		if old, rerr := rawfile.ReadFile(path); rerr == nil && string(old) == content {
			return false, nil
		}
		return false, os.WriteFile(path, []byte(content), 0o644)
	}
	return err == nil, err
}

// Content reads message seq of the channel named channel (its declared
// name) as it was sent: its file, or, when the file holds it masked, the
// real payload from the run's log of them (private.go). A run written
// before message files were masked has no log: its files are its
// payloads.
func (fs *Files) Content(seq, channel string) (string, error) {
	// Plain system calls, as WriteTemp (internal/rawfile).
	data, err := rawfile.ReadFile(filepath.Join(fs.dir, MessageFile(seq, channel)))
	if err != nil {
		return "", err
	}
	if n, perr := strconv.ParseUint(seq, 10, 32); fs.priv != nil && perr == nil {
		if raw, ok, err := fs.priv.raw(uint32(n), data); err != nil || ok {
			return raw, err
		}
	}
	return string(data), nil
}

func (fs *Files) fail(err error) {
	fs.mu.Lock()
	if fs.err == nil {
		fs.err = err
	}
	fs.mu.Unlock()
}

func (fs *Files) failed() error {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	return fs.err
}
