package otlp

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/codes"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/jaiph-go/jaiph/internal/event"
)

// replay feeds summary lines to a Spans and draws the spans it ended as a
// tree (children in start order), with statuses and span events. With
// failed, Spans.Fail is called before End, as a live run's runner does.
func replay(t *testing.T, lines string, failed ...bool) string {
	t.Helper()
	rec := tracetest.NewSpanRecorder()
	s := NewSpans(sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rec)).Tracer("test"))
	for _, l := range strings.Split(strings.TrimSpace(lines), "\n") {
		e, err := event.Parse([]byte(l))
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		s.Event(e)
	}
	if len(failed) > 0 && failed[0] {
		s.Fail()
	}
	s.End()
	// After End nothing more is traced (a hook's or a torn-down dispatch's
	// late event).
	late, _ := event.Parse([]byte(`{"type":"STEP_START","kind":"workflow","name":"late","ts":"2026-11-23T07:00:09Z","id":"x","parent_id":null,"seq":9,"depth":0,"run_id":"r","params":[],"event_version":1}`))
	s.Event(late)
	s.End()

	ended := rec.Ended()
	if n := len(rec.Started()); n != len(ended) {
		t.Errorf("%d spans started, %d ended", n, len(ended))
	}
	kids := map[string][]sdktrace.ReadOnlySpan{}
	var root sdktrace.ReadOnlySpan
	for _, sp := range ended {
		if !sp.Parent().IsValid() {
			if root != nil {
				t.Fatalf("two roots: %s, %s", root.Name(), sp.Name())
			}
			root = sp
			continue
		}
		p := sp.Parent().SpanID().String()
		kids[p] = append(kids[p], sp)
	}
	var b strings.Builder
	var walk func(sp sdktrace.ReadOnlySpan, indent string)
	walk = func(sp sdktrace.ReadOnlySpan, indent string) {
		fmt.Fprintf(&b, "%s%s %s..%s", indent, sp.Name(), sp.StartTime().Format("05.000"), sp.EndTime().Format("05.000"))
		if sp.Status().Code == codes.Error {
			fmt.Fprintf(&b, " ERROR(%s)", sp.Status().Description)
		}
		b.WriteString("\n")
		for _, e := range sp.Events() {
			fmt.Fprintf(&b, "%s  * %s %s\n", indent, e.Name, e.Time.Format("05"))
		}
		ks := kids[sp.SpanContext().SpanID().String()]
		sort.SliceStable(ks, func(i, j int) bool { return ks[i].StartTime().Before(ks[j].StartTime()) })
		for _, k := range ks {
			walk(k, indent+"  ")
		}
	}
	walk(root, "")
	return b.String()
}

// A resumed run with a prompt: retries and idle notices land on the
// prompt's span, a replayed call on its parent, RUN_RESUMED on the run, and
// calls a crash left open end at RUN_RESUMED.
func TestSpansResumedPrompt(t *testing.T) {
	got := replay(t, `
{"type":"STEP_START","func":"main::default","kind":"workflow","name":"default","ts":"2026-11-23T07:00:01Z","status":null,"elapsed_ms":null,"out_file":"","err_file":"","id":"r:1:1","parent_id":null,"seq":1,"depth":0,"run_id":"r","params":[],"event_version":1}
{"type":"WORKFLOW_START","workflow":"default","source":"main.jh","ts":"2026-11-23T07:00:01Z","run_id":"r","event_version":1}
{"type":"STEP_START","func":"jaiph::prompt","kind":"prompt","name":"prompt","ts":"2026-11-23T07:00:02Z","status":null,"elapsed_ms":null,"out_file":"","err_file":"","id":"r:1:2","parent_id":"r:1:1","seq":2,"depth":1,"run_id":"r","params":[],"event_version":1}
{"type":"PROMPT_IDLE","id":"r:1:2","idle_ms":30000,"depth":2,"ts":"2026-11-23T07:00:03Z","run_id":"r","event_version":1}
{"type":"PROMPT_RETRY","id":"r:1:2","attempt":1,"status":1,"delay_ms":500,"out_file":"","err_file":"","depth":2,"ts":"2026-11-23T07:00:04Z","run_id":"r","event_version":1}
{"type":"RUN_RESUMED","ts":"2026-11-23T07:00:06Z","run_id":"r","event_version":1}
{"type":"STEP_START","func":"main::default","kind":"workflow","name":"default","ts":"2026-11-23T07:00:06Z","status":null,"elapsed_ms":null,"out_file":"","err_file":"","id":"r:2:3","parent_id":null,"seq":3,"depth":0,"run_id":"r","params":[],"event_version":1}
{"type":"STEP_REPLAYED","func":"main::fetch","kind":"workflow","name":"fetch","ts":"2026-11-23T07:00:06Z","status":0,"out_file":"/o","id":"r:1:4","parent_id":"r:2:3","seq":4,"depth":1,"run_id":"r","event_version":1}
{"type":"STEP_END","func":"main::default","kind":"workflow","name":"default","ts":"2026-11-23T07:00:07Z","status":0,"elapsed_ms":1500,"out_file":"","err_file":"","id":"r:2:3","parent_id":null,"seq":3,"depth":0,"run_id":"r","event_version":1}
`)
	want := `jaiph run main.jh 01.000..07.500
  * RUN_RESUMED 06
  workflow default 01.000..04.000 ERROR(interrupted; the run was resumed)
    prompt prompt 02.000..04.000 ERROR(interrupted; the run was resumed)
      * PROMPT_IDLE 03
      * PROMPT_RETRY 04
  workflow default 06.000..07.500
    * STEP_REPLAYED 06
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// A run stopped by a signal leaves calls without STEP_END: they and the
// run end with an error at the last event.
func TestSpansInterrupted(t *testing.T) {
	got := replay(t, `
{"type":"STEP_START","func":"main::default","kind":"workflow","name":"default","ts":"2026-11-23T07:00:01Z","status":null,"elapsed_ms":null,"out_file":"","err_file":"","id":"r:1:1","parent_id":null,"seq":1,"depth":0,"run_id":"r","params":[],"event_version":1}
{"type":"STEP_START","func":"main::slow","kind":"rule","name":"slow","ts":"2026-11-23T07:00:02Z","status":null,"elapsed_ms":null,"out_file":"","err_file":"","id":"r:1:2","parent_id":"r:1:1","seq":2,"depth":1,"run_id":"r","params":[],"event_version":1}
{"type":"LOG","message":"waiting","depth":2,"ts":"2026-11-23T07:00:05Z","run_id":"r","event_version":1}
`)
	want := `jaiph run 01.000..05.000 ERROR(the run failed)
  workflow default 01.000..05.000 ERROR(no STEP_END: the run was interrupted)
    rule slow 02.000..05.000 ERROR(no STEP_END: the run was interrupted)
      * LOG 05
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}

// A run that failed with every call passed (a fault, stray stderr): its
// runner's Fail makes the run's span an error, the calls stay as they were.
func TestSpansFailedWithCallsPassed(t *testing.T) {
	lines := `
{"type":"STEP_START","func":"main::default","kind":"workflow","name":"default","ts":"2026-11-23T07:00:01Z","status":null,"elapsed_ms":null,"out_file":"","err_file":"","id":"r:1:1","parent_id":null,"seq":1,"depth":0,"run_id":"r","params":[],"event_version":1}
{"type":"STEP_END","func":"main::default","kind":"workflow","name":"default","ts":"2026-11-23T07:00:02Z","status":0,"elapsed_ms":1000,"out_file":"","err_file":"","id":"r:1:1","parent_id":null,"seq":1,"depth":0,"run_id":"r","event_version":1}
`
	want := `jaiph run 01.000..02.000%s
  workflow default 01.000..02.000
`
	if got := replay(t, lines); got != fmt.Sprintf(want, "") {
		t.Errorf("passed run, got:\n%s", got)
	}
	if got := replay(t, lines, true); got != fmt.Sprintf(want, " ERROR(the run failed)") {
		t.Errorf("failed run, got:\n%s", got)
	}
}

type encodeOnly struct{}

func (encodeOnly) ExportSpans(_ context.Context, s []sdktrace.ReadOnlySpan) error {
	encodeRequest(s)
	return nil
}
func (encodeOnly) Shutdown(context.Context) error { return nil }

// BenchmarkSpans: what live export costs a run of 10,000 messages through
// one route (7 events each, as in BenchmarkInbox10000), spans built, batched
// and encoded; no network.
func BenchmarkSpans(b *testing.B) {
	ts := time.Date(2026, 11, 23, 7, 0, 0, 0, time.UTC)
	st, el := 0, int64(1)
	events := []*event.Event{{Type: event.StepStart, Kind: "workflow", Name: "default", Func: "main::default", ID: "r:1:1", Seq: 1, Time: ts}}
	for i := 2; i <= 10001; i++ {
		id, seq := fmt.Sprintf("r:1:%d", i), fmt.Sprintf("%03d", i)
		step := event.Event{Kind: "workflow", Name: "target", Func: "main::target", ID: id, ParentID: "r:1:1", Seq: i, Depth: 1,
			Time: ts, Dispatched: true, Channel: "work", Sender: "default"}
		start, end := step, step
		start.Type, start.Params = event.StepStart, [][2]string{{"arg1", "message"}, {"arg2", "work"}, {"arg3", "default"}}
		end.Type, end.Status, end.ElapsedMS = event.StepEnd, &st, &el
		events = append(events,
			&event.Event{Type: event.InboxEnqueue, InboxSeq: seq, Channel: "work", Sender: "default", PayloadPreview: "message", Time: ts},
			&event.Event{Type: event.DispatchStart, InboxSeq: seq, Channel: "work", Target: "main::target", Sender: "default", Time: ts},
			&start, &event.Event{Type: event.WorkflowStart, Workflow: "target", Source: "main.jh", Time: ts},
			&event.Event{Type: event.WorkflowEnd, Workflow: "target", Source: "main.jh", Status: &st, Time: ts}, &end,
			&event.Event{Type: event.DispatchFinish, InboxSeq: seq, Channel: "work", Target: "main::target", Sender: "default", Status: &st, ElapsedMS: &el, Time: ts})
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(encodeOnly{}, sdktrace.WithBlocking())) // every span encoded
		s := NewSpans(tp.Tracer("bench"))
		for _, e := range events {
			s.Event(e)
		}
		s.End()
		tp.Shutdown(context.Background())
	}
}

// A broker delivery whose worker was lost: the STEP_END the run wrote for
// the lost attempt ends its span with an error saying why, and the
// attempt that took over is a span of its own.
func TestSpansLostAttempt(t *testing.T) {
	got := replay(t, `
{"type":"STEP_START","func":"main::default","kind":"workflow","name":"default","ts":"2026-11-23T07:00:01Z","status":null,"elapsed_ms":null,"out_file":"","err_file":"","id":"r:1:1","parent_id":null,"seq":1,"depth":0,"run_id":"r","params":[],"event_version":1}
{"type":"STEP_START","func":"main::work","kind":"workflow","name":"work","ts":"2026-11-23T07:00:02Z","status":null,"elapsed_ms":null,"out_file":"","err_file":"","id":"w:1:1","parent_id":"r:1:1","seq":2,"depth":1,"run_id":"w","params":[],"worker":"wB","event_version":1}
{"type":"STEP_END","func":"main::work","kind":"workflow","name":"work","ts":"2026-11-23T07:00:04Z","status":1,"elapsed_ms":2000,"out_file":"","err_file":"","id":"w:1:1","parent_id":"r:1:1","seq":2,"depth":1,"run_id":"w","worker":"wB","lost":"worker wB stopped renewing its lease","event_version":1}
{"type":"STEP_START","func":"main::work","kind":"workflow","name":"work","ts":"2026-11-23T07:00:05Z","status":null,"elapsed_ms":null,"out_file":"","err_file":"","id":"w:2:1","parent_id":"r:1:1","seq":3,"depth":1,"run_id":"w","params":[],"worker":"wC","event_version":1}
{"type":"STEP_END","func":"main::work","kind":"workflow","name":"work","ts":"2026-11-23T07:00:06Z","status":0,"elapsed_ms":1000,"out_file":"","err_file":"","id":"w:2:1","parent_id":"r:1:1","seq":3,"depth":1,"run_id":"w","event_version":1}
{"type":"STEP_END","func":"main::default","kind":"workflow","name":"default","ts":"2026-11-23T07:00:07Z","status":0,"elapsed_ms":6000,"out_file":"","err_file":"","id":"r:1:1","parent_id":null,"seq":1,"depth":0,"run_id":"r","event_version":1}
`)
	want := `jaiph run 01.000..07.000
  workflow default 01.000..07.000
    workflow work 02.000..04.000 ERROR(lost: worker wB stopped renewing its lease)
    workflow work 05.000..06.000
`
	if got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
