package engine

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/jaiph-go/jaiph/event"
	"github.com/jaiph-go/jaiph/hooks"
	"github.com/jaiph-go/jaiph/otlp"
	"github.com/jaiph-go/jaiph/progress"
	"github.com/jaiph-go/jaiph/runtime"
)

// Terminal is where `jaiph run` reads and writes: the process's streams
// and environment.
type Terminal struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Environ        []string
	Home           string // the user's home directory, for ~/.jaiph/hooks.json
	Resume         string // the run directory `jaiph resume` continues (resume.go)
}

// HookWait bounds how long a run waits, just before it returns, for hook
// commands that are still running (docs/differences.md).
const HookWait = 5 * time.Second

// RunInTerminal runs the default workflow with args as `jaiph run` shows
// it: hooks fire, the progress tree goes to stdout (a live RUNNING line on
// a TTY, heartbeats elsewhere; cli.md §5) after the header, and the PASS
// line or the FAIL block ends it. It returns the exit status.
func (p *Program) RunInTerminal(ctx context.Context, t Terminal, args []string) int {
	hk := hooks.Load(t.Home, p.Workspace, t.Stderr)
	defer hk.Wait(HookWait)
	style := progress.NewStyle(progress.ColourWanted(t.Stdout))
	tree := progress.NewTree(t.Stdout, style, progress.TTY(progress.IsTerminal(t.Stdout)),
		progress.WithHeartbeat(progress.HeartbeatFromEnv(lookup(t.Environ))))
	stray := progress.NewStrayLog(tree.StrayWriter(t.Stderr))
	obs := event.Observers{tree, hk}
	if tr := otlp.Start(t.Environ, t.Stderr); tr != nil { // OTEL_EXPORTER_OTLP_ENDPOINT set
		obs = append(obs, tr)
		defer tr.Close() // after the result is shown; at most otlp.ShutdownWait
	}
	out, err := p.Execute(ctx, RunOptions{Environ: t.Environ, Args: args, Stdin: t.Stdin, Resume: t.Resume,
		StrayStderr: stray, Observer: obs}, func(start time.Time) {
		hk.SetMessageWriter(tree.NoticeWriter(t.Stderr)) // above the RUNNING line once live
		hk.WorkflowStart(p.Path, p.Workspace)
		tree.Header(p.Source, args)
		tree.Start(start)
	})
	tree.Stop() // the RUNNING line goes and the ticker ends before the result
	switch {
	case err != nil && out.Interrupted != nil: // stopped while module locals ran: no step ran
		fmt.Fprintf(t.Stderr, "Process terminated by signal %s\n", out.Interrupted.SignalName())
		return out.ExitStatus()
	case err != nil:
		fmt.Fprintf(t.Stderr, "jaiph: %v\n", err)
		return 1
	}
	if !out.Failed {
		hk.WorkflowEnd(out.RunID, 0, out.Elapsed, out.RunDir, out.SummaryFile)
		progress.Pass(t.Stdout, style, out.Elapsed)
		return 0
	}
	hk.WorkflowEnd(out.RunID, 1, out.Elapsed, out.RunDir, out.SummaryFile)
	progress.Fail(t.Stderr, style, out.Failure(stray.LastLine()))
	return out.ExitStatus()
}

// lookup reads an environment list as os.LookupEnv reads the process's.
func lookup(environ []string) func(string) (string, bool) {
	env := runtime.NewEnv(environ)
	return func(k string) (string, bool) { return env.Get(k), env.Has(k) }
}
