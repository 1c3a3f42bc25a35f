package main

// The Docker sandbox against a real Docker Engine (no mocks): the scripts in
// testdata/sandbox, and a subset of the conformance corpus run in a
// container. No image registry is needed: the test builds its images from
// the static busybox of the distribution's busybox-static package, and the
// sandboxed jaiph is this package built static (the -race test binary is
// dynamically linked, so it cannot run in a scratch image).
//
// Without a Docker daemon (or busybox-static) the tests skip and say so
// loudly; under CI=true they fail instead (.ci/run installs and starts
// both).

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/rogpeppe/go-internal/testscript"

	"github.com/jaiph-go/jaiph/internal/sandbox/sandboxtest"
)

const (
	sandboxImage      = sandboxtest.Busybox
	sandboxEmptyImage = sandboxtest.Empty
)

var sandboxSetup struct {
	once   sync.Once
	binary string // the static jaiph mounted into containers
	why    string // why it could not be built ("" when it was)
}

// needSandbox returns the static jaiph for the container, or skips the test
// (fails it under CI=true) when Docker or busybox-static is missing
// (sandboxtest.Need).
func needSandbox(t *testing.T) string {
	t.Helper()
	sandboxtest.Need(t)
	s := &sandboxSetup
	s.once.Do(func() { s.binary, s.why = buildStatic() })
	if s.why != "" {
		t.Fatal(s.why)
	}
	return s.binary
}

// buildStatic builds the static jaiph that the containers mount.
func buildStatic() (binary, why string) {
	dir, err := os.MkdirTemp("", "jaiph-sandbox-test-")
	if err != nil {
		return "", err.Error()
	}
	binary = filepath.Join(dir, "jaiph")
	gobin := filepath.Join(goruntime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		gobin = "go"
	}
	build := exec.Command(gobin, "build", "-o", binary, ".")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		return "", fmt.Sprintf("cannot build a static jaiph: %v\n%s", err, out)
	}
	return binary, ""
}

// TestSandbox runs testdata/sandbox/*.txtar. Besides TestScripts' commands
// they may use
//
//	container PIDFILE     waits up to 30 s for a running container of the jaiph whose pid PIDFILE holds
//	nocontainer PIDFILE   waits up to 30 s until no container of that jaiph exists (running or not)
//	kill9 PIDFILE         sends SIGKILL to that process
//
// and the condition [root]. The scripts get JAIPH_DOCKER_BINARY,
// JAIPH_DOCKER_IMAGE (busybox), JAIPH_DOCKER_NETWORK=none and $EMPTY_IMAGE.
func TestSandbox(t *testing.T) {
	binary := needSandbox(t)
	testscript.Run(t, testscript.Params{
		Dir: "testdata/sandbox",
		Setup: func(e *testscript.Env) error {
			e.Setenv("JAIPH_DOCKER_BINARY", binary)
			e.Setenv("JAIPH_DOCKER_IMAGE", sandboxImage)
			e.Setenv("JAIPH_DOCKER_NETWORK", "none")
			e.Setenv("EMPTY_IMAGE", sandboxEmptyImage)
			return setupKeyStore(e)
		},
		Condition: func(cond string) (bool, error) {
			if cond == "root" {
				return os.Geteuid() == 0, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":       cmdExits,
			"waitfile":    cmdWaitFile,
			"signal":      cmdSignal,
			"cmpnorm":     cmdCmpNorm,
			"summary":     cmdSummary,
			"runfiles":    cmdRunFiles,
			"container":   func(ts *testscript.TestScript, neg bool, args []string) { waitContainers(ts, neg, args, true) },
			"nocontainer": func(ts *testscript.TestScript, neg bool, args []string) { waitContainers(ts, neg, args, false) },
			"kill9": func(ts *testscript.TestScript, neg bool, args []string) {
				if neg || len(args) != 1 {
					ts.Fatalf("usage: kill9 PIDFILE")
				}
				ts.Check(syscall.Kill(pidOf(ts, args[0]), syscall.SIGKILL))
			},
		},
	})
}

func pidOf(ts *testscript.TestScript, file string) int {
	pid, err := strconv.Atoi(strings.TrimSpace(ts.ReadFile(file)))
	if err != nil {
		ts.Fatalf("bad pid file %s: %v", file, err)
	}
	return pid
}

// waitContainers waits until the jaiph of PIDFILE has a running container
// (want) or no container at all (!want), by the label every sandbox
// container carries.
func waitContainers(ts *testscript.TestScript, neg bool, args []string, want bool) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: container|nocontainer PIDFILE")
	}
	filter := "label=jaiph.host-pid=" + strconv.Itoa(pidOf(ts, args[0]))
	list := []string{"ps", "-q", "--filter", filter}
	if !want {
		list = []string{"ps", "-aq", "--filter", filter}
	}
	var out []byte
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		var err error
		if out, err = exec.Command("docker", list...).CombinedOutput(); err != nil {
			ts.Fatalf("docker %s: %v\n%s", strings.Join(list, " "), err, out)
		}
		if (len(strings.TrimSpace(string(out))) > 0) == want {
			return
		}
	}
	ts.Fatalf("containers with %s after 30 s: %q (want any: %v)", filter, out, want)
}

// sandboxConformanceOut are the conformance cases that do not run in the
// container, and why (docs/sandbox.md lists them too). Cases of `jaiph
// test` (main.test.jh) are not listed: the test runner never uses the
// sandbox.
var sandboxConformanceOut = map[string]string{
	"030_prompt_cursor_stub":         stubAgent,
	"031_prompt_claude_stub":         stubAgent,
	"032_prompt_typed_returns":       stubAgent,
	"033_prompt_typed_type_error":    stubAgent,
	"034_prompt_typed_missing_field": stubAgent,
	"035_prompt_param_display":       stubAgent,
}

const stubAgent = "its stub agent is a bash script found through the host's PATH (<ws>/bin): the sandbox forwards no PATH, and the busybox test image has no bash"

// TestSandboxConformance runs the conformance cases that make sense in a
// container with runtime.docker_enabled: the same observable results as on
// the host (stdout, stderr, exit, the files the run changed, artifacts,
// summary).
func TestSandboxConformance(t *testing.T) {
	binary := needSandbox(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"JAIPH_TEST_AS_JAIPH=1", "JAIPH_DOCKER_ENABLED=true", "JAIPH_DOCKER_BINARY=" + binary,
		"JAIPH_DOCKER_IMAGE=" + sandboxImage, "JAIPH_DOCKER_NETWORK=none"}
	root := conformanceDir()
	entries, err := os.ReadDir(filepath.Join(root, "cases"))
	if err != nil {
		t.Fatalf("conformance corpus: %v", err)
	}
	ran := 0
	for _, e := range entries {
		caseDir, err := filepath.Abs(filepath.Join(root, "cases", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if _, out := sandboxConformanceOut[e.Name()]; out || !e.IsDir() || fileExists(filepath.Join(caseDir, "main.test.jh")) {
			continue
		}
		ran++
		t.Run(e.Name(), func(t *testing.T) {
			if report := conformanceCase(t, exe, env, caseDir); report != "" {
				t.Error(report)
			}
		})
	}
	t.Logf("%d conformance cases ran in the sandbox; %d do not run there (docs/sandbox.md)", ran, len(sandboxConformanceOut))
}

// TestSandboxMcp: a `jaiph mcp` tool call runs its workflow in the sandbox
// (a named workflow, not default) and answers with the container's output.
func TestSandboxMcp(t *testing.T) {
	binary := needSandbox(t)
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".jaiph"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "ops.jh")
	src := "export workflow where {\n  if test -f /jaiph/bin/jaiph; then echo \"sandbox $1\"; else echo \"host $1\"; fi\n}\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "mcp", file)
	cmd.Env = append(os.Environ(), "JAIPH_TEST_AS_JAIPH=1", "HOME="+dir, "JAIPH_DOCKER_ENABLED=true",
		"JAIPH_DOCKER_BINARY="+binary, "JAIPH_DOCKER_IMAGE="+sandboxImage, "JAIPH_DOCKER_NETWORK=none")
	var stderr strings.Builder
	cmd.Stderr = &stderr
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "where", Arguments: map[string]any{"args": []string{"mcp"}}})
	if err != nil {
		t.Fatal(err)
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); res.IsError || !ok || !strings.Contains(tc.Text, "sandbox mcp") {
		t.Errorf("call result %+v, want the sandbox's output", res.Content)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v (stderr %s)", err, stderr.String())
	}
}

// TestSandboxServeCancel: a run `jaiph serve` placed in the sandbox is
// cancelled over HTTP: its container is gone when the cancel answers (or
// shortly after), and the run says cancelled.
func TestSandboxServeCancel(t *testing.T) {
	binary := needSandbox(t)
	dir := t.TempDir()
	src := "export workflow nap {\n  sleep 1000.711\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "tools.jh"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	const tok = "sandbox-token"
	auth := "Authorization: Bearer " + tok
	p := startServe(t, dir, "JAIPH_SERVE_TOKEN="+tok, "JAIPH_DOCKER_ENABLED=true", "JAIPH_DOCKER_BINARY="+binary,
		"JAIPH_DOCKER_IMAGE="+sandboxImage, "JAIPH_DOCKER_NETWORK=none")
	out := curl(t, "-X", "POST", "-H", auth, p.base+"/v1/workflows/nap/runs")
	m := regexp.MustCompile(`"run_id":"([^"]+)"`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("start: %s", out)
	}
	filter := "label=jaiph.host-pid=" + strconv.Itoa(p.cmd.Process.Pid)
	waitDocker(t, []string{"ps", "-q", "--filter", filter}, true)
	out = curl(t, "-X", "POST", "-H", auth, p.base+"/v1/runs/"+m[1]+"/cancel")
	if !strings.Contains(out, `"status":"cancelled"`) {
		t.Fatalf("cancel: %s", out)
	}
	waitDocker(t, []string{"ps", "-aq", "--filter", filter}, false)
	p.cmd.Process.Signal(syscall.SIGTERM)
	<-p.done
}

// waitDocker waits up to 30 s until `docker ARGS` lists something (want)
// or nothing.
func waitDocker(t *testing.T, args []string, want bool) {
	t.Helper()
	var out []byte
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		var err error
		if out, err = exec.Command("docker", args...).CombinedOutput(); err != nil {
			t.Fatalf("docker %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		if (len(strings.TrimSpace(string(out))) > 0) == want {
			return
		}
	}
	t.Fatalf("docker %s after 30 s: %q (want any: %v)", strings.Join(args, " "), out, want)
}
