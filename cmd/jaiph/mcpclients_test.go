package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jaiph-go/jaiph/internal/store/runs"
)

// The MCP clients people use, against both of jaiph's MCP surfaces: the
// official TypeScript SDK (testdata/mcpclients/sdkclient.mjs) and MCP
// Inspector's CLI, at the versions testdata/mcpclients/package-lock.json
// pins (`make mcpclients` installs them; .ci/run does).

// mcpClientsDir is testdata/mcpclients with its locked packages installed,
// and node. Without them the test skips, or fails under CI=true.
func mcpClientsDir(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs(filepath.Join("..", "..", "testdata", "mcpclients"))
	if err != nil {
		t.Fatal(err)
	}
	missing := func(what string) {
		msg := what + ": the MCP client tests need node and the packages of testdata/mcpclients (`make mcpclients`, as .ci/run does)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + "; CI=true forbids skipping them")
		}
		t.Skip(msg)
	}
	if _, err := exec.LookPath("node"); err != nil {
		missing("no node on PATH")
	}
	lock, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	if installed, err := os.ReadFile(filepath.Join(dir, "node_modules", ".installed-lock.json")); err != nil {
		missing("testdata/mcpclients/node_modules is not installed")
	} else if string(installed) != string(lock) {
		missing("testdata/mcpclients/node_modules holds another package-lock.json's install")
	}
	return dir
}

// mcpClientsWorkspace is a workspace whose tools.jh exports hello (prints
// its two arguments), gated (two steps; the second waits for a line on the
// FIFO its $1 names), slow (sleeps $1 seconds in a step) and fails (writes
// to stderr, then fails).
func mcpClientsWorkspace(t *testing.T) (dir, fifo string) {
	dir = t.TempDir()
	for _, d := range []string{".jaiph", "bin"} {
		if err := os.Mkdir(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	src := `# Says hello.
export workflow hello {
  printf 'arg[%s]\n' "$1" "$2"
}

function mark {
  echo marked
}

function wait_gate {
  read -r line < "$1"
  echo "gate $line"
}

# Waits at a gate between two steps.
export workflow gated {
  run mark
  run wait_gate "$1"
}

function nap {
  sleep "$1"
}

# Sleeps until cancelled.
export workflow slow {
  run nap "$1"
}

# Fails.
export workflow fails {
  echo "disk /var is full" >&2
  false
}
`
	if err := os.WriteFile(filepath.Join(dir, "tools.jh"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	fifo = filepath.Join(t.TempDir(), "gate")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	return dir, fifo
}

// The arguments no shell may see as code: each would leave a pwned* file.
var hostileArgs = []string{"$(touch pwned1) `touch pwned2`", "; touch pwned3 && touch pwned4 | tee pwned5 # ${HOME}"}

// jaiphEnv is jaiphIn's environment as a map, for the node clients.
func jaiphEnv(dir string) map[string]string {
	env := map[string]string{}
	for _, kv := range jaiphIn(dir, "").Env {
		k, v, _ := strings.Cut(kv, "=")
		env[k] = v
	}
	return env
}

// startMCPClientServe starts `jaiph serve` on dir with a token and
// returns its MCP endpoint and the token.
func startMCPClientServe(t *testing.T, dir string) (url, token string) {
	token = "mcp-clients-token"
	p := startServe(t, dir, "JAIPH_SERVE_TOKEN="+token)
	return p.base + "/mcp", token
}

// sdkReport is what sdkclient.mjs prints.
type sdkReport struct {
	ProtocolVersion string `json:"protocolVersion"`
	ServerInfo      struct{ Name, Version string }
	Capabilities    map[string]any
	Tools           []struct {
		Name         string
		Description  string
		InputSchema  json.RawMessage
		OutputSchema json.RawMessage
	}
	Calls []struct {
		Name     string
		Progress []struct {
			Progress float64
			Message  string
		}
		Result *struct {
			Content []struct{ Type, Text string }
			// StructuredContent is the tool's mcpserver.Output.
			StructuredContent struct {
				Status int    `json:"status"`
				Output string `json:"output"`
			} `json:"structuredContent"`
			IsError bool `json:"isError"`
		}
		Error *struct {
			Code    int
			Message string
		}
	}
}

// TestMCPTypeScriptSDK: an application on the official TypeScript SDK
// (1.32.2) opens a session with `jaiph mcp` over stdio and with `jaiph
// serve` over Streamable HTTP: it negotiates the SDK's newest protocol
// version, lists the tools with the input schemas jaiph derives, gets
// hostile arguments back as data (no file created), receives progress
// notifications during a call, and an error result for a failing workflow;
// aborting a call (its AbortSignal) interrupts the run while the session
// stays open (over HTTP the SDK's cancel comes in a POST of its own and
// the call's stream stays open).
func TestMCPTypeScriptSDK(t *testing.T) {
	clients := mcpClientsDir(t)
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			dir, fifo := mcpClientsWorkspace(t)
			marker := map[string]string{"stdio": "1000.731", "http": "1000.732"}[transport] // slow's sleep
			plan := map[string]any{"calls": []map[string]any{
				{"name": "hello", "arguments": map[string]any{"args": hostileArgs}},
				{"name": "gated", "arguments": map[string]any{"args": []string{fifo}},
					"gate": map[string]any{"fifo": fifo, "after": "STEP_START function wait_gate"}},
				{"name": "fails", "arguments": map[string]any{}},
				{"name": "slow", "arguments": map[string]any{"args": []string{marker}}, "abortAfter": "STEP_START function nap"},
			}, "hold": true}
			wantTools := []string{"fails", "gated", "hello", "slow"}
			if transport == "stdio" {
				plan["stdio"] = map[string]any{"command": os.Args[0], "args": []string{"mcp", "tools.jh"}, "cwd": dir, "env": jaiphEnv(dir)}
			} else {
				url, token := startMCPClientServe(t, dir)
				plan["http"] = map[string]any{"url": url, "token": token}
				wantTools = []string{"fails", "gated", "hello", "jaiph-send", "jaiph-waiting-runs", "slow"}
			}
			// In a file: a command line holding the marker would look
			// like slow's sleep to waitProcess.
			raw, _ := json.Marshal(plan)
			planFile := filepath.Join(t.TempDir(), "plan.json")
			if err := os.WriteFile(planFile, raw, 0o644); err != nil {
				t.Fatal(err)
			}
			cmd := exec.Command("node", filepath.Join(clients, "sdkclient.mjs"), planFile)
			cmd.Dir = clients
			var stderr strings.Builder
			cmd.Stderr = &stderr
			// It prints its report and holds the session open until its
			// stdin ends.
			hold, err := cmd.StdinPipe()
			if err != nil {
				t.Fatal(err)
			}
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			defer func() {
				hold.Close()
				if err := cmd.Wait(); err != nil {
					t.Errorf("sdkclient.mjs: %v\n%s", err, stderr.String())
				}
			}()
			out, err := bufio.NewReader(stdout).ReadBytes('\n')
			if err != nil {
				t.Fatalf("sdkclient.mjs: %v\n%s", err, stderr.String())
			}
			var rep sdkReport
			if err := json.Unmarshal(out, &rep); err != nil {
				t.Fatalf("%v: %s", err, out)
			}
			if rep.ProtocolVersion != "2025-11-25" || rep.ServerInfo.Name != "jaiph" || rep.Capabilities["tools"] == nil {
				t.Errorf("initialize: protocol %q, server %+v, capabilities %v; want 2025-11-25 (the SDK's newest), jaiph, tools",
					rep.ProtocolVersion, rep.ServerInfo, rep.Capabilities)
			}
			var names []string
			for _, tl := range rep.Tools {
				names = append(names, tl.Name)
				if tl.Name == "hello" {
					want := `{"type":"object","properties":{"args":{"type":"array","items":{"type":"string"},` +
						`"description":"the workflow's positional arguments: $1, $2, … (its body uses $1, $2)"}},"additionalProperties":false}`
					if tl.Description != "Says hello." || string(tl.InputSchema) != want {
						t.Errorf("hello: %q, input schema\n%s\nwant\n%s", tl.Description, tl.InputSchema, want)
					}
					if !strings.Contains(string(tl.OutputSchema), `"required":["status"]`) {
						t.Errorf("hello's output schema: %s", tl.OutputSchema)
					}
				}
			}
			if !slices.Equal(names, wantTools) {
				t.Errorf("tools %v, want %v", names, wantTools)
			}
			if len(rep.Calls) != 4 {
				t.Fatalf("calls: %+v", rep.Calls)
			}
			hello, gated, fails, slow := rep.Calls[0], rep.Calls[1], rep.Calls[2], rep.Calls[3]
			want := "arg[" + hostileArgs[0] + "]\narg[" + hostileArgs[1] + "]\n"
			if r := hello.Result; r == nil || r.IsError || r.StructuredContent.Output != want || !strings.Contains(r.Content[0].Text, want) {
				t.Errorf("hello: %+v %+v, want the arguments back as %q", hello.Error, hello.Result, want)
			}
			if r := hello.Result; r != nil && !strings.HasPrefix(r.Content[0].Text, "✓ PASS workflow hello (") {
				t.Errorf("hello's text %q, want the PASS line with its duration", r.Content[0].Text)
			}
			if pwned, _ := filepath.Glob(filepath.Join(dir, "pwned*")); len(pwned) > 0 {
				t.Errorf("an argument ran as code: %v", pwned)
			}
			// The notifications up to the gate came before the result (the
			// run waited for the client to see them); the SDK may drop those
			// read together with the result (its issue #2580).
			var got []string
			for _, p := range gated.Progress {
				got = append(got, p.Message)
			}
			wantProgress := []string{"STEP_START workflow gated", "STEP_START function mark", "STEP_END function mark status 0", "STEP_START function wait_gate"}
			if len(got) < len(wantProgress) || !slices.Equal(got[:len(wantProgress)], wantProgress) {
				t.Errorf("gated's progress %q, want it to begin %q", got, wantProgress)
			}
			if r := gated.Result; r == nil || r.IsError || !strings.Contains(r.Content[0].Text, "PASS workflow gated") {
				t.Errorf("gated: %+v %+v", gated.Error, gated.Result)
			}
			if r := fails.Result; r == nil || !r.IsError || r.StructuredContent.Status != 1 ||
				!strings.Contains(r.Content[0].Text, "FAIL workflow fails") || !strings.Contains(r.Content[0].Text, "disk /var is full") {
				t.Errorf("fails: %+v %+v, want an error result with its status and stderr", fails.Error, fails.Result)
			}
			// The aborted call: the SDK's error, and the run interrupted
			// (its sleep gone) while the session is still open.
			if slow.Error == nil {
				t.Errorf("slow: %+v, want the SDK's error for an aborted call", slow.Result)
			}
			waitProcess(t, marker, false)
			var run runs.Run
			waitUntil(t, func() bool { // its end recorded
				list, _ := runs.List(filepath.Join(dir, ".jaiph", "runs"), time.Now())
				i := slices.IndexFunc(list, func(r runs.Run) bool { return slices.Equal(r.Args, []string{marker}) })
				if i >= 0 {
					run = list[i]
				}
				return i >= 0 && run.Status != runs.Running
			})
			if run.Status != runs.Interrupted {
				t.Errorf("slow's run %+v, want it interrupted", run)
			}
		})
	}
}

// inspector runs MCP Inspector's CLI with opts (the method and its
// options) on target (its last arguments) and returns its stdout, its
// stderr and its exit status.
func inspector(t *testing.T, clients, home string, target []string, opts ...string) (string, string, int) {
	t.Helper()
	launcher := filepath.Join(clients, "node_modules", "@modelcontextprotocol", "inspector", "clients", "launcher", "build", "index.js")
	args := append(append([]string{launcher, "--cli", "--format", "json"}, opts...), target...)
	cmd := exec.Command("node", args...)
	// Its secrets (none here) in memory: the machine has no keychain.
	cmd.Env = append(os.Environ(), "HOME="+home, "MCP_INSPECTOR_SECRET_STORE=memory")
	var stdout, stderr strings.Builder
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("inspector %v: %v", args, err)
	}
	return stdout.String(), stderr.String(), cmd.ProcessState.ExitCode()
}

// TestMCPInspectorCLI: MCP Inspector's CLI (2.12.0) lists the tools of
// `jaiph mcp` (stdio) and of `jaiph serve` (Streamable HTTP, the token in
// a header) with no schema portability warning, calls one with hostile
// arguments in the protocol of 2026-07-28, which come back as data, and
// gets a failing workflow's error (its exit status 5).
func TestMCPInspectorCLI(t *testing.T) {
	clients := mcpClientsDir(t)
	for _, transport := range []string{"stdio", "http"} {
		t.Run(transport, func(t *testing.T) {
			dir, _ := mcpClientsWorkspace(t)
			var target []string
			if transport == "stdio" {
				target = []string{"--cwd", dir}
				for k, v := range jaiphEnv(dir) {
					if v != "" { // -e refuses KEY=
						target = append(target, "-e", k+"="+v)
					}
				}
				target = append(target, "--", os.Args[0], "mcp", "tools.jh")
			} else {
				url, token := startMCPClientServe(t, dir)
				// --header takes the words after it: last.
				target = []string{url, "--header", "Authorization: Bearer " + token}
			}
			home := t.TempDir()
			out, errOut, code := inspector(t, clients, home, target, "--method", "tools/list", "--strict")
			var list struct {
				Result struct{ Tools []struct{ Name string } }
			}
			if err := json.Unmarshal([]byte(out), &list); err != nil || code != 0 {
				t.Fatalf("tools/list: exit %d, %v\n%s\n%s", code, err, out, errOut)
			}
			var names []string
			for _, tl := range list.Result.Tools {
				names = append(names, tl.Name)
			}
			if !slices.Contains(names, "hello") || !slices.Contains(names, "fails") {
				t.Errorf("tools %v", names)
			}
			if strings.Contains(errOut, "Warning") || strings.Contains(errOut, "warnings") {
				t.Errorf("the Inspector finds the tools' schemas less portable:\n%s", errOut)
			}
			args, _ := json.Marshal(map[string]any{"args": hostileArgs})
			// In the protocol of 2026-07-28 (server/discover, no initialize;
			// the Inspector's default for a target on the command line is
			// the older one): each result names the server in its _meta.
			out, errOut, code = inspector(t, clients, home, target, "--protocol-era", "modern",
				"--method", "tools/call", "--tool-name", "hello", "--tool-args-json", string(args))
			var call struct {
				Result struct {
					StructuredContent struct{ Output string } `json:"structuredContent"`
					IsError           bool                    `json:"isError"`
				}
			}
			if err := json.Unmarshal([]byte(out), &call); err != nil || code != 0 {
				t.Fatalf("tools/call: exit %d, %v\n%s\n%s", code, err, out, errOut)
			}
			want := "arg[" + hostileArgs[0] + "]\narg[" + hostileArgs[1] + "]\n"
			if call.Result.IsError || call.Result.StructuredContent.Output != want {
				t.Errorf("tools/call: %+v, want output %q", call.Result, want)
			}
			if !strings.Contains(out, `"io.modelcontextprotocol/serverInfo":{"name":"jaiph"`) {
				t.Errorf("tools/call: no serverInfo in the result's _meta: not the protocol of 2026-07-28?\n%s", out)
			}
			if pwned, _ := filepath.Glob(filepath.Join(dir, "pwned*")); len(pwned) > 0 {
				t.Errorf("an argument ran as code: %v", pwned)
			}
			// A failing workflow: the Inspector's exit status for a tool error.
			out, _, code = inspector(t, clients, home, target, "--method", "tools/call", "--tool-name", "fails")
			if code != 5 || !strings.Contains(out, `"isError":true`) {
				t.Errorf("tools/call fails: exit %d\n%s", code, out)
			}
		})
	}
}
