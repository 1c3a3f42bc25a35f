package engine

// This file answers: how does a run go into the sandbox and come back
// (internal/sandbox, docs/sandbox.md)?

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/sandbox"
	"github.com/jaiph-go/jaiph/runtime"
)

var errSandboxRedrive = errors.New("E_DOCKER_UNSUPPORTED jaiph redrive does not run in the Docker sandbox yet; no letter was delivered. " +
	"Set JAIPH_DOCKER_ENABLED=false to deliver them on this machine")

var errSandboxBroker = errors.New("E_DOCKER_UNSUPPORTED a run whose inbox is on a broker (JAIPH_INBOX_URL, --inbox) does not run in the Docker sandbox yet; " +
	"the workflow was not run. Run it without the broker, or with JAIPH_DOCKER_ENABLED=false")

// openSandbox returns the sandbox the run asks for (nil: none), ready.
func openSandbox(ctx context.Context, p *Program, environ []string) (sandbox.Box, error) {
	env := runtime.NewEnv(environ)
	file := map[string]string{}
	for _, s := range p.Entry.Config {
		if strings.HasPrefix(s.Key, "runtime.") {
			file[s.Key] = s.Value
		}
	}
	cfg, err := sandbox.Resolve(env.Get, file, p.Workspace)
	if err != nil || !cfg.Enabled {
		return nil, err
	}
	if inboxURL(environ) != "" {
		return nil, errSandboxBroker
	}
	box, err := sandbox.OpenDocker(ctx, cfg, p.Workspace, environ, io.Discard)
	if err != nil && runtime.Interruption(ctx) != nil {
		// Ctrl-C while the image was pulled or built: the run reports the
		// signal (130/143) as any run stopped before its first step.
		return interrupted{context.Cause(ctx)}, nil
	}
	if err != nil {
		return nil, err
	}
	return box, nil
}

// interrupted is a sandbox whose readying a signal stopped.
type interrupted struct{ cause error }

func (i interrupted) Run(context.Context, sandbox.Job) (sandbox.Result, error) {
	return sandbox.Result{}, i.cause
}

// executeSandboxed is Execute in the sandbox: the sandboxed jaiph prepares
// and runs the program (module locals included), the host shows and hooks
// its events and reads its outcome. The exit status is the sandbox's.
func (r *Run) executeSandboxed(ctx context.Context, o RunOptions, stray *countingWriter, started func(time.Time)) (Outcome, error) {
	p := r.Program
	// The run shows as started (the header, workflow_start) when the
	// container's jaiph reports first: a container that never starts shows
	// nothing but why. Its elapsed time counts from the container's start.
	start := time.Now()
	obs := o.Observer
	noAgent := false
	files := newHostFiles(o, p.Workspace, cmp.Or[io.Writer](o.Notices, stray.w))
	if o.Resume != "" {
		if err := files.resume(o.Resume); err != nil {
			return Outcome{}, err
		}
	}
	res, err := r.box.Run(ctx, sandbox.Job{Entry: p.Path, Workspace: p.Workspace, Args: o.Args, Resume: o.Resume,
		Workflow: o.Workflow, RunID: o.RunID, Environ: o.Environ, Stray: stray, Stderr: stray.w, Append: files.Append,
		Opened: func(dir, id string) {
			files.Opened(dir, id)
			if o.OnRunDir != nil {
				o.OnRunDir(dir)
			}
		},
		Started: func() {
			if started != nil {
				started(time.Now())
			}
		},
		Event: func(e *event.Event) {
			noAgent = noAgent || agentMissing(e)
			if obs != nil {
				obs.Event(e)
			}
		}})
	files.close(res.Outcome != nil)
	if noAgent {
		fmt.Fprintln(stray.w, sandboxNoAgent)
	}
	in := runtime.Interruption(ctx)
	if err != nil {
		return Outcome{Interrupted: in}, fmt.Errorf("the Docker sandbox did not start: %w", err)
	}
	switch {
	case res.NotStarted != "" && res.TimedOut:
		// The timeout counts from `docker run`: on a busy machine it can
		// end before the container's jaiph reports. The run fails as one
		// stopped later does (the line, the FAIL block), only without the
		// header of a run that never showed as started.
		fmt.Fprintln(stray, timedOut)
		return Outcome{Status: 1, Failed: true, Elapsed: time.Since(start)}, nil
	case res.NotStarted != "" && in != nil:
		return Outcome{Interrupted: in}, context.Cause(ctx)
	case res.NotStarted != "":
		return Outcome{}, fmt.Errorf("E_DOCKER_RUN the container did not start: %s", res.NotStarted)
	case res.Error != "" && res.Outcome == nil:
		return Outcome{Interrupted: in}, errors.New(res.Error)
	}
	out := Outcome{Status: res.ExitCode, Elapsed: time.Since(start), Interrupted: in}
	if r := res.Outcome; r != nil {
		out.Status, out.RunID, out.RunDir, out.Value = r.Status, r.RunID, r.RunDir, r.Value
		out.LastOut, out.LastErr, out.FailedOut, out.FailedErr = r.LastOut, r.LastErr, r.FailedOut, r.FailedErr
		out.Failed = r.Failed
	}
	// The container's exit status decides: the records only describe.
	if res.ExitCode != 0 {
		out.Failed = true
		if out.Status == 0 {
			out.Status = res.ExitCode
		}
	}
	if res.TimedOut {
		fmt.Fprintln(stray, timedOut)
		out.Failed = true
	}
	if out.RunDir != "" {
		out.SummaryFile = filepath.Join(out.RunDir, "run_summary.jsonl")
	}
	return out, nil
}

const timedOut = "E_TIMEOUT container execution exceeded timeout"

const sandboxNoAgent = "jaiph: the agent CLI was not found in the Docker sandbox: it must be in the image " +
	"(JAIPH_DOCKER_IMAGE, .jaiph/Dockerfile) or in a mounted directory named by agent.command (docs/sandbox.md)"

// agentMissing reports a prompt step that failed because its agent CLI
// was not found.
func agentMissing(e *event.Event) bool {
	if e.Type != event.StepEnd || e.Kind != "prompt" || e.Status == nil || *e.Status == 0 || e.ErrContent == nil {
		return false
	}
	return strings.Contains(*e.ErrContent, ": command not found") || strings.Contains(*e.ErrContent, "was not found in PATH")
}

// SandboxArgs are what the host's jaiph passes the sandboxed one.
type SandboxArgs struct {
	Workspace, Resume, Workflow, Entry, RunID string
	Args                                      []string
	Deliver                                   string // a broker delivery's target (sandbox.Job.Deliver)
}

// ServeSandbox is the sandboxed side (`jaiph __sandbox`, inside the
// container): it runs the program in this process (it is the sandbox) as
// Execute does and reports the run on stdout (sandbox.Reporter). When stdin ends (the host's jaiph is gone)
// the run stops as on SIGTERM. It returns the exit status.
func ServeSandbox(ctx context.Context, a SandboxArgs, environ []string, stdin io.Reader, stdout io.Writer) int {
	rep := sandbox.NewReporter(stdout)
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	go func() {
		io.Copy(io.Discard, stdin)
		cancel(&runtime.Interrupted{Signal: syscall.SIGTERM})
	}()
	p, err := Load(a.Entry)
	if err != nil {
		rep.Error(err)
		return 1
	}
	if a.Workspace != "" {
		p.Workspace = a.Workspace
	}
	if a.Deliver != "" {
		return serveDelivery(ctx, p, a, environ, rep)
	}
	out, err := p.InProcess().Execute(ctx, RunOptions{Environ: environ, Args: a.Args, Stdin: strings.NewReader(""),
		StrayStderr: rep, Observer: rep, Resume: a.Resume, Workflow: a.Workflow, Records: rep, RunID: a.RunID}, nil)
	if err != nil {
		if out.Interrupted == nil {
			rep.Error(err)
			return 1
		}
	}
	r := sandbox.Outcome{Status: out.Status, Failed: out.Failed, RunID: out.RunID, RunDir: out.RunDir,
		LastOut: out.LastOut, LastErr: out.LastErr, FailedOut: out.FailedOut, FailedErr: out.FailedErr,
		Value: out.Value, ExitStatus: out.ExitStatus()}
	if out.Interrupted != nil {
		r.Signal = int(out.Interrupted.Signal)
	}
	rep.Outcome(r)
	return out.ExitStatus()
}

// serveDelivery runs a broker delivery in the sandbox (`jaiph worker
// --sandbox docker`): the target with the message as its arguments, its
// sends reported back as records, no run records kept (the run lives with
// its orchestrator).
func serveDelivery(ctx context.Context, p *Program, a SandboxArgs, environ []string, rep *sandbox.Reporter) int {
	if len(a.Args) != 3 {
		rep.Error(fmt.Errorf("jaiph %s --deliver: want the payload, the channel and the sender", sandbox.InnerCommand))
		return 2
	}
	rt, _, err := p.InProcess().Prepare(ctx, RunOptions{Environ: environ, Stdin: strings.NewReader(""), StrayStderr: rep, Observer: rep,
		Workspace: p.Workspace, Ephemeral: true})
	if err != nil {
		rep.Error(err)
		return 1
	}
	status, err := rt.Deliver(ctx, runtime.Delivery{Target: a.Deliver, Payload: a.Args[0], Channel: a.Args[1], Sender: a.Args[2],
		Queue: reportedSends{rep}})
	rt.Close()
	if err != nil && status == 0 {
		status = 1
	}
	if err != nil {
		io.WriteString(rep, "jaiph: "+err.Error()+"\n")
	}
	rep.Outcome(sandbox.Outcome{Status: status, Failed: status != 0, RunID: rt.RunID(), RunDir: rt.RunDir(), ExitStatus: status})
	return status
}

// reportedSends is the queue of a delivery in the sandbox: each send is a
// record for the worker, which stores it with the delivery's result.
type reportedSends struct{ rep *sandbox.Reporter }

func (q reportedSends) Send(_ context.Context, channel, sender, content string) error {
	q.rep.Send(sandbox.Sent{Channel: channel, Sender: sender, Content: content})
	return nil
}

func (reportedSends) Drain(context.Context, io.Writer) int { return 0 }
func (reportedSends) Close()                               {}
func (reportedSends) Dir() string                          { return "" }

// OpenWorkerSandbox readies the sandbox a worker runs program p's
// deliveries in (`jaiph worker --sandbox docker`): the worker's directory
// is the workspace, the sandbox settings are the operator's environment
// over p's entry config, as for a run.
func OpenWorkerSandbox(ctx context.Context, p *Program, workspace string, environ []string) (sandbox.Box, error) {
	env := runtime.NewEnv(append(environ, "JAIPH_DOCKER_ENABLED=true"))
	file := map[string]string{}
	for _, s := range p.Entry.Config {
		if strings.HasPrefix(s.Key, "runtime.") {
			file[s.Key] = s.Value
		}
	}
	cfg, err := sandbox.Resolve(env.Get, file, workspace)
	if err != nil {
		return nil, err
	}
	return sandbox.OpenDocker(ctx, cfg, workspace, environ, io.Discard)
}
