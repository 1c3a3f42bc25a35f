package main

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// secretToken is the credential the workflow of TestSecretsStayOut leaks.
const secretToken = "tok-5ec12e7-a1b2c3d4e5"

const leakyFlow = `channel notes

function leak {
  echo "stdout $SECRET_API_TOKEN"
  echo "stderr $SECRET_API_TOKEN" >&2
  printf '%s' "$SECRET_API_TOKEN" | base64
  printf '%s' "$SECRET_API_TOKEN" | od -An -tx1 | tr -d ' \n'
  echo
}

rule broken {
  echo "failing with $SECRET_API_TOKEN"
  echo "failing with $SECRET_API_TOKEN" >&2
  exit 3
}

workflow note_taker {
  log "note: $1"
}

# Leaks on purpose.
export workflow leaky {
  echo "mcp out $SECRET_API_TOKEN" "$1"
  printf '%s' "$SECRET_API_TOKEN" | base64
  return "$SECRET_API_TOKEN"
}

workflow messages {
  notes <- echo "message $SECRET_API_TOKEN"
  notes -> note_taker
}

workflow default {
  run leak
  log "log says $SECRET_API_TOKEN"
  answer = prompt "tell me the token"
  log "agent said: $answer"
  run messages
  echo "stray $SECRET_API_TOKEN" >&2
  ensure broken
}
`

// TestSecretsStayOut (issue 26) runs a workflow that prints a credential
// from its environment on stdout and stderr, in a log, through a prompt
// answer, in a message, in its arguments and in a failing step, with
// hooks, live OTLP export, jaiph report and jaiph mcp looking on. The
// credential, raw or base64 or hex, reaches none of the terminal, the
// summary, the journal and run records, the hook payloads, the OTLP
// exports, the report API, the MCP results, the step artifacts or the
// inbox's message files; only the log of real message payloads among the
// run's records keeps it, as docs/security.md says.
func TestSecretsStayOut(t *testing.T) {
	dir := t.TempDir()
	home := filepath.Join(dir, "home")
	for _, d := range []string{".jaiph", "bin", "home/.jaiph"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	write := func(name, body string, mode os.FileMode) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), mode); err != nil {
			t.Fatal(err)
		}
	}
	write("flow.jh", leakyFlow, 0o644)
	write("bin/cursor-agent", "#!/bin/sh\nprintf '{\"type\":\"result\",\"result\":\"the token is %s\"}\\n' \"$SECRET_API_TOKEN\"\n", 0o755)
	hook := `cat >> "$HOOK_LOG"; echo >> "$HOOK_LOG"`
	hooks, _ := json.Marshal(map[string][]string{"workflow_start": {hook}, "step_start": {hook}, "step_end": {hook}, "workflow_end": {hook}})
	write("home/.jaiph/hooks.json", string(hooks), 0o644)

	var otlpMu sync.Mutex
	var otlpBodies []string
	rcv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		otlpMu.Lock()
		otlpBodies = append(otlpBodies, string(body))
		otlpMu.Unlock()
	}))
	defer rcv.Close()

	env := func() []string {
		e := []string{}
		for _, kv := range os.Environ() {
			if !strings.HasPrefix(kv, "JAIPH_") && !strings.HasPrefix(kv, "PATH=") && !strings.HasPrefix(kv, "HOME=") {
				e = append(e, kv)
			}
		}
		return append(e, "JAIPH_TEST_AS_JAIPH=1", "NO_COLOR=1", "HOME="+home, "SECRET_API_TOKEN="+secretToken,
			"HOOK_LOG="+filepath.Join(dir, "hooks.log"), "OTEL_EXPORTER_OTLP_ENDPOINT="+rcv.URL,
			"PATH="+filepath.Join(dir, "bin")+":"+os.Getenv("PATH"))
	}
	jaiph := func(args ...string) *exec.Cmd {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Dir, cmd.Env = dir, env()
		return cmd
	}

	seen := map[string]string{} // where → what was there
	terminal, err := jaiph("run", "flow.jh", "arg "+secretToken).CombinedOutput()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("jaiph run: %v, want exit 1 (ensure broken)\n%s", err, terminal)
	}
	seen["terminal"] = string(terminal)
	for _, want := range []string{`(1="arg ***")`, "log says ***", "agent said: the token is ***", "note: message ***", "stray ***", "failing with ***"} {
		if !strings.Contains(string(terminal), want) {
			t.Errorf("terminal lacks %q:\n%s", want, terminal)
		}
	}

	// The run's own files, step artifacts and message files included, hold
	// it masked; only the records' log of real payloads keeps the payload
	// a delivery reads.
	runDir := newestRun(t, dir)
	artifacts, payloads := "", ""
	for _, root := range []string{runDir, filepath.Join(dir, ".jaiph", "state")} {
		filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, _ := os.ReadFile(p)
			rel, _ := filepath.Rel(dir, p)
			switch {
			case root != runDir && filepath.Base(p) == "payloads":
				payloads += string(data) // the real payloads (docs/inbox-files.md)
			default:
				if strings.HasSuffix(p, ".out") || strings.HasSuffix(p, ".err") {
					artifacts += string(data)
				}
				seen[rel] = string(data)
			}
			return nil
		})
	}
	if !strings.Contains(payloads, "message "+secretToken) {
		t.Errorf("the log of real payloads lacks the message's:\n%s", payloads)
	}
	if msg := seen[mustRel(t, dir, filepath.Join(runDir, "inbox", "001-notes.txt"))]; msg != "message ***" {
		t.Errorf("the message file holds %q, want it masked", msg)
	}
	if !strings.Contains(artifacts, "stdout ***") || !strings.Contains(artifacts, "stderr ***") {
		t.Fatalf("the artifacts do not hold what the steps printed, masked (the test leaks nothing):\n%s", artifacts)
	}
	if summary := seen[mustRel(t, dir, filepath.Join(runDir, "run_summary.jsonl"))]; !strings.Contains(summary, `note: message ***`) {
		t.Errorf("summary lacks the masked log:\n%s", summary)
	}

	hookLog, err := os.ReadFile(filepath.Join(dir, "hooks.log"))
	if err != nil || !strings.Contains(string(hookLog), `"step_end"`) {
		t.Fatalf("hook payloads: %v\n%s", err, hookLog)
	}
	seen["hook payloads"] = string(hookLog)

	if out, err := jaiph("report", "--otlp", runDir).CombinedOutput(); err != nil {
		t.Fatalf("jaiph report --otlp: %v\n%s", err, out)
	}
	otlpMu.Lock()
	if len(otlpBodies) < 2 {
		t.Fatalf("OTLP receiver got %d exports, want the live one and jaiph report --otlp's", len(otlpBodies))
	}
	seen["OTLP exports"] = strings.Join(otlpBodies, "\n")
	otlpMu.Unlock()

	seen["report API"] = reportAPI(t, jaiph("report", "--port", "0"))
	seen["MCP result"] = mcpResult(t, jaiph("mcp", "flow.jh"))

	forms := []string{secretToken, base64.RawStdEncoding.EncodeToString([]byte(secretToken)), hex.EncodeToString([]byte(secretToken)),
		url.QueryEscape(secretToken)}
	for where, text := range seen {
		for _, f := range forms {
			if strings.Contains(text, f) {
				t.Errorf("%s holds the credential (%s):\n%s", where, f, text)
			}
		}
	}
}

func mustRel(t *testing.T, base, p string) string {
	rel, err := filepath.Rel(base, p)
	if err != nil {
		t.Fatal(err)
	}
	return rel
}

// newestRun is the run directory of the workspace's newest run.
func newestRun(t *testing.T, ws string) string {
	t.Helper()
	dirs, _ := filepath.Glob(filepath.Join(ws, ".jaiph", "runs", "*", "*"))
	if len(dirs) == 0 {
		t.Fatal("no run directory")
	}
	return dirs[len(dirs)-1]
}

// reportAPI starts jaiph report and returns what its API answers about
// every run, step and artifact.
func reportAPI(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	base := startReport(t, cmd)
	get := func(path string) string {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		// A step without an artifact of a stream has no logs for it.
		if resp.StatusCode != 200 && !(resp.StatusCode == 404 && strings.Contains(path, "/logs")) {
			t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
		}
		return string(body)
	}
	var all strings.Builder
	list := get("/api/runs")
	all.WriteString(list)
	for _, m := range regexp.MustCompile(`"id":"([^"]+)"`).FindAllStringSubmatch(list, -1) {
		run := "/api/runs/" + m[1]
		tree := get(run + "/tree")
		for _, p := range []string{run, run + "/aggregate?stderr=1", run + "/inbox"} {
			all.WriteString(get(p))
		}
		all.WriteString(tree)
		for _, s := range regexp.MustCompile(`"id":"([^"]+:\d+:\d+)"`).FindAllStringSubmatch(tree, -1) {
			step := run + "/steps/" + url.PathEscape(s[1])
			for _, p := range []string{step + "/output", step + "/logs", step + "/logs?stream=err"} {
				all.WriteString(get(p))
			}
		}
	}
	if !strings.Contains(all.String(), "stdout ***") {
		t.Fatalf("the report API does not show the masked step output:\n%s", all.String())
	}
	return all.String()
}

// mcpResult calls the leaky tool through jaiph mcp and returns the result
// the model would read, text and structured.
func mcpResult(t *testing.T, cmd *exec.Cmd) string {
	t.Helper()
	ctx := context.Background()
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "leaky", Arguments: map[string]any{"args": []string{"from the model"}}})
	if err != nil {
		t.Fatal(err)
	}
	structured, _ := json.Marshal(res.StructuredContent)
	text := ""
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			text += tc.Text
		}
	}
	if !strings.Contains(text, "mcp out *** from the model") || !strings.Contains(text, "Return value: ***") {
		t.Fatalf("MCP result does not show the masked output and value:\n%s", text)
	}
	return text + "\n" + string(structured)
}
