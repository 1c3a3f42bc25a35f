package sandbox

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"sync"

	"github.com/jaiph-go/jaiph/internal/event"
)

// The sandboxed jaiph reports its run on its stdout, one JSON line per
// record: an event as run_summary.jsonl writes it, a chunk of stray
// stderr ({"jaiph_stray":"…"}), a preparation error ({"jaiph_error":"…"}),
// the run's directory and id once it has one ({"jaiph_opened":{…}}), the
// lines of its summary and journal ({"jaiph_append":{"file":…,"lines":
// base64}}), and last the outcome ({"jaiph_outcome":{…}}). Nothing else of
// the run writes to that stdout: steps write to their artifacts.
//
// The host trusts none of it for the run's result beyond display: the
// exit status is the container's, and events only feed the progress tree,
// hooks (whose commands are the host's own) and the trace. The host
// writes the summary's and the journal's lines itself, chained under the
// run's key (internal/store/chain), which the sandbox never sees: what
// the sandbox appends is chained as it comes, so a sandboxed run can
// leave out or add lines only while it runs, as any run can, and never
// rewrite what was written.

type record struct {
	Send    *Sent    `json:"jaiph_send,omitempty"`
	Stray   *string  `json:"jaiph_stray,omitempty"`
	Error   *string  `json:"jaiph_error,omitempty"`
	Opened  *Opened  `json:"jaiph_opened,omitempty"`
	Append  *Append  `json:"jaiph_append,omitempty"`
	Outcome *Outcome `json:"jaiph_outcome,omitempty"`
}

// Opened names the sandboxed run's directory and id (Job.Opened).
type Opened struct {
	RunDir string `json:"run_dir"`
	RunID  string `json:"run_id"`
}

// Append is lines for the host to append to the run's summary or journal
// (Job.Append): File is run_summary.jsonl or journal, Lines whole lines.
type Append struct {
	File  string `json:"file"`
	Lines []byte `json:"lines"`
}

// Reporter is the sandboxed side of the protocol: an event.Observer, the
// run's stray stderr (Write), and the final records.
type Reporter struct {
	mu sync.Mutex
	w  io.Writer
}

// NewReporter reports on w.
func NewReporter(w io.Writer) *Reporter { return &Reporter{w: w} }

func (r *Reporter) line(b []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.w.Write(append(b, '\n'))
}

// Event reports an event.
func (r *Reporter) Event(e *event.Event) { r.line(e.JSON()) }

// Write reports stray stderr.
func (r *Reporter) Write(p []byte) (int, error) {
	s := string(p)
	b, _ := json.Marshal(record{Stray: &s})
	r.line(b)
	return len(p), nil
}

// Send reports a message a delivered target sent (Job.Deliver).
func (r *Reporter) Send(s Sent) {
	b, _ := json.Marshal(record{Send: &s})
	r.line(b)
}

// Opened reports the run's directory and id, before its first line
// (runtime.RecordSink).
func (r *Reporter) Opened(runDir, runID string) {
	b, _ := json.Marshal(record{Opened: &Opened{RunDir: runDir, RunID: runID}})
	r.line(b)
}

// Append reports lines of the run's summary or journal for the host to
// write (runtime.RecordSink).
func (r *Reporter) Append(file string, lines []byte) error {
	b, _ := json.Marshal(record{Append: &Append{File: file, Lines: lines}})
	r.line(b)
	return nil
}

// Error reports a preparation error.
func (r *Reporter) Error(err error) {
	s := err.Error()
	b, _ := json.Marshal(record{Error: &s})
	r.line(b)
}

// Outcome reports how the run ended.
func (r *Reporter) Outcome(o Outcome) {
	b, _ := json.Marshal(record{Outcome: &o})
	r.line(b)
}

// read is the host side: it dispatches the records of rd until EOF, and
// calls first before the first. A line that is no record goes to the
// stray stderr as it came.
func read(rd io.Reader, j Job, res *Result, first func()) {
	sc := bufio.NewScanner(rd)
	sc.Buffer(make([]byte, 64*1024), 64*1024*1024)
	for sc.Scan() {
		if first != nil {
			first()
			first = nil
		}
		b := sc.Bytes()
		if bytes.HasPrefix(b, []byte(`{"jaiph_`)) {
			var rec record
			if json.Unmarshal(b, &rec) == nil {
				switch {
				case rec.Send != nil:
					res.Sends = append(res.Sends, *rec.Send)
					continue
				case rec.Stray != nil:
					io.WriteString(j.Stray, *rec.Stray)
					continue
				case rec.Error != nil:
					res.Error = *rec.Error
					continue
				case rec.Opened != nil:
					if j.Opened != nil {
						j.Opened(rec.Opened.RunDir, rec.Opened.RunID)
					}
					continue
				case rec.Append != nil:
					if j.Append != nil {
						j.Append(rec.Append.File, rec.Append.Lines)
					}
					continue
				case rec.Outcome != nil:
					res.Outcome = rec.Outcome
					continue
				}
			}
		}
		if e, err := event.Parse(b); err == nil {
			if j.Event != nil {
				j.Event(e)
			}
			continue
		}
		j.Stray.Write(append(append([]byte{}, b...), '\n'))
	}
	io.Copy(io.Discard, rd) // a line too long: drain, so the container never blocks
}
