package inbox

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/shellscan"
)

// Inbox is what `jaiph inbox --json` prints: the run's messages in number
// order (docs/inbox-files.md documents the fields).
type Inbox struct {
	RunDir string `json:"run_dir"`
	// Source is where the delivery states came from: "deliveries" (the
	// delivery log, written with run.inbox_retries) or "summary" (the
	// dispatch events of run_summary.jsonl).
	Source   string    `json:"source"`
	Messages []Message `json:"messages"`
}

// Message is one message and its deliveries.
type Message struct {
	Seq     string `json:"seq"`
	Channel string `json:"channel"`
	Sender  string `json:"sender"`
	// State is queued (no delivery started), delivering (one is running),
	// dead (a target gave up), failed (an attempt failed and was not
	// retried: the reference's behaviour, or a run stopped during a
	// backoff) or delivered (every started delivery succeeded).
	State    string     `json:"state"`
	Attempts int        `json:"attempts"` // over all targets
	Targets  []Delivery `json:"targets"`  // in the order of their first attempt
	Preview  string     `json:"preview"`  // the payload's first line, cut at 80 characters
	File     string     `json:"file"`     // relative to the run directory
}

// Delivery is the outcome of a message for one target.
type Delivery struct {
	Target   string `json:"target"`
	State    string `json:"state"` // delivering, delivered, failed or dead
	Attempts int    `json:"attempts"`
	Status   *int   `json:"status"` // the last finished attempt's exit status
	// Worker and Since say where an open attempt of a broker run runs
	// and since when (the start event's time).
	Worker  string `json:"worker,omitempty"`
	Since   string `json:"since,omitempty"`
	open    bool   // the last attempt started and did not end
	dead    bool   // the last record is a dead line
	wasDead bool   // a dead line was written (redrive may have delivered it since)
}

// ErrNoInbox is returned for a run that has no inbox (it sent no message).
var ErrNoInbox = errors.New("the run has no inbox (it sent no messages)")

// Read reads the inbox of runDir.
func Read(runDir string) (*Inbox, error) {
	dir := filepath.Join(runDir, Dir)
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		if _, err := os.Stat(runDir); err != nil {
			return nil, fmt.Errorf("no run directory %s", runDir)
		}
		return nil, ErrNoInbox
	}
	in := &Inbox{RunDir: runDir}
	bySeq := map[string]*Message{}
	queues, _ := filepath.Glob(filepath.Join(dir, queueFile+"*"))
	if len(queues) == 0 {
		if len(ReceivedChannels(runDir)) > 0 { // a run that only receives (recv.go)
			return nil, fmt.Errorf("%w; the messages of its received channels are in %s", ErrNoInbox, filepath.Join(dir, recvDir))
		}
		return nil, fmt.Errorf("garbled inbox %s: no queue journal (.queue)", dir)
	}
	for _, q := range queues {
		if err := eachLine(q, func(n int, line string) error {
			ch, seq, sender, ok := parseJournalLine(line)
			if !ok || bySeq[seq] != nil {
				return fmt.Errorf("garbled queue journal %s line %d: %q", filepath.Base(q), n, line)
			}
			m := &Message{Seq: seq, Channel: ch, Sender: sender, File: Dir + "/" + MessageFile(seq, ch), Targets: []Delivery{}}
			m.Preview = preview(filepath.Join(runDir, m.File))
			bySeq[seq] = m
			in.Messages = append(in.Messages, *m)
			return nil
		}); err != nil {
			return nil, err
		}
	}
	ds, source, err := deliveries(runDir, bySeq)
	if err != nil {
		return nil, err
	}
	in.Source = source
	sort.Slice(in.Messages, func(i, j int) bool { return seqLess(in.Messages[i].Seq, in.Messages[j].Seq) })
	for i := range in.Messages {
		m := &in.Messages[i]
		m.Targets = append(m.Targets, ds[m.Seq]...)
		m.State = "queued"
		states := map[string]bool{}
		for j := range m.Targets {
			d := &m.Targets[j]
			switch {
			case d.dead:
				d.State = "dead"
			case d.open:
				d.State = "delivering"
			case d.Status != nil && *d.Status == 0:
				d.State = "delivered"
			default:
				d.State = "failed"
			}
			if d.State != "delivering" {
				d.Worker, d.Since = "", "" // where it ran is in the summary
			}
			states[d.State] = true
			m.Attempts += d.Attempts
		}
		for _, s := range []string{"delivering", "dead", "failed", "delivered"} {
			if states[s] {
				m.State = s
				break
			}
		}
	}
	return in, nil
}

// deliveries reads each message's deliveries from inbox/.deliveries or,
// without one, from the summary's dispatch events.
func deliveries(runDir string, bySeq map[string]*Message) (map[string][]Delivery, string, error) {
	out := map[string][]Delivery{}
	get := func(seq, target string) *Delivery {
		list := out[seq]
		for i := range list {
			if list[i].Target == target {
				return &list[i]
			}
		}
		out[seq] = append(list, Delivery{Target: target})
		return &out[seq][len(out[seq])-1]
	}
	path := filepath.Join(runDir, Dir, deliveriesFile)
	if _, err := os.Stat(path); err != nil {
		return out, "summary", summaryDeliveries(filepath.Join(runDir, "run_summary.jsonl"), bySeq, get)
	}
	err := eachLine(path, func(n int, line string) error {
		r, ok := ParseRecord(line)
		if !ok || bySeq[r.Seq] == nil {
			return fmt.Errorf("garbled delivery log .deliveries line %d: %q", n, line)
		}
		d := get(r.Seq, r.Target)
		switch r.Kind {
		case "start": // a redrive's attempt: no longer dead
			d.Attempts, d.open, d.dead = max(d.Attempts, r.Attempt), true, false
		case "end":
			d.open, d.Status = false, &r.Status
		case "dead":
			d.dead, d.wasDead, d.Status = true, true, &r.Status
		}
		return nil
	})
	return out, "deliveries", err
}

// Record is one line of inbox/.deliveries: `start SEQ TARGET ATTEMPT`,
// `end SEQ TARGET ATTEMPT STATUS` or `dead SEQ TARGET ATTEMPTS STATUS`.
type Record struct {
	Kind, Seq, Target string
	Attempt, Status   int
}

// ParseRecord parses one delivery log line.
func ParseRecord(line string) (Record, bool) {
	f := strings.Split(line, " ")
	want := map[string]int{"start": 4, "end": 5, "dead": 5}[f[0]]
	if want == 0 || len(f) != want || !shellscan.IsDigits(f[1]) || f[2] == "" {
		return Record{}, false
	}
	r := Record{Kind: f[0], Seq: f[1], Target: f[2]}
	var err error
	if r.Attempt, err = strconv.Atoi(f[3]); err != nil || r.Attempt < 1 {
		return Record{}, false
	}
	if want == 5 {
		if r.Status, err = strconv.Atoi(f[4]); err != nil || r.Status < 0 {
			return Record{}, false
		}
	}
	return r, true
}

// summaryDeliveries takes the deliveries from INBOX_DISPATCH_START and
// INBOX_DISPATCH_COMPLETE events (each start is one attempt, unless its
// completion says a resume replayed it). Lines that
// are not JSON (a torn last line) are skipped: the summary is a log, not
// the inbox's record.
func summaryDeliveries(path string, bySeq map[string]*Message, get func(seq, target string) *Delivery) error {
	f, err := os.Open(path)
	if err != nil {
		return nil // no summary: every message is queued
	}
	defer f.Close()
	return event.Read(f, event.Filter{Types: []string{event.DispatchStart, event.DispatchFinish}}, func(e *event.Record) error {
		if bySeq[e.InboxSeq] == nil || e.Target == "" {
			return nil
		}
		d := get(e.InboxSeq, e.Target)
		switch e.Type {
		case event.DispatchStart:
			d.Attempts++
			d.open = true
			d.Worker, d.Since = e.Worker, ""
			if e.Worker != "" { // a broker run's: where it is, and since when
				d.Since = e.TS
			}
		case event.DispatchFinish:
			if e.Status != nil {
				d.open, d.Status = false, e.Status
			}
			if e.Replayed { // a resume's replay of a delivery: not an attempt
				d.Attempts = max(d.Attempts-1, 1)
			}
		}
		return nil
	})
}

// DeadLetter is one dead letter, for the FAIL block.
type DeadLetter struct {
	Seq, Channel, Target string
	Attempts, Status     int
}

// Dead lists the dead letters of runDir (none when it has no readable
// inbox).
func Dead(runDir string) []DeadLetter {
	if _, err := os.Stat(filepath.Join(runDir, Dir, deliveriesFile)); err != nil {
		return nil // no delivery log, no dead letters (and no journal read)
	}
	in, err := Read(runDir)
	if err != nil {
		return nil
	}
	var out []DeadLetter
	for _, m := range in.Messages {
		for _, d := range m.Targets {
			if d.dead {
				out = append(out, DeadLetter{Seq: m.Seq, Channel: m.Channel, Target: d.Target, Attempts: d.Attempts, Status: *d.Status})
			}
		}
	}
	return out
}

// Letter is a dead letter as `jaiph redrive` sees it (docs/inbox-files.md
// "Redrive").
type Letter struct {
	Seq, Channel, Sender, Target string
	Attempts                     int    // attempts so far: a redelivery is attempt Attempts+1
	File                         string // the message, relative to the run directory
	// Done: a later attempt (a redrive) delivered it; its dead/ file may
	// remain, left by a redrive that stopped before removing it.
	Done bool
}

// Letters lists every message and target of runDir that became a dead
// letter, in message order. One is Done when an attempt after its last
// dead line ended with status 0; a redelivery cut short (a start without
// its end, or a failed end without its dead line) is not Done.
func Letters(runDir string) ([]Letter, error) {
	if _, err := os.Stat(filepath.Join(runDir, Dir, deliveriesFile)); err != nil {
		return nil, nil // no delivery log, no dead letters
	}
	in, err := Read(runDir)
	if err != nil {
		return nil, err
	}
	var out []Letter
	for _, m := range in.Messages {
		for _, d := range m.Targets {
			if d.wasDead {
				done := !d.open && !d.dead && *d.Status == 0
				out = append(out, Letter{Seq: m.Seq, Channel: m.Channel, Sender: m.Sender, Target: d.Target,
					Attempts: d.Attempts, File: m.File, Done: done})
			}
		}
	}
	return out, nil
}

// RemoveDelivered removes the dead/ file of each message whose every dead
// letter a redrive has delivered. Call it only once the deliveries' end
// lines are durable, so a crash before it leaves a file that the next
// redrive removes, never a letter delivered twice.
func RemoveDelivered(runDir string, letters []Letter) {
	open := map[string]bool{}
	for _, l := range letters {
		open[l.Seq] = open[l.Seq] || !l.Done
	}
	for _, l := range letters {
		if !open[l.Seq] {
			os.Remove(filepath.Join(runDir, Dir, deadDir, filepath.Base(l.File)))
		}
	}
}

// eachLine calls fn with each complete line of path (1-based numbers). A
// last line without its newline is a write cut by a crash, not a record.
func eachLine(path string, fn func(n int, line string) error) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	lines := strings.Split(string(data), "\n")
	for i, l := range lines[:len(lines)-1] {
		if err := fn(i+1, l); err != nil {
			return err
		}
	}
	return nil
}

// preview is the first line of a message file, cut at 80 characters.
func preview(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	buf := make([]byte, 1024)
	n, _ := io.ReadFull(f, buf)
	line, _, _ := strings.Cut(string(buf[:n]), "\n")
	if r := []rune(line); len(r) > 80 {
		line = string(r[:77]) + "..."
	}
	return line
}

// seqLess orders message numbers numerically (they grow past 999).
func seqLess(a, b string) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return a < b
}
