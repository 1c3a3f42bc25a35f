package runtime

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jaiph-go/jaiph/lowered"
)

// The steps a killed attempt left open, outermost first, and the highest
// step number (of any event that has one).
func TestScanOpenSteps(t *testing.T) {
	p := filepath.Join(t.TempDir(), "run_summary.jsonl")
	summary := `{"type":"STEP_START","func":"m::default","kind":"workflow","name":"default","id":"r:1:1","parent_id":null,"seq":1,"depth":0,"ts":"2026-11-23T07:00:00Z","event_version":1}
{"type":"STEP_START","func":"m::a","kind":"function","name":"a","id":"r:1:2","parent_id":"r:1:1","seq":2,"depth":1,"ts":"2026-11-23T07:00:00Z","event_version":1}
{"type":"STEP_END","func":"m::a","kind":"function","name":"a","status":0,"id":"r:1:2","seq":2,"depth":1,"ts":"2026-11-23T07:00:00Z","event_version":1}
{"type":"STEP_START","func":"m::b","kind":"workflow","name":"b","id":"r:1:3","parent_id":"r:1:1","seq":3,"depth":1,"ts":"2026-11-23T07:00:00Z","event_version":1}
{"type":"LOG","message":"x","depth":2,"ts":"2026-11-23T07:00:00Z","event_version":1}
torn
`
	if err := os.WriteFile(p, []byte(summary), 0o644); err != nil {
		t.Fatal(err)
	}
	maxSeq, open := scanOpenSteps(p)
	if maxSeq != 3 || len(open) != 2 || open[0].ID != "r:1:1" || open[1].ID != "r:1:3" || open[1].ParentID != "r:1:1" ||
		open[1].Kind != "workflow" || open[1].Depth != 1 || open[0].ParentID != "" {
		t.Errorf("scanOpenSteps: max %d, open %+v", maxSeq, open)
	}
}

// Identities depend only on the caller's identity and the calls it made
// before: the same calls give the same identities in another attempt;
// arguments and repetitions tell calls apart.
func TestCallID(t *testing.T) {
	ids := func() []string {
		f := &frame{jid: "/m::default(0)#1"}
		return []string{f.callID("m::a", []string{"x"}), f.callID("m::a", []string{"y"}), f.callID("m::a", []string{"x"}),
			f.callID("m::b", []string{"x"}), f.callID("m::a", []string{"x", ""}), f.callID("m::a", []string{"", "x"})}
	}
	first, second := ids(), ids()
	seen := map[string]bool{}
	for i, id := range first {
		if id != second[i] {
			t.Errorf("call %d: %q then %q", i, id, second[i])
		}
		if seen[id] {
			t.Errorf("call %d: identity %q again", i, id)
		}
		seen[id] = true
	}
	if first[0][len(first[0])-2:] != "#1" || first[2][len(first[2])-2:] != "#2" || first[2][:len(first[2])-1] != first[0][:len(first[0])-1] {
		t.Errorf("occurrences: %q, %q", first[0], first[2])
	}
}

// A resume replays a completed call made by a body, never the run's root
// call: a run fails with a root that returned 0 when a fault (disk full, a
// refused write) failed it, and replaying that root would pass the run
// without running anything again.
func TestRootCallRunsLive(t *testing.T) {
	zero := 0
	j := &journal{resuming: true, started: map[string]int{"/m::default(0)#1": 1, "/m::default(0)#1/m::a(0)#1": 2},
		ended:   map[string]*journalRecord{"/m::default(0)#1": {Status: &zero}, "/m::default(0)#1/m::a(0)#1": {Status: &zero}},
		parents: map[string]bool{"/m::default(0)#1": true}}
	root := &frame{}
	if r := j.begin(root, "/m::default(0)#1", "workflow", "m::default", nil, false); r != nil {
		t.Errorf("the root call was replayed")
	}
	body := &frame{jid: "/m::default(0)#1", body: &lowered.Body{Symbol: "m::default"}, caller: root}
	if r := j.begin(body, "/m::default(0)#1/m::a(0)#1", "function", "m::a", nil, false); r == nil {
		t.Errorf("a completed call of the root body was not replayed")
	}
}
