package chain

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A run's files as the runtime appends them: summary lines one write each,
// journal lines in groups (a group commit).
var (
	summaryLines = []string{`{"type":"STEP_START","seq":1}`, `{"type":"WORKFLOW_START"}`, `{"type":"STEP_START","seq":2}`,
		`{"type":"STEP_END","seq":2}`, `{"type":"STEP_END","seq":1}`}
	journalWrites = [][]string{{`{"t":"start","id":"/a#1"}`, `{"t":"start","id":"/a#1/b#1"}`, `{"t":"end","id":"/a#1/b#1"}`},
		{`{"t":"start","id":"/a#1/c#1"}`, `{"t":"end","id":"/a#1/c#1"}`}, {`{"t":"end","id":"/a#1"}`}}
)

const runID = "95bb2eaa-9f2c-470b-b999-a7f847e88301"

type fixture struct {
	store Store
	files Files
}

func newFixture(t *testing.T) *fixture {
	dir := t.TempDir()
	return &fixture{store: Store{Dir: filepath.Join(dir, "state", "keys")}, files: Files{
		Summary: filepath.Join(dir, "run", "run_summary.jsonl"), SummaryMAC: filepath.Join(dir, "records", "summary.mac"),
		Journal: filepath.Join(dir, "records", "journal"), JournalMAC: filepath.Join(dir, "records", "journal.mac")}}
}

// write appends the run's lines; seal: the run ends normally.
func (fx *fixture) write(t *testing.T, seal bool) {
	for _, d := range []string{filepath.Dir(fx.files.Summary), filepath.Dir(fx.files.Journal)} {
		must(t, os.MkdirAll(d, 0o755))
	}
	r, err := Start(fx.store, runID, fx.files, false)
	must(t, err)
	if r.Unchained != nil {
		t.Fatal(r.Unchained)
	}
	for _, l := range summaryLines {
		must(t, r.Summary.Append([]byte(l+"\n")))
	}
	for _, w := range journalWrites {
		must(t, r.Journal.Append([]byte(strings.Join(w, "\n")+"\n")))
	}
	must(t, r.Close())
	if seal {
		must(t, r.Seal())
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// edit rewrites path's lines with f.
func edit(t *testing.T, path string, f func([]string) []string) {
	data, err := os.ReadFile(path)
	must(t, err)
	lines := strings.SplitAfter(string(data), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	must(t, os.WriteFile(path, []byte(strings.Join(f(lines), "")), 0o644))
}

func drop(n int) func([]string) []string { return func(l []string) []string { return l[:len(l)-n] } }

func TestVerify(t *testing.T) {
	type mutation func(t *testing.T, fx *fixture)
	cases := []struct {
		name   string
		sealed bool
		mutate mutation
		status Status
		file   string
		line   int
		torn   int
	}{
		{name: "sealed run", sealed: true, status: Sealed},
		{name: "killed run", status: Unsealed},
		{name: "middle summary line edited", sealed: true, status: Tampered, file: "run_summary.jsonl", line: 3,
			mutate: func(t *testing.T, fx *fixture) {
				edit(t, fx.files.Summary, func(l []string) []string { l[2] = strings.Replace(l[2], "2", "3", 1); return l })
			}},
		{name: "middle journal line edited, unsealed", status: Tampered, file: "journal", line: 4,
			mutate: func(t *testing.T, fx *fixture) {
				edit(t, fx.files.Journal, func(l []string) []string { l[3] = strings.Replace(l[3], "c#1", "d#1", 1); return l })
			}},
		{name: "two lines swapped", sealed: true, status: Tampered, file: "run_summary.jsonl", line: 2,
			mutate: func(t *testing.T, fx *fixture) {
				edit(t, fx.files.Summary, func(l []string) []string { l[1], l[2] = l[2], l[1]; return l })
			}},
		{name: "line added", status: Tampered, file: "run_summary.jsonl", line: 6,
			mutate: func(t *testing.T, fx *fixture) {
				edit(t, fx.files.Summary, func(l []string) []string { return append(l, `{"type":"STEP_END"}`+"\n") })
			}},
		{name: "last lines and their MACs cut, sealed", sealed: true, status: Tampered, file: "run_summary.jsonl", line: 4,
			mutate: func(t *testing.T, fx *fixture) {
				edit(t, fx.files.Summary, drop(2))
				edit(t, fx.files.SummaryMAC, drop(2))
			}},
		{name: "last journal write and its MACs cut, sealed", sealed: true, status: Tampered, file: "journal", line: 6,
			mutate: func(t *testing.T, fx *fixture) {
				edit(t, fx.files.Journal, drop(1))
				edit(t, fx.files.JournalMAC, drop(1))
			}},
		{name: "whole summary deleted, sealed", sealed: true, status: Tampered, file: "run_summary.jsonl", line: 1,
			mutate: func(t *testing.T, fx *fixture) { must(t, os.Remove(fx.files.Summary)) }},
		{name: "whole summary deleted, unsealed", status: Tampered, file: "run_summary.jsonl", line: 1,
			mutate: func(t *testing.T, fx *fixture) { must(t, os.Remove(fx.files.Summary)) }},
		{name: "summary and its MACs deleted, sealed", sealed: true, status: Tampered, file: "run_summary.jsonl", line: 1,
			mutate: func(t *testing.T, fx *fixture) {
				must(t, os.Remove(fx.files.Summary))
				must(t, os.Remove(fx.files.SummaryMAC))
			}},
		{name: "sidecar deleted", status: Tampered, file: "run_summary.jsonl", line: 1,
			mutate: func(t *testing.T, fx *fixture) { must(t, os.Remove(fx.files.SummaryMAC)) }},
		// What a kill between a write's MACs and its lines leaves.
		{name: "killed before its last line", status: Unsealed, torn: 1,
			mutate: func(t *testing.T, fx *fixture) { edit(t, fx.files.Summary, drop(1)) }},
		{name: "killed during its last line", status: Unsealed, torn: 1,
			mutate: func(t *testing.T, fx *fixture) {
				edit(t, fx.files.Summary, func(l []string) []string { l[4] = l[4][:7]; return l })
			}},
		{name: "killed during a journal write", status: Unsealed, torn: 2,
			mutate: func(t *testing.T, fx *fixture) {
				// The second write's MACs are on disk, its first line in
				// part; the third write never started.
				edit(t, fx.files.Journal, func(l []string) []string { l[3] = l[3][:3]; return l[:4] })
				edit(t, fx.files.JournalMAC, drop(1))
			}},
		{name: "killed during the MACs' write", status: Unsealed,
			mutate: func(t *testing.T, fx *fixture) {
				f, err := os.OpenFile(fx.files.SummaryMAC, os.O_APPEND|os.O_WRONLY, 0)
				must(t, err)
				f.WriteString("0123abc")
				f.Close()
			}},
		{name: "more than the last write missing", status: Tampered, file: "run_summary.jsonl", line: 4,
			mutate: func(t *testing.T, fx *fixture) { edit(t, fx.files.Summary, drop(2)) }},
		{name: "a line cut short, sealed", sealed: true, status: Tampered, file: "run_summary.jsonl", line: 5,
			mutate: func(t *testing.T, fx *fixture) {
				edit(t, fx.files.Summary, func(l []string) []string { l[4] = l[4][:7]; return l })
			}},
		{name: "files swapped", status: Tampered, file: "run_summary.jsonl", line: 1,
			mutate: func(t *testing.T, fx *fixture) {
				for _, p := range [][2]string{{fx.files.Summary, fx.files.Journal}, {fx.files.SummaryMAC, fx.files.JournalMAC}} {
					must(t, os.Rename(p[0], p[0]+".x"))
					must(t, os.Rename(p[1], p[0]))
					must(t, os.Rename(p[0]+".x", p[1]))
				}
			}},
		{name: "key replaced", sealed: true, status: Unverifiable,
			mutate: func(t *testing.T, fx *fixture) {
				must(t, os.Remove(filepath.Join(fx.store.Dir, runID+".key")))
				_, err := fx.store.create(runID)
				must(t, err)
			}},
		{name: "key deleted", sealed: true, status: Unverifiable,
			mutate: func(t *testing.T, fx *fixture) { must(t, os.Remove(filepath.Join(fx.store.Dir, runID+".key"))) }},
		{name: "seal edited", sealed: true, status: Tampered,
			mutate: func(t *testing.T, fx *fixture) {
				p := filepath.Join(fx.store.Dir, runID+".key")
				data, err := os.ReadFile(p)
				must(t, err)
				must(t, os.WriteFile(p, bytes.Replace(data, []byte(`"lines":5`), []byte(`"lines":4`), 1), 0o600))
			}},
		{name: "seal cut short by a kill", sealed: true, status: Unsealed,
			mutate: func(t *testing.T, fx *fixture) {
				p := filepath.Join(fx.store.Dir, runID+".key")
				data, err := os.ReadFile(p)
				must(t, err)
				must(t, os.WriteFile(p, data[:len(data)-20], 0o600))
			}},
		{name: "key file with a line that is no seal", sealed: true, status: Unverifiable,
			mutate: func(t *testing.T, fx *fixture) {
				f, err := os.OpenFile(filepath.Join(fx.store.Dir, runID+".key"), os.O_WRONLY|os.O_APPEND, 0)
				must(t, err)
				_, err = f.WriteString("not json\n")
				must(t, err)
				must(t, f.Close())
			}},
		{name: "seal removed, tail cut", sealed: true, status: Unsealed,
			mutate: func(t *testing.T, fx *fixture) {
				// Undetectable (docs/security.md): a user who can write the
				// key store can take the seal away.
				p := filepath.Join(fx.store.Dir, runID+".key")
				kf, err := fx.store.load(runID)
				must(t, err)
				kf.Seal = nil
				must(t, fx.store.write(kf))
				edit(t, fx.files.Summary, drop(1))
				edit(t, fx.files.SummaryMAC, drop(1))
				_ = p
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			fx := newFixture(t)
			fx.write(t, c.sealed)
			if c.mutate != nil {
				c.mutate(t, fx)
			}
			r := Verify(fx.store, runID, fx.files)
			if r.Status != c.status || r.File != c.file || r.Line != c.line || r.Torn != c.torn {
				t.Errorf("got %s (file %q line %d torn %d), want %s (file %q line %d torn %d)\n%s",
					r.Status, r.File, r.Line, r.Torn, c.status, c.file, c.line, c.torn, r)
			}
			if !r.Trusted() && !strings.Contains(r.String(), r.Reason) {
				t.Errorf("String %q lacks the reason", r)
			}
		})
	}
}

// TestVerifyLongLines: lines longer than the verifier's 64 KiB read buffer
// (a STEP_END carrying a big step's out_content is about 1.3 MB) verify,
// and an edit in the middle of one is still found.
func TestVerifyLongLines(t *testing.T) {
	fx := newFixture(t)
	for _, d := range []string{filepath.Dir(fx.files.Summary), filepath.Dir(fx.files.Journal)} {
		must(t, os.MkdirAll(d, 0o755))
	}
	r, err := Start(fx.store, runID, fx.files, false)
	must(t, err)
	for _, n := range []int{10, 64<<10 - 1, 64 << 10, 70 << 10, 200 << 10, 1300 << 10, 5} {
		must(t, r.Summary.Append([]byte(`{"out":"`+strings.Repeat("x", n)+`"}`+"\n")))
	}
	must(t, r.Close())
	must(t, r.Seal())
	if res := Verify(fx.store, runID, fx.files); res.Status != Sealed {
		t.Fatalf("long lines: %s", res)
	}
	edit(t, fx.files.Summary, func(l []string) []string {
		l[5] = l[5][:700<<10] + "y" + l[5][700<<10+1:]
		return l
	})
	if res := Verify(fx.store, runID, fx.files); res.Status != Tampered || res.Line != 6 {
		t.Fatalf("an edit inside a long line: %s (line %d), want tampered at line 6", res, res.Line)
	}
}

// A resume goes on from the sidecar after a kill: the torn tail is
// dropped and the resumed run seals a chain that verifies.
func TestContinueAfterKill(t *testing.T) {
	fx := newFixture(t)
	fx.write(t, false)
	edit(t, fx.files.Summary, func(l []string) []string { l[4] = l[4][:7]; return l })
	r, err := Continue(fx.store, runID, fx.files, false)
	must(t, err)
	must(t, r.Summary.Append([]byte(`{"type":"RUN_RESUMED"}`+"\n")))
	must(t, r.Journal.Append([]byte(`{"t":"end","id":"/a#1"}`+"\n")))
	must(t, r.Close())
	if v := Verify(fx.store, runID, fx.files); v.Status != Unsealed {
		t.Fatalf("before the seal: %s", v)
	}
	must(t, r.Seal())
	if v := Verify(fx.store, runID, fx.files); v.Status != Sealed || v.Lines != 5+7 {
		t.Fatalf("after: %s", v)
	}
	data, _ := os.ReadFile(fx.files.Summary)
	if !strings.HasSuffix(string(data), `{"type":"STEP_END","seq":2}`+"\n"+`{"type":"RUN_RESUMED"}`+"\n") {
		t.Errorf("summary:\n%s", data)
	}
}

// Going on with a tampered run (--force) never makes it verify: the chain
// goes on from the sidecar's last MAC and the verdict stays in the key
// store.
func TestContinueTampered(t *testing.T) {
	for _, name := range []string{"tail cut", "line edited", "line added"} {
		t.Run(name, func(t *testing.T) {
			fx := newFixture(t)
			fx.write(t, true)
			switch name {
			case "tail cut":
				edit(t, fx.files.Summary, drop(1))
				edit(t, fx.files.SummaryMAC, drop(1))
			case "line edited":
				edit(t, fx.files.Journal, func(l []string) []string { l[1] = strings.Replace(l[1], "b", "x", 1); return l })
			case "line added":
				edit(t, fx.files.Summary, func(l []string) []string { return append(l, "{}\n") })
			}
			before := Verify(fx.store, runID, fx.files)
			if before.Status != Tampered {
				t.Fatalf("before: %s", before)
			}
			r, err := Continue(fx.store, runID, fx.files, false)
			must(t, err)
			must(t, r.Summary.Append([]byte("{}\n")))
			must(t, r.Close())
			must(t, r.Seal())
			after := Verify(fx.store, runID, fx.files)
			if after.Status != Tampered || !strings.Contains(after.Reason, "--force") && after.Line == 0 {
				t.Fatalf("after: %s", after)
			}
		})
	}
}

// Without a key store the run goes on unchained and is unverifiable.
func TestStartWithoutKeyStore(t *testing.T) {
	fx := newFixture(t)
	must(t, os.MkdirAll(filepath.Dir(fx.files.Summary), 0o755))
	must(t, os.MkdirAll(filepath.Dir(fx.files.Journal), 0o755))
	blocker := filepath.Join(t.TempDir(), "file")
	must(t, os.WriteFile(blocker, nil, 0o644))
	fx.store.Dir = filepath.Join(blocker, "keys")
	r, err := Start(fx.store, runID, fx.files, false)
	must(t, err)
	if r.Unchained == nil || r.Chained() {
		t.Fatal("chained without a key store")
	}
	must(t, r.Summary.Append([]byte("{}\n")))
	must(t, r.Close())
	must(t, r.Seal())
	if v := Verify(fx.store, runID, fx.files); v.Status != Unverifiable {
		t.Fatalf("%s", v)
	}
	if _, err := os.Stat(fx.files.SummaryMAC); err == nil {
		t.Error("a sidecar without a key")
	}
}

// A kill during a write leaves a line without its newline: going on
// without a key cuts it off, so the next line does not run into it;
// whole files stay as they are.
func TestCutPartial(t *testing.T) {
	dir := t.TempDir()
	for _, c := range []struct{ in, want string }{
		{"", ""},
		{"a\nb\n", "a\nb\n"},
		{"a\nb\n{\"t\":\"en", "a\nb\n"},
		{"{\"t\":", ""},
	} {
		p := filepath.Join(dir, "f")
		must(t, os.WriteFile(p, []byte(c.in), 0o644))
		must(t, cutPartial(p, -1))
		if got, _ := os.ReadFile(p); string(got) != c.want {
			t.Errorf("cutPartial(%q) left %q, want %q", c.in, got, c.want)
		}
	}
	if err := cutPartial(filepath.Join(dir, "missing"), -1); err != nil {
		t.Errorf("missing file: %v", err)
	}
}

func TestKeyFileModes(t *testing.T) {
	fx := newFixture(t)
	fx.write(t, true)
	for p, want := range map[string]os.FileMode{fx.store.Dir: 0o700, filepath.Join(fx.store.Dir, runID+".key"): 0o600} {
		fi, err := os.Stat(p)
		must(t, err)
		if fi.Mode().Perm() != want {
			t.Errorf("%s: %v, want %v", p, fi.Mode().Perm(), want)
		}
	}
	// The key on the first line, the seal appended on the next.
	data, _ := os.ReadFile(filepath.Join(fx.store.Dir, runID+".key"))
	lines := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
	var kf, seal map[string]any
	if len(lines) != 2 {
		t.Fatalf("key file of %d lines: %s", len(lines), data)
	}
	must(t, json.Unmarshal([]byte(lines[0]), &kf))
	must(t, json.Unmarshal([]byte(lines[1]), &seal))
	if kf["run_id"] != runID || kf["seal"] != nil || seal["seal"] == nil {
		t.Errorf("key file: %s", data)
	}
	if _, err := fx.store.create(runID); err == nil {
		t.Error("a second key replaced the first")
	}
}

func TestStoreDir(t *testing.T) {
	for _, c := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"HOME": "/h"}, "/h/.local/state/jaiph/keys"},
		{map[string]string{"HOME": "/h", "XDG_STATE_HOME": "/s"}, "/s/jaiph/keys"},
		{map[string]string{"HOME": "/h", "XDG_STATE_HOME": "rel"}, "/h/.local/state/jaiph/keys"},
		{map[string]string{"HOME": "/h", "XDG_STATE_HOME": "/s", "JAIPH_KEY_DIR": "/k"}, "/k"},
		{map[string]string{}, ""},
	} {
		got, err := StoreDir(func(k string) string { return c.env[k] })
		if got != c.want || (err != nil) != (c.want == "") {
			t.Errorf("%v: %q, %v; want %q", c.env, got, err, c.want)
		}
	}
	if _, err := (Store{Dir: "/k"}).path("../x"); err == nil {
		t.Error("a run id with a path in it")
	}
}

func ExampleVerify() {
	dir, _ := os.MkdirTemp("", "chain")
	defer os.RemoveAll(dir)
	store := Store{Dir: filepath.Join(dir, "keys")}
	files := Files{Summary: filepath.Join(dir, "run_summary.jsonl"), SummaryMAC: filepath.Join(dir, "summary.mac"),
		Journal: filepath.Join(dir, "journal"), JournalMAC: filepath.Join(dir, "journal.mac")}
	r, _ := Start(store, "run-1", files, false)
	r.Summary.Append([]byte(`{"type":"WORKFLOW_START"}` + "\n"))
	r.Summary.Append([]byte(`{"type":"WORKFLOW_END"}` + "\n"))
	r.Close()
	r.Seal()
	fmt.Println(Verify(store, "run-1", files))
	os.WriteFile(files.Summary, []byte(`{"type":"WORKFLOW_START"}`+"\n"), 0o644)
	fmt.Println(Verify(store, "run-1", files))
	// Output:
	// sealed: the run ended and its 2 lines verify
	// tampered: run_summary.jsonl line 2 is missing (the run was sealed with 2 lines)
}

// A file read while its run appends to it: the sidecar is read first, so
// lines appended since are not checked (Live), and never taken for lines
// without a MAC; lines cut by a kill are not mistaken for them either.
func TestVerifyLive(t *testing.T) {
	fx := newFixture(t)
	fx.write(t, false)
	side, err := os.ReadFile(fx.files.SummaryMAC)
	must(t, err)
	r, err := Continue(fx.store, runID, fx.files, false)
	must(t, err)
	for range 3 {
		must(t, r.Summary.Append([]byte(`{"type":"LOG"}`+"\n")))
	}
	must(t, r.Close())
	// What a reader saw: the sidecar before the appends, the file after.
	now, err := os.ReadFile(fx.files.SummaryMAC)
	must(t, err)
	must(t, os.WriteFile(fx.files.SummaryMAC, side, 0o644))
	live := fx.files
	live.Live = true
	if v := Verify(fx.store, runID, live); v.Status != Unsealed || v.Lines != 5+6 {
		t.Errorf("live: %s", v)
	}
	if v := Verify(fx.store, runID, fx.files); v.Status != Tampered || v.Line != 6 {
		t.Errorf("not live: %s", v)
	}
	must(t, os.WriteFile(fx.files.SummaryMAC, now, 0o644))
	if v := Verify(fx.store, runID, fx.files); v.Status != Unsealed || v.Lines != 8+6 {
		t.Errorf("after: %s", v)
	}
}
