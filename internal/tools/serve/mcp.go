package serve

// This file answers: how do MCP clients reach the workflows over HTTP
// (POST /mcp, Streamable HTTP), and how is each call a run of the
// registry?

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/observe/progress"
	"github.com/jaiph-go/jaiph/internal/served"
	"github.com/jaiph-go/jaiph/internal/tools/mcpserver"
	"github.com/jaiph-go/jaiph/internal/tools/serve/auth"
)

type callerKey struct{}

// caller is who sent an MCP request, and its correlation id.
type caller struct {
	p    auth.Principal
	corr string
	// hungUp ends when the HTTP request does, or the client cancels the
	// call: the SDK's handler context outlives a client that went away,
	// the request's does not.
	hungUp context.Context
}

// guardMCP authenticates POST /mcp and hands it to the SDK's stateless
// Streamable HTTP handler: one JSON-RPC message per POST, answered as
// JSON, or as an SSE stream (progress notifications, then the result)
// when the client accepts text/event-stream.
func (s *Server) guardMCP() http.Handler {
	server := func(r *http.Request) *mcp.Server {
		c, _ := r.Context().Value(callerKey{}).(caller)
		return s.mcpServer(c)
	}
	asJSON := mcp.NewStreamableHTTPHandler(server, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true})
	asSSE := mcp.NewStreamableHTTPHandler(server, &mcp.StreamableHTTPOptions{Stateless: true})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, ok := s.authenticate(w, r)
		if !ok {
			return
		}
		// A call ends when its client hangs up or cancels it
		// (routeCancel: the cancel comes in a POST of its own).
		hungUp, done, ok := s.routeCancel(w, r, p.ID)
		if !ok {
			return
		}
		defer done()
		r = r.WithContext(context.WithValue(r.Context(), callerKey{}, caller{p: p, corr: r.Header.Get("X-Correlation-Id"), hungUp: hungUp}))
		if strings.Contains(r.Header.Get("Accept"), "text/event-stream") {
			asSSE.ServeHTTP(w, r)
			return
		}
		// The SDK wants both media types accepted; a client that asked
		// for JSON only gets JSON.
		r.Header.Set("Accept", "application/json, text/event-stream")
		asJSON.ServeHTTP(w, r)
	})
}

// mcpServer is the MCP server for one request of c: the tools c may list
// (jaiph:inspect), each call a run of the backend (jaiph:invoke).
func (s *Server) mcpServer(c caller) *mcp.Server {
	var tools []mcpserver.Tool
	if c.p.Can(auth.ScopeInspect) {
		for _, n := range s.names {
			tools = append(tools, s.workflows[n].Tool)
		}
	}
	m := mcpserver.NewServer(tools, func(ctx context.Context, req *mcp.CallToolRequest, t mcpserver.Tool, args []string) (*mcp.CallToolResult, mcpserver.Output, error) {
		if !c.p.Can(auth.ScopeInvoke) {
			return nil, mcpserver.Output{}, fmt.Errorf("%s: calling a tool needs the %s scope", codeForbidden, auth.ScopeInvoke)
		}
		wf := s.workflows[t.Name]
		run, _, err := s.backend.Start(ctx, served.Start{Workflow: wf.Name, Args: args, Principal: c.p.ID, CorrelationID: c.corr})
		if err != nil {
			if errors.Is(err, served.ErrTooMany) {
				return nil, mcpserver.Output{}, fmt.Errorf("%s: %v", codeTooManyRuns, err)
			}
			return nil, mcpserver.Output{}, err
		}
		s.logf("audit invoke workflow=%s run_id=%s principal=%s correlation_id=%s via=mcp", wf.Name, run.RunID, c.p.ID, c.corr)
		// Until it ends: its steps as progress; a client that cancelled
		// or hung up cancels the run.
		run, err = s.follow(ctx, c.hungUp, run.RunID, mcpserver.Progress(ctx, req))
		if err != nil {
			return nil, mcpserver.Output{}, err
		}
		return runResult(wf, run)
	})
	s.addWaitTools(m, c)
	return m
}

// follow waits for the run's end, sending its events to obs; when ctx or
// hungUp ends first, it cancels the run and waits for that end.
func (s *Server) follow(ctx, hungUp context.Context, id string, obs event.Observer) (Run, error) {
	f, err := s.backend.Follow(context.WithoutCancel(ctx), id)
	if err != nil {
		return Run{}, err
	}
	defer f.Close()
	bg := context.WithoutCancel(ctx)
	cancelled := false
	for {
		changed := f.Changed()
		run, err := s.backend.Get(bg, id)
		if err != nil {
			return run, err
		}
		lines, err := f.Next(bg)
		if err != nil {
			return run, err
		}
		for _, l := range lines {
			if obs != nil && !cancelled {
				if e, err := event.Parse(l); err == nil {
					obs.Event(e)
				}
			}
		}
		if served.Terminal(run.Status) {
			if len(lines) == 0 {
				return run, nil
			}
			// The run ended: nothing will change any more, so read on
			// until no line is left instead of waiting for a change.
			continue
		}
		select {
		case <-changed:
		case <-ctx.Done():
		case <-hungUp.Done():
		}
		if !cancelled && (ctx.Err() != nil || hungUp.Err() != nil) {
			cancelled = true
			if err := s.backend.Cancel(bg, id); err != nil {
				return run, err
			}
			ctx, hungUp = bg, bg // from now on: wait for the end
		}
	}
}

// runResult is an ended run's tool result: what `jaiph mcp` answers.
func runResult(wf workflow, run Run) (*mcp.CallToolResult, mcpserver.Output, error) {
	out := mcpserver.Output{Output: run.Output, RunDir: run.RunDir}
	if run.ExitStatus != nil {
		out.Status = *run.ExitStatus
	}
	if run.RunDir != "" {
		out.SummaryFile = summaryPath(run.RunDir)
	}
	failed := run.Status != statusSucceeded
	text := run.ResultText
	if !failed {
		out.ReturnValue = run.ResultText
		var b strings.Builder
		fmt.Fprintf(&b, "✓ PASS workflow %s", wf.Workflow)
		if run.EndedAt != nil { // as jaiph mcp says it
			fmt.Fprintf(&b, " (%s)", progress.Duration(run.EndedAt.Sub(run.StartedAt)))
		}
		b.WriteString("\n")
		if run.Output != "" {
			fmt.Fprintf(&b, "\nOutput:\n%s\n", strings.TrimRight(run.Output, "\n"))
		}
		if run.ResultText != "" {
			fmt.Fprintf(&b, "\nReturn value: %s\n", run.ResultText)
		}
		if run.RunDir != "" {
			fmt.Fprintf(&b, "\nLogs: %s\nSummary: %s\n", run.RunDir, out.SummaryFile)
		}
		text = b.String()
	}
	return &mcp.CallToolResult{IsError: failed, Content: []mcp.Content{&mcp.TextContent{Text: text}}}, out, nil
}
