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

	"github.com/jaiph-go/jaiph/internal/tools/mcpserver"
	"github.com/jaiph-go/jaiph/internal/tools/serve/auth"
)

type callerKey struct{}

// caller is who sent an MCP request, and its correlation id.
type caller struct {
	p    auth.Principal
	corr string
	// hungUp ends when the HTTP request does: the SDK's handler context
	// outlives a client that went away, the request's does not.
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
		r = r.WithContext(context.WithValue(r.Context(), callerKey{}, caller{p: p, corr: r.Header.Get("X-Correlation-Id"), hungUp: r.Context()}))
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
// (jaiph:inspect), each call a run of the registry (jaiph:invoke).
func (s *Server) mcpServer(c caller) *mcp.Server {
	var tools []mcpserver.Tool
	if c.p.Can(auth.ScopeInspect) {
		for _, n := range s.names {
			tools = append(tools, s.workflows[n].Tool)
		}
	}
	return mcpserver.NewServer(tools, func(ctx context.Context, req *mcp.CallToolRequest, t mcpserver.Tool, args []string) (*mcp.CallToolResult, mcpserver.Output, error) {
		if !c.p.Can(auth.ScopeInvoke) {
			return nil, mcpserver.Output{}, fmt.Errorf("%s: calling a tool needs the %s scope", codeForbidden, auth.ScopeInvoke)
		}
		wf := s.workflows[t.Name]
		e, _, err := s.launch(c.p, c.corr, "", wf, args, mcpserver.Progress(ctx, req))
		if err != nil {
			if errors.Is(err, errTooMany) {
				return nil, mcpserver.Output{}, fmt.Errorf("%s: %v", codeTooManyRuns, err)
			}
			return nil, mcpserver.Output{}, err
		}
		s.logf("audit invoke workflow=%s run_id=%s principal=%s correlation_id=%s via=mcp", wf.Name, e.rec.RunID, c.p.ID, c.corr)
		select {
		case <-e.done:
		case <-ctx.Done(): // the client cancelled or hung up: so is the run
			e.cancel(cancelCause())
			<-e.done
		case <-c.hungUp.Done():
			e.cancel(cancelCause())
			<-e.done
		}
		return mcpResult(wf, e.res, s.exec.red)
	})
}
