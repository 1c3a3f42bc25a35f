package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// bearerTransport adds the token to each request.
type bearerTransport struct{ token string }

func (b bearerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.token)
	return http.DefaultTransport.RoundTrip(r)
}

func connectMCP(t *testing.T, s *server, progress func()) *mcp.ClientSession {
	t.Helper()
	c := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, &mcp.ClientOptions{
		ProgressNotificationHandler: func(context.Context, *mcp.ProgressNotificationClientRequest) {
			if progress != nil {
				progress()
			}
		}})
	cs, err := c.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: s.base + "/mcp",
		HTTPClient: &http.Client{Transport: bearerTransport{testToken}}, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatalf("connect: %v", err)
	}
	t.Cleanup(func() { cs.Close() })
	return cs
}

func TestMCPOverHTTP(t *testing.T) {
	s := start(t, "", "JAIPH_SERVE_TOKEN="+testToken)
	code, _, b := s.do("POST", "/mcp", "-", `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`)
	wantError(t, "no token", code, b, 401, "E_UNAUTHORIZED")

	var progress atomic.Int32
	cs := connectMCP(t, s, func() { progress.Add(1) })
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, tl := range tools.Tools {
		names = append(names, tl.Name)
	}
	if strings.Join(names, ",") != "envdump,fails,greet,jaiph-send,jaiph-waiting-runs,many,slow,steps" {
		t.Errorf("tools: %v", names)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "steps", Arguments: map[string]any{},
		Meta: mcp.Meta{"progressToken": "p1"}})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Content[0].(*mcp.TextContent).Text
	if res.IsError || !regexp.MustCompile(`^✓ PASS workflow steps \([0-9.]+s\)\n`).MatchString(text) {
		t.Errorf("call: %v %s", res.IsError, text)
	}
	// Three steps, a start and an end each. The SDK's client hands
	// notifications to the handler on a goroutine of their own, so the
	// last may reach it after CallTool returned (that race failed this
	// test on a loaded machine).
	for deadline := time.Now().Add(10 * time.Second); progress.Load() < 6 && time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
	}
	if n := progress.Load(); n < 6 {
		t.Errorf("%d progress notifications, want 6", n)
	}
	// The call is a run of the registry.
	_, _, b = s.do("GET", "/v1/runs", "", "")
	runs := decode[struct{ Runs []Run }](t, b).Runs
	if len(runs) != 1 || runs[0].Workflow != "steps" || runs[0].Status != statusSucceeded || runs[0].Principal != "operator" {
		t.Errorf("runs: %s", b)
	}
	if !strings.Contains(s.log.String(), "audit invoke workflow=steps run_id="+runs[0].RunID) {
		t.Errorf("no audit line:\n%s", s.log.String())
	}
}

// TestMCPHangUpCancels: a client that goes away mid-call cancels the run.
func TestMCPHangUpCancels(t *testing.T) {
	s := start(t, "", "JAIPH_SERVE_TOKEN="+testToken)
	cs := connectMCP(t, s, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "slow", Arguments: map[string]any{"args": []string{"1000.414"}}})
		done <- err
	}()
	var id string
	for deadline := time.Now().Add(30 * time.Second); id == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		_, _, b := s.do("GET", "/v1/runs", "", "")
		if rs := decode[struct{ Runs []Run }](t, b).Runs; len(rs) == 1 && len(processesWith("1000.414")) > 0 {
			id = rs[0].RunID
		}
	}
	if id == "" {
		t.Fatal("the call's run did not start")
	}
	cancel()
	<-done
	r := s.waitTerminal(id)
	if r.Status != statusCancelled {
		t.Errorf("after hang-up: %+v", r)
	}
	if procs := processesWith("1000.414"); len(procs) > 0 {
		t.Errorf("left processes: %v", procs)
	}
}

// TestMCPWaitTools: an MCP client lists the run that waits in a receive
// and answers it; a channel the run does not receive on is refused.
func TestMCPWaitTools(t *testing.T) {
	s, _, run := startWaiting(t)
	id := run.RunID
	cs := connectMCP(t, s, nil)
	var listed waitingRunsOut
	for deadline := time.Now().Add(30 * time.Second); len(listed.Runs) == 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the waiting run was never listed")
		}
		res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: toolWaitingRuns, Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Fatalf("list: %v %+v", err, res)
		}
		raw, _ := json.Marshal(res.StructuredContent)
		listed = waitingRunsOut{}
		if err := json.Unmarshal(raw, &listed); err != nil {
			t.Fatal(err)
		}
	}
	if r := listed.Runs[0]; len(listed.Runs) != 1 || r.RunID != id || r.Channel != "approvals" || r.Key != "42" || r.Workflow != "ask" {
		t.Fatalf("listed: %+v", listed)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: toolSend,
		Arguments: map[string]any{"run_id": id, "channel": "other", "payload": "x"}})
	if err != nil || !res.IsError || !strings.Contains(res.Content[0].(*mcp.TextContent).Text, "E_NOT_RECEIVING") {
		t.Errorf("send to another channel: %v %+v", err, res)
	}
	res, err = cs.CallTool(context.Background(), &mcp.CallToolParams{Name: toolSend,
		Arguments: map[string]any{"run_id": id, "channel": "approvals", "payload": "yes; $(touch pwned)", "key": "42"}})
	if err != nil || res.IsError {
		t.Fatalf("send: %v %+v", err, res)
	}
	if r := s.waitTerminal(id); r.Status != statusSucceeded || r.ResultText != "got yes; $(touch pwned)" {
		t.Fatalf("after the send: %+v", r)
	}
	if !strings.Contains(s.log.String(), "audit signal run_id="+id+" channel=approvals principal=operator") {
		t.Errorf("no audit line:\n%s", s.log.String())
	}
}

// TestMCPSchemasOneType: every type in the tools' input and output
// schemas is one name, not a list such as ["null","array"], which clients
// that map schemas onto a one-type dialect (Gemini's function
// declarations; MCP Inspector warns of it) reject or read loosely.
func TestMCPSchemasOneType(t *testing.T) {
	s := start(t, "", "JAIPH_SERVE_TOKEN="+testToken)
	tools, err := connectMCP(t, s, nil).ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var walk func(path string, v any)
	walk = func(path string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if _, list := v["type"].([]any); list {
				t.Errorf("%s: type %v", path, v["type"])
			}
			for k, c := range v {
				walk(path+"."+k, c)
			}
		case []any:
			for i, c := range v {
				walk(fmt.Sprintf("%s[%d]", path, i), c)
			}
		}
	}
	for _, tl := range tools.Tools {
		for what, schema := range map[string]any{"inputSchema": tl.InputSchema, "outputSchema": tl.OutputSchema} {
			raw, _ := json.Marshal(schema)
			var v any
			json.Unmarshal(raw, &v)
			walk(tl.Name+"."+what, v)
		}
	}
	if len(tools.Tools) < 3 {
		t.Fatalf("tools: %+v", tools.Tools)
	}
}

// TestMCPCancelNotification: over stateless HTTP a client's
// notifications/cancelled comes in a POST of its own, while the call's
// stream stays open (the TypeScript SDK cancels so): it cancels the run
// of the call it names.
func TestMCPCancelNotification(t *testing.T) {
	s := start(t, "", "JAIPH_SERVE_TOKEN="+testToken)
	post := func(body string) (*http.Response, error) {
		req, _ := http.NewRequest("POST", s.base+"/mcp", strings.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+testToken)
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		return http.DefaultClient.Do(req)
	}
	answered := make(chan string, 1)
	go func() {
		res, err := post(`{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"slow","arguments":{"args":["1000.418"]}}}`)
		if err != nil {
			answered <- err.Error()
			return
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		answered <- string(b)
	}()
	var id string
	for deadline := time.Now().Add(30 * time.Second); id == "" && time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		_, _, b := s.do("GET", "/v1/runs", "", "")
		if rs := decode[struct{ Runs []Run }](t, b).Runs; len(rs) == 1 && len(processesWith("1000.418")) > 0 {
			id = rs[0].RunID
		}
	}
	if id == "" {
		t.Fatal("the call's run did not start")
	}
	res, err := post(`{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7,"reason":"user"}}`)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusAccepted {
		t.Errorf("the cancel notification: %s", res.Status)
	}
	if r := s.waitTerminal(id); r.Status != statusCancelled {
		t.Errorf("after the cancel: %+v", r)
	}
	<-answered
	if procs := processesWith("1000.418"); len(procs) > 0 {
		t.Errorf("left processes: %v", procs)
	}
}

// Two calls in progress of one principal under one id: a cancel naming
// that id cancels neither (which one it meant cannot be told); once one is
// over, it cancels the other.
func TestMCPCallsAmbiguousCancel(t *testing.T) {
	var m mcpCalls
	k := callKey{"operator", "9"}
	ctx1, cancel1 := context.WithCancel(context.Background())
	ctx2, cancel2 := context.WithCancel(context.Background())
	defer cancel1()
	defer cancel2()
	forget1 := m.add(k, cancel1)
	forget2 := m.add(k, cancel2)
	if m.cancel(k) || ctx1.Err() != nil || ctx2.Err() != nil {
		t.Fatal("an ambiguous cancel cancelled a call")
	}
	if m.cancel(callKey{"someone-else", "9"}) {
		t.Error("another principal's cancel cancelled a call")
	}
	forget1()
	if !m.cancel(k) || ctx2.Err() == nil || ctx1.Err() != nil {
		t.Error("the cancel did not reach the one call left")
	}
	forget2()
	if len(m.calls) != 0 {
		t.Errorf("calls left: %v", m.calls)
	}
}
