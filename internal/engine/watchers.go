package engine

import (
	"io"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/observe/hooks"
)

// Tracer exports a run's trace while it runs (internal/observe/otlp in
// the jaiph-full build): an observer of the run's events, told when the
// run failed, closed once the result was shown.
type Tracer interface {
	event.Observer
	Fail()
	Close()
}

// startTracer starts the trace of a run when its environment asks for one
// (nil: it does not). Only the jaiph-full build registers one; the default
// build hands runs whose environment names an OTLP endpoint to jaiph-full
// before they start (internal/fullbuild).
var startTracer func(environ []string, stderr io.Writer) Tracer

// RegisterTracer sets how runs start their trace.
func RegisterTracer(start func(environ []string, stderr io.Writer) Tracer) { startTracer = start }

// Watchers are what watches every run a front end starts (`jaiph run`,
// `jaiph resume`, a `jaiph mcp` tool call) besides its own display: the
// user's hooks (~/.jaiph/hooks.json, the workspace's) and, when an OTLP
// endpoint is set, the run's trace.
type Watchers struct {
	Hooks *hooks.Hooks
	trace Tracer // nil without an endpoint
}

// Watch loads the hooks of the user at home for p's workspace (their
// messages go to stderr) and starts the trace export when environ names an
// OTLP endpoint.
func (p *Program) Watch(environ []string, home string, stderr io.Writer) *Watchers {
	trusted := hooks.Trusted(envGet(environ, "JAIPH_TRUST_HOOKS"), home, p.Workspace)
	w := &Watchers{Hooks: hooks.Load(home, p.Workspace, trusted, stderr)}
	if startTracer != nil {
		w.trace = startTracer(environ, stderr)
	}
	return w
}

// Observers are the watchers as event observers, to pass with the front
// end's own in RunOptions.Observer.
func (w *Watchers) Observers() event.Observers {
	if w.trace == nil {
		return event.Observers{w.Hooks}
	}
	return event.Observers{w.Hooks, w.trace}
}

// Started fires the workflow_start hook of p's run.
func (w *Watchers) Started(p *Program) { w.Hooks.WorkflowStart(p.Path, p.Workspace) }

// Ended fires the workflow_end hook with the run's outcome and gives the
// trace the run's result (a run can fail with every call passed).
func (w *Watchers) Ended(out Outcome) {
	status := 0
	if out.Failed {
		status = 1
		if w.trace != nil {
			w.trace.Fail()
		}
	}
	w.Hooks.WorkflowEnd(out.RunID, status, out.Elapsed, out.RunDir, out.SummaryFile)
}

// Close sends the rest of the trace (at most otlp.ShutdownWait) and waits
// for hook commands still running (at most HookWait); call it once the
// result has been shown.
func (w *Watchers) Close() {
	if w.trace != nil {
		w.trace.Close()
	}
	w.Hooks.Wait(HookWait)
}

// envGet is a variable of an environment list ("" when unset).
func envGet(environ []string, key string) string {
	v, _ := lookup(environ)(key)
	return v
}
