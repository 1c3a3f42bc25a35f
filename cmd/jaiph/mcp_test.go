package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/jaiph-go/jaiph/internal/store/runs"
)

// TestMcpStdio runs `jaiph mcp FILE` as a process (this test binary acting
// as jaiph) and speaks to it with the SDK's client over its stdin and
// stdout: the tools list, a call, and descriptors 0 and 1 of the server
// taken away from everything but the protocol (/dev/null and stderr).
func TestMcpStdio(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".jaiph"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "ops.jh")
	src := "# Says hello.\nexport workflow hello {\n  echo \"hello $1\"\n}\n\nworkflow default {\n  echo unused\n}\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "mcp", file)
	cmd.Env = append(os.Environ(), "JAIPH_TEST_AS_JAIPH=1", "HOME="+dir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Tools) != 1 || list.Tools[0].Name != "hello" || list.Tools[0].Description != "Says hello." {
		t.Errorf("tools %+v, want hello described as Says hello.", list.Tools)
	}
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "hello", Arguments: map[string]any{"args": []string{"stdio"}}})
	if err != nil {
		t.Fatal(err)
	}
	if tc, ok := res.Content[0].(*mcp.TextContent); res.IsError || !ok || !strings.Contains(tc.Text, "hello stdio") {
		t.Errorf("call result %+v, want hello stdio", res.Content)
	}
	proc := "/proc/" + strconv.Itoa(cmd.Process.Pid) + "/fd/"
	in, _ := os.Readlink(proc + "0")
	out, _ := os.Readlink(proc + "1")
	errFD, _ := os.Readlink(proc + "2")
	if in != os.DevNull || out != errFD {
		t.Errorf("server fd 0 → %s, 1 → %s, 2 → %s; want 0 on /dev/null and 1 on stderr's file", in, out, errFD)
	}
	if err := cs.Close(); err != nil {
		t.Errorf("close: %v (stderr %s)", err, stderr.String())
	}
	// Closing stdin ends the server: exit 0, nothing on stderr.
	if cmd.ProcessState == nil || cmd.ProcessState.ExitCode() != 0 || stderr.Len() > 0 {
		t.Errorf("jaiph mcp ended with %v; stderr:\n%s", cmd.ProcessState, stderr.String())
	}
}

// SIGTERM to `jaiph mcp` interrupts a call's run as it would `jaiph run`
// (its sleep is gone, the run is recorded interrupted by SIGTERM) and the
// server exits once the run ended, without waiting for stdin to close.
func TestMcpStdioSignal(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".jaiph"), 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "ops.jh")
	src := "export workflow slow {\n  sh -c 'echo $$ > \"$1\"; exec sleep 30' sh \"$1\"\n}\n"
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(os.Args[0], "mcp", file)
	cmd.Env = append(os.Environ(), "JAIPH_TEST_AS_JAIPH=1", "HOME="+dir)
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).
		Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	pidFile := filepath.Join(dir, "sleep.pid")
	go cs.CallTool(ctx, &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{"args": []string{pidFile}}})
	var sleepPID string
	waitUntil(t, func() bool {
		data, _ := os.ReadFile(pidFile)
		sleepPID = strings.TrimSpace(string(data))
		return sleepPID != ""
	})
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	// Exited: a zombie until the transport reaps it; bounded by 10 s
	// against the 30 s sleep.
	waitUntil(t, func() bool {
		stat, err := os.ReadFile("/proc/" + strconv.Itoa(cmd.Process.Pid) + "/stat")
		return err != nil || strings.Contains(string(stat), ") Z ")
	})
	if _, err := os.Stat("/proc/" + sleepPID); err == nil {
		t.Errorf("the sleep (pid %s) outlived jaiph mcp", sleepPID)
	}
	list, _ := runs.List(filepath.Join(dir, ".jaiph", "runs"), time.Now())
	if len(list) != 1 || list[0].Status != runs.Interrupted || list[0].Signal != "SIGTERM" {
		t.Errorf("runs %+v, want one interrupted by SIGTERM", list)
	}
}

// waitUntil polls cond for up to 10 s.
func waitUntil(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("gave up waiting after 10 s")
		}
	}
}

// TestMcpArgumentsStayData (issue 26): tool arguments are the model's
// words, so they travel as values: through a workflow's $1, a function's
// arguments, a message's payload and a prompt's text, none is expanded,
// split, globbed or run.
func TestMcpArgumentsStayData(t *testing.T) {
	dir := t.TempDir()
	for _, d := range []string{".jaiph", "bin"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	src := `channel words

function show {
  printf 'fn[%s]\n' "$@"
}

workflow hear {
  printf 'msg[%s]\n' "$1"
}

# Repeats its arguments.
export workflow parrot {
  printf 'wf[%s]\n' "$1" "$2"
  run show "$1" "$2"
  words <- echo "$1"
  words -> hear
  answer = prompt "say $1"
  printf 'ans[%s]\n' "$answer"
}

workflow default {
  echo unused
}
`
	if err := os.WriteFile(filepath.Join(dir, "tools.jh"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	// The agent answers with the prompt's text as it got it.
	agent := "#!/bin/sh\neval \"p=\\${$#}\"\nprintf '%s\\n' \"$p\" > \"$HOME/prompt.txt\"\nprintf '{\"type\":\"result\",\"result\":\"ok\"}\\n'\n"
	if err := os.WriteFile(filepath.Join(dir, "bin", "cursor-agent"), []byte(agent), 0o755); err != nil {
		t.Fatal(err)
	}
	hostile := []string{"$(touch pwned1)", "`touch pwned2`; touch pwned3", "${HOME} $((6*7)) * ?", "'\"; touch pwned4; \"'"}
	cmd := jaiphIn(dir, "", "mcp", "tools.jh")
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for i := 0; i+1 < len(hostile); i += 2 {
		a, b := hostile[i], hostile[i+1]
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "parrot", Arguments: map[string]any{"args": []string{a, b}}})
		if err != nil {
			t.Fatal(err)
		}
		text := res.Content[0].(*mcp.TextContent).Text
		if res.IsError {
			t.Fatalf("parrot failed:\n%s", text)
		}
		for _, want := range []string{"wf[" + a + "]\nwf[" + b + "]", "ans[ok]"} {
			if !strings.Contains(text, want) {
				t.Errorf("result lacks %q:\n%s", want, text)
			}
		}
		runDir := strings.TrimSpace(regexp.MustCompile(`Logs: (.*)`).FindStringSubmatch(text)[1])
		for glob, want := range map[string]string{"*show.out": "fn[" + a + "]\nfn[" + b + "]\n", "*hear.out": "msg[" + a + "]\n"} {
			if arts, _ := filepath.Glob(filepath.Join(runDir, glob)); len(arts) != 1 || readFile(t, arts[0]) != want {
				t.Errorf("%s: %v, want one holding %q", glob, arts, want)
			}
		}
		if got := readFile(t, filepath.Join(dir, "prompt.txt")); got != "say "+a+"\n" {
			t.Errorf("the agent got the prompt %q, want %q", got, "say "+a+"\n")
		}
	}
	if pwned, _ := filepath.Glob(filepath.Join(dir, "pwned*")); len(pwned) > 0 {
		t.Errorf("an argument ran as code: %v", pwned)
	}
}
