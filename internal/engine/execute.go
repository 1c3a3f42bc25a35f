package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sync/atomic"
	"time"

	"github.com/jaiph-go/jaiph/internal/envflag"
	"github.com/jaiph-go/jaiph/internal/observe/progress"
	"github.com/jaiph-go/jaiph/runtime"
)

// Outcome is how a run of the default workflow ended.
type Outcome struct {
	Status int // the root step's status
	// Failed is the run's result (docs/cli.md#jaiph-run): the status is not 0, or
	// something reached the run's stray stderr while JAIPH_DEBUG is not
	// true.
	Failed  bool
	Elapsed time.Duration
	// RunID, RunDir and SummaryFile are "" when no step ran.
	RunID, RunDir, SummaryFile string
	// LastOut and LastErr are the artifacts the FAIL block names: the
	// failure's (runtime.FailureArtifacts, D24).
	LastOut, LastErr string
	// FailedOut and FailedErr are the out_content and err_content of the
	// first failed step (nil when absent).
	FailedOut, FailedErr *string
	// Interrupted is the signal that stopped the run, if any.
	Interrupted *runtime.Interrupted
	// Value is the root workflow's return value.
	Value string
	// Suspended: the run stopped at a receive to continue elsewhere
	// (runtime.ErrSuspend); it did not end.
	Suspended bool
}

// ExitStatus is the process exit status for the outcome: 0, 1, or
// 128+signal after an interruption (D22).
func (o Outcome) ExitStatus() int {
	switch {
	case o.Interrupted != nil:
		return o.Interrupted.Status()
	case o.Failed:
		return 1
	}
	return 0
}

// Failure is the FAIL block of a failed outcome; strayLine is the last line
// that reached the run's stray stderr.
func (o Outcome) Failure(strayLine string) progress.Failure {
	signal := ""
	if o.Interrupted != nil {
		signal = o.Interrupted.SignalName()
	}
	return progress.Failure{Elapsed: o.Elapsed, Summary: "Workflow execution failed.", Signal: signal, StrayLine: strayLine, RunDir: o.RunDir,
		LastOut: o.LastOut, LastErr: o.LastErr, FailedOut: o.FailedOut, FailedErr: o.FailedErr}
}

// Execute runs the program where it was placed: in this process it
// prepares the run (Prepare) and calls the default workflow (or
// o.Workflow) with o.Args; in the sandbox the sandboxed jaiph does.
// started is called with the start time just before the root step
// (hooks, the header). Errors of the run itself go to o.StrayStderr as the
// reference prints them; the returned error is a preparation failure, after
// which nothing ran.
func (r *Run) Execute(ctx context.Context, o RunOptions, started func(time.Time)) (Outcome, error) {
	stray := &countingWriter{w: o.StrayStderr}
	if o.StrayStderr == nil {
		stray.w = io.Discard
	}
	o.StrayStderr = stray
	if r.box != nil {
		return r.executeSandboxed(ctx, o, stray, started)
	}
	rt, env, err := r.Prepare(ctx, o)
	if err != nil {
		return Outcome{Interrupted: runtime.Interruption(ctx)}, err
	}
	defer rt.Close()
	start := time.Now()
	if started != nil {
		started(start)
	}
	status, runErr := rt.Run(ctx, o.Args)
	if why := rt.Limited(); why != "" {
		fmt.Fprintf(stray, "jaiph: %s\n", why)
		status, runErr = max(status, 1), nil
	}
	if errors.Is(runErr, runtime.ErrNoDefault) {
		fmt.Fprintln(stray, runErr.Error())
	} else if runErr != nil && !errors.Is(runErr, context.Canceled) {
		fmt.Fprintf(stray, "jaiph: %v\n", runErr)
	}
	out := Outcome{Status: status, Elapsed: time.Since(start), RunID: rt.RunID(), RunDir: rt.RunDir(),
		Interrupted: runtime.Interruption(ctx), Value: rt.Returned()}
	out.Failed = status != 0 || (stray.n.Load() > 0 && !envflag.True(env.Get("JAIPH_DEBUG")))
	if out.RunDir != "" {
		out.SummaryFile = filepath.Join(out.RunDir, "run_summary.jsonl")
	}
	if out.Suspended = rt.Suspended(); out.Suspended {
		return out, nil // not ended: its records stay as a killed run's, to resume
	}
	if err := rt.End(out.Failed, out.ExitStatus(), signalName(out.Interrupted)); err != nil {
		fmt.Fprintf(stray, "jaiph: cannot record the end of the run: %v\n", err)
	}
	if out.Failed {
		out.LastOut, out.LastErr = rt.FailureArtifacts()
		if e := rt.FirstFailure(); e != nil {
			out.FailedOut, out.FailedErr = e.OutContent, e.ErrContent
		}
	}
	return out, nil
}

func signalName(in *runtime.Interrupted) string {
	if in == nil {
		return ""
	}
	return in.SignalName()
}

// countingWriter counts what passes through it.
type countingWriter struct {
	w io.Writer
	n atomic.Int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	c.n.Add(int64(len(p)))
	return c.w.Write(p)
}
