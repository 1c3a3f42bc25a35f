package report

import (
	"encoding/json"
	"testing"
)

// TestLostAttempt: a broker delivery's attempt lost with its worker ends
// in the report's tree as the run recorded it: not running, its status,
// the worker that ran it and why it was lost; the attempt that took over
// is a step of its own.
func TestLostAttempt(t *testing.T) {
	s := newSummary()
	for _, l := range []string{
		`{"type":"STEP_START","func":"main::default","kind":"workflow","name":"default","ts":"2026-11-23T07:00:01Z","status":null,"elapsed_ms":null,"out_file":"","err_file":"","id":"r:1:1","parent_id":null,"seq":1,"depth":0,"run_id":"r","params":[],"event_version":1}`,
		`{"type":"STEP_START","func":"main::work","kind":"workflow","name":"work","ts":"2026-11-23T07:00:02Z","status":null,"elapsed_ms":null,"out_file":"","err_file":"","id":"w:1:1","parent_id":"r:1:1","seq":2,"depth":1,"run_id":"w","params":[],"worker":"wB","event_version":1}`,
		`{"type":"STEP_END","func":"main::work","kind":"workflow","name":"work","ts":"2026-11-23T07:00:04Z","status":1,"elapsed_ms":2000,"out_file":"/r/000002-main__work.out","err_file":"","id":"w:1:1","parent_id":"r:1:1","seq":2,"depth":1,"run_id":"w","worker":"wB","lost":"worker wB stopped renewing its lease","event_version":1}`,
		`{"type":"STEP_START","func":"main::work","kind":"workflow","name":"work","ts":"2026-11-23T07:00:05Z","status":null,"elapsed_ms":null,"out_file":"","err_file":"","id":"w:2:1","parent_id":"r:1:1","seq":3,"depth":1,"run_id":"w","params":[],"worker":"wC","event_version":1}`,
		`{"type":"STEP_END","func":"main::work","kind":"workflow","name":"work","ts":"2026-11-23T07:00:06Z","status":0,"elapsed_ms":1000,"out_file":"","err_file":"","id":"w:2:1","parent_id":"r:1:1","seq":3,"depth":1,"run_id":"w","event_version":1}`,
	} {
		s.add([]byte(l))
	}
	kids := s.tree(stop{})[0].Children
	if len(kids) != 2 {
		t.Fatalf("%d children of default, want the lost attempt and the one that took over", len(kids))
	}
	type view struct {
		Status  *int   `json:"status"`
		Running bool   `json:"running"`
		Worker  string `json:"worker"`
		Lost    string `json:"lost"`
		OutFile string `json:"out_file"`
	}
	for i, want := range []string{
		`{"status":1,"running":false,"worker":"wB","lost":"worker wB stopped renewing its lease","out_file":"/r/000002-main__work.out"}`,
		`{"status":0,"running":false,"worker":"wC","lost":"","out_file":""}`,
	} {
		b, _ := json.Marshal(kids[i])
		var v view
		if err := json.Unmarshal(b, &v); err != nil {
			t.Fatal(err)
		}
		got, _ := json.Marshal(v)
		if string(got) != want {
			t.Errorf("step %d: %s\nwant %s", i, got, want)
		}
	}
}
