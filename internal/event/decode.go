package event

// This file answers: how is run_summary.jsonl read back? Every reader of a
// summary (jaiph runs, inbox, report, resume, the OTLP export, the
// broker's resume) decodes its lines here, so that the keys Event.JSON
// writes are spelled in one place besides the writer.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"time"
)

// Record is one run_summary.jsonl line as it was written, before anything
// judges it: every key Event.JSON writes, with pointers where a null or
// missing key differs from a zero value. The readers that show what a
// summary holds (jaiph runs, inbox, report) read Records, so that a line
// written by the reference, an older jaiph or by hand shows what it has;
// those that act on events read Events (ReadEvents, Parse).
type Record struct {
	Head
	// The free text, which a line of a step with output is mostly made of
	// (Filter.HeadOnly leaves it out).
	Params         json.RawMessage `json:"params"` // [[name, value], …]; an Event's are string pairs
	OutContent     *string         `json:"out_content"`
	ErrContent     *string         `json:"err_content"`
	Message        string          `json:"message"`
	PayloadPreview string          `json:"payload_preview"`
}

// Head is a Record but its free text: what a line says happened, and when.
type Head struct {
	Type       string          `json:"type"`
	Func       string          `json:"func"`
	Kind       string          `json:"kind"`
	Name       string          `json:"name"`
	TS         string          `json:"ts"` // as written: an Event's Time needs the summary's own format
	Status     *int            `json:"status"`
	ElapsedMS  *int64          `json:"elapsed_ms"`
	OutFile    string          `json:"out_file"`
	ErrFile    string          `json:"err_file"`
	ID         string          `json:"id"`
	ParentID   *string         `json:"parent_id"`
	Seq        *int            `json:"seq"`
	Depth      *int            `json:"depth"`
	RunID      string          `json:"run_id"`
	Dispatched bool            `json:"dispatched"`
	Channel    string          `json:"channel"`
	Sender     string          `json:"sender"`
	Workflow   string          `json:"workflow"`
	Source     string          `json:"source"`
	InboxSeq   string          `json:"inbox_seq"`
	Target     string          `json:"target"`
	PayloadRef *string         `json:"payload_ref"`
	Attempt    *int            `json:"attempt"`
	Attempts   *int            `json:"attempts"` // INBOX_DEAD's name for attempt
	DelayMS    int64           `json:"delay_ms"`
	IdleMS     int64           `json:"idle_ms"`
	Replayed   bool            `json:"replayed"`
	Worker     string          `json:"worker"`
	Lost       string          `json:"lost"`
	Key        string          `json:"key"`
	Timeout    string          `json:"timeout"`
	WaitedMS   int64           `json:"waited_ms"`
	Version    json.RawMessage `json:"event_version"` // an event has one; a Record need not
}

// Decode reads one line into a Record. A JSON object decodes, its unknown
// keys ignored (and null, as an empty Record); a blank line, a torn one,
// another JSON value or a known key holding another type is an error.
func Decode(b []byte) (*Record, error) {
	r := new(Record)
	if err := json.Unmarshal(b, r); err != nil {
		return nil, err
	}
	return r, nil
}

// Parse reads one run_summary.jsonl line back into the event that wrote
// it (Event.JSON is its inverse for every type it writes).
func Parse(b []byte) (*Event, error) {
	r, err := Decode(b)
	if err != nil {
		return nil, err
	}
	e, err := r.event()
	if errors.Is(err, errNotEvent) {
		return nil, fmt.Errorf("not a run_summary event: %.80s", b)
	}
	return e, err
}

var errNotEvent = errors.New("not a run_summary event")

// event is the Event r is: it must have a type, an event_version and a ts
// in the summary's format, and its params must be string pairs.
func (r *Record) event() (*Event, error) {
	var version *json.Number
	if r.Type == "" || json.Unmarshal(r.Version, &version) != nil || version == nil {
		return nil, errNotEvent
	}
	ts, err := time.Parse("2006-01-02T15:04:05Z", r.TS)
	if err != nil {
		return nil, fmt.Errorf("event %s: bad ts %q", r.Type, r.TS)
	}
	var params [][2]string
	if r.Params != nil {
		if err := json.Unmarshal(r.Params, &params); err != nil {
			return nil, err
		}
	}
	e := &Event{Type: r.Type, Func: r.Func, Kind: r.Kind, Name: r.Name, Time: ts,
		Status: r.Status, ElapsedMS: r.ElapsedMS, OutFile: r.OutFile, ErrFile: r.ErrFile,
		ID: r.ID, Seq: deref(r.Seq), Depth: deref(r.Depth), RunID: r.RunID, Params: params,
		Dispatched: r.Dispatched, Channel: r.Channel, Sender: r.Sender,
		OutContent: r.OutContent, ErrContent: r.ErrContent, Workflow: r.Workflow, Source: r.Source,
		Message: r.Message, InboxSeq: r.InboxSeq, Target: r.Target, PayloadPreview: r.PayloadPreview,
		PayloadRef: r.PayloadRef, Attempt: deref(r.Attempt) + deref(r.Attempts), DelayMS: r.DelayMS, IdleMS: r.IdleMS,
		Replayed: r.Replayed, Worker: r.Worker, Lost: r.Lost, Key: r.Key, Timeout: r.Timeout, WaitedMS: r.WaitedMS}
	if r.ParentID != nil {
		e.ParentID = *r.ParentID
	}
	if e.Type == StepStart && e.Params == nil {
		e.Params = [][2]string{} // "params":[] and a missing key read alike
	}
	if e.Type == StepStart {
		// STEP_START writes null status and elapsed_ms, and empty artifact
		// paths; the event carries none of them.
		e.Status, e.ElapsedMS = nil, nil
	}
	return e, nil
}

func deref(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

// Filter tells Read which of a summary's bytes a reader wants (the zero
// Filter: all of them). Skipping is what makes a reader of many summaries
// cheap: jaiph runs reads hundreds, and a step's line is mostly its output.
type Filter struct {
	// Types, when given, are the only types read: the lines of the others
	// are skipped undecoded. The type is read from the line's head, where
	// Event.JSON writes it; a line with another head is decoded to learn it.
	Types []string
	// HeadOnly decodes each line's Head only: the Record's free text stays
	// zero.
	HeadOnly bool
}

// Read calls fn with each line of the summary r, decoded, in file order,
// until r ends or fn returns an error (Read returns it, or r's). Lines that
// do not decode (blank, garbage, a line a kill cut short) are skipped. A
// last line without its newline is read too: Read is for a summary as it
// stands; a tailer that must wait for that newline (jaiph report) frames
// the lines itself and decodes each with Decode.
func Read(r io.Reader, f Filter, fn func(*Record) error) error {
	// A small buffer: most summaries are a few short lines; a longer line
	// is gathered in long.
	br := bufio.NewReaderSize(r, 4096)
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if err == bufio.ErrBufferFull {
			long = append(long, chunk...)
			continue
		}
		line := chunk
		if len(long) > 0 {
			long = append(long, chunk...)
			line, long = long, long[:0]
		}
		if rec := f.decode(line); rec != nil {
			if ferr := fn(rec); ferr != nil {
				return ferr
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// ReadEvents is Read for the readers that act on events: fn gets each line
// that is an event (Parse), and the others are skipped.
func ReadEvents(r io.Reader, fn func(*Event) error) error {
	return Read(r, Filter{}, func(rec *Record) error {
		e, err := rec.event()
		if err != nil {
			return nil
		}
		return fn(e)
	})
}

// decode is line as f wants it, or nil when it does not decode or f does
// not want its type.
func (f Filter) decode(line []byte) *Record {
	if len(f.Types) > 0 {
		if t, ok := headType(line); ok && !slices.Contains(f.Types, string(t)) {
			return nil
		}
	}
	rec := new(Record)
	var err error
	if f.HeadOnly {
		err = json.Unmarshal(line, &rec.Head)
	} else {
		err = json.Unmarshal(line, rec)
	}
	if err != nil || len(f.Types) > 0 && !slices.Contains(f.Types, rec.Type) {
		return nil
	}
	return rec
}

// headType is the type of a line that starts as Event.JSON writes one,
// `{"type":"NAME"`; ok is false for any other head.
func headType(line []byte) (name []byte, ok bool) {
	const head = `{"type":"`
	rest, ok := bytes.CutPrefix(line, []byte(head))
	if !ok {
		return nil, false
	}
	i := bytes.IndexByte(rest, '"')
	if i < 0 || bytes.IndexByte(rest[:i], '\\') >= 0 {
		return nil, false
	}
	return rest[:i], true
}
