package mcpserver

// This file answers: what does a tool call do (run, result, progress,
// cancellation)?

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/jaiph-go/jaiph/internal/buildinfo"
	"github.com/jaiph-go/jaiph/internal/engine"
	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/observe/progress"
	"github.com/jaiph-go/jaiph/internal/redact"
	"github.com/jaiph-go/jaiph/runtime"
)

// Options configure a server.
type Options struct {
	Environ []string  // the runs' environment
	Home    string    // the user's home directory, for ~/.jaiph/hooks.json
	Stderr  io.Writer // the runs' stray stderr and the hooks' messages
	// Interrupt, when cancelled with a *runtime.Interrupted cause (as
	// runtime.NotifyInterrupt's context), interrupts every run with it.
	Interrupt context.Context
	running   *running // the calls in progress, when the caller waits for them
}

// running counts calls in progress, so that a stopping server can let
// their runs end and record it.
type running struct {
	mu   sync.Mutex
	cond *sync.Cond
	n    int
}

func newRunning() *running {
	r := &running{}
	r.cond = sync.NewCond(&r.mu)
	return r
}

func (r *running) add(d int) {
	if r == nil {
		return
	}
	r.mu.Lock()
	r.n += d
	r.mu.Unlock()
	r.cond.Broadcast()
}

func (r *running) wait() {
	r.mu.Lock()
	for r.n > 0 {
		r.cond.Wait()
	}
	r.mu.Unlock()
}

// Input is a tool's arguments.
type Input struct {
	Args []string `json:"args,omitempty"` // described per tool (argsDescription)
}

// Output is a tool's structured result.
type Output struct {
	Status      int    `json:"status" jsonschema:"the exit status jaiph run would have: 0 passed, 1 failed, 128+N stopped by signal N"`
	Output      string `json:"output,omitempty" jsonschema:"what the workflow wrote to stdout (its .out artifact)"`
	ReturnValue string `json:"return_value,omitempty" jsonschema:"the workflow's return value"`
	RunDir      string `json:"run_dir,omitempty" jsonschema:"the run directory with the step artifacts"`
	SummaryFile string `json:"summary_file,omitempty" jsonschema:"the run's run_summary.jsonl"`
}

// maxOutput bounds the output a result carries; the artifact keeps all.
const maxOutput = 100_000

// New returns a server offering tools.
func New(tools []Tool, o Options) *mcp.Server {
	if o.Stderr == nil {
		o.Stderr = io.Discard
	}
	return NewServer(tools, o.call)
}

// Call is what a tool call does: runs t's workflow with args.
type Call func(ctx context.Context, req *mcp.CallToolRequest, t Tool, args []string) (*mcp.CallToolResult, Output, error)

// NewServer returns a server offering tools, each call done by call
// (jaiph serve's calls are runs of its registry).
func NewServer(tools []Tool, call Call) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "jaiph", Version: buildinfo.Version()}, nil)
	for _, t := range tools {
		in, err := jsonschema.For[Input](nil)
		if err != nil {
			panic(err) // Input is a fixed type: its schema always derives
		}
		// An array, not the ["null","array"] a Go slice derives: args may
		// be left out, but not given as null.
		args := in.Properties["args"]
		args.Types, args.Type, args.Description = nil, "array", argsDescription(t.Params)
		mcp.AddTool(s, &mcp.Tool{Name: t.Name, Description: t.Description, InputSchema: in},
			func(ctx context.Context, req *mcp.CallToolRequest, in Input) (*mcp.CallToolResult, Output, error) {
				return call(ctx, req, t, in.Args)
			})
	}
	return s
}

// call runs the tool's workflow with args as `jaiph run` does. The run is
// not cancelled with the request's context as such: a cancelled request
// interrupts it as SIGINT does (the programs of the run get the signal,
// stragglers are killed 2 s later), and the call returns once it ended.
func (o Options) call(ctx context.Context, req *mcp.CallToolRequest, t Tool, args []string) (*mcp.CallToolResult, Output, error) {
	o.running.add(1)
	defer o.running.add(-1)
	prog, err := engine.Open(t.File)
	if err != nil {
		return nil, Output{}, err
	}
	runCtx, interrupt := context.WithCancelCause(context.WithoutCancel(ctx))
	defer interrupt(nil)
	defer context.AfterFunc(ctx, func() { interrupt(&runtime.Interrupted{Signal: syscall.SIGINT}) })()
	if o.Interrupt != nil {
		defer context.AfterFunc(o.Interrupt, func() { interrupt(context.Cause(o.Interrupt)) })()
	}
	run, err := prog.Plan(runCtx, o.Environ)
	if err != nil {
		return nil, Output{}, err
	}
	w := prog.Watch(o.Environ, o.Home, o.Stderr)
	defer w.Close()
	root := &RootStep{}
	obs := append(event.Observers{root}, w.Observers()...)
	if p := Progress(ctx, req); p != nil {
		obs = append(obs, p)
	}
	stray := progress.NewStrayLog(o.Stderr)
	// The model reads the result: the run environment's credentials are
	// masked in it as in the run's records (docs/security.md).
	red := redact.FromEnv(o.Environ)
	strayOut := redact.NewWriter(red, stray)
	out, err := run.Execute(runCtx, engine.RunOptions{Environ: o.Environ, Args: args, Workflow: t.Workflow,
		StrayStderr: strayOut, Observer: obs}, func(time.Time) { w.Started(prog) })
	strayOut.Flush()
	if err != nil {
		return nil, Output{}, errors.New(red.String(err.Error()))
	}
	w.Ended(out)
	return Result(t, out, root, red, stray.LastLine())
}

// Result is a finished run's tool result: the structured output and the
// text the model reads, the run environment's credentials masked.
func Result(t Tool, out engine.Outcome, root *RootStep, red *redact.Redactor, strayLine string) (*mcp.CallToolResult, Output, error) {
	res := Output{Status: out.ExitStatus(), Output: red.String(root.Output()), ReturnValue: red.String(out.Value),
		RunDir: out.RunDir, SummaryFile: out.SummaryFile}
	text := red.String(ResultText(t.Workflow, res, out, strayLine))
	return &mcp.CallToolResult{IsError: out.Failed, Content: []mcp.Content{&mcp.TextContent{Text: text}}}, res, nil
}

// ResultText is what the model reads about a run of workflow: PASS or
// FAIL as `jaiph run` says it, the output and return value, where the
// run's files are and, for a failure, the failed step's output (the FAIL
// block's).
func ResultText(workflow string, res Output, out engine.Outcome, strayLine string) string {
	var b strings.Builder
	if out.Failed {
		fmt.Fprintf(&b, "✗ FAIL workflow %s (status %d, %s)\n", workflow, res.Status, progress.Duration(out.Elapsed))
	} else {
		fmt.Fprintf(&b, "✓ PASS workflow %s (%s)\n", workflow, progress.Duration(out.Elapsed))
	}
	if res.Output != "" {
		fmt.Fprintf(&b, "\nOutput:\n%s\n", strings.TrimRight(res.Output, "\n"))
	}
	if res.ReturnValue != "" {
		fmt.Fprintf(&b, "\nReturn value: %s\n", res.ReturnValue)
	}
	if !out.Failed && out.RunDir != "" {
		fmt.Fprintf(&b, "\nLogs: %s\nSummary: %s\n", out.RunDir, out.SummaryFile)
	}
	if out.Failed { // its Logs and Summary lines too
		var fail strings.Builder
		progress.Fail(&fail, progress.NewStyle(false), out.Failure(strayLine))
		// The FAIL block without its first line, which names the default
		// workflow: the line above names this one.
		_, rest, _ := strings.Cut(strings.TrimPrefix(fail.String(), "\n"), "\n")
		fmt.Fprintf(&b, "\n%s", rest)
	}
	return b.String()
}

// RootStep remembers the root step's stdout artifact.
type RootStep struct{ outFile string }

func (r *RootStep) Event(e *event.Event) {
	if e.Type == event.StepEnd && e.ParentID == "" {
		r.outFile = e.OutFile
	}
}

// Output is the root step's stdout, at most maxOutput bytes of it.
func (r *RootStep) Output() string {
	if r.outFile == "" {
		return ""
	}
	f, err := os.Open(r.outFile)
	if err != nil {
		return ""
	}
	defer f.Close()
	data, _ := io.ReadAll(io.LimitReader(f, maxOutput+1))
	if len(data) > maxOutput {
		return string(data[:maxOutput]) + "\n… (cut; all of it is in " + r.outFile + ")"
	}
	return string(data)
}

// Progress is the observer that sends req's client a notifications/progress
// for each step's start and end, nil when the call asked for none.
func Progress(ctx context.Context, req *mcp.CallToolRequest) event.Observer {
	tok := req.Params.GetProgressToken()
	if tok == nil {
		return nil
	}
	return &progressNotifier{ctx: ctx, session: req.Session, token: tok}
}

// progressNotifier sends notifications/progress for each step's start and
// end (the run serialises events, so progress only grows).
type progressNotifier struct {
	ctx     context.Context
	session *mcp.ServerSession
	token   any
	n       int
}

func (p *progressNotifier) Event(e *event.Event) {
	if e.Type != event.StepStart && e.Type != event.StepEnd {
		return
	}
	p.n++
	msg := fmt.Sprintf("%s %s %s", e.Type, e.Kind, e.Name)
	if e.Type == event.StepEnd {
		msg += fmt.Sprintf(" status %d", *e.Status)
	}
	_ = p.session.NotifyProgress(p.ctx, &mcp.ProgressNotificationParams{ProgressToken: p.token,
		Progress: float64(p.n), Message: msg})
}
