package main

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/jaiph-go/jaiph/runtime"
)

// update rewrites the expected files that `cmp` compares against in the
// scripts (go test ./cmd/jaiph -run TestScripts -update); cmpnorm
// expectations are edited by hand from the diff it prints.
var update = flag.Bool("update", false, "rewrite cmp expectations in testdata/script/*.txtar")

// TestMain lets the test binary act as the jaiph command inside scripts.
func TestMain(m *testing.M) {
	if os.Getenv("JAIPH_TEST_AS_JAIPH") == "1" || (len(os.Args) > 1 && os.Args[1] == runtime.ReadOnlyExecArg) {
		// The marker is not for the bodies this process runs (they see the
		// environment a real jaiph would give them).
		os.Unsetenv("JAIPH_TEST_AS_JAIPH")
		os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(testscript.RunMain(ownTmpdir{m}, map[string]func() int{
		"jaiph": func() int { return run(os.Args[1:], os.Stdout, os.Stderr) },
	}))
}

// ownTmpdir runs the tests with a TMPDIR of their own, removed afterwards:
// tests kill jaiph with SIGKILL on purpose, which leaves the killed
// process's temporary directory (jaiph-rv-*) behind, and the machine's
// TMPDIR would collect thousands of them.
type ownTmpdir struct{ m *testing.M }

func (o ownTmpdir) Run() int {
	tmp, err := os.MkdirTemp("", "jaiph-cmd-test-")
	if err != nil {
		panic(err)
	}
	defer os.RemoveAll(tmp)
	os.Setenv("TMPDIR", tmp)
	// The test binary acts as the default jaiph build, which hands report,
	// mcp, broker commands and traced runs to jaiph-full: the real one,
	// built here and put first on PATH (where jaiph looks for it).
	full := filepath.Join(tmp, "full")
	build := exec.Command("go", "build", "-tags", "full", "-o", filepath.Join(full, "jaiph-full"), "github.com/jaiph-go/jaiph/cmd/jaiph")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "building jaiph-full: %v\n%s", err, out)
		return 1
	}
	pathWithoutFull = os.Getenv("PATH")
	os.Setenv("PATH", full+string(os.PathListSeparator)+pathWithoutFull)
	// The key store of the runs the tests make (internal/store/chain):
	// never the real home's.
	os.Setenv("XDG_STATE_HOME", filepath.Join(tmp, "state"))
	os.Unsetenv("JAIPH_KEY_DIR")
	return o.m.Run()
}

// pathWithoutFull is PATH without the jaiph-full the tests built, for the
// scripts that check what jaiph does without it ($PATH_WITHOUT_FULL).
var pathWithoutFull string

// TestScripts runs the end-to-end CLI scripts in testdata/script. Besides the
// standard testscript commands they may use
//
//	exits N cmd [args...]
//
// which runs cmd like exec and fails unless it exits with status N, so
// scripts can tell diagnostics (1) from usage errors (2);
//
//	waitfile PATH
//
// which waits up to 10 s for PATH to exist and be non-empty; and
//
//	signal INT|TERM PIDFILE
//
// which sends the signal to the process whose pid PIDFILE holds; and
//
//	cmpnorm stdout|stderr|FILE WANT
//
// which compares like cmp after masking what changes between runs in the
// first: durations become (<time>) (the time ending a `jaiph test`
// result line <time>), run directory dates/times
// /<date>/<time>-, UUIDs <uuid>, pids in step ids <pid>, $WORK <dir>;
//
//	summary OUT
//	runfiles OUT
//
// which write a compact view of the newest run's run_summary.jsonl (one
// line per event, failing on a line that is not a JSON object with
// event_version 1) or the sorted list of files in its run directory.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:           "testdata/script",
		UpdateScripts: *update,
		Setup: func(env *testscript.Env) error {
			env.Setenv("PATH_WITHOUT_FULL", pathWithoutFull)
			return setupKeyStore(env)
		},
		Condition: func(cond string) (bool, error) {
			if cond == "landlock" {
				return runtime.LandlockAvailable(), nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":    cmdExits,
			"waitfile": cmdWaitFile,
			"signal":   cmdSignal,
			"cmpnorm":  cmdCmpNorm,
			"summary":  cmdSummary,
			"runfiles": cmdRunFiles,
		},
	})
}

// setupKeyStore gives each script a key store of its own outside $WORK
// (the workspace), in $XDG_STATE_HOME/jaiph/keys: testscript's HOME is
// /no-home.
func setupKeyStore(env *testscript.Env) error {
	state, err := os.MkdirTemp("", "jaiph-state-")
	if err != nil {
		return err
	}
	env.Setenv("XDG_STATE_HOME", state)
	env.Defer(func() { os.RemoveAll(state) })
	return nil
}

func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exits")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exits N cmd [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad status %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

func cmdWaitFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitfile PATH")
	}
	path := ts.MkAbs(args[0])
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if st, err := os.Stat(path); err == nil && st.Size() > 0 {
			return
		}
	}
	ts.Fatalf("waitfile: %s did not appear within 10s", args[0])
}

func cmdSignal(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: signal INT|TERM PIDFILE")
	}
	sig := map[string]syscall.Signal{"INT": syscall.SIGINT, "TERM": syscall.SIGTERM}[args[0]]
	if sig == 0 {
		ts.Fatalf("signal: unknown signal %s", args[0])
	}
	pid, err := strconv.Atoi(strings.TrimSpace(ts.ReadFile(args[1])))
	if err != nil {
		ts.Fatalf("signal: bad pid file: %v", err)
	}
	ts.Check(syscall.Kill(pid, sig))
}

var (
	durationRE = regexp.MustCompile(`\((\d+(\.\d+)?s|\d+m \d+s)\)`)
	runDirRE   = regexp.MustCompile(`/\d{4}-\d{2}-\d{2}/\d{2}-\d{2}-\d{2}-`)
	uuidRE     = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	stepIDRE   = regexp.MustCompile(`<uuid>:\d+:`)
	tsRE       = regexp.MustCompile(`"ts":"[^"]*"`)
	elapsedRE  = regexp.MustCompile(`"elapsed_ms":\d+`)
	// testTimeRE is the trailing `<n>s` of a `jaiph test` result line.
	testTimeRE = regexp.MustCompile(`(?m)^(  [✓✗] (?:.* )?)\d+s$`)
)

// normalise masks the parts of jaiph output that differ between runs.
func normalise(ts *testscript.TestScript, s string) string {
	s = strings.ReplaceAll(s, ts.Getenv("WORK"), "<dir>")
	s = durationRE.ReplaceAllString(s, "(<time>)")
	s = runDirRE.ReplaceAllString(s, "/<date>/<time>-")
	s = uuidRE.ReplaceAllString(s, "<uuid>")
	s = stepIDRE.ReplaceAllString(s, "<uuid>:<pid>:")
	s = tsRE.ReplaceAllString(s, `"ts":"<ts>"`)
	s = testTimeRE.ReplaceAllString(s, "${1}<time>")
	return elapsedRE.ReplaceAllString(s, `"elapsed_ms":<ms>`)
}

func cmdCmpNorm(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: cmpnorm stdout|stderr|FILE WANT")
	}
	var got string
	switch args[0] {
	case "stdout":
		got = ts.ReadFile("stdout")
	case "stderr":
		got = ts.ReadFile("stderr")
	default:
		got = ts.ReadFile(args[0])
	}
	got = normalise(ts, got)
	want := ts.ReadFile(args[1])
	if got != want {
		ts.Logf("[diff -%s +%s]\n%s", args[1], args[0], lineDiff(want, got))
		ts.Fatalf("%s and %s differ", args[0], args[1])
	}
}

// lineDiff lists the lines that differ, enough to see what changed.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < len(w) || i < len(g); i++ {
		var wl, gl string
		if i < len(w) {
			wl = w[i]
		}
		if i < len(g) {
			gl = g[i]
		}
		if wl != gl {
			fmt.Fprintf(&b, "line %d:\n-%s\n+%s\n", i+1, wl, gl)
		}
	}
	return b.String()
}

// newestRunDir is the lexicographically last run directory under $WORK.
func newestRunDir(ts *testscript.TestScript) string {
	dirs, _ := filepath.Glob(filepath.Join(ts.Getenv("WORK"), ".jaiph", "runs", "*", "*"))
	if len(dirs) == 0 {
		ts.Fatalf("no run directory")
	}
	sort.Strings(dirs)
	return dirs[len(dirs)-1]
}

func cmdSummary(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: summary OUT")
	}
	data, err := os.ReadFile(filepath.Join(newestRunDir(ts), "run_summary.jsonl"))
	ts.Check(err)
	var b strings.Builder
	for i, line := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var e map[string]any
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			ts.Fatalf("summary line %d is not JSON: %v\n%s", i+1, err, line)
		}
		if e["event_version"] != float64(1) {
			ts.Fatalf("summary line %d has no event_version 1: %s", i+1, line)
		}
		b.WriteString(compactEvent(e) + "\n")
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(b.String()), 0o644))
}

// compactEvent renders an event the way the conformance corpus does, plus
// WORKFLOW_END with its status (D11).
func compactEvent(e map[string]any) string {
	str := func(k string) string { v, _ := e[k].(string); return v }
	num := func(k string) string { return fmt.Sprint(e[k]) }
	quote := func(k string) string { q, _ := json.Marshal(e[k]); return string(q) }
	dispatch := func() string {
		if e["dispatched"] != true {
			return ""
		}
		out := " dispatched channel=" + str("channel")
		if s, ok := e["sender"].(string); ok {
			out += " sender=" + s
		}
		return out
	}
	switch t := str("type"); t {
	case "STEP_START":
		return fmt.Sprintf("%s %s %s depth=%s%s", t, str("kind"), str("name"), num("depth"), dispatch())
	case "STEP_END":
		return fmt.Sprintf("%s %s %s depth=%s status=%s%s", t, str("kind"), str("name"), num("depth"), num("status"), dispatch())
	case "WORKFLOW_START":
		return t + " " + str("workflow")
	case "WORKFLOW_END":
		return fmt.Sprintf("%s %s status=%s", t, str("workflow"), num("status"))
	case "LOG", "LOGERR":
		return fmt.Sprintf("%s depth=%s %s", t, num("depth"), quote("message"))
	case "INBOX_ENQUEUE":
		return fmt.Sprintf("%s %s seq=%s sender=%s preview=%s ref=%s", t, str("channel"), str("inbox_seq"), str("sender"), quote("payload_preview"), quote("payload_ref"))
	case "INBOX_DISPATCH_START":
		return fmt.Sprintf("%s %s seq=%s target=%s sender=%s", t, str("channel"), str("inbox_seq"), str("target"), str("sender"))
	case "INBOX_DISPATCH_COMPLETE":
		return fmt.Sprintf("%s %s seq=%s target=%s sender=%s status=%s", t, str("channel"), str("inbox_seq"), str("target"), str("sender"), num("status"))
	}
	return "UNKNOWN " + str("type")
}

func cmdRunFiles(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: runfiles OUT")
	}
	dir := newestRunDir(ts)
	var names []string
	ts.Check(filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			names = append(names, rel)
		}
		return err
	}))
	sort.Strings(names)
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(strings.Join(names, "\n")+"\n"), 0o644))
}
