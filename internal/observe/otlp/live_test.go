package otlp_test

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// jaiph is the real binary, built once.
var jaiph string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "jaiph-otlp-test")
	if err != nil {
		panic(err)
	}
	jaiph = filepath.Join(dir, "jaiph")
	// The runs' keys (internal/store/chain): outside the workspaces (each
	// test's HOME) and never in the real home.
	os.Setenv("XDG_STATE_HOME", filepath.Join(dir, "state"))
	os.Unsetenv("JAIPH_KEY_DIR")
	if out, err := exec.Command("go", "build", "-tags", "full", "-o", jaiph, "github.com/jaiph-go/jaiph/cmd/jaiph").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// workflow has each thing a trace shows: a rule and a function with
// params, logs at two depths, a failing step the run survives, a send and
// a route whose target fails the run.
const workflow = `channel findings

rule ready {
  test -n "$1"
}

function helper {
  echo "helper $1"
}

workflow flaky {
  echo "flaky is failing" >&2
  exit 3
}

workflow analyst {
  log "analyst got $1"
  logerr "analyst gives up"
  exit 2
}

workflow default {
  ensure ready "yes"
  run helper "x y"
  log "hello log"
  if ! run flaky; then
    logerr "flaky failed; carrying on"
  fi
  findings <- echo "payload"
  findings -> analyst
}
`

// wantTree is the trace of workflow, live or replayed from its summary.
const wantTree = `jaiph run main.jh ERROR(the run failed)
  * INBOX_ENQUEUE channel="findings" sender="default" inbox_seq="001" payload_preview="payload"
  * INBOX_DISPATCH_START channel="findings" sender="default" target="main::analyst" inbox_seq="001"
  * INBOX_DISPATCH_COMPLETE status="2" channel="findings" sender="default" target="main::analyst" inbox_seq="001"
  workflow default ERROR(exit status 1) func="main::default" status="1"
    * LOG message="hello log"
    * LOGERR message="flaky failed; carrying on"
    rule ready func="main::ready" status="0" param.arg1="yes"
    function helper func="main::helper" status="0" param.arg1="x y"
    workflow flaky ERROR(exit status 3) func="main::flaky" status="3"
    workflow analyst ERROR(exit status 2) func="main::analyst" status="2" dispatched="true" channel="findings" sender="default" param.arg1="payload" param.arg2="findings" param.arg3="default"
      * LOG message="analyst got payload"
      * LOGERR message="analyst gives up"
`

type result struct {
	stdout, stderr string
	status         int
	elapsed        time.Duration
	runDir         string
}

// runJaiph runs workflow in a fresh workspace with extra environment.
func runJaiph(t *testing.T, env ...string) result {
	t.Helper()
	ws := t.TempDir()
	if err := os.Mkdir(filepath.Join(ws, ".jaiph"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ws, "main.jh"), []byte(workflow), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(jaiph, "run", "main.jh")
	cmd.Dir = ws
	cmd.Env = append(cleanEnv(), "HOME="+ws)
	cmd.Env = append(cmd.Env, env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String(), elapsed: time.Since(start)}
	if ee, ok := err.(*exec.ExitError); ok {
		r.status = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	dirs, _ := filepath.Glob(filepath.Join(ws, ".jaiph", "runs", "*", "*"))
	if len(dirs) != 1 {
		t.Fatalf("want one run directory, got %v", dirs)
	}
	r.runDir = dirs[0]
	// What changes between two runs of the same workflow: its directory
	// and durations.
	mask := func(s string) string {
		s = strings.ReplaceAll(s, r.runDir, "<rundir>")
		return regexp.MustCompile(`\(\d+(\.\d+)?m?s\)`).ReplaceAllString(s, "(<time>)")
	}
	r.stdout, r.stderr = mask(r.stdout), mask(r.stderr)
	return r
}

// cleanEnv is the test's environment without OTEL_* or JAIPH_* settings
// that would change what it checks.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "OTEL_") && !strings.HasPrefix(kv, "JAIPH_") {
			env = append(env, kv)
		}
	}
	return env
}

func TestLiveRunTrace(t *testing.T) {
	plain := runJaiph(t)
	if plain.status != 1 {
		t.Fatalf("the workflow should fail with status 1, got %d\n%s", plain.status, plain.stderr)
	}
	rcv := newReceiver(t)
	traced := runJaiph(t, "OTEL_EXPORTER_OTLP_ENDPOINT="+rcv.URL, "OTEL_RESOURCE_ATTRIBUTES=team=qa")
	sameOutput(t, "with a collector", plain, traced)

	root := rcv.trace(t)
	if got := render(root); got != wantTree {
		t.Errorf("trace:\n%s\nwant:\n%s", got, wantTree)
	}
	if root.resource["service.name"] != "jaiph" || root.resource["team"] != "qa" {
		t.Errorf("resource = %v, want service.name jaiph and team qa", root.resource)
	}
	checkStepAttrs(t, root, traced.runDir)
	if _, err := os.Stat(root.children[0].children[3].attr("jaiph.err_file")); err != nil {
		t.Error(err)
	}
	// Live times are the events' own: every child inside its parent.
	var inside func(s *span)
	inside = func(s *span) {
		for _, c := range s.children {
			if c.StartTimeUnixNano < s.StartTimeUnixNano || c.EndTimeUnixNano > s.EndTimeUnixNano || c.EndTimeUnixNano < c.StartTimeUnixNano {
				t.Errorf("span %q [%d,%d] is not inside %q [%d,%d]", c.Name, c.StartTimeUnixNano, c.EndTimeUnixNano,
					s.Name, s.StartTimeUnixNano, s.EndTimeUnixNano)
			}
			inside(c)
		}
	}
	inside(root)
}

// checkStepAttrs checks what render leaves out: ids, tree positions and
// artifact paths, against the run directory.
func checkStepAttrs(t *testing.T, root *span, runDir string) {
	t.Helper()
	runID := root.attr("jaiph.run_id")
	if !regexp.MustCompile(`^[0-9a-f-]{36}$`).MatchString(runID) || root.attr("jaiph.source") != "main.jh" {
		t.Errorf("root attributes: run_id %q source %q", runID, root.attr("jaiph.source"))
	}
	top := root.children[0]
	if top.attr("jaiph.depth") != "0" || top.attr("jaiph.seq") != "1" || top.attr("jaiph.kind") != "workflow" ||
		top.attr("jaiph.name") != "default" || !strings.HasPrefix(top.attr("jaiph.id"), runID+":") {
		t.Errorf("root call attributes: %v", top.Attributes)
	}
	for _, c := range top.children {
		if c.attr("jaiph.depth") != "1" || c.attr("jaiph.parent_id") != top.attr("jaiph.id") {
			t.Errorf("%s: depth %q parent %q", c.Name, c.attr("jaiph.depth"), c.attr("jaiph.parent_id"))
		}
	}
	helper, analyst := top.children[1], top.children[3]
	if want := filepath.Join(runDir, "000003-main__helper.out"); helper.attr("jaiph.out_file") != want {
		t.Errorf("helper out_file = %q, want %q", helper.attr("jaiph.out_file"), want)
	}
	if want := filepath.Join(runDir, "000005-main__analyst.err"); analyst.attr("jaiph.err_file") != want {
		t.Errorf("analyst err_file = %q, want %q", analyst.attr("jaiph.err_file"), want)
	}
}

func sameOutput(t *testing.T, what string, want, got result) {
	t.Helper()
	if got.status != want.status || got.stdout != want.stdout || got.stderr != want.stderr {
		t.Errorf("%s: status %d, want %d\nstdout:\n%s\nwant:\n%s\nstderr:\n%s\nwant:\n%s", what,
			got.status, want.status, got.stdout, want.stdout, got.stderr, want.stderr)
	}
}

// A collector that accepts connections and never answers, and a port
// nobody listens on, change nothing the run shows; the delay the first
// adds is bounded by otlp.ShutdownWait (measured in docs/performance.md;
// the bound here only guards against a hang).
func TestLiveRunDeadCollector(t *testing.T) {
	plain := runJaiph(t)

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		var held []net.Conn // kept open, never read
		defer func() {
			for _, c := range held {
				c.Close()
			}
		}()
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			held = append(held, c)
		}
	}()
	hole := runJaiph(t, "OTEL_EXPORTER_OTLP_ENDPOINT=http://"+ln.Addr().String())
	sameOutput(t, "black-holed collector", plain, hole)
	t.Logf("black-holed collector: run took %v, without a collector %v", hole.elapsed, plain.elapsed)
	if hole.elapsed > 10*time.Second {
		t.Errorf("a black-holed collector held the run %v", hole.elapsed)
	}

	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := closed.Addr().String()
	closed.Close()
	refused := runJaiph(t, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=http://"+addr+"/v1/traces")
	sameOutput(t, "refused connection", plain, refused)

	// JAIPH_DEBUG=true adds exactly one line naming the failure.
	debugPlain := runJaiph(t, "JAIPH_DEBUG=true")
	debug := runJaiph(t, "JAIPH_DEBUG=true", "OTEL_EXPORTER_OTLP_ENDPOINT=http://"+addr)
	extra := strings.TrimPrefix(debug.stderr, debugPlain.stderr)
	if debug.stdout != debugPlain.stdout || debug.status != debugPlain.status ||
		!regexp.MustCompile(`^jaiph: OTLP trace export failed: [^\n]*refused[^\n]*\n$`).MatchString(extra) {
		t.Errorf("JAIPH_DEBUG with a refused collector: status %d stdout %q, stderr ends %q", debug.status, debug.stdout, extra)
	}
}
