package event_test

import (
	"errors"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jaiph-go/jaiph/internal/event"
)

// Parse reads back every type event.Event.JSON writes, field for field.
func TestParseRoundTrip(t *testing.T) {
	ts := time.Date(2026, 11, 23, 7, 22, 0, 0, time.UTC)
	st, st0, el := 3, 0, int64(79)
	out, ref := "line1\n\"q\"\t\u00e9", "inbox/002-report.txt"
	step := event.Event{Func: "main::a", Kind: "workflow", Name: "a", Time: ts, ID: "r:1:2", ParentID: "r:1:1",
		Seq: 2, Depth: 1, RunID: "r"}
	for _, e := range []event.Event{
		with(step, func(e *event.Event) {
			e.Type, e.Params = event.StepStart, [][2]string{{"arg1", "x y"}, {"arg2", "\x01"}}
		}),
		with(step, func(e *event.Event) { e.Type, e.ParentID, e.Depth, e.Params = event.StepStart, "", 0, [][2]string{} }),
		with(step, func(e *event.Event) {
			e.Type, e.Status, e.ElapsedMS, e.OutFile, e.ErrFile, e.OutContent, e.ErrContent = event.StepEnd, &st, &el,
				"/r/1.out", "/r/1.err", &out, &out
			e.Dispatched, e.Channel, e.Sender = true, "findings", "scanner"
		}),
		with(step, func(e *event.Event) { e.Type, e.Status, e.OutFile = event.StepReplayed, &st0, "/r/2.out" }),
		{Type: event.WorkflowStart, Workflow: "default", Source: "main.jh", Time: ts, RunID: "r"},
		{Type: event.WorkflowEnd, Workflow: "default", Source: "", Time: ts, RunID: "r", Status: &st},
		{Type: event.Log, Message: "hi \"there\"\n", Depth: 2, Time: ts, RunID: "r"},
		{Type: event.LogErr, Message: "", Depth: 1, Time: ts, RunID: "r"},
		{Type: event.InboxEnqueue, InboxSeq: "001", Channel: "c", Sender: "s", PayloadPreview: "p...", PayloadRef: &ref, Time: ts, RunID: "r"},
		{Type: event.InboxEnqueue, InboxSeq: "002", Channel: "c", Sender: "s", PayloadPreview: "p", Time: ts, RunID: "r"},
		{Type: event.DispatchStart, InboxSeq: "001", Channel: "c", Target: "main::t", Sender: "s", Time: ts, RunID: "r"},
		{Type: event.DispatchFinish, InboxSeq: "001", Channel: "c", Target: "main::t", Sender: "s", Status: &st, ElapsedMS: &el, Time: ts, RunID: "r"},
		{Type: event.DispatchFinish, InboxSeq: "002", Channel: "c", Target: "main::t", Sender: "s", Status: &st, ElapsedMS: &el, Time: ts, RunID: "r", Replayed: true},
		{Type: event.PromptRetry, ID: "r:1:3", Attempt: 1, Status: &st, DelayMS: 500, OutFile: "/o", Depth: 2, Time: ts, RunID: "r"},
		{Type: event.PromptIdle, ID: "r:1:3", IdleMS: 30000, Depth: 2, Time: ts, RunID: "r"},
		{Type: event.InboxRetry, InboxSeq: "001", Channel: "c", Target: "main::t", Sender: "s", Attempt: 2, Status: &st, DelayMS: 100, Depth: 1, Time: ts, RunID: "r"},
		{Type: event.InboxDead, InboxSeq: "001", Channel: "c", Target: "main::t", Sender: "s", Attempt: 3, Status: &st, PayloadRef: &ref, Depth: 1, Time: ts, RunID: "r"},
		{Type: event.RunResumed, Time: ts, RunID: "r"},
	} {
		line := e.JSON()
		got, err := event.Parse(line)
		if err != nil {
			t.Fatalf("%s: %v", line, err)
		}
		if !reflect.DeepEqual(*got, e) {
			t.Errorf("%s\n got %+v\nwant %+v", line, *got, e)
		}
		if again := got.JSON(); string(again) != string(line) {
			t.Errorf("re-encoded:\n%s\nwant\n%s", again, line)
		}
	}
}

func TestParseRejects(t *testing.T) {
	for _, line := range []string{
		`{"type":"LOG","message":"x","depth":1,"ts":"2026-11-23T07:22:00Z","run_id":"r"`, // torn
		`{"message":"x","event_version":1}`,                                              // no type
		`{"type":"LOG","ts":"2026-11-23T07:22:00Z"}`,                                     // no version
		`{"type":"LOG","ts":"yesterday","event_version":1}`,
		`{"type":"LOG","ts":"2026-11-23T07:22:00Z","event_version":null}`,
		`{"type":"LOG","ts":"2026-11-23T07:22:00Z","event_version":"one"}`,
		`{"type":"STEP_START","ts":"2026-11-23T07:22:00Z","params":[["a",1]],"event_version":1}`,
		`[1,2]`,
	} {
		if e, err := event.Parse([]byte(line)); err == nil {
			t.Errorf("%s: accepted as %+v", line, e)
		}
	}
}

func with(e event.Event, f func(*event.Event)) event.Event {
	f(&e)
	return e
}

// Read gives every line that decodes, as written, in order: it skips
// blank and torn lines, reads a line longer than its buffer and a last
// line without its newline, and stops at fn's error.
func TestRead(t *testing.T) {
	long := strings.Repeat("x", 10000)
	summary := `{"type":"LOG","message":"a","depth":1,"ts":"2026-11-23T07:22:00Z","run_id":"r","event_version":1}` + "\n" +
		"\n" +
		`{"type":"STEP_START","id":` + "\n" + // torn
		`{"type":"LOG","message":"` + long + `","depth":1}` + "\n" + // no ts, no version: a Record all the same
		`not json` + "\n" +
		`{"depth":2,"type":"INBOX_DISPATCH_START","inbox_seq":"001"}` + "\n" + // another key order
		`{"type":"INBOX_DISPATCH_COMPLETE","inbox_seq":"001","status":0}` // no newline
	var got []string
	err := event.Read(strings.NewReader(summary), event.Filter{}, func(r *event.Record) error {
		got = append(got, r.Type+" "+r.InboxSeq+" "+strconv.Itoa(len(r.Message)))
		return nil
	})
	if want := []string{"LOG  1", "LOG  10000", "INBOX_DISPATCH_START 001 0", "INBOX_DISPATCH_COMPLETE 001 0"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("Read: %q %v, want %q", got, err, want)
	}

	got = nil
	err = event.Read(strings.NewReader(summary), event.Filter{Types: []string{event.DispatchStart, event.DispatchFinish}}, func(r *event.Record) error {
		got = append(got, r.Type)
		return nil
	})
	if want := []string{event.DispatchStart, event.DispatchFinish}; err != nil || !slices.Equal(got, want) {
		t.Errorf("Read only dispatch events: %q %v, want %q", got, err, want)
	}

	got = nil
	err = event.Read(strings.NewReader(summary), event.Filter{HeadOnly: true}, func(r *event.Record) error {
		got = append(got, r.Type+" "+r.TS+" "+strconv.Itoa(len(r.Message)))
		return nil
	})
	if want := []string{"LOG 2026-11-23T07:22:00Z 0", "LOG  0", "INBOX_DISPATCH_START  0", "INBOX_DISPATCH_COMPLETE  0"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("Read heads only: %q %v, want %q", got, err, want)
	}

	stop := errors.New("stop")
	n := 0
	err = event.Read(strings.NewReader(summary), event.Filter{}, func(*event.Record) error { n++; return stop })
	if err != stop || n != 1 {
		t.Errorf("fn's error: Read returned %v after %d lines", err, n)
	}

	var events []string
	err = event.ReadEvents(strings.NewReader(summary), func(e *event.Event) error {
		events = append(events, e.Type+" "+e.Message)
		return nil
	})
	if want := []string{"LOG a"}; err != nil || !slices.Equal(events, want) {
		t.Errorf("ReadEvents: %q %v, want %q", events, err, want)
	}
}
