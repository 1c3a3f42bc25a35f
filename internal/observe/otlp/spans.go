package otlp

import (
	"context"
	"strconv"
	"sync"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/trace"

	"github.com/jaiph-go/jaiph/internal/event"
)

// Spans is the event.Observer that builds a run's trace: a root span for
// the run, a child span per managed call (STEP_START…STEP_END, nested by
// parent_id), and span events for logs, inbox traffic, retries and resume
// markers. Times are the events' own, so a live run and a replay of its
// run_summary.jsonl give the same tree (the summary's at second
// resolution).
type Spans struct {
	tracer trace.Tracer

	mu       sync.Mutex
	root     trace.Span
	rootCtx  context.Context
	failed   bool // a root call ended non-zero, or the runner said so (Fail)
	last     time.Time
	open     map[string]*call // by step id
	order    []*call          // open calls, oldest first, to find a log's owner
	rootName bool             // the root span is named after the source
	runID    string
	ended    bool
}

type call struct {
	id    string
	depth int
	start time.Time
	span  trace.Span
	ctx   context.Context
}

// NewSpans builds spans with tracer; nothing is started before the first
// event.
func NewSpans(tracer trace.Tracer) *Spans {
	return &Spans{tracer: tracer, open: map[string]*call{}}
}

// Event turns one event into span starts, ends or span events.
func (s *Spans) Event(e *event.Event) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ended { // a late event (a hook, a dispatch torn down): no run to join
		return
	}
	t := e.Time
	if t.IsZero() {
		t = time.Now()
	}
	if s.root == nil {
		s.rootCtx, s.root = s.tracer.Start(context.Background(), "jaiph run",
			trace.WithTimestamp(t), trace.WithSpanKind(trace.SpanKindInternal))
	}
	if e.RunID != "" && e.RunID != s.runID {
		s.runID = e.RunID
		s.root.SetAttributes(attribute.String("jaiph.run_id", e.RunID))
	}
	switch e.Type {
	case event.StepStart:
		s.start(e, t)
	case event.StepEnd:
		s.end(e, t)
	case event.WorkflowStart:
		if !s.rootName && e.Source != "" {
			s.rootName = true
			s.root.SetName("jaiph run " + e.Source)
			s.root.SetAttributes(attribute.String("jaiph.source", e.Source),
				attribute.String("jaiph.workflow", e.Workflow))
		}
	case event.WorkflowEnd:
		// The call's STEP_END, right after, carries the same status.
	case event.Log, event.LogErr:
		// depth is the call stack's length: the owner is the newest open
		// call one level up.
		s.owner(e.Depth-1).AddEvent(e.Type, trace.WithTimestamp(t), trace.WithAttributes(
			attribute.String("jaiph.message", e.Message), attribute.Int("jaiph.depth", e.Depth)))
	case event.PromptRetry, event.PromptIdle:
		s.byID(e.ID).AddEvent(e.Type, trace.WithTimestamp(t), trace.WithAttributes(attrs(e)...))
	case event.StepReplayed:
		s.byID(e.ParentID).AddEvent(e.Type, trace.WithTimestamp(t), trace.WithAttributes(attrs(e)...))
	case event.RunResumed:
		// The interrupted attempt's calls never ended: close them here.
		for _, c := range s.order {
			s.finish(c, s.last, codes.Error, "interrupted; the run was resumed")
		}
		s.root.AddEvent(e.Type, trace.WithTimestamp(t))
	default: // inbox events and any later type: on the run
		s.root.AddEvent(e.Type, trace.WithTimestamp(t), trace.WithAttributes(attrs(e)...))
	}
	// After the switch: the calls RUN_RESUMED ends stop at the interrupted
	// attempt's last event.
	if t.After(s.last) {
		s.last = t
	}
}

func (s *Spans) start(e *event.Event, t time.Time) {
	if old := s.open[e.ID]; old != nil { // the same id again: a resumed attempt
		s.finish(old, t, codes.Error, "interrupted")
	}
	parent := s.rootCtx
	if p := s.open[e.ParentID]; p != nil {
		parent = p.ctx
	}
	a := attrs(e)
	for _, p := range e.Params {
		a = append(a, attribute.String("jaiph.param."+p[0], p[1]))
	}
	ctx, span := s.tracer.Start(parent, e.Kind+" "+e.Name, trace.WithTimestamp(t),
		trace.WithAttributes(a...))
	c := &call{id: e.ID, depth: e.Depth, start: t, span: span, ctx: ctx}
	s.open[e.ID] = c
	s.order = append(s.order, c)
}

func (s *Spans) end(e *event.Event, t time.Time) {
	c := s.open[e.ID]
	if c == nil {
		return // its start was before a torn line or another file
	}
	c.span.SetAttributes(attrs(e)...)
	// The summary's seconds would make most spans empty; elapsed_ms keeps
	// their length.
	if e.ElapsedMS != nil {
		if d := c.start.Add(time.Duration(*e.ElapsedMS) * time.Millisecond); d.After(t) {
			t = d
			if t.After(s.last) {
				s.last = t
			}
		}
	}
	code, desc := codes.Unset, ""
	if e.Status != nil && *e.Status != 0 {
		code, desc = codes.Error, "exit status "+strconv.Itoa(*e.Status)
	}
	if e.Lost != "" {
		code, desc = codes.Error, "lost: "+e.Lost
	}
	if code == codes.Error {
		if e.ParentID == "" {
			s.failed = true
		}
	}
	s.finish(c, t, code, desc)
}

func (s *Spans) finish(c *call, t time.Time, code codes.Code, desc string) {
	if code != codes.Unset {
		c.span.SetStatus(code, desc)
	}
	c.span.End(trace.WithTimestamp(t))
	delete(s.open, c.id)
	for i, o := range s.order {
		if o == c {
			s.order = append(s.order[:i], s.order[i+1:]...)
			break
		}
	}
}

// owner is the newest open call at depth, or the run.
func (s *Spans) owner(depth int) trace.Span {
	for i := len(s.order) - 1; i >= 0; i-- {
		if s.order[i].depth == depth {
			return s.order[i].span
		}
	}
	return s.root
}

func (s *Spans) byID(id string) trace.Span {
	if c := s.open[id]; c != nil {
		return c.span
	}
	return s.root
}

// Fail marks the run failed whatever its calls' statuses were (a fault,
// stray stderr): the live runner knows the run's result, the summary
// alone does not. Call it before End.
func (s *Spans) Fail() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failed = true
}

// End closes the trace: calls that never ended (an interrupted run) end
// with an error at the last event's time, then the run, which is an error
// when a root call failed or was interrupted. Events after End are
// ignored.
func (s *Spans) End() {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.root == nil || s.ended {
		return
	}
	for len(s.order) > 0 {
		c := s.order[len(s.order)-1]
		s.finish(c, s.last, codes.Error, "no STEP_END: the run was interrupted")
		s.failed = true
	}
	if s.failed {
		s.root.SetStatus(codes.Error, "the run failed")
	}
	s.root.End(trace.WithTimestamp(s.last))
	s.ended = true
}

// attrs are the event's fields as jaiph.* attributes, the empty ones left
// out (params are added by the caller, content is in the artifacts).
func attrs(e *event.Event) []attribute.KeyValue {
	a := make([]attribute.KeyValue, 0, 12)
	str := func(k, v string) {
		if v != "" {
			a = append(a, attribute.String(k, v))
		}
	}
	num := func(k string, v int64) {
		if v != 0 {
			a = append(a, attribute.Int64(k, v))
		}
	}
	str("jaiph.kind", e.Kind)
	str("jaiph.name", e.Name)
	str("jaiph.func", e.Func)
	str("jaiph.id", e.ID)
	str("jaiph.parent_id", e.ParentID)
	num("jaiph.seq", int64(e.Seq))
	if e.Depth != 0 || e.Kind != "" { // a call's depth 0 is the root's
		a = append(a, attribute.Int("jaiph.depth", e.Depth))
	}
	if e.Status != nil {
		a = append(a, attribute.Int("jaiph.status", *e.Status))
	}
	if e.ElapsedMS != nil {
		a = append(a, attribute.Int64("jaiph.elapsed_ms", *e.ElapsedMS))
	}
	str("jaiph.out_file", e.OutFile)
	str("jaiph.err_file", e.ErrFile)
	if e.Dispatched {
		a = append(a, attribute.Bool("jaiph.dispatched", true))
	}
	str("jaiph.channel", e.Channel)
	str("jaiph.sender", e.Sender)
	str("jaiph.inbox_seq", e.InboxSeq)
	str("jaiph.target", e.Target)
	str("jaiph.payload_preview", e.PayloadPreview)
	if e.PayloadRef != nil {
		str("jaiph.payload_ref", *e.PayloadRef)
	}
	num("jaiph.attempt", int64(e.Attempt))
	str("jaiph.worker", e.Worker)
	str("jaiph.lost", e.Lost)
	num("jaiph.delay_ms", e.DelayMS)
	num("jaiph.idle_ms", e.IdleMS)
	return a
}
