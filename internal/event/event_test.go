package event_test

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/jaiph-go/jaiph/internal/event"
)

// TestJSON: one event of each type becomes exactly the run_summary.jsonl
// line docs/run-directory.md#run_summaryjsonl describes (key order, nulls, optional keys).
// The expected lines are written out by hand from the reference's format, not produced by
// the encoder.
func TestJSON(t *testing.T) {
	ts := time.Date(2024, 1, 2, 3, 4, 5, 999, time.FixedZone("X", 3600)) // rendered in UTC, whole seconds
	st0, st3 := 0, 3
	ms := int64(1234)
	out, errc, ref := "line\n\"two\"", "oops\x01", "inbox/001-ch.txt"
	cases := []struct {
		name string
		e    event.Event
		want string
	}{
		{"step start root", event.Event{Type: event.StepStart, Func: "main::default", Kind: "workflow", Name: "default",
			Time: ts, ID: "r:1:1", Seq: 1, RunID: "r"},
			`{"type":"STEP_START","func":"main::default","kind":"workflow","name":"default","ts":"2024-01-02T02:04:05Z","status":null,"elapsed_ms":null,"out_file":"","err_file":"","id":"r:1:1","parent_id":null,"seq":1,"depth":0,"run_id":"r","params":[],"event_version":1}`},
		{"step start dispatched", event.Event{Type: event.StepStart, Func: "m::w", Kind: "workflow", Name: "w",
			Time: ts, ID: "r:1:3", ParentID: "r:1:1", Seq: 3, Depth: 1, RunID: "r",
			Params: [][2]string{{"1", "a b"}, {"2", "<&>"}}, Dispatched: true, Channel: "ch", Sender: "default"},
			`{"type":"STEP_START","func":"m::w","kind":"workflow","name":"w","ts":"2024-01-02T02:04:05Z","status":null,"elapsed_ms":null,"out_file":"","err_file":"","id":"r:1:3","parent_id":"r:1:1","seq":3,"depth":1,"run_id":"r","params":[["1","a b"],["2","<&>"]],"dispatched":true,"channel":"ch","sender":"default","event_version":1}`},
		{"step end with contents", event.Event{Type: event.StepEnd, Func: "m::f", Kind: "function", Name: "f",
			Time: ts, Status: &st3, ElapsedMS: &ms, OutFile: "/w/r/000002-m__f.out", ErrFile: "/w/r/000002-m__f.err",
			ID: "r:1:2", ParentID: "r:1:1", Seq: 2, Depth: 1, RunID: "r", Params: [][2]string{{"1", "ignored"}},
			OutContent: &out, ErrContent: &errc},
			`{"type":"STEP_END","func":"m::f","kind":"function","name":"f","ts":"2024-01-02T02:04:05Z","status":3,"elapsed_ms":1234,"out_file":"/w/r/000002-m__f.out","err_file":"/w/r/000002-m__f.err","id":"r:1:2","parent_id":"r:1:1","seq":2,"depth":1,"run_id":"r","out_content":"line\n\"two\"","err_content":"oops\u0001","event_version":1}`},
		{"step end dispatched, no sender", event.Event{Type: event.StepEnd, Func: "m::r", Kind: "rule", Name: "r",
			Time: ts, Status: &st0, ElapsedMS: new(int64), ID: "r:1:4", ParentID: "r:1:3", Seq: 4, Depth: 2, RunID: "r",
			Dispatched: true, Channel: "ch"},
			`{"type":"STEP_END","func":"m::r","kind":"rule","name":"r","ts":"2024-01-02T02:04:05Z","status":0,"elapsed_ms":0,"out_file":"","err_file":"","id":"r:1:4","parent_id":"r:1:3","seq":4,"depth":2,"run_id":"r","dispatched":true,"channel":"ch","event_version":1}`},
		{"workflow start", event.Event{Type: event.WorkflowStart, Workflow: "default", Source: "main.jh", Time: ts, RunID: "r"},
			`{"type":"WORKFLOW_START","workflow":"default","source":"main.jh","ts":"2024-01-02T02:04:05Z","run_id":"r","event_version":1}`},
		{"workflow end", event.Event{Type: event.WorkflowEnd, Workflow: "default", Time: ts, RunID: "r", Status: &st3},
			`{"type":"WORKFLOW_END","workflow":"default","source":"","ts":"2024-01-02T02:04:05Z","run_id":"r","status":3,"event_version":1}`},
		{"workflow end without status", event.Event{Type: event.WorkflowEnd, Workflow: "default", Time: ts, RunID: "r"},
			`{"type":"WORKFLOW_END","workflow":"default","source":"","ts":"2024-01-02T02:04:05Z","run_id":"r","event_version":1}`},
		{"log", event.Event{Type: event.Log, Message: "hi\tthere", Depth: 2, Time: ts, RunID: "r"},
			`{"type":"LOG","message":"hi\tthere","depth":2,"ts":"2024-01-02T02:04:05Z","run_id":"r","event_version":1}`},
		{"logerr", event.Event{Type: event.LogErr, Message: "bad\xff é", Time: ts, RunID: "r"},
			`{"type":"LOGERR","message":"bad` + "\ufffd" + ` é","depth":0,"ts":"2024-01-02T02:04:05Z","run_id":"r","event_version":1}`},
		{"inbox enqueue", event.Event{Type: event.InboxEnqueue, InboxSeq: "001", Channel: "ch", Sender: "default",
			PayloadPreview: "hello", Time: ts, RunID: "r"},
			`{"type":"INBOX_ENQUEUE","inbox_seq":"001","channel":"ch","sender":"default","payload_preview":"hello","payload_ref":null,"ts":"2024-01-02T02:04:05Z","run_id":"r","event_version":1}`},
		{"inbox enqueue truncated", event.Event{Type: event.InboxEnqueue, InboxSeq: "001", Channel: "ch", Sender: "default",
			PayloadPreview: "hel...", PayloadRef: &ref, Time: ts, RunID: "r"},
			`{"type":"INBOX_ENQUEUE","inbox_seq":"001","channel":"ch","sender":"default","payload_preview":"hel...","payload_ref":"inbox/001-ch.txt","ts":"2024-01-02T02:04:05Z","run_id":"r","event_version":1}`},
		{"dispatch start", event.Event{Type: event.DispatchStart, InboxSeq: "001", Channel: "ch", Target: "m::w",
			Sender: "default", Time: ts, RunID: "r"},
			`{"type":"INBOX_DISPATCH_START","inbox_seq":"001","channel":"ch","target":"m::w","sender":"default","ts":"2024-01-02T02:04:05Z","run_id":"r","event_version":1}`},
		{"dispatch complete", event.Event{Type: event.DispatchFinish, InboxSeq: "001", Channel: "ch", Target: "m::w",
			Sender: "default", Status: &st3, ElapsedMS: &ms, Time: ts, RunID: "r"},
			`{"type":"INBOX_DISPATCH_COMPLETE","inbox_seq":"001","channel":"ch","target":"m::w","sender":"default","status":3,"elapsed_ms":1234,"ts":"2024-01-02T02:04:05Z","run_id":"r","event_version":1}`},
		{"dispatch complete, replayed by resume", event.Event{Type: event.DispatchFinish, InboxSeq: "001", Channel: "ch", Target: "m::w",
			Sender: "default", Status: &st0, ElapsedMS: &ms, Time: ts, RunID: "r", Replayed: true},
			`{"type":"INBOX_DISPATCH_COMPLETE","inbox_seq":"001","channel":"ch","target":"m::w","sender":"default","status":0,"elapsed_ms":1234,"replayed":true,"ts":"2024-01-02T02:04:05Z","run_id":"r","event_version":1}`},
		{"dispatch complete, attempt lost with its worker", event.Event{Type: event.DispatchFinish, InboxSeq: "001", Channel: "ch", Target: "m::w",
			Sender: "default", Status: &st3, ElapsedMS: &ms, Time: ts, RunID: "r", Worker: "wB", Lost: "worker wB stopped renewing its lease"},
			`{"type":"INBOX_DISPATCH_COMPLETE","inbox_seq":"001","channel":"ch","target":"m::w","sender":"default","status":3,"elapsed_ms":1234,"worker":"wB","lost":"worker wB stopped renewing its lease","ts":"2024-01-02T02:04:05Z","run_id":"r","event_version":1}`},
		{"step end of a lost attempt", event.Event{Type: event.StepEnd, Func: "m::w", Kind: "workflow", Name: "w",
			Time: ts, Status: &st3, ElapsedMS: &ms, ID: "r:1:3", ParentID: "r:1:1", Seq: 3, Depth: 1, RunID: "r",
			Dispatched: true, Channel: "ch", Worker: "wB", Lost: "worker wB stopped renewing its lease"},
			`{"type":"STEP_END","func":"m::w","kind":"workflow","name":"w","ts":"2024-01-02T02:04:05Z","status":3,"elapsed_ms":1234,"out_file":"","err_file":"","id":"r:1:3","parent_id":"r:1:1","seq":3,"depth":1,"run_id":"r","dispatched":true,"channel":"ch","worker":"wB","lost":"worker wB stopped renewing its lease","event_version":1}`},
		{"prompt retry", event.Event{Type: event.PromptRetry, ID: "r:1:2", Attempt: 1, Status: &st3, DelayMS: 1500,
			OutFile: "/w/r/000002-jaiph__prompt.attempt-1.out", Depth: 1, Time: ts, RunID: "r"},
			`{"type":"PROMPT_RETRY","id":"r:1:2","attempt":1,"status":3,"delay_ms":1500,"out_file":"/w/r/000002-jaiph__prompt.attempt-1.out","err_file":"","depth":1,"ts":"2024-01-02T02:04:05Z","run_id":"r","event_version":1}`},
		{"prompt idle", event.Event{Type: event.PromptIdle, ID: "r:1:2", IdleMS: 30000, Depth: 1, Time: ts, RunID: "r"},
			`{"type":"PROMPT_IDLE","id":"r:1:2","idle_ms":30000,"depth":1,"ts":"2024-01-02T02:04:05Z","run_id":"r","event_version":1}`},
	}
	for _, c := range cases {
		got := string(c.e.JSON())
		if got != c.want {
			t.Errorf("%s:\n got %s\nwant %s", c.name, got, c.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("%s: not valid JSON: %s", c.name, got)
		}
	}
}

// TestAppendJSONString: the escaping of docs/run-directory.md#run_summaryjsonl (like JSON.stringify):
// short escapes, other control characters as \u00xx, no HTML escaping,
// UTF-8 kept, invalid bytes as U+FFFD.
func TestAppendJSONString(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", `""`},
		{`a"b\c`, `"a\"b\\c"`},
		{"\b\f\n\r\t", `"\b\f\n\r\t"`},
		{"\x00\x1f\x7f", `"\u0000\u001f` + "\x7f" + `"`},
		{"<a href='x'>&amp;</a>", `"<a href='x'>&amp;</a>"`},
		{"é日本\U0001F600\u2028", "\"é日本\U0001F600\u2028\""},
		{"a\xffb\xe6\x97", "\"a\ufffdb\ufffd\ufffd\""},
	}
	for _, c := range cases {
		if got := string(event.AppendJSONString([]byte("x"), c.in)); got != "x"+c.want {
			t.Errorf("AppendJSONString(%q) = %s, want x%s", c.in, got, c.want)
		}
	}
}

// TestAppendJSONStringRandom compares the encoder, which copies runs of
// plain bytes at once, with a byte-at-a-time reference over random byte
// strings (every byte value, valid and broken UTF-8).
func TestAppendJSONStringRandom(t *testing.T) {
	reference := func(s string) string {
		var b strings.Builder
		b.WriteByte('"')
		for i := 0; i < len(s); {
			r, size := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == '"' || r == '\\':
				b.WriteString(`\` + string(r))
			case r == '\b':
				b.WriteString(`\b`)
			case r == '\f':
				b.WriteString(`\f`)
			case r == '\n':
				b.WriteString(`\n`)
			case r == '\r':
				b.WriteString(`\r`)
			case r == '\t':
				b.WriteString(`\t`)
			case r < 0x20:
				fmt.Fprintf(&b, `\u%04x`, r)
			default:
				b.WriteRune(r) // RuneError for an invalid byte: U+FFFD
			}
			i += size
		}
		b.WriteByte('"')
		return b.String()
	}
	rng := rand.New(rand.NewSource(7))
	for n := 0; n < 20000; n++ {
		buf := make([]byte, rng.Intn(24))
		for i := range buf {
			if rng.Intn(3) == 0 {
				buf[i] = byte(rng.Intn(256))
			} else {
				buf[i] = "ab\"\\\n\x01é日"[rng.Intn(10)]
			}
		}
		if got, want := string(event.AppendJSONString(nil, string(buf))), reference(string(buf)); got != want {
			t.Fatalf("AppendJSONString(%q) = %s, want %s", buf, got, want)
		}
	}
}
