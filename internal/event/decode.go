package event

import (
	"encoding/json"
	"fmt"
	"time"
)

// line is one run_summary.jsonl record as Event.JSON writes it.
// Pointers tell a null or missing key from a zero value where the event
// keeps that difference.
type line struct {
	Type           string       `json:"type"`
	Func           string       `json:"func"`
	Kind           string       `json:"kind"`
	Name           string       `json:"name"`
	TS             string       `json:"ts"`
	Status         *int         `json:"status"`
	ElapsedMS      *int64       `json:"elapsed_ms"`
	OutFile        string       `json:"out_file"`
	ErrFile        string       `json:"err_file"`
	ID             string       `json:"id"`
	ParentID       *string      `json:"parent_id"`
	Seq            int          `json:"seq"`
	Depth          int          `json:"depth"`
	RunID          string       `json:"run_id"`
	Params         [][2]string  `json:"params"`
	Dispatched     bool         `json:"dispatched"`
	Channel        string       `json:"channel"`
	Sender         string       `json:"sender"`
	OutContent     *string      `json:"out_content"`
	ErrContent     *string      `json:"err_content"`
	Workflow       string       `json:"workflow"`
	Source         string       `json:"source"`
	Message        string       `json:"message"`
	InboxSeq       string       `json:"inbox_seq"`
	Target         string       `json:"target"`
	PayloadPreview string       `json:"payload_preview"`
	PayloadRef     *string      `json:"payload_ref"`
	Attempt        int          `json:"attempt"`
	Attempts       int          `json:"attempts"` // INBOX_DEAD's name for Attempt
	DelayMS        int64        `json:"delay_ms"`
	IdleMS         int64        `json:"idle_ms"`
	Replayed       bool         `json:"replayed"`
	Worker         string       `json:"worker"`
	Version        *json.Number `json:"event_version"`
}

// Parse reads one run_summary.jsonl line back into the event that wrote
// it (Event.JSON is its inverse for every type it writes).
func Parse(b []byte) (*Event, error) {
	var l line
	if err := json.Unmarshal(b, &l); err != nil {
		return nil, err
	}
	if l.Type == "" || l.Version == nil {
		return nil, fmt.Errorf("not a run_summary event: %.80s", b)
	}
	ts, err := time.Parse("2006-01-02T15:04:05Z", l.TS)
	if err != nil {
		return nil, fmt.Errorf("event %s: bad ts %q", l.Type, l.TS)
	}
	e := &Event{Type: l.Type, Func: l.Func, Kind: l.Kind, Name: l.Name, Time: ts,
		Status: l.Status, ElapsedMS: l.ElapsedMS, OutFile: l.OutFile, ErrFile: l.ErrFile,
		ID: l.ID, Seq: l.Seq, Depth: l.Depth, RunID: l.RunID, Params: l.Params,
		Dispatched: l.Dispatched, Channel: l.Channel, Sender: l.Sender,
		OutContent: l.OutContent, ErrContent: l.ErrContent, Workflow: l.Workflow, Source: l.Source,
		Message: l.Message, InboxSeq: l.InboxSeq, Target: l.Target, PayloadPreview: l.PayloadPreview,
		PayloadRef: l.PayloadRef, Attempt: l.Attempt + l.Attempts, DelayMS: l.DelayMS, IdleMS: l.IdleMS, Replayed: l.Replayed, Worker: l.Worker}
	if l.ParentID != nil {
		e.ParentID = *l.ParentID
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
