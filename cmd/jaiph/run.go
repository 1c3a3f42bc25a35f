package main

import (
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/engine"
	"github.com/jaiph-go/jaiph/event"
	"github.com/jaiph-go/jaiph/hooks"
	"github.com/jaiph-go/jaiph/internal/buildinfo"
	"github.com/jaiph-go/jaiph/progress"
	"github.com/jaiph-go/jaiph/runtime"
)

func newRunCmd(stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		DisableFlagsInUseLine: true,
		Use:                   "run [--target DIR] FILE [--] [ARGS...]",
		Short:                 "Run the default workflow of a .jh file",
		Long: `Run the workflow named "default" in FILE with ARGS as $1, $2, ….

Steps write their output to .jaiph/runs/<date>/<time>-<file>/ under the
workspace root; the progress tree goes to stdout, failures to stderr.
Exit status: 0 on success, 1 on failure or a compile error.`,
		DisableFlagParsing: true,
		RunE:               selfParsing(true, true, func(ca cmdArgs) int { return runFile(ca, stdout, stderr) }),
	}
	// Parsed by the command itself (cli.md §1); declared for its help.
	cmd.Flags().String("target", "", "also write the lowered shell of the entry and its imports below DIR, as build --target does")
	return cmd
}

func runFile(ca cmdArgs, stdout, stderr io.Writer) int {
	if len(ca.pos) == 0 {
		fmt.Fprintln(stderr, "jaiph run requires a .jh or .jph file path")
		return 1
	}
	wfArgs := ca.pos[1:]
	prog, err := engine.Open(ca.pos[0])
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	home, _ := os.UserHomeDir()
	hk := hooks.Load(home, prog.Workspace, stderr)
	defer hk.Wait(hookWait)
	if strings.HasSuffix(prog.Path, ".jph") && progress.IsTerminal(stderr) {
		fmt.Fprintln(stderr, "jaiph: .jph extension is deprecated; use .jh for new files. Migration: mv *.jph *.jh")
	}
	if ca.target != "" { // D5: keep the lowered shell as build --target writes it
		if err := prog.Keep(ca.target, buildinfo.Generator); err != nil {
			fmt.Fprintf(stderr, "jaiph run: --target: %v\n", err)
			return 1
		}
	}
	ctx, stop := runtime.NotifyInterrupt()
	defer stop()
	// A requested sandbox never becomes a run on the host: checked before
	// module locals run anything.
	if err := prog.Refuse(ctx, os.Environ()); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	style := progress.NewStyle(progress.ColourWanted(stdout))
	// TTY: a live RUNNING line and stray stderr kept off the screen; else
	// heartbeats for long steps (cli.md §5).
	tree := progress.NewTree(stdout, style, progress.TTY(progress.IsTerminal(stdout)),
		progress.WithHeartbeat(progress.HeartbeatFromEnv(os.LookupEnv)))
	stray := progress.NewStrayLog(tree.StrayWriter(stderr))
	out, err := prog.Execute(ctx, engine.RunOptions{Environ: os.Environ(), Args: wfArgs, Stdin: os.Stdin,
		StrayStderr: stray, Observer: event.Observers{tree, hk}}, func(start time.Time) {
		hk.SetMessageWriter(tree.NoticeWriter(stderr)) // above the RUNNING line once live
		hk.WorkflowStart(prog.Path, prog.Workspace)
		tree.Header(prog.Source, wfArgs)
		tree.Start(start)
	})
	tree.Stop() // the RUNNING line goes and the ticker ends before the result
	switch {
	case err != nil && out.Interrupted != nil: // stopped while module locals ran: no step ran
		fmt.Fprintf(stderr, "Process terminated by signal %s\n", out.Interrupted.SignalName())
		return out.ExitStatus()
	case err != nil:
		fmt.Fprintf(stderr, "jaiph: %v\n", err)
		return 1
	}
	if !out.Failed {
		hk.WorkflowEnd(out.RunID, 0, out.Elapsed, out.RunDir, out.SummaryFile)
		progress.Pass(stdout, style, out.Elapsed)
		return 0
	}
	hk.WorkflowEnd(out.RunID, 1, out.Elapsed, out.RunDir, out.SummaryFile)
	progress.Fail(stderr, style, out.Failure(stray.LastLine()))
	return out.ExitStatus()
}

// hookWait bounds how long `jaiph run` waits, just before exiting, for hook
// commands that are still running (docs/differences.md).
const hookWait = 5 * time.Second
