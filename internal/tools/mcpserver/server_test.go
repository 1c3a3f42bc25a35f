package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/jaiph-go/jaiph/internal/observe/otlp"
	"github.com/jaiph-go/jaiph/internal/store/runs"
)

// The workflows the tests serve. greet calls a function, so a call makes
// four steps (two starts, two ends).
const toolsJH = `# Greets someone by name.
# Returns the greeting.
export workflow greet {
  echo "hello $1"
  run shout "$1"
  return "greeted $1"
}

function shout {
  echo "HELLO $1"
}

# Not right above: the blank line cuts it off.

export workflow fail {
  echo "about to fail"
  echo "oops: $1" >&2
  false
}

# Writes the pid of a 30 s sleep to $1, then waits for it.
export workflow slow {
  sh -c 'echo $$ > "$1"; exec sleep 30' sh "$1"
  echo finished > "$1.after"
}

# The same, deaf to SIGINT.
export workflow stubborn {
  sh -c 'trap "" INT; echo $$ > "$1"; exec sleep 30' sh "$1"
  echo finished > "$1.after"
}

workflow hidden {
  echo never offered
}
`

// workspace writes files (relative path → text) into a fresh workspace.
func workspace(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, ".jaiph"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// session serves the tools of files over an in-memory transport and
// returns a connected client. calls receives each tools/call result as the
// server sends it.
type session struct {
	cs       *mcp.ClientSession
	stderr   *syncBuffer
	calls    chan *mcp.CallToolResult
	mu       sync.Mutex
	progress []*mcp.ProgressNotificationParams
}

func serve(t *testing.T, files ...string) *session {
	t.Helper()
	tools, err := Tools(files, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	s := &session{stderr: &syncBuffer{}, calls: make(chan *mcp.CallToolResult, 10)}
	srv := New(tools, Options{Environ: os.Environ(), Home: t.TempDir(), Stderr: s.stderr})
	srv.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			res, err := next(ctx, method, req)
			if r, ok := res.(*mcp.CallToolResult); ok && method == "tools/call" {
				s.calls <- r
			}
			return res, err
		}
	})
	ct, st := mcp.NewInMemoryTransports()
	ctx := context.Background()
	ss, err := srv.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
			s.mu.Lock()
			defer s.mu.Unlock()
			s.progress = append(s.progress, req.Params)
		}})
	s.cs, err = client.Connect(ctx, ct, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.cs.Close(); ss.Wait() })
	return s
}

func TestListTools(t *testing.T) {
	dir := workspace(t, map[string]string{"tools.jh": toolsJH})
	s := serve(t, filepath.Join(dir, "tools.jh"))
	res, err := s.cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, tool := range res.Tools {
		got[tool.Name] = tool.Description
		schema, _ := json.Marshal(tool.InputSchema)
		if !strings.Contains(string(schema), `"items":{"type":"string"},"type":"array"`) {
			t.Errorf("%s: input schema %s, want an args array of strings", tool.Name, schema)
		}
		if tool.Name == "greet" && !strings.Contains(string(schema), `(its body uses $1)`) {
			t.Errorf("greet: input schema %s does not say it uses $1", schema)
		}
	}
	want := map[string]string{
		"greet":    "Greets someone by name.\nReturns the greeting.",
		"fail":     "Jaiph workflow fail of tools.jh.",
		"slow":     "Writes the pid of a 30 s sleep to $1, then waits for it.",
		"stubborn": "The same, deaf to SIGINT.",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("tools %q, want %q", got, want)
	}
}

// With several files each name carries its file's stem; DefaultFiles finds
// the workspace's .jaiph/ and root files, not test files.
func TestSeveralFiles(t *testing.T) {
	dir := workspace(t, map[string]string{"my+tools.jh": toolsJH, ".jaiph/ops.jh": "export workflow greet {\n  echo hi\n}\n",
		"ops.test.jh": "import \"ops.jh\" as ops\n", "notes.txt": "x"})
	files := DefaultFiles(filepath.Join(dir, ".jaiph"))
	want := []string{filepath.Join(dir, ".jaiph", "ops.jh"), filepath.Join(dir, "my+tools.jh")}
	if !reflect.DeepEqual(files, want) {
		t.Fatalf("DefaultFiles = %q, want %q", files, want)
	}
	tools, err := Tools(files, true, nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tool := range tools {
		names = append(names, tool.Name)
	}
	if want := []string{"ops.greet", "my_tools.greet", "my_tools.fail", "my_tools.slow", "my_tools.stubborn"}; !reflect.DeepEqual(names, want) {
		t.Errorf("names %q, want %q", names, want)
	}
	// A file that does not compile: an error when named, skipped otherwise.
	bad := filepath.Join(dir, "bad.jh")
	os.WriteFile(bad, []byte("workflow {\n"), 0o644)
	if _, err := Tools([]string{bad}, true, nil); err == nil {
		t.Error("a broken file named: no error")
	}
	var warned []error
	tools, err = Tools([]string{bad, files[0]}, false, func(err error) { warned = append(warned, err) })
	if err != nil || len(tools) != 1 || len(warned) != 1 {
		t.Errorf("a broken file found: %d tools, warnings %v, error %v; want 1 tool and 1 warning", len(tools), warned, err)
	}
}

func call(t *testing.T, s *session, name string, args ...string) (*mcp.CallToolResult, Output) {
	t.Helper()
	params := &mcp.CallToolParams{Name: name, Arguments: map[string]any{"args": args}}
	params.SetProgressToken("tok-" + name)
	res, err := s.cs.CallTool(context.Background(), params)
	if err != nil {
		t.Fatal(err)
	}
	var out Output
	data, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return res, out
}

func text(res *mcp.CallToolResult) string {
	var b strings.Builder
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			b.WriteString(tc.Text)
		}
	}
	return b.String()
}

func TestCallTool(t *testing.T) {
	dir := workspace(t, map[string]string{"tools.jh": toolsJH})
	// Hooks fire as for jaiph run; their stdout goes nowhere near the protocol.
	hookLog := filepath.Join(dir, "workflow_end.json")
	hooks, _ := json.Marshal(map[string][]string{"workflow_end": {"echo hook-stdout; cat > " + hookLog}})
	os.WriteFile(filepath.Join(dir, ".jaiph", "hooks.json"), hooks, 0o644)
	t.Setenv("JAIPH_TRUST_HOOKS", "true") // a workspace's own hooks need the operator's trust
	s := serve(t, filepath.Join(dir, "tools.jh"))
	res, out := call(t, s, "greet", "bob")
	if hook, _ := os.ReadFile(hookLog); !strings.Contains(string(hook), `"status":0`) ||
		!strings.Contains(string(hook), `"run_dir":"`+out.RunDir+`"`) {
		t.Errorf("workflow_end hook payload %q", hook)
	}
	if res.IsError || out.Status != 0 || out.ReturnValue != "greeted bob" || out.Output != "hello bob\n" {
		t.Errorf("result %+v (isError %v), want status 0, output hello bob, return value greeted bob", out, res.IsError)
	}
	if want := filepath.Join(dir, ".jaiph", "runs"); !strings.HasPrefix(out.RunDir, want) {
		t.Errorf("run dir %q, want one under %s", out.RunDir, want)
	}
	summary, err := os.ReadFile(out.SummaryFile)
	if err != nil || filepath.Dir(out.SummaryFile) != out.RunDir || !bytes.Contains(summary, []byte(`"name":"greet"`)) {
		t.Errorf("summary %s: %v %.200s", out.SummaryFile, err, summary)
	}
	for _, w := range []string{"✓ PASS workflow greet", "hello bob", "Return value: greeted bob", "Logs: " + out.RunDir} {
		if !strings.Contains(text(res), w) {
			t.Errorf("text content lacks %q:\n%s", w, text(res))
		}
	}
	// Progress: one notification per step start and end, in order.
	want := []string{"STEP_START workflow greet", "STEP_START function shout", "STEP_END function shout status 0",
		"STEP_END workflow greet status 0"}
	var got []string
	for i, p := range s.waitProgress(t, len(want)) {
		got = append(got, p.Message)
		if p.ProgressToken != "tok-greet" || p.Progress != float64(i+1) {
			t.Errorf("notification %d: token %v progress %v", i, p.ProgressToken, p.Progress)
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("progress %q, want %q", got, want)
	}
}

func TestCallFailingTool(t *testing.T) {
	dir := workspace(t, map[string]string{"tools.jh": toolsJH})
	s := serve(t, filepath.Join(dir, "tools.jh"))
	res, out := call(t, s, "fail", "disk full")
	if !res.IsError || out.Status != 1 {
		t.Errorf("isError %v, status %d; want true, 1", res.IsError, out.Status)
	}
	for _, w := range []string{"✗ FAIL workflow fail (status 1", "Output of failed step:", "about to fail", "oops: disk full",
		"Summary: " + out.SummaryFile} {
		if !strings.Contains(text(res), w) {
			t.Errorf("text content lacks %q:\n%s", w, text(res))
		}
	}
	// jaiph resume would call default: it refuses the run.
	if _, err := runs.Resumable(out.RunDir, true); err == nil || !strings.Contains(err.Error(), "jaiph mcp call of workflow fail") {
		t.Errorf("resumable: %v, want a refusal", err)
	}
}

// A cancelled call interrupts the run as Ctrl-C does: the call ends long
// before the sleep would, with the SIGINT status, and the sleep is gone;
// a sleep that ignores SIGINT is killed 2 s later.
func TestCancelCall(t *testing.T) {
	for _, tool := range []string{"slow", "stubborn"} {
		t.Run(tool, func(t *testing.T) { testCancel(t, tool) })
	}
}

func testCancel(t *testing.T, tool string) {
	dir := workspace(t, map[string]string{"tools.jh": toolsJH})
	s := serve(t, filepath.Join(dir, "tools.jh"))
	pidFile := filepath.Join(dir, "sleep.pid")
	ctx, cancel := context.WithCancel(context.Background())
	returned := make(chan error)
	go func() {
		_, err := s.cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: map[string]any{"args": []string{pidFile}}})
		returned <- err
	}()
	pid := waitFor(t, func() (int, bool) {
		data, _ := os.ReadFile(pidFile)
		pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
		return pid, err == nil
	})
	if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err != nil {
		t.Fatalf("the sleep (pid %d) is not running: %v", pid, err)
	}
	cancelled := time.Now()
	cancel()
	if err := <-returned; err == nil {
		t.Error("the cancelled call returned no error")
	}
	// The server's side of the call: it ends within the kill delay (2 s),
	// here bounded by 10 s against the 30 s sleep.
	var res *mcp.CallToolResult
	select {
	case res = <-s.calls:
	case <-time.After(10 * time.Second):
		t.Fatal("the run went on after the call was cancelled")
	}
	t.Logf("the run ended %v after the cancel (docs/performance.md)", time.Since(cancelled))
	data, _ := json.Marshal(res.StructuredContent)
	if !res.IsError || !strings.Contains(string(data), `"status":130`) {
		t.Errorf("cancelled run: isError %v, %s; want status 130 (SIGINT)", res.IsError, data)
	}
	if _, err := os.Stat("/proc/" + strconv.Itoa(pid)); err == nil {
		t.Errorf("the sleep (pid %d) outlived the cancelled run", pid)
	}
	var out Output
	json.Unmarshal(data, &out)
	if r, _ := runs.Read(out.RunDir, time.Now()); r.Status != runs.Interrupted {
		t.Errorf("run %s recorded as %s, want %s", out.RunDir, r.Status, runs.Interrupted)
	}
	if _, err := os.Stat(pidFile + ".after"); err == nil {
		t.Error("the workflow went on after the sleep")
	}
}

// waitProgress waits for n progress notifications (they may arrive after
// the result) and returns them.
func (s *session) waitProgress(t *testing.T, n int) []*mcp.ProgressNotificationParams {
	t.Helper()
	waitFor(t, func() (int, bool) {
		s.mu.Lock()
		defer s.mu.Unlock()
		return 0, len(s.progress) >= n
	})
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*mcp.ProgressNotificationParams(nil), s.progress...)
}

// waitFor polls cond for up to 10 s.
func waitFor[T any](t *testing.T, cond func() (T, bool)) T {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		v, ok := cond()
		if ok {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatal("gave up waiting after 10 s")
		}
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

// Calls may overlap (agents call tools in parallel): each is its own run.
func TestConcurrentCalls(t *testing.T) {
	dir := workspace(t, map[string]string{"tools.jh": toolsJH})
	s := serve(t, filepath.Join(dir, "tools.jh"))
	const n = 4
	outs := make([]Output, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			res, err := s.cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "greet",
				Arguments: map[string]any{"args": []string{strconv.Itoa(i)}}})
			if err != nil || res.IsError {
				t.Errorf("call %d: %v %v", i, err, res)
				return
			}
			data, _ := json.Marshal(res.StructuredContent)
			json.Unmarshal(data, &outs[i])
		}()
	}
	wg.Wait()
	dirs := map[string]bool{}
	for i, out := range outs {
		if want := "greeted " + strconv.Itoa(i); out.ReturnValue != want {
			t.Errorf("call %d returned %q, want %q", i, out.ReturnValue, want)
		}
		dirs[out.RunDir] = true
	}
	if len(dirs) != n {
		t.Errorf("%d calls made %d run directories", n, len(dirs))
	}
}

// A tool call is traced as jaiph run is when an OTLP endpoint is set: the
// span of its workflow reaches the collector before the call returns.
func TestCallExportsTrace(t *testing.T) {
	otlp.Install() // as the jaiph-full build, the only one with jaiph mcp, does
	var mu sync.Mutex
	var bodies [][]byte
	collector := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if r.URL.Path == "/v1/traces" {
			mu.Lock()
			bodies = append(bodies, body)
			mu.Unlock()
		}
	}))
	defer collector.Close()
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", collector.URL)
	dir := workspace(t, map[string]string{"tools.jh": toolsJH})
	s := serve(t, filepath.Join(dir, "tools.jh"))
	if res, _ := call(t, s, "greet", "bob"); res.IsError {
		t.Fatalf("call failed: %s", text(res))
	}
	mu.Lock()
	defer mu.Unlock()
	all := bytes.Join(bodies, nil)
	for _, span := range []string{"workflow greet", "function shout"} {
		if !bytes.Contains(all, []byte(span)) {
			t.Errorf("no span %q among %d export requests", span, len(bodies))
		}
	}
}
