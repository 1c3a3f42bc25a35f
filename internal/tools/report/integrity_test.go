package report

import (
	"encoding/json"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jaiph-go/jaiph/internal/store/chain"
	"github.com/jaiph-go/jaiph/internal/store/runs"
)

// With a key store (Options.Keys), a finished run's list entry carries
// jaiph verify's verdict and jaiph runs' note names a tampered line; a
// run without records is unverifiable. integrity_note is the verdict's
// part of the note, which the pages show in the badge and not again.
func TestIntegrity(t *testing.T) {
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(ws, ".jaiph", "runs")
	store := chain.Store{Dir: filepath.Join(t.TempDir(), "keys")}
	start := time.Date(2026, 11, 23, 7, 0, 0, 0, time.UTC)
	lines := []string{
		`{"type":"STEP_START","func":"x::default","kind":"workflow","name":"default","ts":"2026-11-23T07:00:0%dZ","status":null,"elapsed_ms":null,"out_file":"","err_file":"","id":"r:1:1","parent_id":null,"seq":1,"depth":0,"run_id":"r","params":[],"event_version":1}`,
		`{"type":"STEP_END","func":"x::default","kind":"workflow","name":"default","ts":"2026-11-23T07:00:0%dZ","status":0,"elapsed_ms":3,"out_file":"","err_file":"","id":"r:1:1","parent_id":null,"seq":1,"depth":0,"run_id":"r","event_version":1}`,
	}
	mk := func(i int, name string) string {
		dir := filepath.Join(root, "2026-11-23", "07-00-0"+string(rune('0'+i))+"-"+name)
		must(t, os.MkdirAll(dir, 0o755))
		id := "00000000-0000-4000-8000-00000000000" + string(rune('0'+i))
		rec := runs.RecordsDir(dir)
		must(t, runs.WriteMeta(rec, &runs.Meta{Version: runs.MetaVersion, RunID: id, Source: name, Start: start.Add(time.Duration(i) * time.Second), Args: []string{}}))
		must(t, runs.WriteEnd(rec, &runs.End{Status: runs.Passed, End: start.Add(time.Duration(i) * time.Second)}))
		r, err := chain.Start(store, id, runs.Chained(dir), false)
		must(t, err)
		for _, l := range lines {
			must(t, r.Summary.Append([]byte(strings.ReplaceAll(l, "0%d", "0"+string(rune('0'+i)))+"\n")))
		}
		must(t, r.Journal.Append([]byte(`{"t":"start","id":"/x"}`+"\n"+`{"t":"end","id":"/x","status":0}`+"\n")))
		must(t, r.Close())
		must(t, r.Seal())
		return dir
	}
	mk(1, "sealed.jh")
	tampered := mk(2, "tampered.jh")
	p := filepath.Join(tampered, runs.SummaryFile)
	data, err := os.ReadFile(p)
	must(t, err)
	must(t, os.WriteFile(p, []byte(strings.Replace(string(data), `"status":0`, `"status":1`, 1)), 0o644))
	nokey := mk(3, "nokey.jh")
	m, err := runs.ReadMeta(nokey)
	must(t, err)
	must(t, store.Remove(m.RunID))
	legacy := filepath.Join(root, "2026-11-23", "07-00-04-legacy.jh")
	must(t, os.MkdirAll(legacy, 0o755))
	must(t, os.WriteFile(filepath.Join(legacy, runs.SummaryFile), []byte(strings.ReplaceAll(lines[0], "0%d", "04")+"\n"), 0o644))

	ts := httptest.NewServer(Handler(Options{Root: root, Keys: &store}))
	defer ts.Close()
	f := &fixture{root: root, ts: ts}
	var list struct{ Runs []Run }
	f.getJSON(t, "/api/runs", &list)
	got := map[string]string{}
	for _, r := range list.Runs {
		got[strings.TrimPrefix(r.Path, "2026-11-23/07-00-0")[2:]] = r.Integrity + " | " + r.IntegrityNote + " | " + r.Note
	}
	want := map[string]string{
		"sealed.jh":   "sealed |  | ",
		"tampered.jh": "tampered | tampered: run_summary.jsonl line 2 | tampered: run_summary.jsonl line 2",
		"nokey.jh":    "unverifiable | unverifiable: no key | unverifiable: no key",
		"legacy.jh":   "unverifiable | unverifiable: no run record | unverifiable: no run record, killed: duration to its last event",
	}
	for k, v := range want {
		if got[k] != v {
			b, _ := json.MarshalIndent(list, "", "  ")
			t.Errorf("%s: %q, want %q\n%s", k, got[k], v, b)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
