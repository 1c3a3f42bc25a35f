package serve

// This file answers: how does an MCP client (an agent, or a person through
// one) find the runs that wait for a message, and answer one?

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/jaiph-go/jaiph/internal/served"
	"github.com/jaiph-go/jaiph/internal/tools/serve/auth"
)

// The tools' names hold a dash: no workflow's name (an identifier, or
// STEM.NAME) can take them.
const (
	toolWaitingRuns = "jaiph-waiting-runs"
	toolSend        = "jaiph-send"
)

// waitingRun is one run of toolWaitingRuns' answer.
type waitingRun struct {
	RunID     string     `json:"run_id"`
	Workflow  string     `json:"workflow"`
	Channel   string     `json:"channel"`
	Key       string     `json:"key,omitempty"`
	Since     time.Time  `json:"since"`
	TimeoutAt *time.Time `json:"timeout_at,omitempty"`
}

type waitingRunsOut struct {
	Runs []waitingRun `json:"runs"`
}

// waitingRunsSchema is waitingRunsOut's schema with one type where Go
// derives ["null", T]: runs is never null (an empty list) and timeout_at
// is left out, not null, when there is none. Clients that map tool
// schemas onto a one-type dialect (MCP Inspector warns of it) read it as
// it is.
var waitingRunsSchema = func() *jsonschema.Schema {
	s, err := jsonschema.For[waitingRunsOut](nil)
	if err != nil {
		panic(err) // a fixed type: its schema always derives
	}
	oneType(s)
	return s
}()

// oneType replaces each ["null", T] type list in s with T.
func oneType(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && s.Types[0] == "null" {
		s.Type, s.Types = s.Types[1], nil
	}
	oneType(s.Items)
	for _, p := range s.Properties {
		oneType(p)
	}
}

type sendIn struct {
	RunID   string `json:"run_id" jsonschema:"the run, as jaiph-waiting-runs lists it"`
	Channel string `json:"channel" jsonschema:"the channel the run receives on"`
	Payload string `json:"payload" jsonschema:"the message: the text the run's receive captures (data, never code)"`
	Key     string `json:"key,omitempty" jsonschema:"the key a receive with key \"…\" waits for"`
}

type sendOut struct {
	RunID   string `json:"run_id"`
	Channel string `json:"channel"`
}

// addWaitTools gives c's MCP server the tool that lists the runs waiting
// in a receive (jaiph:inspect) and the one that sends a run a message
// (jaiph:signal), under the rules of GET /v1/runs and POST
// …/channels/{channel}: a principal sees its own runs, an admin all.
func (s *Server) addWaitTools(m *mcp.Server, c caller) {
	if c.p.Can(auth.ScopeInspect) {
		mcp.AddTool(m, &mcp.Tool{Name: toolWaitingRuns, Description: "The runs that wait in a receive step for a message: " +
			"the channel (and key) each waits on, since when, and until when. Answer one with " + toolSend + ".",
			OutputSchema: waitingRunsSchema},
			func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, waitingRunsOut, error) {
				out := waitingRunsOut{Runs: []waitingRun{}}
				for offset := 0; ; offset += 1000 {
					page, total, err := s.backend.List(ctx, c.p.ID, seesAll(c.p), 1000, offset)
					if err != nil {
						return nil, out, err
					}
					for _, r := range page {
						if w := r.Waiting; w != nil && !served.Terminal(r.Status) {
							out.Runs = append(out.Runs, waitingRun{RunID: r.RunID, Workflow: r.Workflow, Channel: w.Channel,
								Key: w.Key, Since: w.Since, TimeoutAt: w.TimeoutAt})
						}
					}
					if offset+len(page) >= total || len(page) == 0 {
						break
					}
				}
				var b strings.Builder
				fmt.Fprintf(&b, "%d run(s) waiting\n", len(out.Runs))
				for _, r := range out.Runs {
					fmt.Fprintf(&b, "%s (%s) waits on %s", r.RunID, r.Workflow, r.Channel)
					if r.Key != "" {
						fmt.Fprintf(&b, " key %q", r.Key)
					}
					fmt.Fprintf(&b, " since %s\n", r.Since.Format(time.RFC3339))
				}
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: b.String()}}}, out, nil
			})
	}
	if c.p.Can(auth.ScopeSignal) {
		mcp.AddTool(m, &mcp.Tool{Name: toolSend, Description: "Send a message to a run's channel: the run's receive on that " +
			"channel (with that key, when it names one) takes it, now or when it gets there."},
			func(ctx context.Context, _ *mcp.CallToolRequest, in sendIn) (*mcp.CallToolResult, sendOut, error) {
				run, err := s.backend.Get(ctx, in.RunID)
				if errors.Is(err, served.ErrNotFound) || err == nil && !seesAll(c.p) && run.Principal != c.p.ID {
					return nil, sendOut{}, fmt.Errorf("%s: no run %q", codeNotFound, in.RunID)
				}
				if err != nil {
					return nil, sendOut{}, err
				}
				err = s.backend.Signal(ctx, run.RunID, in.Channel, in.Key, in.Payload)
				switch {
				case errors.Is(err, served.ErrTerminal):
					return nil, sendOut{}, fmt.Errorf("%s: %v", codeRunTerminal, err)
				case errors.Is(err, served.ErrNotReceiving):
					return nil, sendOut{}, fmt.Errorf("%s: %v", codeNotReceiving, err)
				case err != nil:
					return nil, sendOut{}, err
				}
				s.logf("audit signal run_id=%s channel=%s principal=%s correlation_id=%s via=mcp", run.RunID, in.Channel, c.p.ID, c.corr)
				text := fmt.Sprintf("sent to %s of run %s", in.Channel, run.RunID)
				return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: text}}}, sendOut{RunID: run.RunID, Channel: in.Channel}, nil
			})
	}
}
