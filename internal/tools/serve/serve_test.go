package serve

// These tests start the real service (Serve) on a loopback port and talk
// to it over HTTP, as a client would; the runs are real runs of .jh files.

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jaiph-go/jaiph/internal/served"
	"github.com/jaiph-go/jaiph/internal/tools/report/ui"
	"github.com/jaiph-go/jaiph/runtime"
)

const toolsJH = `# Greets someone.
export workflow greet {
  name="$1"
  echo "hello $name"
  printf 'published %s\n' "$name" > "$JAIPH_ARTIFACTS_DIR/report.txt"
  mkdir -p "$JAIPH_ARTIFACTS_DIR/sub"
  echo nested > "$JAIPH_ARTIFACTS_DIR/sub/n.txt"
  return "hi $name"
}

# Sleeps for $1 seconds.
export workflow slow {
  secs="$1"
  sleep "$secs"
}

# Steps one by one.
export workflow steps {
  run one
  run two
}

workflow one {
  echo one
}

workflow two {
  echo two
}

export workflow fails {
  echo "boom" >&2
  false
}

# Writes what it sees of the environment.
export workflow envdump {
  env > "$JAIPH_ARTIFACTS_DIR/env.txt"
  env
}

# Takes the rest.
export workflow many {
  first="$1"
  echo "$first|$#|$@"
  return "$#"
}
`

const testToken = "s3cret-token-value"

// server is a running jaiph serve of toolsJH.
type server struct {
	t    *testing.T
	base string
	dir  string // the workspace
	log  *syncBuffer
	stop func() // stops the server and waits for Serve to return
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

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// start serves toolsJH from a new workspace (or dir, when given) with env
// added to a minimal environment.
func start(t *testing.T, dir string, env ...string) *server {
	t.Helper()
	if dir == "" {
		dir = t.TempDir()
		if err := os.WriteFile(filepath.Join(dir, "tools.jh"), []byte(toolsJH), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	environ := append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "JAIPH_KEY_DIR=" + keyDir(t)}, env...)
	s, err := tryStart(t, Config{Host: "127.0.0.1", Paths: []string{"tools.jh"}, Dir: dir, Environ: environ, Home: dir, UI: ui.FS})
	if err != nil {
		t.Fatalf("Serve: %v", err)
	}
	return s
}

// keyDir is a key store outside the workspace, so that runs are
// tamper-evident.
func keyDir(t *testing.T) string { return filepath.Join(t.TempDir(), "keys") }

func tryStart(t *testing.T, c Config) (*server, error) {
	t.Helper()
	ctx, cancelCause := context.WithCancelCause(context.Background())
	// As runtime.NotifyInterrupt's context at SIGTERM.
	cancel := func() { cancelCause(&runtime.Interrupted{Signal: syscall.SIGTERM}) }
	log := &syncBuffer{}
	c.Log = log
	ready := make(chan string, 1)
	c.Ready = func(addr string) { ready <- addr }
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, c) }()
	select {
	case addr := <-ready:
		s := &server{t: t, base: "http://" + addr, dir: c.Dir, log: log}
		var once sync.Once
		s.stop = func() {
			once.Do(func() {
				cancel()
				if err := <-done; err != nil {
					t.Errorf("Serve: %v", err)
				}
			})
		}
		t.Cleanup(s.stop)
		return s, nil
	case err := <-done:
		cancel()
		return nil, err
	}
}

// do sends a request with the token (unless tok is "-") and returns the
// status, headers and body.
func (s *server) do(method, path, tok string, body string, headers ...string) (int, http.Header, []byte) {
	s.t.Helper()
	var r io.Reader
	if body != "" {
		r = strings.NewReader(body)
	}
	req, err := http.NewRequest(method, s.base+path, r)
	if err != nil {
		s.t.Fatal(err)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if tok == "" {
		tok = testToken
	}
	if tok != "-" {
		req.Header.Set("Authorization", "Bearer "+tok)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		s.t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	b, err := io.ReadAll(res.Body)
	if err != nil {
		s.t.Fatal(err)
	}
	return res.StatusCode, res.Header, b
}

// run starts workflow with body and waits for its end.
func (s *server) run(workflow, body string) Run {
	s.t.Helper()
	code, _, b := s.do("POST", "/v1/workflows/"+workflow+"/runs?wait=true", "", body)
	if code != http.StatusOK {
		s.t.Fatalf("run %s: %d %s", workflow, code, b)
	}
	return decode[Run](s.t, b)
}

func decode[T any](t *testing.T, b []byte) T {
	t.Helper()
	var v T
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
	return v
}

// wantError checks an error answer's status and code.
func wantError(t *testing.T, what string, code int, body []byte, status int, errCode string) {
	t.Helper()
	e := decode[apiError](t, body)
	if code != status || e.Error.Code != errCode || e.Error.Message == "" {
		t.Errorf("%s: got %d %s, want %d %s", what, code, body, status, errCode)
	}
}

// waitTerminal polls the run until it ended.
// startWaiting serves a workflow that waits in a receive (channel
// approvals, key 42, timeout 60s), starts it, and returns once the run
// object says it waits: the server, its directory and the run.
func startWaiting(t *testing.T) (*server, string, Run) {
	t.Helper()
	dir := t.TempDir()
	src := "channel approvals\n\n# Waits for a decision.\nexport workflow ask {\n  answer = <- approvals key \"42\" timeout \"60s\"\n  return \"got $answer\"\n}\n"
	if err := os.WriteFile(filepath.Join(dir, "tools.jh"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	s := start(t, dir, "JAIPH_SERVE_TOKEN="+testToken)
	code, _, b := s.do("POST", "/v1/workflows/ask/runs", "", "")
	if code != 202 {
		t.Fatalf("start: %d %s", code, b)
	}
	id := decode[Run](t, b).RunID
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		_, _, b = s.do("GET", "/v1/runs/"+id, "", "")
		if run := decode[Run](t, b); run.Waiting != nil {
			return s, dir, run
		}
		if time.Now().After(deadline) {
			t.Fatalf("the run never showed its wait: %s", b)
		}
	}
}

func (s *server) waitTerminal(id string) Run {
	s.t.Helper()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		_, _, b := s.do("GET", "/v1/runs/"+id, "", "")
		if r := decode[Run](s.t, b); served.Terminal(r.Status) {
			return r
		}
	}
	s.t.Fatalf("run %s did not end", id)
	return Run{}
}

func TestHealthAndWorkflows(t *testing.T) {
	s := start(t, "", "JAIPH_SERVE_TOKEN="+testToken)
	code, _, b := s.do("GET", "/healthz", "-", "")
	if code != 200 || !strings.Contains(string(b), `"ok"`) {
		t.Errorf("healthz: %d %s", code, b)
	}
	code, h, b := s.do("GET", "/v1/workflows", "-", "")
	wantError(t, "no token", code, b, 401, "E_UNAUTHORIZED")
	if !strings.HasPrefix(h.Get("WWW-Authenticate"), "Bearer") {
		t.Errorf("no WWW-Authenticate: %v", h)
	}
	code, _, b = s.do("GET", "/v1/workflows", "wrong", "")
	wantError(t, "wrong token", code, b, 401, "E_UNAUTHORIZED")
	code, _, b = s.do("GET", "/v1/workflows", "", "")
	if code != 200 {
		t.Fatalf("workflows: %d %s", code, b)
	}
	list := decode[struct{ Workflows []workflowInfo }](t, b).Workflows
	var names []string
	for _, w := range list {
		names = append(names, w.Name)
	}
	if got := strings.Join(names, ","); got != "greet,slow,steps,fails,envdump,many" {
		t.Errorf("workflows: %s", got)
	}
	if list[0].Description != "Greets someone." || strings.Join(list[0].Arguments, ",") != "name" {
		t.Errorf("greet: %+v", list[0])
	}
	if strings.Join(list[5].Arguments, ",") != "first,args" {
		t.Errorf("many: %+v", list[5])
	}
}

func TestOpenAPI(t *testing.T) {
	s := start(t, "", "JAIPH_SERVE_TOKEN="+testToken)
	code, _, b := s.do("GET", "/openapi.json", "-", "")
	if code != 200 {
		t.Fatalf("openapi: %d", code)
	}
	var doc struct {
		OpenAPI string `json:"openapi"`
		Paths   map[string]map[string]struct {
			Description string `json:"description"`
			RequestBody struct {
				Content map[string]struct {
					Schema struct {
						Properties           map[string]any `json:"properties"`
						AdditionalProperties bool           `json:"additionalProperties"`
					} `json:"schema"`
				} `json:"content"`
			} `json:"requestBody"`
		} `json:"paths"`
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" {
		t.Errorf("openapi %q", doc.OpenAPI)
	}
	greet := doc.Paths["/v1/workflows/greet/runs"]["post"]
	if greet.Description != "Greets someone." {
		t.Errorf("greet description %q", greet.Description)
	}
	if _, ok := greet.RequestBody.Content["application/json"].Schema.Properties["name"]; !ok {
		t.Errorf("greet schema: %+v", greet.RequestBody)
	}
	for _, p := range []string{"/v1/runs", "/v1/runs/{id}", "/v1/runs/{id}/events", "/v1/runs/{id}/artifacts/{path}", "/v1/runs/{id}/cancel", "/healthz"} {
		if doc.Paths[p] == nil {
			t.Errorf("no path %s", p)
		}
	}
}

func TestRunLifecycle(t *testing.T) {
	s := start(t, "", "JAIPH_SERVE_TOKEN="+testToken)
	// Asynchronous: 202 and Location.
	code, h, b := s.do("POST", "/v1/workflows/greet/runs", "", `{"name":"world"}`, "X-Correlation-Id", "corr-1")
	if code != http.StatusAccepted || !strings.HasPrefix(h.Get("Location"), "/v1/runs/") {
		t.Fatalf("start: %d %v %s", code, h, b)
	}
	first := decode[Run](t, b)
	if first.Status != statusRunning || first.Principal != "operator" || first.CorrelationID != "corr-1" {
		t.Errorf("started: %+v", first)
	}
	r := s.waitTerminal(first.RunID)
	if r.Status != statusSucceeded || *r.ExitStatus != 0 || r.ResultText != "hi world" || r.EndedAt == nil ||
		!strings.HasPrefix(r.Integrity, "sealed") || r.RunDir == "" {
		t.Errorf("ended: %+v", r)
	}
	// The run's id is the run's own (JAIPH_RUN_ID, the summary's run_id).
	_, _, ev := s.do("GET", "/v1/runs/"+r.RunID+"/events", "", "")
	if !strings.Contains(string(ev), `"run_id":"`+r.RunID+`"`) || !strings.Contains(string(ev), `"type":"WORKFLOW_END"`) {
		t.Errorf("events: %s", ev)
	}
	// Synchronous, failing: 200 with status failed (not an HTTP error).
	f := s.run("fails", "")
	if f.Status != statusFailed || *f.ExitStatus != 1 || !strings.Contains(f.ResultText, "boom") {
		t.Errorf("fails: %+v", f)
	}
	// Rest arguments.
	m := s.run("many", `{"first":"a","args":["b","c d"]}`)
	if m.ResultText != "3" {
		t.Errorf("many: %+v", m)
	}
	// The listing: newest first, paged.
	_, _, b = s.do("GET", "/v1/runs?limit=2", "", "")
	page := decode[struct {
		Runs                 []Run
		Total, Limit, Offset int
	}](t, b)
	if page.Total != 3 || page.Limit != 2 || len(page.Runs) != 2 || page.Runs[0].RunID != m.RunID || page.Runs[1].RunID != f.RunID {
		t.Errorf("page 1: %s", b)
	}
	_, _, b = s.do("GET", "/v1/runs?limit=100000&offset=2", "", "")
	page = decode[struct {
		Runs                 []Run
		Total, Limit, Offset int
	}](t, b)
	if page.Limit != 1000 || page.Offset != 2 || len(page.Runs) != 1 || page.Runs[0].RunID != first.RunID {
		t.Errorf("page 2: %s", b)
	}
	if !strings.Contains(s.log.String(), "audit invoke workflow=greet run_id="+first.RunID+" principal=operator correlation_id=corr-1") {
		t.Errorf("no audit line:\n%s", s.log.String())
	}
	if !strings.Contains(s.log.String(), "POST /v1/workflows/greet/runs 202") {
		t.Errorf("no request line:\n%s", s.log.String())
	}
}

func TestRequestErrors(t *testing.T) {
	s := start(t, "", "JAIPH_SERVE_TOKEN="+testToken, "JAIPH_SERVE_MAX_CONCURRENT=1")
	for _, c := range []struct {
		what, method, path, body string
		headers                  []string
		status                   int
		code                     string
	}{
		{"unknown argument", "POST", "/v1/workflows/greet/runs", `{"nmae":"x"}`, nil, 400, "E_BAD_ARGS"},
		{"not a string", "POST", "/v1/workflows/greet/runs", `{"name":1}`, nil, 400, "E_BAD_ARGS"},
		{"not an object", "POST", "/v1/workflows/greet/runs", `["x"]`, nil, 400, "E_BAD_ARGS"},
		{"args not strings", "POST", "/v1/workflows/many/runs", `{"args":[1]}`, nil, 400, "E_BAD_ARGS"},
		{"not JSON", "POST", "/v1/workflows/greet/runs", `name=x`, []string{"Content-Type", "application/x-www-form-urlencoded"}, 415, "E_UNSUPPORTED_MEDIA_TYPE"},
		{"too large", "POST", "/v1/workflows/greet/runs", `{"name":"` + strings.Repeat("x", 1<<20) + `"}`, nil, 413, "E_TOO_LARGE"},
		{"no such workflow", "POST", "/v1/workflows/nope/runs", `{}`, nil, 404, "E_NOT_FOUND"},
		{"not exported", "POST", "/v1/workflows/one/runs", `{}`, nil, 404, "E_NOT_FOUND"},
		{"no such run", "GET", "/v1/runs/nope", "", nil, 404, "E_NOT_FOUND"},
		{"no such endpoint", "GET", "/v1/nothing", "", nil, 404, "E_NOT_FOUND"},
		{"wrong method", "DELETE", "/v1/runs", "", nil, 405, "E_METHOD_NOT_ALLOWED"},
		{"cancel no run", "POST", "/v1/runs/nope/cancel", "", nil, 404, "E_NOT_FOUND"},
	} {
		code, _, b := s.do(c.method, c.path, "", c.body, c.headers...)
		wantError(t, c.what, code, b, c.status, c.code)
	}
	// The cap: one run at a time.
	code, _, b := s.do("POST", "/v1/workflows/slow/runs", "", `{"secs":"1000.411"}`)
	if code != 202 {
		t.Fatalf("slow: %d %s", code, b)
	}
	slow := decode[Run](t, b)
	code, h, b := s.do("POST", "/v1/workflows/greet/runs", "", `{"name":"x"}`)
	wantError(t, "over the cap", code, b, 429, "E_TOO_MANY_RUNS")
	if h.Get("Retry-After") == "" {
		t.Errorf("429 without Retry-After")
	}
	code, _, b = s.do("POST", "/v1/runs/"+slow.RunID+"/cancel", "", "")
	if c := decode[Run](t, b); code != 200 || c.Status != statusCancelled || c.Signal != "SIGTERM" {
		t.Errorf("cancel: %d %s", code, b)
	}
	if procs := processesWith("1000.411"); len(procs) > 0 {
		t.Errorf("cancelled run left processes: %v", procs)
	}
	code, _, b = s.do("POST", "/v1/runs/"+slow.RunID+"/cancel", "", "")
	wantError(t, "cancel again", code, b, 409, "E_RUN_TERMINAL")
	if !strings.Contains(s.log.String(), "audit cancel run_id="+slow.RunID+" principal=operator") {
		t.Errorf("no cancel audit line:\n%s", s.log.String())
	}
	// The place is free again.
	if r := s.run("greet", `{"name":"again"}`); r.Status != statusSucceeded {
		t.Errorf("after cancel: %+v", r)
	}
}

// processesWith lists the processes whose command line holds marker.
func processesWith(marker string) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		b, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err == nil && bytes.Contains(b, []byte(marker)) {
			out = append(out, e.Name()+": "+strings.ReplaceAll(string(b), "\x00", " "))
		}
	}
	return out
}

func TestIdempotency(t *testing.T) {
	s := start(t, "", "JAIPH_SERVE_TOKEN="+testToken, "JAIPH_SERVE_MAX_CONCURRENT=2")
	const n = 20
	ids := make([]string, n)
	codes := make([]int, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			code, _, b := s.do("POST", "/v1/workflows/greet/runs", "", `{"name":"once"}`, "Idempotency-Key", "key-1")
			codes[i] = code
			if code == 200 || code == 202 {
				ids[i] = decode[Run](t, b).RunID
			}
		}()
	}
	wg.Wait()
	fresh := 0
	for i := range n {
		if ids[i] == "" || ids[i] != ids[0] {
			t.Errorf("request %d: %d run %q, want run %q", i, codes[i], ids[i], ids[0])
		}
		if codes[i] == 202 {
			fresh++
		}
	}
	if fresh != 1 {
		t.Errorf("%d requests started a run, want 1: %v", fresh, codes)
	}
	s.waitTerminal(ids[0])
	_, _, b := s.do("GET", "/v1/runs", "", "")
	if total := decode[struct{ Total int }](t, b).Total; total != 1 {
		t.Errorf("%d runs, want 1", total)
	}
	code, _, b := s.do("POST", "/v1/workflows/greet/runs", "", `{"name":"other"}`, "Idempotency-Key", "key-1")
	wantError(t, "same key, other args", code, b, 409, "E_IDEMPOTENCY_CONFLICT")
	// The key is per workflow: another workflow may use it.
	code, _, b = s.do("POST", "/v1/workflows/many/runs", "", `{}`, "Idempotency-Key", "key-1")
	if code != 202 {
		t.Errorf("key on another workflow: %d %s", code, b)
	}
}

func TestEventStream(t *testing.T) {
	s := start(t, "", "JAIPH_SERVE_TOKEN="+testToken)
	code, _, b := s.do("POST", "/v1/workflows/steps/runs", "", "")
	if code != 202 {
		t.Fatalf("start: %d %s", code, b)
	}
	id := decode[Run](t, b).RunID
	req, _ := http.NewRequest("GET", s.base+"/v1/runs/"+id+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Accept", "text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	if ct := res.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Errorf("content type %q", ct)
	}
	var types []string
	var end string
	sc := bufio.NewScanner(res.Body)
	sc.Buffer(nil, 1<<20)
	lastEvent := ""
	for sc.Scan() {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "event: "):
			lastEvent = strings.TrimPrefix(line, "event: ")
		case strings.HasPrefix(line, "data: ") && lastEvent == "end":
			end = strings.TrimPrefix(line, "data: ")
		case strings.HasPrefix(line, "data: "):
			var e struct{ Type, Name string }
			json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &e)
			types = append(types, e.Type+" "+e.Name)
		}
	}
	got := strings.Join(types, "\n")
	for _, want := range []string{"WORKFLOW_START", "STEP_START steps", "STEP_END one", "STEP_END two", "STEP_END steps", "WORKFLOW_END"} {
		if !strings.Contains(got, want) {
			t.Errorf("stream lacks %q:\n%s", want, got)
		}
	}
	if r := decode[Run](t, []byte(end)); r.Status != statusSucceeded {
		t.Errorf("end event: %q", end)
	}
	// After the end: the whole stream again, then the end at once.
	_, _, again := s.do("GET", "/v1/runs/"+id+"/events", "", "", "Accept", "text/event-stream")
	if strings.Count(string(again), "data: {\"type\"") != len(types) || !strings.Contains(string(again), "event: end") {
		t.Errorf("replay:\n%s", again)
	}
}

func TestArtifacts(t *testing.T) {
	s := start(t, "", "JAIPH_SERVE_TOKEN="+testToken, "JAIPH_SERVE_MAX_ARTIFACT_BYTES=14")
	r := s.run("greet", `{"name":"art"}`)
	_, _, b := s.do("GET", "/v1/runs/"+r.RunID+"/artifacts", "", "")
	list := decode[struct{ Artifacts []served.Artifact }](t, b).Artifacts
	if len(list) != 2 || list[0].Path != "report.txt" || list[0].Size != 14 || list[1].Path != "sub/n.txt" {
		t.Errorf("list: %s", b)
	}
	code, h, b := s.do("GET", "/v1/runs/"+r.RunID+"/artifacts/report.txt", "", "")
	if code != 200 || string(b) != "published art\n" {
		t.Errorf("download: %d %q", code, b)
	}
	if h.Get("Content-Type") != "application/octet-stream" {
		t.Errorf("content type %q", h.Get("Content-Type"))
	}
	// Traversal: a symlink out, .., absolute, encoded.
	dir := filepath.Join(r.RunDir, "artifacts")
	if err := os.Symlink(filepath.Join(r.RunDir, "run_summary.jsonl"), filepath.Join(dir, "out")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("/etc", filepath.Join(dir, "etc")); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"out", "etc/passwd", "../run_summary.jsonl", "%2e%2e/run_summary.jsonl", "sub/..%2f..%2frun_summary.jsonl",
		"%2fetc%2fpasswd", "/etc/passwd", "sub", "nope.txt"} {
		code, _, b := s.do("GET", "/v1/runs/"+r.RunID+"/artifacts/"+p, "", "")
		if code != 404 {
			t.Errorf("%s: %d %s", p, code, b)
		}
	}
	// Over the cap.
	big := filepath.Join(dir, "big.bin")
	if err := os.WriteFile(big, make([]byte, 15), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, b = s.do("GET", "/v1/runs/"+r.RunID+"/artifacts/big.bin", "", "")
	wantError(t, "over the cap", code, b, 413, "E_TOO_LARGE")
	// The listing leaves the links out.
	_, _, b = s.do("GET", "/v1/runs/"+r.RunID+"/artifacts", "", "")
	if strings.Contains(string(b), `"out"`) || strings.Contains(string(b), "passwd") {
		t.Errorf("listing follows links out: %s", b)
	}
}

func TestTampered(t *testing.T) {
	s := start(t, "", "JAIPH_SERVE_TOKEN="+testToken)
	r := s.run("greet", `{"name":"t"}`)
	sum := filepath.Join(r.RunDir, "run_summary.jsonl")
	b, err := os.ReadFile(sum)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sum, bytes.Replace(b, []byte("hello t"), []byte("hello x"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(r.Integrity, "sealed") {
		t.Fatalf("not sealed: %+v", r)
	}
	code, _, body := s.do("GET", "/v1/runs/"+r.RunID+"/events", "", "")
	wantError(t, "tampered", code, body, 409, "E_TAMPERED")
}

// TestCredentialsStayOut: the server's credentials are not in a run's
// environment, summary, artifacts or result.
func TestCredentialsStayOut(t *testing.T) {
	s := start(t, "", "JAIPH_SERVE_TOKEN="+testToken, "JAIPH_SERVE_OIDC_JWKS_URI=")
	r := s.run("envdump", "")
	if r.Status != statusSucceeded {
		t.Fatalf("envdump: %+v", r)
	}
	err := filepath.Walk(r.RunDir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		b, err := os.ReadFile(p)
		if bytes.Contains(b, []byte(testToken)) || bytes.Contains(b, []byte("JAIPH_SERVE_")) {
			t.Errorf("%s holds the server's credential or settings", p)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if env, err := os.ReadFile(filepath.Join(r.RunDir, "artifacts", "env.txt")); err != nil || !strings.Contains(string(env), "JAIPH_RUN_ID="+r.RunID) {
		t.Errorf("env.txt: %v %.200s", err, env)
	}
	_, _, b := s.do("GET", "/v1/runs/"+r.RunID, "", "")
	if bytes.Contains(b, []byte(testToken)) {
		t.Errorf("run object holds the token")
	}
}

func TestAnonymousBind(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "tools.jh"), []byte(toolsJH), 0o644)
	base := Config{Paths: []string{"tools.jh"}, Dir: dir, Environ: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir}}
	for _, c := range []struct {
		host  string
		allow bool
		ok    bool
	}{
		{"127.0.0.1", false, false},
		{"0.0.0.0", true, false},
		{"127.0.0.1", true, true},
	} {
		cfg := base
		cfg.Host, cfg.AllowAnonymous = c.host, c.allow
		s, err := tryStart(t, cfg)
		if (err == nil) != c.ok {
			t.Errorf("%s allow=%v: %v", c.host, c.allow, err)
		}
		if s != nil {
			if !strings.Contains(s.log.String(), "WARNING: no authentication") {
				t.Errorf("no warning: %s", s.log.String())
			}
			code, _, b := s.do("GET", "/v1/runs", "-", "")
			if code != 200 {
				t.Errorf("anonymous: %d %s", code, b)
			}
			s.stop()
		}
	}
}

func TestStartupDiagnostic(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "bad.jh"), []byte("export workflow w {\n  run nowhere\n}\n"), 0o644)
	_, err := tryStart(t, Config{Host: "127.0.0.1", Paths: []string{"bad.jh"}, Dir: dir, AllowAnonymous: true,
		Environ: []string{"HOME=" + dir}})
	if err == nil || !strings.Contains(err.Error(), "bad.jh:2") {
		t.Errorf("want a located diagnostic, got %v", err)
	}
}

// TestRestart: a restarted server still answers for the runs it ran, and
// a run its death cut off is interrupted, not running for ever.
func TestRestart(t *testing.T) {
	s := start(t, "", "JAIPH_SERVE_TOKEN="+testToken)
	r := s.run("greet", `{"name":"before"}`)
	code, _, b := s.do("POST", "/v1/workflows/slow/runs", "", `{"secs":"1000.412"}`, "Idempotency-Key", "k")
	if code != 202 {
		t.Fatalf("slow: %d %s", code, b)
	}
	slow := decode[Run](t, b)
	s.stop() // as SIGTERM would: the slow run is interrupted
	if procs := processesWith("1000.412"); len(procs) > 0 {
		t.Errorf("stopped server left processes: %v", procs)
	}
	s2 := start(t, s.dir, "JAIPH_SERVE_TOKEN="+testToken)
	_, _, b = s2.do("GET", "/v1/runs/"+r.RunID, "", "")
	if got := decode[Run](t, b); got.Status != statusSucceeded || got.ResultText != "hi before" {
		t.Errorf("after restart: %s", b)
	}
	_, _, b = s2.do("GET", "/v1/runs/"+slow.RunID, "", "")
	if got := decode[Run](t, b); got.Status != statusInterrupted || got.EndedAt == nil {
		t.Errorf("cut-off run after restart: %s", b)
	}
	// Its idempotency key still names it.
	code, _, b = s2.do("POST", "/v1/workflows/slow/runs", "", `{"secs":"1000.412"}`, "Idempotency-Key", "k")
	if code != 200 || decode[Run](t, b).RunID != slow.RunID {
		t.Errorf("key after restart: %d %s", code, b)
	}
	// A record left "running" by a kill -9 is reconciled.
	s2.stop()
	log := filepath.Join(s.dir, ".jaiph", "serve", logName)
	rec := record{Run: Run{RunID: "killed", Workflow: "greet", Status: statusRunning, StartedAt: time.Now().UTC(), Principal: "operator"}}
	bs, _ := json.Marshal(rec)
	f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(append(bs, '\n'))
	f.WriteString(`{"run_id":"torn","sta`) // a kill in the middle of a write
	f.Close()
	s3 := start(t, s.dir, "JAIPH_SERVE_TOKEN="+testToken)
	_, _, b = s3.do("GET", "/v1/runs/killed", "", "")
	if got := decode[Run](t, b); got.Status != statusInterrupted {
		t.Errorf("killed record: %s", b)
	}
}

func TestViewerBehindAuth(t *testing.T) {
	s := start(t, "", "JAIPH_SERVE_TOKEN="+testToken)
	s.run("greet", `{"name":"v"}`)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, _ := http.NewRequest("GET", s.base+"/workflows", nil)
	req.Header.Set("Accept", "text/html")
	res, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusSeeOther || !strings.HasPrefix(res.Header.Get("Location"), "/login?next=") {
		t.Fatalf("page without credential: %d %v", res.StatusCode, res.Header)
	}
	// A wrong token is refused; the right one sets the cookie.
	res, err = client.PostForm(s.base+"/login", map[string][]string{"token": {"wrong"}, "next": {"/workflows"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if !strings.Contains(res.Header.Get("Location"), "refused") || len(res.Cookies()) != 0 {
		t.Errorf("wrong token: %v", res.Header)
	}
	res, err = client.PostForm(s.base+"/login", map[string][]string{"token": {testToken}, "next": {"//evil.example/"}})
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	cookies := res.Cookies()
	if res.Header.Get("Location") != "/" || len(cookies) != 1 || !cookies[0].HttpOnly || cookies[0].SameSite != http.SameSiteStrictMode {
		t.Fatalf("login: %v %v", res.Header, cookies)
	}
	for _, p := range []string{"/", "/workflows", "/api/runs", "/v1/runs"} {
		req, _ := http.NewRequest("GET", s.base+p, nil)
		req.AddCookie(cookies[0])
		res, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Errorf("%s with the cookie: %d %s", p, res.StatusCode, b)
		}
		if p != "/v1/runs" && p != "/api/runs" && res.Header.Get("Content-Security-Policy") == "" {
			t.Errorf("%s without a CSP", p)
		}
	}
	// The pages load nothing from another host.
	for _, p := range []string{"/ui/workflows.html", "/ui/login.html", "/ui/workflows.js"} {
		_, _, b := s.do("GET", p, "-", "")
		if bytes.Contains(b, []byte("http://")) || bytes.Contains(b, []byte("https://")) {
			t.Errorf("%s names another host", p)
		}
	}
}

func TestShutdownInterruptsRuns(t *testing.T) {
	s := start(t, "", "JAIPH_SERVE_TOKEN="+testToken)
	code, _, b := s.do("POST", "/v1/workflows/slow/runs", "", `{"secs":"1000.413"}`)
	if code != 202 {
		t.Fatal(code)
	}
	id := decode[Run](t, b).RunID
	s.stop()
	if r := lastRecord(t, s.dir, id); r.Status != statusInterrupted || r.EndedAt == nil {
		t.Errorf("record after shutdown: %+v", r)
	}
	if procs := processesWith("1000.413"); len(procs) > 0 {
		t.Errorf("left processes: %v", procs)
	}
}

// lastRecord is the record log's last line for run id.
func lastRecord(t *testing.T, dir, id string) record {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, ".jaiph", "serve", logName))
	if err != nil {
		t.Fatal(err)
	}
	var last record
	for _, line := range strings.Split(string(b), "\n") {
		var r record
		if json.Unmarshal([]byte(line), &r) == nil && r.RunID == id {
			last = r
		}
	}
	return last
}

var _ = fmt.Sprintf

// TestArgumentsAreValues: an argument that looks like shell reaches the
// workflow as text; nothing of it runs.
func TestArgumentsAreValues(t *testing.T) {
	s := start(t, "", "JAIPH_SERVE_TOKEN="+testToken)
	for _, hostile := range []string{`$(touch pwned1)`, "`touch pwned2`", `x"; touch pwned3; echo "`, `$((1+1))`, `*`} {
		body, _ := json.Marshal(map[string]string{"name": hostile})
		r := s.run("greet", string(body))
		if r.Status != statusSucceeded || r.ResultText != "hi "+hostile || r.Output != "hello "+hostile+"\n" {
			t.Errorf("%q: %+v", hostile, r)
		}
	}
	for _, f := range []string{"pwned1", "pwned2", "pwned3"} {
		if _, err := os.Stat(filepath.Join(s.dir, f)); err == nil {
			t.Errorf("an argument ran: %s exists", f)
		}
	}
}

// TestEventStreamKeepAlive: an idle stream sends a comment every
// keepAlive (15 s; shortened here).
func TestEventStreamKeepAlive(t *testing.T) {
	old := keepAlive
	keepAlive = 20 * time.Millisecond
	defer func() { keepAlive = old }()
	s := start(t, "", "JAIPH_SERVE_TOKEN="+testToken)
	code, _, b := s.do("POST", "/v1/workflows/slow/runs", "", `{"secs":"1000.415"}`)
	if code != 202 {
		t.Fatal(code)
	}
	id := decode[Run](t, b).RunID
	req, _ := http.NewRequest("GET", s.base+"/v1/runs/"+id+"/events", nil)
	req.Header.Set("Authorization", "Bearer "+testToken)
	req.Header.Set("Accept", "text/event-stream")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	sc := bufio.NewScanner(res.Body)
	comments := 0
	for sc.Scan() && comments < 2 {
		if sc.Text() == ": ka" {
			comments++
		}
	}
	if comments < 2 {
		t.Errorf("no keep-alive comments")
	}
	s.do("POST", "/v1/runs/"+id+"/cancel", "", "")
}

// TestSignalWaitingRun: a run waits in a receive; its object says so; a
// message through POST /v1/runs/{id}/channels/{channel} wakes it.
func TestSignalWaitingRun(t *testing.T) {
	s, dir, run := startWaiting(t)
	id := run.RunID
	var code int
	var b []byte
	if run.Waiting.Channel != "approvals" || run.Waiting.Key != "42" || run.Waiting.TimeoutAt == nil ||
		run.Waiting.TimeoutAt.Sub(run.Waiting.Since) != 60*time.Second {
		t.Errorf("waiting: %+v", run.Waiting)
	}
	code, _, b = s.do("POST", "/v1/runs/"+id+"/channels/other", "", `{"payload":"x"}`)
	wantError(t, "a channel it does not receive on", code, b, 409, "E_NOT_RECEIVING")
	code, _, b = s.do("POST", "/v1/runs/"+id+"/channels/approvals", "", `{"key":"42"}`)
	wantError(t, "no payload", code, b, 400, "E_BAD_ARGS")
	code, _, b = s.do("POST", "/v1/runs/"+id+"/channels/approvals", "", `{"payload":"yes $(touch pwned)","key":"42"}`)
	if code != 202 {
		t.Fatalf("signal: %d %s", code, b)
	}
	ended := s.waitTerminal(id)
	if ended.Status != statusSucceeded || ended.ResultText != "got yes $(touch pwned)" || ended.Waiting != nil {
		t.Fatalf("after the message: %+v", ended)
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Errorf("the payload ran")
	}
	code, _, b = s.do("POST", "/v1/runs/"+id+"/channels/approvals", "", `{"payload":"late"}`)
	wantError(t, "an ended run", code, b, 409, "E_RUN_TERMINAL")
	if !strings.Contains(s.log.String(), "audit signal run_id="+id+" channel=approvals principal=operator") {
		t.Errorf("no audit line:\n%s", s.log.String())
	}
}
