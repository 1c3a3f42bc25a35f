package runtime

// This file answers: what does a resumed run do instead of a call that
// completed in the interrupted attempt (docs/durability.md)?

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/jaiph-go/jaiph/lowered"
)

// replayCall stands for call id, journaled as completed with status 0: a
// STEP_REPLAYED event, the recorded stdout where the caller would have seen
// it, the messages it sent queued again, its recorded return value.
func (rt *Runtime) replayCall(ctx context.Context, caller *frame, spec callSpec, id string, r *journalRecord) (int, string, error) {
	b := spec.body
	rt.emitReplayed(caller, b.Symbol, string(b.Kind), b.Name, r)
	if spec.forward && !spec.capture && !rt.opts.TestMode && r.Out != "" {
		rt.copyArtifact(spec.stdout, filepath.Join(rt.runDir, r.Out))
	}
	rt.replaySends(ctx, caller.inbox, id)
	return 0, r.Value, nil
}

func (rt *Runtime) emitReplayed(caller *frame, fn, kind, name string, r *journalRecord) {
	seq := rt.nextSeq()
	parentID := ""
	if caller.body != nil {
		parentID = caller.id
	}
	status := 0
	e := &event.Event{Type: event.StepReplayed, Func: fn, Kind: kind, Name: name, Time: time.Now(),
		ID: fmt.Sprintf("%s:%d:%d", rt.runID, rt.pid, seq), ParentID: parentID, Seq: seq, Depth: caller.stackLen,
		Status: &status}
	if r.Out != "" {
		e.OutFile = filepath.Join(rt.runDir, r.Out)
	}
	rt.emit(e)
}

// InterruptedWhy is why resume ends the steps and deliveries a killed attempt
// left open (their STEP_END's and INBOX_DISPATCH_COMPLETE's lost field).
const InterruptedWhy = "interrupted: the run was killed; jaiph resume continued it"

// reopenRunDir makes dir, a run that did not pass, this run's directory
// again: its lock, run ID and step numbers go on, the killed attempt's
// open steps and deliveries are ended in the summary (STEP_END and
// INBOX_DISPATCH_COMPLETE with the status of a kill and InterruptedWhy as
// the reason) and a RUN_RESUMED event starts the new attempt, so the
// summary stays one valid sequence where every attempt ends.
func (rt *Runtime) reopenRunDir(dir string) error {
	// The killed attempt's end, if any, no longer tells how the run ends.
	if err := os.Remove(runs.Record(dir, runs.EndFile)); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	open, err := rt.reattach(dir)
	if errors.Is(err, ErrRunLive) {
		return fmt.Errorf("run %s is still running", dir)
	}
	if err != nil {
		return err
	}
	status := 137 // killed (128+SIGKILL): an interruption by SIGINT/SIGTERM closed its own steps
	var zero int64
	now := time.Now()
	for i := len(open) - 1; i >= 0; i-- { // innermost first
		e := open[i]
		if e.Type == event.DispatchStart {
			e.Type = event.DispatchFinish
		} else {
			// What the step wrote until the kill (its live artifacts; a
			// broker run's remote step: the parts that reached the run).
			e.Type = event.StepEnd
			base := filepath.Join(dir, fmt.Sprintf("%06d-%s", e.Seq, lowered.SafeName(e.Func)))
			e.OutFile, e.ErrFile = written(base+".out"), written(base+".err")
		}
		e.Time, e.Status, e.ElapsedMS, e.RunID, e.Lost = now, &status, &zero, rt.runID, InterruptedWhy
		rt.summary.write(e)
	}
	rt.summary.write(&event.Event{Type: event.RunResumed, Time: now, RunID: rt.runID})
	return nil
}

// written is path when it names a file that is not empty, else "".
func written(path string) string {
	if fi, err := os.Stat(path); err == nil && fi.Mode().IsRegular() && fi.Size() > 0 {
		return path
	}
	return ""
}

// scanOpenSteps reads a summary: the highest step number and, in order,
// the STEP_STARTs without their STEP_END and the INBOX_DISPATCH_STARTs
// without their INBOX_DISPATCH_COMPLETE (a message's delivery to a target
// is one attempt at a time: a complete ends the latest start).
func scanOpenSteps(path string) (int, []*event.Event) {
	f, err := os.Open(path)
	if err != nil {
		return 0, nil
	}
	defer f.Close()
	maxSeq := 0
	var order []string
	open := map[string]*event.Event{}
	latest := map[string]int{} // a key's place in order (a delivery started again comes later)
	// A line that is no event (a torn last line) is skipped.
	_ = event.ReadEvents(f, func(e *event.Event) error {
		maxSeq = max(maxSeq, e.Seq)
		switch e.Type {
		case event.StepStart:
			open[e.ID] = &event.Event{Type: e.Type, Func: e.Func, Kind: e.Kind, Name: e.Name, ID: e.ID, ParentID: e.ParentID, Seq: e.Seq, Depth: e.Depth,
				Worker: e.Worker, Dispatched: e.Dispatched, Channel: e.Channel, Sender: e.Sender}
			latest[e.ID] = len(order)
			order = append(order, e.ID)
		case event.StepEnd:
			delete(open, e.ID)
		case event.DispatchStart:
			key := "dispatch " + e.InboxSeq + " " + e.Target
			open[key] = &event.Event{Type: e.Type, InboxSeq: e.InboxSeq, Channel: e.Channel, Target: e.Target, Sender: e.Sender, Worker: e.Worker}
			latest[key] = len(order)
			order = append(order, key)
		case event.DispatchFinish: // replayed or not, it ends the start
			delete(open, "dispatch "+e.InboxSeq+" "+e.Target)
		}
		return nil
	})
	var out []*event.Event
	for i, id := range order {
		if e := open[id]; e != nil && latest[id] == i {
			out = append(out, e)
		}
	}
	return maxSeq, out
}
