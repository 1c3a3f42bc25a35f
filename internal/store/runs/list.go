package runs

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/store/chain"
	"github.com/jaiph-go/jaiph/internal/store/inbox"
)

// Statuses of a run.
const (
	Running     = "running"     // a live process holds the lock
	Passed      = "passed"      // ended with status 0
	Failed      = "failed"      // ended otherwise
	Interrupted = "interrupted" // ended by a signal, or never ended (killed)
	Unknown     = "unknown"     // nothing readable tells
)

// Statuses are the values of Run.Status, the choices of `jaiph runs
// --status`.
var Statuses = []string{Passed, Failed, Interrupted, Running, Unknown}

// StatusFlag is the value of `jaiph runs --status`: one of Statuses, or
// "" for every run.
type StatusFlag string

func (f *StatusFlag) String() string { return string(*f) }

// Type names the value in help.
func (f *StatusFlag) Type() string { return "status" }

// Set refuses a value that is no status (a usage error).
func (f *StatusFlag) Set(s string) error {
	if !slices.Contains(Statuses, s) {
		return fmt.Errorf("want one of %s", strings.Join(Statuses, ", "))
	}
	*f = StatusFlag(s)
	return nil
}

// Run is one listed run (`jaiph runs --json`). Field names are stable.
type Run struct {
	Dir    string    `json:"run_dir"`
	RunID  string    `json:"run_id"`
	Source string    `json:"source"`
	Entry  string    `json:"entry,omitempty"`
	Status string    `json:"status"`
	Start  time.Time `json:"start,omitzero"`
	// End is zero while running and for killed runs (then Duration runs
	// to the last event).
	End        *time.Time `json:"end,omitempty"`
	DurationMS int64      `json:"duration_ms"`
	Signal     string     `json:"signal,omitempty"`
	Args       []string   `json:"args"`
	// DeadLetters counts the messages in inbox/dead/ (run.inbox_retries)
	// that no redrive has delivered yet; Redriven is the last redrive.
	DeadLetters int        `json:"dead_letters,omitempty"`
	Redriven    *time.Time `json:"redriven,omitempty"`
	// EndUnknown marks a killed run (no end record, no live process):
	// its duration runs to its last event and is a lower bound.
	EndUnknown bool `json:"end_unknown,omitempty"`
	// Legacy marks a run dir without run.json (an older jaiph, jaiph
	// test, or the reference), read from its summary alone.
	Legacy bool `json:"legacy,omitempty"`
	// Integrity tells whether its summary and journal are what the run
	// wrote (Verify; set by Print, not by List and Read).
	Integrity *chain.Result `json:"integrity,omitempty"`
	// Waiting is the receive a running run waits in, or a killed run was
	// waiting in (a message sent to it waits for `jaiph resume`).
	Waiting *Wait `json:"waiting,omitempty"`
}

// Wait is a receive step waiting for its message.
type Wait struct {
	Channel string    `json:"channel"`
	Key     string    `json:"key,omitempty"`
	Since   time.Time `json:"since"`
	Timeout string    `json:"timeout,omitempty"`
	// ForMS is how long it has waited when listed (to its last event for
	// a killed run).
	ForMS int64 `json:"for_ms"`
}

// List reads the run directories under root (<root>/<date>/<time>-<source>)
// newest first. A directory with neither run.json nor run_summary.jsonl
// is not a run and is skipped; unreadable or partial files never fail the
// listing: what they do not tell stays empty (status unknown at worst).
func List(root string, now time.Time) ([]Run, error) {
	dirs, err := Dirs(root)
	if err != nil {
		return nil, err
	}
	var out []Run
	for _, dir := range dirs {
		if r, ok := Read(filepath.Join(root, dir), now); ok {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].Start.Equal(out[j].Start) {
			return out[i].Start.After(out[j].Start)
		}
		return out[i].Dir > out[j].Dir
	})
	return out, nil
}

// Dir is the run directory a command names: arg made absolute, or, when
// arg is "", the newest run of workspace (runsDir as Root takes it).
func Dir(arg, workspace, runsDir string) (string, error) {
	if arg != "" {
		return filepath.Abs(arg)
	}
	return Newest(Root(workspace, runsDir))
}

// ResumableDir is the run directory `jaiph resume` names: arg made
// absolute, or, when arg is "", the newest resumable run of workspace.
func ResumableDir(arg, workspace, runsDir string) (string, error) {
	if arg != "" {
		return filepath.Abs(arg)
	}
	return NewestResumable(Root(workspace, runsDir))
}

// Newest is the newest run directory under root (List's first).
func Newest(root string) (string, error) {
	list, err := List(root, time.Now())
	if err != nil {
		return "", err
	}
	if len(list) == 0 {
		return "", fmt.Errorf("no runs under %s", root)
	}
	return list[0].Dir, nil
}

// Read reads one run directory; ok is false when dir is not a run.
func Read(dir string, now time.Time) (Run, bool) {
	r := Run{Dir: dir, Status: Unknown, Args: []string{}}
	records := RecordsDir(dir) // once: it resolves the path and looks for the workspace
	metaData, metaErr := os.ReadFile(filepath.Join(records, MetaFile))
	sum, sumErr := os.Open(filepath.Join(dir, SummaryFile))
	if metaErr != nil && sumErr != nil {
		return r, false
	}
	if sumErr == nil {
		defer sum.Close()
	}
	var m Meta
	hasMeta := metaErr == nil && json.Unmarshal(metaData, &m) == nil && m.Version == MetaVersion
	if hasMeta {
		r.RunID, r.Source, r.Entry, r.Start = m.RunID, m.Source, m.Entry, m.Start
		if m.Args != nil {
			r.Args = m.Args
		}
	} else {
		r.Legacy = metaErr != nil
	}
	var end End
	var last time.Time
	switch {
	// A child of a killed jaiph caught between fork and exec holds a copy
	// of the lock for a moment: the recorded pid must be alive too.
	case Locked(dir) && alive(m.PID):
		r.Status = Running
		last = now
	case readJSON(filepath.Join(records, EndFile), &end) && end.Status != "":
		r.Status, r.Signal, last = end.Status, end.Signal, end.End
		r.End, r.Redriven = &end.End, end.Redriven
	}
	var sumFacts summaryFacts
	if sumErr == nil && (r.Start.IsZero() || r.Status == Unknown) {
		s := scanSummary(sum)
		sumFacts = s
		if r.Start.IsZero() {
			r.Start = s.first
		}
		if r.Source == "" {
			r.Source = s.source
		}
		if r.RunID == "" {
			r.RunID = s.runID
		}
		if r.Status == Unknown {
			last = s.last
			if !hasMeta { // an older run: its summary is all there is
				r.Status = s.status
			}
		}
	}
	r.DeadLetters = inbox.DeadLetterFiles(dir)
	// Started, never recorded its end, nobody holds the lock: killed (a
	// run with run.json always records its end unless its process died).
	if r.Status == Unknown && !r.Start.IsZero() {
		r.Status, r.EndUnknown = Interrupted, true
		// Its duration runs to its last event, whose timestamp is whole
		// seconds: the summary's modification time is that event's write
		// to the nanosecond (when it falls within the timestamp's second:
		// a copied run directory's files have new times).
		if fi, err := os.Stat(filepath.Join(dir, SummaryFile)); err == nil && !last.IsZero() &&
			!fi.ModTime().Before(last) && fi.ModTime().Before(last.Add(time.Second)) {
			last = fi.ModTime()
		}
	}
	if !r.Start.IsZero() && last.After(r.Start) {
		r.DurationMS = last.Sub(r.Start).Milliseconds()
	}
	if r.Status == Running || r.EndUnknown {
		r.Waiting = openWait(dir, last)
	}
	if r.End == nil && sumFacts.rootElapsed != nil && (r.Status == Passed || r.Status == Failed) {
		r.DurationMS = *sumFacts.rootElapsed // a run without records: its root step's own time
	}
	return r, true
}

// openWait is the receive of the run at dir that has a RECEIVE_WAIT and
// no RECEIVE yet (the last one, when parallel branches wait), its time
// counted to now.
func openWait(dir string, now time.Time) *Wait {
	f, err := os.Open(filepath.Join(dir, SummaryFile))
	if err != nil {
		return nil
	}
	defer f.Close()
	open := map[string]*Wait{}
	var order []string
	_ = event.Read(f, event.Filter{Types: []string{event.ReceiveWait, event.Receive}}, func(e *event.Record) error {
		k := e.ID + "\x00" + e.Channel
		if e.Type == event.Receive {
			delete(open, k)
			return nil
		}
		since, _ := time.Parse(time.RFC3339, e.TS)
		open[k] = &Wait{Channel: e.Channel, Key: e.Key, Since: since, Timeout: e.Timeout}
		order = append(order, k)
		return nil
	})
	for i := len(order) - 1; i >= 0; i-- {
		if w := open[order[i]]; w != nil {
			if !w.Since.IsZero() && now.After(w.Since) {
				w.ForMS = now.Sub(w.Since).Milliseconds()
			}
			return w
		}
	}
	return nil
}

func readJSON(path string, v any) bool {
	data, err := os.ReadFile(path)
	return err == nil && json.Unmarshal(data, v) == nil
}

// summaryFacts is what listing needs from a run_summary.jsonl.
type summaryFacts struct {
	first, last   time.Time
	source, runID string
	status        string // passed/failed from the root STEP_END, else Unknown
	rootElapsed   *int64 // the root STEP_END's elapsed_ms
}

// Dirs lists the run directories under root, <date>/<run>, relative to
// root ("2026-11-23/09-18-38-flow.jh"); a root that does not exist has
// none.
func Dirs(root string) ([]string, error) {
	days, err := os.ReadDir(root)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range days {
		if !d.IsDir() {
			continue
		}
		entries, _ := os.ReadDir(filepath.Join(root, d.Name()))
		for _, e := range entries {
			if e.IsDir() {
				out = append(out, d.Name()+"/"+e.Name())
			}
		}
	}
	return out, nil
}

// scanSummary reads a summary for a run without run.end: the source from
// WORKFLOW_START, the first and last event times, and the root step's
// STEP_END (depth 0, no parent) as passed (status 0) or failed. A line
// that does not decode (a torn last line of a killed run) is skipped, and
// so is the rest after a read error: what was read still tells.
func scanSummary(r io.Reader) summaryFacts {
	f := summaryFacts{status: Unknown}
	_ = event.Read(r, event.Filter{HeadOnly: true}, func(e *event.Record) error {
		f.add(e)
		return nil
	})
	return f
}

func (f *summaryFacts) add(e *event.Record) {
	if t, err := time.Parse(time.RFC3339, e.TS); err == nil {
		if f.first.IsZero() {
			f.first = t
		}
		f.last = t
	}
	if f.runID == "" {
		f.runID = e.RunID
	}
	switch {
	case e.Type == event.WorkflowStart && f.source == "":
		f.source = e.Source
	case e.Type == event.StepEnd && e.ParentID == nil && (e.Depth == nil || *e.Depth == 0) && e.Status != nil:
		f.status, f.rootElapsed = Failed, e.ElapsedMS
		if *e.Status == 0 {
			f.status = Passed
		}
	}
}

// PrintCommand is `jaiph runs`: Print, after pruning the records of
// deleted runs (reported on stderr) when prune; status, when set, keeps
// the runs with that status.
func PrintCommand(stdout, stderr io.Writer, workspace string, getenv func(string) string, asJSON, prune bool, status string) error {
	if prune {
		n, err := Prune(workspace, getenv)
		fmt.Fprintf(stderr, "pruned the records of %d deleted runs\n", n)
		if err != nil {
			return err
		}
	}
	return Print(stdout, workspace, getenv, asJSON, status)
}
