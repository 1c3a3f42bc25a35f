package serve

// This file answers: how does a served run run, end and stop?

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"syscall"
	"time"

	"github.com/jaiph-go/jaiph/internal/engine"
	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/observe/progress"
	"github.com/jaiph-go/jaiph/internal/redact"
	"github.com/jaiph-go/jaiph/internal/served"
	"github.com/jaiph-go/jaiph/internal/store/chain"
	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/jaiph-go/jaiph/internal/tools/mcpserver"
	"github.com/jaiph-go/jaiph/runtime"
)

// executor runs workflows in this process, as `jaiph run` would.
type executor struct {
	environ []string // the runs' environment: the server's, its credentials left out
	home    string
	stderr  io.Writer // the hooks' messages
	red     *redact.Redactor
	keys    string // the key store that chains the runs' records
}

// outcome is how a run ended, for its record and an MCP result.
type outcome struct {
	out    engine.Outcome
	err    error // the run did not start (nothing ran)
	root   *mcpserver.RootStep
	stray  string // the last line of its stray stderr
	status string
}

// execute runs w with args as the run e names (cancelled through
// e.cancel), then records its end.
func (l *local) execute(runCtx context.Context, e *entry, w workflow, args []string) {
	x := l.exec
	defer e.cancel(nil)
	res := outcome{root: &mcpserver.RootStep{}}
	leave := l.lane.enter(runCtx)
	defer leave()
	res.out, res.err, res.stray = x.run(runCtx, e, w, args, event.Observers{res.root, wakeOn{e}})
	res.status = statusOf(res, runCtx)
	l.runs.finish(e, func(r *Run) {
		r.Waiting = nil
		now := time.Now().UTC()
		r.EndedAt, r.Status = &now, res.status
		if res.err != nil {
			st := 1
			r.ExitStatus = &st
			r.ResultText = x.red.String("the run did not start: " + res.err.Error())
			return
		}
		st := res.out.ExitStatus()
		r.ExitStatus = &st
		if res.out.Interrupted != nil {
			r.Signal = res.out.Interrupted.SignalName()
		}
		if res.out.RunDir != "" {
			r.RunDir = res.out.RunDir
			r.Integrity = runs.Verify(res.out.RunDir, chain.Store{Dir: x.keys}).String()
		}
		r.ResultText = resultText(w, res, x.red)
		r.Output = x.red.String(res.root.Output())
	})
}

// run is one run of w: plan, execute, hooks. The error: it did not start.
func (x *executor) run(ctx context.Context, e *entry, w workflow, args []string, obs event.Observers) (engine.Outcome, error, string) {
	prog, err := engine.Open(w.File)
	if err != nil {
		return engine.Outcome{}, err, ""
	}
	run, err := prog.Plan(ctx, x.environ)
	if err != nil {
		return engine.Outcome{Interrupted: runtime.Interruption(ctx)}, err, ""
	}
	watch := prog.Watch(x.environ, x.home, x.stderr)
	defer watch.Close()
	stray := progress.NewStrayLog(io.Discard)
	strayOut := redact.NewWriter(x.red, stray)
	rec := e.snapshot()
	out, err := run.Execute(ctx, engine.RunOptions{Environ: x.environ, Args: args, Workflow: w.Workflow,
		StrayStderr: strayOut, Observer: append(obs, watch.Observers()...), RunID: rec.RunID, KeyDir: x.keys, Notices: x.stderr,
		OnRunDir: func(dir string) {
			e.mu.Lock()
			e.rec.RunDir = dir
			e.mu.Unlock()
			e.wake()
		}}, func(time.Time) { watch.Started(prog) })
	strayOut.Flush()
	if err != nil {
		return out, err, ""
	}
	watch.Ended(out)
	return out, nil, stray.LastLine()
}

// statusOf is the run's status word.
func statusOf(res outcome, ctx context.Context) string {
	switch {
	case isCancel(ctx):
		return statusCancelled
	case res.out.Interrupted != nil && res.out.Interrupted.Limit == "":
		return statusInterrupted // the server's own SIGINT or SIGTERM
	case res.err != nil || res.out.Failed || res.out.Interrupted != nil:
		return statusFailed
	}
	return statusSucceeded
}

// cancelled is the cause a run's cancel (POST …/cancel, a hung-up MCP
// call) interrupts it with: SIGTERM, as `kill` would.
// It unwraps to the *runtime.Interrupted the runtime looks for.
type cancelled struct{ in *runtime.Interrupted }

func (c *cancelled) Error() string { return "cancelled" }
func (c *cancelled) Unwrap() error { return c.in }

func cancelCause() error { return &cancelled{&runtime.Interrupted{Signal: syscall.SIGTERM}} }

func isCancel(ctx context.Context) bool {
	var c *cancelled
	return errors.As(context.Cause(ctx), &c)
}

// resultText is the run's result_text: the return value of a passed run,
// else what an MCP client reads of it (the failure narrative), redacted.
func resultText(w workflow, res outcome, red *redact.Redactor) string {
	if !res.out.Failed && res.out.Interrupted == nil {
		return red.String(res.out.Value)
	}
	o := mcpserver.Output{Status: res.out.ExitStatus(), Output: red.String(res.root.Output()),
		ReturnValue: red.String(res.out.Value), RunDir: res.out.RunDir, SummaryFile: res.out.SummaryFile}
	return red.String(mcpserver.ResultText(w.Workflow, o, res.out, res.stray))
}

// wakeOn wakes the run's followers at each event, and keeps the run's
// waiting receive (RECEIVE_WAIT … RECEIVE) in its object.
type wakeOn struct{ e *entry }

func (w wakeOn) Event(ev *event.Event) {
	switch ev.Type {
	case event.ReceiveWait:
		wt := &served.Waiting{Channel: ev.Channel, Key: ev.Key, Since: ev.Time.UTC()}
		if d, err := time.ParseDuration(ev.Timeout); err == nil && d > 0 {
			at := wt.Since.Add(d)
			wt.TimeoutAt = &at
		}
		w.e.mu.Lock()
		w.e.rec.Waiting = wt
		w.e.mu.Unlock()
	case event.Receive:
		w.e.mu.Lock()
		w.e.rec.Waiting = nil
		w.e.mu.Unlock()
	}
	w.e.wake()
}

// summaryPath is the run's summary file.
func summaryPath(runDir string) string { return filepath.Join(runDir, "run_summary.jsonl") }
