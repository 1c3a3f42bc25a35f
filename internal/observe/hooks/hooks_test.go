package hooks

import (
	"bytes"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jaiph-go/jaiph/internal/event"
)

func TestParseConfig(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want Config
		ok   bool
	}{
		{"empty object", `{}`, Config{}, true},
		{"all events", `{"workflow_start":["a"],"workflow_end":["b","c"],"step_start":["d"],"step_end":["e"]}`,
			Config{"workflow_start": {"a"}, "workflow_end": {"b", "c"}, "step_start": {"d"}, "step_end": {"e"}}, true},
		{"wrong value types ignored", `{"workflow_start":"a","workflow_end":{"x":["y"]},"step_start":null,"step_end":7}`, Config{}, true},
		{"non-string and empty items dropped", `{"step_end":["", 1, null, true, ["x"], {"a":"b"}, "ok", ""]}`, Config{"step_end": {"ok"}}, true},
		{"only empty items", `{"step_end":["",""]}`, Config{}, true},
		{"unknown keys ignored", `{"Step_End":["x"],"other":["y"],"step_end":["z"]}`, Config{"step_end": {"z"}}, true},
		{"duplicate key: last wins", `{"step_end":["a"],"step_end":["b"]}`, Config{"step_end": {"b"}}, true},
		{"huge number elsewhere", `{"n":1e400,"step_end":["a"]}`, Config{"step_end": {"a"}}, true},
		{"escapes decoded", `{"step_end":["echo \"\u00e9\"\n"]}`, Config{"step_end": {"echo \"é\"\n"}}, true},
		{"invalid UTF-8 in a string", "{\"step_end\":[\"a\xffb\"]}", Config{"step_end": {"a\ufffdb"}}, true},
		{"invalid UTF-8 outside strings", "{\xff}", nil, false},
		{"array", `[]`, nil, false},
		{"null", `null`, nil, false},
		{"string", `"x"`, nil, false},
		{"number", `1`, nil, false},
		{"empty file", ``, nil, false},
		{"trailing garbage", `{} x`, nil, false},
		{"truncated", `{"step_end":["a"`, nil, false},
		{"byte order mark", "\ufeff{}", nil, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := ParseConfig([]byte(tc.in))
			if ok != tc.ok || !reflect.DeepEqual(got, tc.want) {
				t.Errorf("ParseConfig(%q) = %#v, %v; want %#v, %v", tc.in, got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestParseConfigHugeArray(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"step_start":[`)
	for i := 0; i < 100000; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`"x",1,""`)
	}
	b.WriteString(`]}`)
	cfg, ok := ParseConfig([]byte(b.String()))
	if !ok || len(cfg["step_start"]) != 100000 {
		t.Fatalf("ok=%v, %d commands", ok, len(cfg["step_start"]))
	}
	deep := strings.Repeat("[", 100000) + strings.Repeat("]", 100000)
	if _, ok := ParseConfig([]byte(`{"step_end":` + deep + `}`)); ok {
		t.Fatal("a document nested beyond the decoder's limit should be invalid")
	}
}

func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{`{}`, `{"step_end":["a",1,""]}`, `[]`, `null`, "{\"a\xff\":1}", `{"workflow_start":{"x":[]}}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		cfg, ok := ParseConfig(data)
		if !ok && cfg != nil {
			t.Fatal("config returned for an invalid document")
		}
		for ev, cmds := range cfg {
			if len(cmds) == 0 {
				t.Fatalf("empty list kept for %s", ev)
			}
			for _, c := range cmds {
				if c == "" {
					t.Fatalf("empty command kept for %s", ev)
				}
			}
		}
	})
}

// writeFile creates path (and its directory) with content.
func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestLoadMissingFilesAreSilent(t *testing.T) {
	var stderr bytes.Buffer
	h := Load(t.TempDir(), t.TempDir(), true, &stderr)
	if stderr.Len() != 0 || len(h.cfg) != 0 {
		t.Fatalf("stderr %q, config %v", stderr.String(), h.cfg)
	}
	h = Load("", "", true, &stderr)
	if stderr.Len() != 0 || len(h.cfg) != 0 {
		t.Fatalf("stderr %q, config %v", stderr.String(), h.cfg)
	}
}

func TestLoadErrors(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	writeFile(t, GlobalPath(home), `["not", "an object"]`)
	// A directory where the file should be cannot be read.
	if err := os.MkdirAll(ProjectPath(ws), 0o755); err != nil {
		t.Fatal(err)
	}
	var stderr bytes.Buffer
	h := Load(home, ws, true, &stderr)
	want := "jaiph hooks: invalid or unsupported config at " + GlobalPath(home) + ", skipping\n" +
		"jaiph hooks: failed to read " + ProjectPath(ws) + ", skipping\n"
	if stderr.String() != want {
		t.Errorf("stderr:\n%s\nwant:\n%s", stderr.String(), want)
	}
	if len(h.cfg) != 0 {
		t.Errorf("config %v, want none", h.cfg)
	}
}

func TestLoadPrecedence(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	writeFile(t, GlobalPath(home), `{
		"workflow_start": ["global-ws"],
		"workflow_end": ["global-we"],
		"step_start": ["global-ss"]
	}`)
	writeFile(t, ProjectPath(ws), `{
		"workflow_start": [],
		"workflow_end": ["project-we1", "project-we2"],
		"step_start": ["", 3],
		"step_end": ["project-se"]
	}`)
	var stderr bytes.Buffer
	h := Load(home, ws, true, &stderr)
	want := Config{
		"workflow_start": {"global-ws"},
		"workflow_end":   {"project-we1", "project-we2"},
		"step_start":     {"global-ss"},
		"step_end":       {"project-se"},
	}
	if !reflect.DeepEqual(h.cfg, want) || stderr.Len() != 0 {
		t.Errorf("config %#v, stderr %q; want %#v", h.cfg, stderr.String(), want)
	}
	// An invalid project file falls back to the global lists.
	writeFile(t, ProjectPath(ws), `{"step_end": [`)
	stderr.Reset()
	h = Load(home, ws, true, &stderr)
	if len(h.cfg["step_end"]) != 0 || h.cfg["workflow_end"][0] != "global-we" {
		t.Errorf("config %#v", h.cfg)
	}
	if !strings.Contains(stderr.String(), "invalid or unsupported config at "+ProjectPath(ws)) {
		t.Errorf("stderr %q", stderr.String())
	}
}

// record returns hooks whose every event appends its payload, one per line,
// to the returned file.
func record(t *testing.T, stderr *syncBuffer) (*Hooks, string) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "payloads")
	cmd := `p=$(cat); printf '%s\n' "$p" >> '` + out + `'`
	cfg := Config{}
	for _, ev := range eventNames {
		cfg[ev] = []string{cmd}
	}
	return New(cfg, stderr), out
}

func readLines(t *testing.T, path string) []string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
}

func ptr[T any](v T) *T { return &v }

func TestStepPayloads(t *testing.T) {
	var stderr syncBuffer
	h, out := record(t, &stderr)
	h.WorkflowStart("/w/main.jh", "/w")
	if !h.Wait(10 * time.Second) {
		t.Fatal("workflow_start hook did not finish")
	}
	ts := time.Date(2024, 1, 2, 3, 4, 5, 600e6, time.FixedZone("X", 3600))
	h.Event(&event.Event{Type: event.StepStart, Func: "main::default", Kind: "workflow", Name: "default",
		Time: ts, ID: "run-1:42:1", Seq: 1, RunID: "run-1"})
	h.Wait(10 * time.Second)
	h.Event(&event.Event{Type: event.Log, Message: "ignored", RunID: "run-1"})
	h.Event(&event.Event{Type: event.WorkflowStart, Workflow: "default", RunID: "run-1"})
	h.Event(&event.Event{Type: event.StepEnd, Func: "main::check", Kind: "rule", Name: "check",
		Time: ts, ID: "run-1:42:2", Status: ptr(3), ElapsedMS: ptr(int64(1234)),
		OutFile: "/w/r/000002-main__check.out", ErrFile: "/w/r/000002-main__check.err", RunID: "run-1"})
	h.Wait(10 * time.Second)
	h.Event(&event.Event{Type: event.StepEnd, Kind: "function", Name: "q\"\n\x01é", Time: ts,
		ID: "run-1:42:3", Status: ptr(0), ElapsedMS: ptr(int64(0)), RunID: "run-1"})
	h.Wait(10 * time.Second)
	h.Event(&event.Event{Type: event.StepEnd, Name: "no-status", ID: "x"})
	h.Wait(10 * time.Second)
	h.WorkflowEnd("run-1", 1, 2500*time.Millisecond, "/w/.jaiph/runs/d/t-main.jh", "/w/.jaiph/runs/d/t-main.jh/run_summary.jsonl")
	h.Wait(10 * time.Second)
	h.WorkflowEnd("", 1, 0, "", "")
	if !h.Wait(10 * time.Second) {
		t.Fatal("hooks did not finish")
	}

	got := readLines(t, out)
	iso := `\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z`
	want := []string{
		`^\{"event":"workflow_start","workflow_id":"","timestamp":"` + iso + `","run_path":"/w/main.jh","workspace":"/w"\}$`,
		`^\{"event":"step_start","workflow_id":"run-1","step_id":"run-1:42:1","step_kind":"workflow","step_name":"default","timestamp":"2024-01-02T02:04:05Z","run_path":"/w/main.jh","workspace":"/w"\}$`,
		`^\{"event":"step_end","workflow_id":"run-1","step_id":"run-1:42:2","step_kind":"rule","step_name":"check","status":3,"elapsed_ms":1234,"timestamp":"2024-01-02T02:04:05Z","run_path":"/w/main.jh","workspace":"/w","out_file":"/w/r/000002-main__check.out","err_file":"/w/r/000002-main__check.err"\}$`,
		`^\{"event":"step_end","workflow_id":"run-1","step_id":"run-1:42:3","step_kind":"function","step_name":"q\\"\\n\\u0001é","status":0,"elapsed_ms":0,"timestamp":"2024-01-02T02:04:05Z","run_path":"/w/main.jh","workspace":"/w"\}$`,
		`^\{"event":"step_end","workflow_id":"","step_id":"x","step_kind":"","step_name":"no-status","status":1,"elapsed_ms":0,"timestamp":"` + iso + `","run_path":"/w/main.jh","workspace":"/w"\}$`,
		`^\{"event":"workflow_end","workflow_id":"run-1","status":1,"elapsed_ms":2500,"timestamp":"` + iso + `","run_path":"/w/main.jh","workspace":"/w","run_dir":"/w/.jaiph/runs/d/t-main.jh","summary_file":"/w/.jaiph/runs/d/t-main.jh/run_summary.jsonl"\}$`,
		`^\{"event":"workflow_end","workflow_id":"","status":1,"elapsed_ms":0,"timestamp":"` + iso + `","run_path":"/w/main.jh","workspace":"/w"\}$`,
	}
	if len(got) != len(want) {
		t.Fatalf("got %d payloads, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i := range want {
		if !regexp.MustCompile(want[i]).MatchString(got[i]) {
			t.Errorf("payload %d:\n%s\ndoes not match\n%s", i, got[i], want[i])
		}
	}
	if stderr.String() != "" {
		t.Errorf("stderr %q", stderr.String())
	}
}

func TestUnconfiguredEventsRunNothing(t *testing.T) {
	var stderr syncBuffer
	h := New(Config{}, &stderr)
	h.WorkflowStart("/w/main.jh", "/w")
	h.Event(&event.Event{Type: event.StepStart})
	h.Event(nil)
	h.WorkflowEnd("", 0, 0, "", "")
	h.mu.Lock()
	pending := h.pending
	h.mu.Unlock()
	if pending != 0 || !h.Wait(0) {
		t.Fatalf("pending %d", pending)
	}
	var nilHooks *Hooks
	nilHooks.WorkflowStart("", "")
	nilHooks.Event(&event.Event{Type: event.StepStart})
	nilHooks.WorkflowEnd("", 0, 0, "", "")
	if !nilHooks.Wait(0) {
		t.Fatal("nil hooks waited")
	}
}

func TestCommandResults(t *testing.T) {
	var stderr syncBuffer
	h := New(Config{WorkflowStartEvent: {
		"exit 3",
		"echo to-stdout; echo to-stderr >&2",
		"kill -9 $$",
		"cat >/dev/null; exit 0",
	}}, &stderr)
	h.WorkflowStart("/w/main.jh", "/w")
	if !h.Wait(10 * time.Second) {
		t.Fatal("hooks did not finish")
	}
	got := stderr.String()
	for _, want := range []string{"jaiph hooks: command exited with 3: exit 3\n", "to-stderr\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("stderr %q lacks %q", got, want)
		}
	}
	for _, not := range []string{"to-stdout", "kill", "exit 0"} {
		if strings.Contains(got, not) {
			t.Errorf("stderr %q contains %q", got, not)
		}
	}
}

func TestSpawnError(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	var stderr syncBuffer
	h := New(Config{StepStartEvent: {"true"}}, &stderr)
	h.Event(&event.Event{Type: event.StepStart})
	if !h.Wait(10 * time.Second) {
		t.Fatal("hooks did not finish")
	}
	if got := stderr.String(); !strings.HasPrefix(got, "jaiph hooks: error running true: ") || !strings.HasSuffix(got, "\n") {
		t.Errorf("stderr %q", got)
	}
}

func TestEnvironmentAndDirectory(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	t.Setenv("JAIPH_HOOKS_TEST", "from-cli")
	out := filepath.Join(t.TempDir(), "out")
	h := New(Config{StepEndEvent: {`{ pwd; echo "$JAIPH_HOOKS_TEST"; } > '` + out + `'`}}, nil)
	// A later change of directory does not move the hooks.
	t.Chdir(t.TempDir())
	h.Event(&event.Event{Type: event.StepEnd})
	if !h.Wait(10 * time.Second) {
		t.Fatal("hooks did not finish")
	}
	got := readLines(t, out)
	real, _ := filepath.EvalSymlinks(dir)
	if len(got) != 2 || (got[0] != dir && got[0] != real) || got[1] != "from-cli" {
		t.Errorf("got %q, want [%s from-cli]", got, dir)
	}
}

func TestFireDoesNotWait(t *testing.T) {
	var stderr syncBuffer
	h := New(Config{StepStartEvent: {"sleep 2", "sleep 2"}}, &stderr)
	begin := time.Now()
	for i := 0; i < 20; i++ {
		h.Event(&event.Event{Type: event.StepStart})
	}
	if d := time.Since(begin); d > time.Second {
		t.Fatalf("firing took %v", d)
	}
	if h.Wait(50 * time.Millisecond) {
		t.Fatal("Wait returned true while commands still run")
	}
	if !h.Wait(20 * time.Second) {
		t.Fatal("hooks did not finish")
	}
}

// syncBuffer is a bytes.Buffer safe for the hooks' concurrent writes and the
// test's reads.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

func TestSetMessageWriter(t *testing.T) {
	// As in the CLI, jaiph's stderr is a file, which the commands inherit.
	before, err := os.Create(filepath.Join(t.TempDir(), "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	defer before.Close()
	var after syncBuffer
	h := New(Config{WorkflowStartEvent: {"echo child-err >&2; exit 3"}}, before)
	h.SetMessageWriter(&after)
	h.WorkflowStart("/w/main.jh", "/w")
	if !h.Wait(10 * time.Second) {
		t.Fatal("hooks did not finish")
	}
	if got := after.String(); got != "jaiph hooks: command exited with 3: echo child-err >&2; exit 3\n" {
		t.Errorf("message writer got %q", got)
	}
	// The command's own stderr still goes where it went before.
	if got, _ := os.ReadFile(before.Name()); string(got) != "child-err\n" {
		t.Errorf("original stderr got %q", got)
	}
}

// TestProjectHooksNeedTrust: a workspace's own hooks.json runs only when
// the operator trusts the workspace (JAIPH_TRUST_HOOKS=true, or its path
// in ~/.jaiph/trusted-workspaces); untrusted, it is named on stderr and
// left out, while the user's own hooks still run.
func TestProjectHooksNeedTrust(t *testing.T) {
	home, ws := t.TempDir(), t.TempDir()
	writeFile(t, GlobalPath(home), `{"workflow_end": ["global-we"]}`)
	writeFile(t, ProjectPath(ws), `{"workflow_start": ["touch pwned"]}`)
	var stderr bytes.Buffer
	h := Load(home, ws, Trusted("", home, ws), &stderr)
	if _, ok := h.cfg["workflow_start"]; ok || h.cfg["workflow_end"][0] != "global-we" {
		t.Fatalf("untrusted workspace: config %#v", h.cfg)
	}
	if !strings.Contains(stderr.String(), ProjectPath(ws)+" not run: a workspace's own hooks run only when the operator trusts it") {
		t.Fatalf("stderr %q", stderr.String())
	}
	if !Trusted("true", home, ws) {
		t.Fatal("JAIPH_TRUST_HOOKS=true does not trust")
	}
	writeFile(t, TrustFile(home), "/elsewhere\n"+ws+"/\n")
	if !Trusted("", home, ws) || Trusted("", home, ws+"-other") {
		t.Fatal("the trust file is not read as a list of workspaces")
	}
	stderr.Reset()
	if h := Load(home, ws, Trusted("", home, ws), &stderr); h.cfg["workflow_start"][0] != "touch pwned" || stderr.Len() != 0 {
		t.Fatalf("trusted workspace: config %#v, stderr %q", h.cfg, stderr.String())
	}
}
