package event

import (
	"strconv"
	"time"
	"unicode/utf8"
)

// Observer receives every event as it happens (progress tree, hooks). Calls
// may come from several goroutines; the runtime serialises them.
type Observer interface {
	Event(e *Event)
}

// Observers fans each event out to several observers, in order.
type Observers []Observer

// Event passes e to every observer.
func (o Observers) Event(e *Event) {
	for _, x := range o {
		x.Event(e)
	}
}

// Event is one run_summary.jsonl record. Fields are written in the order
// docs/run-directory.md#run_summaryjsonl gives for each type; unset optional fields are
// left out.
type Event struct {
	Type string
	// Step events.
	Func, Kind, Name string
	Time             time.Time
	Status           *int
	ElapsedMS        *int64
	OutFile, ErrFile string
	ID, ParentID     string
	Seq, Depth       int
	Params           [][2]string
	Dispatched       bool
	Channel, Sender  string
	OutContent       *string
	ErrContent       *string
	// Workflow events.
	Workflow, Source string
	// Log events.
	Message string
	// Inbox events.
	InboxSeq, Target string
	PayloadPreview   string
	PayloadRef       *string
	// Prompt retry and idle events (jaiph-go, opt-in): the attempt that
	// failed, the wait before the next one, the silence that was noticed.
	Attempt         int
	DelayMS, IdleMS int64
	RunID           string
	// Replayed marks an INBOX_DISPATCH_COMPLETE whose delivery a resumed
	// run replayed from the journal instead of running it (written only
	// when true: not an attempt).
	Replayed bool
	// Worker names the `jaiph worker` that ran a delivery of a broker run
	// (internal/broker): on its INBOX_DISPATCH_START/COMPLETE and on the
	// STEP_START of the delivered target; "" for a local one.
	Worker string
	// Lost says why an attempt of a broker delivery ended without its
	// worker's result (the worker was killed, stopped renewing its lease,
	// or handed the delivery back as it stopped): on the STEP_END the run
	// writes for each step of that attempt still open, and on its
	// INBOX_DISPATCH_COMPLETE, so every start has an end; or, on any run,
	// that `jaiph resume` ended a step or delivery the killed attempt left
	// open (runtime.InterruptedWhy). "" otherwise.
	Lost string
	// Receive events (beyond the reference): the key waited for, the
	// timeout as written, how long the wait took.
	Key, Timeout string
	WaitedMS     int64
}

// Step event types and the others.
const (
	StepStart      = "STEP_START"
	StepEnd        = "STEP_END"
	WorkflowStart  = "WORKFLOW_START"
	WorkflowEnd    = "WORKFLOW_END"
	Log            = "LOG"
	LogErr         = "LOGERR"
	InboxEnqueue   = "INBOX_ENQUEUE"
	DispatchStart  = "INBOX_DISPATCH_START"
	DispatchFinish = "INBOX_DISPATCH_COMPLETE"
	// Beyond the reference (docs/differences.md): written only when
	// agent.retries or agent.idle_warn is set.
	PromptRetry = "PROMPT_RETRY"
	PromptIdle  = "PROMPT_IDLE"
	// Written only when run.inbox_retries is set: a failed delivery that
	// will be retried, and one that became a dead letter.
	InboxRetry = "INBOX_RETRY"
	InboxDead  = "INBOX_DEAD"
	// Written by `jaiph resume` only: a call of the interrupted attempt
	// that completed and is replayed instead of run, and the start of a
	// resumed attempt.
	StepReplayed = "STEP_REPLAYED"
	RunResumed   = "RUN_RESUMED"
	// Beyond the reference: a receive step started waiting on a channel,
	// and got its message.
	ReceiveWait = "RECEIVE_WAIT"
	Receive     = "RECEIVE"
)

// JSON renders the event as one compact JSON line (without the newline).
func (e *Event) JSON() []byte {
	w := jsonWriter{b: make([]byte, 0, 384)} // most events fit: one allocation
	w.open()
	w.str("type", e.Type)
	ts := stamp(e.Time)
	switch e.Type {
	case StepStart, StepEnd:
		w.str("func", e.Func)
		w.str("kind", e.Kind)
		w.str("name", e.Name)
		w.str("ts", ts)
		if e.Type == StepStart {
			w.raw("status", "null")
			w.raw("elapsed_ms", "null")
			w.str("out_file", "")
			w.str("err_file", "")
		} else {
			w.raw("status", strconv.Itoa(*e.Status))
			w.raw("elapsed_ms", strconv.FormatInt(*e.ElapsedMS, 10))
			w.str("out_file", e.OutFile)
			w.str("err_file", e.ErrFile)
		}
		w.str("id", e.ID)
		if e.ParentID == "" {
			w.raw("parent_id", "null")
		} else {
			w.str("parent_id", e.ParentID)
		}
		w.raw("seq", strconv.Itoa(e.Seq))
		w.raw("depth", strconv.Itoa(e.Depth))
		w.str("run_id", e.RunID)
		if e.Type == StepStart {
			w.key("params")
			w.b = append(w.b, '[')
			for i, p := range e.Params {
				if i > 0 {
					w.b = append(w.b, ',')
				}
				w.b = append(w.b, '[')
				w.b = AppendJSONString(w.b, p[0])
				w.b = append(w.b, ',')
				w.b = AppendJSONString(w.b, p[1])
				w.b = append(w.b, ']')
			}
			w.b = append(w.b, ']')
		}
		if e.Dispatched {
			w.raw("dispatched", "true")
			w.str("channel", e.Channel)
			if e.Sender != "" {
				w.str("sender", e.Sender)
			}
		}
		if e.Worker != "" {
			w.str("worker", e.Worker)
		}
		if e.Lost != "" {
			w.str("lost", e.Lost)
		}
		if e.OutContent != nil {
			w.str("out_content", *e.OutContent)
		}
		if e.ErrContent != nil {
			w.str("err_content", *e.ErrContent)
		}
	case WorkflowStart, WorkflowEnd:
		w.str("workflow", e.Workflow)
		w.str("source", e.Source)
		w.str("ts", ts)
		w.str("run_id", e.RunID)
		if e.Type == WorkflowEnd && e.Status != nil {
			w.raw("status", strconv.Itoa(*e.Status))
		}
	case Log, LogErr:
		w.str("message", e.Message)
		w.raw("depth", strconv.Itoa(e.Depth))
		w.str("ts", ts)
		w.str("run_id", e.RunID)
	case InboxEnqueue:
		w.str("inbox_seq", e.InboxSeq)
		w.str("channel", e.Channel)
		w.str("sender", e.Sender)
		w.str("payload_preview", e.PayloadPreview)
		if e.PayloadRef == nil {
			w.raw("payload_ref", "null")
		} else {
			w.str("payload_ref", *e.PayloadRef)
		}
		w.str("ts", ts)
		w.str("run_id", e.RunID)
	case DispatchStart, DispatchFinish:
		w.str("inbox_seq", e.InboxSeq)
		w.str("channel", e.Channel)
		w.str("target", e.Target)
		w.str("sender", e.Sender)
		if e.Type == DispatchFinish {
			w.raw("status", strconv.Itoa(*e.Status))
			w.raw("elapsed_ms", strconv.FormatInt(*e.ElapsedMS, 10))
			if e.Replayed {
				w.raw("replayed", "true")
			}
		}
		if e.Worker != "" {
			w.str("worker", e.Worker)
		}
		if e.Lost != "" {
			w.str("lost", e.Lost)
		}
		w.str("ts", ts)
		w.str("run_id", e.RunID)
	case PromptRetry:
		// id is the prompt step's; out_file/err_file are the failed
		// attempt's kept artifacts ("" when it wrote nothing).
		w.str("id", e.ID)
		w.raw("attempt", strconv.Itoa(e.Attempt))
		w.raw("status", strconv.Itoa(*e.Status))
		w.raw("delay_ms", strconv.FormatInt(e.DelayMS, 10))
		w.str("out_file", e.OutFile)
		w.str("err_file", e.ErrFile)
		w.raw("depth", strconv.Itoa(e.Depth))
		w.str("ts", ts)
		w.str("run_id", e.RunID)
	case InboxRetry, InboxDead:
		// depth is the orchestrator's; attempt is the failed attempt
		// (INBOX_RETRY) or the number of attempts made (INBOX_DEAD), whose
		// payload_ref names the dead letter's file.
		w.str("inbox_seq", e.InboxSeq)
		w.str("channel", e.Channel)
		w.str("target", e.Target)
		w.str("sender", e.Sender)
		if e.Type == InboxRetry {
			w.raw("attempt", strconv.Itoa(e.Attempt))
		} else {
			w.raw("attempts", strconv.Itoa(e.Attempt))
		}
		w.raw("status", strconv.Itoa(*e.Status))
		if e.Type == InboxRetry {
			w.raw("delay_ms", strconv.FormatInt(e.DelayMS, 10))
		} else {
			w.str("payload_ref", *e.PayloadRef)
		}
		w.raw("depth", strconv.Itoa(e.Depth))
		w.str("ts", ts)
		w.str("run_id", e.RunID)
	case StepReplayed:
		w.str("func", e.Func)
		w.str("kind", e.Kind)
		w.str("name", e.Name)
		w.str("ts", ts)
		w.raw("status", strconv.Itoa(*e.Status))
		w.str("out_file", e.OutFile)
		w.str("id", e.ID)
		if e.ParentID == "" {
			w.raw("parent_id", "null")
		} else {
			w.str("parent_id", e.ParentID)
		}
		w.raw("seq", strconv.Itoa(e.Seq))
		w.raw("depth", strconv.Itoa(e.Depth))
		w.str("run_id", e.RunID)
	case RunResumed:
		w.str("ts", ts)
		w.str("run_id", e.RunID)
	case ReceiveWait, Receive:
		// id is the receive's workflow step; key and timeout as given
		// ("" for none).
		w.str("id", e.ID)
		w.str("channel", e.Channel)
		w.str("key", e.Key)
		if e.Type == ReceiveWait {
			w.str("timeout", e.Timeout)
		} else {
			w.str("payload_preview", e.PayloadPreview)
			w.raw("waited_ms", strconv.FormatInt(e.WaitedMS, 10))
		}
		w.raw("depth", strconv.Itoa(e.Depth))
		w.str("ts", ts)
		w.str("run_id", e.RunID)
	case PromptIdle:
		w.str("id", e.ID)
		w.raw("idle_ms", strconv.FormatInt(e.IdleMS, 10))
		w.raw("depth", strconv.Itoa(e.Depth))
		w.str("ts", ts)
		w.str("run_id", e.RunID)
	}
	w.raw("event_version", "1")
	w.b = append(w.b, '}')
	return w.b
}

type jsonWriter struct {
	b     []byte
	comma bool
}

func (w *jsonWriter) open() { w.b = append(w.b, '{') }

// key appends "k": (keys are plain words: nothing to escape).
func (w *jsonWriter) key(k string) {
	if w.comma {
		w.b = append(w.b, ',')
	}
	w.comma = true
	w.b = append(append(append(w.b, '"'), k...), '"', ':')
}

func (w *jsonWriter) str(k, v string) {
	w.key(k)
	w.b = AppendJSONString(w.b, v)
}

func (w *jsonWriter) raw(k, v string) {
	w.key(k)
	w.b = append(w.b, v...)
}

// stamp is t as the summary's ts: UTC, whole seconds,
// 2006-01-02T15:04:05Z (what time.Format gives, at a tenth of its cost:
// it was about 5 % of a run's instructions).
func stamp(t time.Time) string {
	t = t.UTC()
	y, mo, d := t.Date()
	h, mi, sec := t.Clock()
	if y < 0 || y > 9999 {
		return t.Format("2006-01-02T15:04:05Z")
	}
	b := []byte("0000-00-00T00:00:00Z")
	for _, v := range [...]struct{ at, n, v int }{{0, 4, y}, {5, 2, int(mo)}, {8, 2, d}, {11, 2, h}, {14, 2, mi}, {17, 2, sec}} {
		for j := v.at + v.n - 1; j >= v.at; j-- {
			b[j] = byte('0' + v.v%10)
			v.v /= 10
		}
	}
	return string(b)
}

// AppendJSONString appends s as a JSON string, escaped like JSON.stringify: `"`, `\`, the short escapes
// \b \f \n \r \t, other control characters as \u00xx; no HTML escaping and
// non-ASCII kept as UTF-8 (invalid bytes become U+FFFD).
func AppendJSONString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0 // s[start:i] is copied as it is, in one append
	for i := 0; i < len(s); {
		c := s[i]
		if jsonPlain[c] {
			i++
			continue
		}
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r != utf8.RuneError || size != 1 {
				i += size
				continue
			}
			b = append(append(b, s[start:i]...), "\ufffd"...)
			i++
			start = i
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"':
			b = append(b, '\\', '"')
		case '\\':
			b = append(b, '\\', '\\')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default: // another control character
			const hex = "0123456789abcdef"
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		i++
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// jsonPlain marks the bytes AppendJSONString copies as they are: printable
// ASCII but the quote and the backslash.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()
