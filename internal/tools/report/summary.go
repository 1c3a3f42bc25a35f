package report

import (
	"encoding/json"
	"path"
	"sort"

	"github.com/jaiph-go/jaiph/internal/event"
)

// Step is one step of a run as the tree shows it (field order and names
// are the reference's StepRow, then ours).
type Step struct {
	ID         string      `json:"id"`
	ParentID   *string     `json:"parent_id"`
	Seq        *int        `json:"seq"`
	Depth      *int        `json:"depth"`
	Kind       string      `json:"kind"`
	Name       string      `json:"name"`
	Func       string      `json:"func"`
	Params     [][2]string `json:"params"`
	Status     *int        `json:"status"`
	ElapsedMS  *int64      `json:"elapsed_ms"`
	OutFile    string      `json:"out_file"`
	ErrFile    string      `json:"err_file"`
	OutContent string      `json:"out_content"`
	ErrContent string      `json:"err_content"`
	Running    bool        `json:"running"`
	Replayed   bool        `json:"replayed"`
	// Interrupted (+) marks a step the run was stopped in: one a killed
	// run left open (no STEP_END), or one its interrupting signal ended
	// (status 128+n of the signal run.end names).
	Interrupted bool `json:"interrupted,omitempty"`
	// Worker (+) is the `jaiph worker` that ran a delivered target of a
	// broker run; Lost (+) why its attempt ended without the worker's
	// result (a STEP_END the run wrote for it: the worker died, stopped
	// renewing its lease, or handed the delivery back).
	Worker    string  `json:"worker,omitempty"`
	Lost      string  `json:"lost,omitempty"`
	StartedAt *string `json:"started_at"`
	EndedAt   *string `json:"ended_at"`
	Logs      []Log   `json:"logs"`
	Children  []*Step `json:"children"`
	// Retries (+) are a prompt's failed attempts that were retried
	// (PROMPT_RETRY, agent.retries); Letters (+) an orchestrator's failed
	// deliveries: retried (INBOX_RETRY) or dead letters (INBOX_DEAD,
	// run.inbox_retries).
	Retries []Retry  `json:"retries,omitempty"`
	Letters []Letter `json:"letters,omitempty"`
}

// Retry is one failed attempt of a prompt that was retried.
type Retry struct {
	Attempt int    `json:"attempt"`
	Status  int    `json:"status"`
	DelayMS int64  `json:"delay_ms"`
	OutFile string `json:"out_file"`
	ErrFile string `json:"err_file"`
	TS      string `json:"ts"`
}

// Letter is one failed delivery of a message: "retry" (attempt failed,
// retried) or "dead" (a dead letter after attempt attempts; payload_ref
// names its file).
type Letter struct {
	Type       string `json:"type"`
	InboxSeq   string `json:"inbox_seq"`
	Channel    string `json:"channel"`
	Target     string `json:"target"`
	Attempt    int    `json:"attempt"`
	Status     int    `json:"status"`
	PayloadRef string `json:"payload_ref,omitempty"`
	TS         string `json:"ts"`
}

// Log is one LOG or LOGERR line.
type Log struct {
	Type     string `json:"type"`
	Message  string `json:"message"`
	TS       string `json:"ts"`
	Depth    int    `json:"depth"`
	AfterSeq int    `json:"after_seq"`
}

// summary is what a run's run_summary.jsonl has told so far; add feeds it
// one complete line at a time.
type summary struct {
	runID, source string
	first, last   string // ts of the first and last events
	steps         map[string]*Step
	order         []*Step // in first-seen order (the reference's Map order)
	open          []*Step // started, not ended, in start order
	hasFailure    bool
	resumed       bool
	lastSeq       int
	logs          []Log // claimed by no open step
}

func newSummary() *summary { return &summary{steps: map[string]*Step{}} }

// add applies one line; blank lines and lines that are not a JSON object
// (a torn write, garbage) are skipped, as the reference does.
func (s *summary) add(b []byte) {
	e, err := event.Decode(b)
	if err != nil {
		return
	}
	if e.TS != "" {
		if s.first == "" {
			s.first = e.TS
		}
		s.last = e.TS
	}
	if s.runID == "" {
		s.runID = e.RunID
	}
	switch e.Type {
	case event.WorkflowStart:
		// The entry's file: the first WORKFLOW_START's (the reference
		// takes every one's, so a run that calls into an imported module
		// was listed under that module's file).
		if s.source == "" && e.Source != "" {
			s.source = path.Base(e.Source)
		} else if s.source == "" {
			s.source = e.Workflow
		}
	case event.StepStart, event.StepEnd, event.StepReplayed:
		if e.ID == "" {
			return
		}
		st := s.steps[e.ID]
		if st == nil {
			st = &Step{ID: e.ID}
			s.steps[e.ID] = st
			s.order = append(s.order, st)
		}
		st.set(e)
		switch e.Type {
		case event.StepStart: // again when resume runs a step anew
			st.StartedAt, st.EndedAt = strPtr(e.TS), nil
		case event.StepEnd:
			st.EndedAt = strPtr(e.TS)
		case event.StepReplayed: // taken from the journal at that moment
			st.StartedAt, st.EndedAt = strPtr(e.TS), strPtr(e.TS)
		}
		s.closeStep(st)
		if e.Type == event.StepStart {
			st.Running = true
			s.open = append(s.open, st)
		}
		if e.Seq != nil && *e.Seq > s.lastSeq {
			s.lastSeq = *e.Seq
		}
		st.Replayed = e.Type == event.StepReplayed
		if e.Type == event.StepEnd && st.Status != nil && *st.Status != 0 {
			s.hasFailure = true
		}
	case event.Log, event.LogErr:
		depth := 0
		if e.Depth != nil {
			depth = *e.Depth
		}
		l := Log{Type: e.Type, Message: e.Message, TS: e.TS, Depth: depth, AfterSeq: s.lastSeq}
		if st := s.owner(depth); st != nil {
			st.Logs = append(st.Logs, l)
		} else {
			s.logs = append(s.logs, l)
		}
	case event.PromptRetry:
		if st := s.steps[e.ID]; st != nil {
			st.Retries = append(st.Retries, Retry{Attempt: intOr0(e.Attempt), Status: intOr0(e.Status), DelayMS: e.DelayMS,
				OutFile: e.OutFile, ErrFile: e.ErrFile, TS: e.TS})
		}
	case event.InboxRetry, event.InboxDead:
		l := Letter{Type: "retry", InboxSeq: e.InboxSeq, Channel: e.Channel, Target: e.Target, Attempt: intOr0(e.Attempt),
			Status: intOr0(e.Status), TS: e.TS}
		if e.Type == event.InboxDead {
			l.Type, l.Attempt, l.PayloadRef = "dead", intOr0(e.Attempts), strOr0(e.PayloadRef)
		}
		// depth is the orchestrator's: the open step at that depth.
		for i := len(s.open) - 1; i >= 0; i-- {
			if d := s.open[i].Depth; d != nil && e.Depth != nil && *d == *e.Depth {
				s.open[i].Letters = append(s.open[i].Letters, l)
				break
			}
		}
	case event.RunResumed:
		// A new attempt: the steps the last one left open were ended by
		// resume's repair; failures are counted afresh.
		for _, st := range s.open {
			st.Running = false
		}
		s.open, s.hasFailure, s.resumed = nil, false, true
	}
}

// set copies an event's step fields, as the reference merges STEP_START
// and STEP_END rows (each event overwrites every field).
func (st *Step) set(e *event.Record) {
	st.ParentID, st.Seq, st.Depth = e.ParentID, e.Seq, e.Depth
	st.Kind, st.Name, st.Func = e.Kind, e.Name, e.Func
	// STEP_END carries no params: keep STEP_START's (the reference
	// empties them).
	if e.Params != nil {
		st.Params = params(e.Params)
	} else if st.Params == nil {
		st.Params = [][2]string{}
	}
	st.Status, st.ElapsedMS = e.Status, e.ElapsedMS
	st.OutFile, st.ErrFile = e.OutFile, e.ErrFile
	st.OutContent, st.ErrContent = strOr0(e.OutContent), strOr0(e.ErrContent)
	st.Running = false
	if e.Worker != "" {
		st.Worker = e.Worker
	}
	st.Lost = e.Lost
}

// params keeps the [name, value] string pairs of a params array.
func params(raw json.RawMessage) [][2]string {
	out := [][2]string{}
	var list []json.RawMessage
	if json.Unmarshal(raw, &list) != nil {
		return out
	}
	for _, p := range list {
		var pair []any
		if json.Unmarshal(p, &pair) != nil || len(pair) < 2 {
			continue
		}
		k, ok1 := pair[0].(string)
		v, ok2 := pair[1].(string)
		if ok1 && ok2 {
			out = append(out, [2]string{k, v})
		}
	}
	return out
}

func (s *summary) closeStep(st *Step) {
	for i, o := range s.open {
		if o == st {
			s.open = append(s.open[:i], s.open[i+1:]...)
			return
		}
	}
}

// owner is the step a log line at depth was written in: the latest open
// step one level up (log depth is the call stack's length).
func (s *summary) owner(depth int) *Step {
	for i := len(s.open) - 1; i >= 0; i-- {
		if d := s.open[i].Depth; d != nil && *d == depth-1 {
			return s.open[i]
		}
	}
	return nil
}

// stop is how a run stands for its steps: live (some may run), or over;
// cut is the status the signal that interrupted it gave the steps it
// stopped (128+n), 0 when no signal did.
type stop struct {
	live bool
	cut  int
}

// stopped tells whether st is a step the run was stopped in (see
// Step.Interrupted): never ended although the run is over, or ended by
// the interrupting signal.
func (v stop) stopped(st *Step) bool {
	if v.live {
		return false
	}
	return st.Running || v.cut != 0 && st.Status != nil && *st.Status == v.cut
}

// stepCounts are the run's steps: every step seen (started), those that
// ended, those running, and those the run was stopped in (open: a killed
// run never ended them, a signal cut them short), which are not counted
// as completed.
type stepCounts struct{ total, completed, running, open int }

func (s *summary) counts(v stop) stepCounts {
	c := stepCounts{total: len(s.order)}
	for _, st := range s.order {
		switch {
		case st.Running && v.live:
			c.running++
		case v.stopped(st):
			c.open++
		}
	}
	c.completed = c.total - c.running - c.open
	return c
}

// innermost is the running step deepest in the call stack (the latest
// started of those as deep), which /api/active names: while a child
// runs, its workflow is running too. nil when none runs.
func (s *summary) innermost() *Step {
	var cur *Step
	for _, st := range s.open { // in start order
		if cur == nil || depthOf(st) >= depthOf(cur) {
			cur = st
		}
	}
	return cur
}

func depthOf(st *Step) int {
	if st.Depth == nil {
		return 0
	}
	return *st.Depth
}

// cycle tells whether st's parent chain (garbage input) leads back to st,
// which would make the tree infinite.
func (s *summary) cycle(st *Step) bool {
	for p, n := st.ParentID, 0; p != nil && n <= len(s.order); n++ {
		if *p == st.ID {
			return true
		}
		parent := s.steps[*p]
		if parent == nil {
			return false
		}
		p = parent.ParentID
	}
	return false
}

func seqKey(st *Step) int {
	if st.Seq == nil {
		return 1e9
	}
	return *st.Seq
}

// bySeq is every step, in seq order (a step without seq last).
func (s *summary) bySeq() []*Step {
	out := append([]*Step(nil), s.order...)
	sort.SliceStable(out, func(i, j int) bool { return seqKey(out[i]) < seqKey(out[j]) })
	return out
}

// tree copies the steps into parent/child trees sorted by seq; a step
// whose parent was never seen is a root. The copies are the caller's. In
// a run that is not live, no step is running (see counts), and the steps
// it was stopped in are marked Interrupted.
func (s *summary) tree(v stop) []*Step {
	nodes := make(map[string]*Step, len(s.order))
	for _, st := range s.order {
		c := *st
		c.Interrupted = v.stopped(st)
		c.Running = c.Running && v.live
		c.Children = []*Step{}
		c.Logs = append([]Log{}, st.Logs...)
		nodes[st.ID] = &c
	}
	var roots []*Step
	for _, st := range s.order {
		n := nodes[st.ID]
		if st.ParentID != nil && nodes[*st.ParentID] != nil && !s.cycle(st) {
			p := nodes[*st.ParentID]
			p.Children = append(p.Children, n)
		} else {
			roots = append(roots, n)
		}
	}
	var sortRec func([]*Step)
	sortRec = func(list []*Step) {
		sort.SliceStable(list, func(i, j int) bool { return seqKey(list[i]) < seqKey(list[j]) })
		for _, n := range list {
			sortRec(n.Children)
		}
	}
	sortRec(roots)
	if roots == nil {
		roots = []*Step{}
	}
	return roots
}

func intOr0(p *int) int {
	if p == nil {
		return 0
	}
	return *p
}

func strOr0(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
