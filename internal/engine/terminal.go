package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/observe/progress"
	"github.com/jaiph-go/jaiph/internal/redact"
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
	// KeyDir is the user's key store (internal/store/chain), named by the
	// environment the process started with: a resume's recorded settings
	// never move it. "": the one Environ names.
	KeyDir string
}

// ProcessTerminal is this process's terminal: its stdin, environment
// and home, with stdout and stderr as given.
func ProcessTerminal(stdout, stderr io.Writer) Terminal {
	home, _ := os.UserHomeDir()
	environ := os.Environ()
	return Terminal{Stdin: os.Stdin, Stdout: stdout, Stderr: stderr, Environ: environ, Home: home,
		KeyDir: keyStore("", environ).Dir}
}

// HookWait bounds how long a run waits, just before it returns, for hook
// commands that are still running (docs/differences.md).
const HookWait = 5 * time.Second

// FileRun is what `jaiph run` asks for.
type FileRun struct {
	File string   // the .jh or .jph entry
	Args []string // the workflow's ($1, …)
	// Target keeps the lowered shell of the entry and its imports below
	// this directory as `jaiph build --target` writes it, marked with
	// Generator (D5).
	Target, Generator string
	Inbox             Inbox
}

// RunFile is `jaiph run`: it compiles r.File, places the run (Plan) and
// runs it in the terminal (RunInTerminal). A problem before the run
// starts goes to t.Stderr as the reference prints it. It returns the exit
// status.
func RunFile(ctx context.Context, t Terminal, r FileRun) int {
	prog, err := Open(r.File)
	if err != nil {
		fmt.Fprintln(t.Stderr, err)
		return 1
	}
	if strings.HasSuffix(prog.Path, ".jph") && progress.IsTerminal(t.Stderr) {
		fmt.Fprintln(t.Stderr, "jaiph: .jph extension is deprecated; use .jh for new files. Migration: mv *.jph *.jh")
	}
	if r.Target != "" {
		if err := prog.Keep(r.Target, r.Generator); err != nil {
			fmt.Fprintf(t.Stderr, "jaiph run: --target: %v\n", err)
			return 1
		}
	}
	if err := r.Inbox.check(); err != nil {
		fmt.Fprintf(t.Stderr, "jaiph: %v\n", err)
		return 1
	}
	t.Environ = r.Inbox.apply(t.Environ)
	run, err := prog.Plan(ctx, t.Environ)
	if err != nil {
		fmt.Fprintln(t.Stderr, err)
		return 1
	}
	return run.RunInTerminal(ctx, t, r.Args)
}

// RunInTerminal runs the default workflow with args as `jaiph run` shows
// it: hooks fire, the progress tree goes to stdout (a live RUNNING line on
// a TTY, heartbeats elsewhere; docs/cli.md#the-progress-tree) after the header, and the PASS
// line or the FAIL block ends it. It returns the exit status.
func (r *Run) RunInTerminal(ctx context.Context, t Terminal, args []string) int {
	p := r.Program
	w := p.Watch(t.Environ, t.Home, t.Stderr)
	defer w.Close() // after the result is shown
	style := progress.NewStyle(progress.ColourWanted(t.Stdout))
	tree := progress.NewTree(t.Stdout, style, progress.TTY(progress.IsTerminal(t.Stdout)),
		progress.WithHeartbeat(progress.HeartbeatFromEnv(lookup(t.Environ))))
	stray := progress.NewStrayLog(tree.StrayWriter(t.Stderr))
	// Events come masked from the runtime; the arguments shown in the
	// header and what a body writes to the run's own stderr are masked
	// here (docs/security.md).
	red := redact.FromEnv(t.Environ)
	strayOut := redact.NewWriter(red, stray)
	out, err := r.Execute(ctx, RunOptions{Environ: t.Environ, Args: args, Stdin: t.Stdin, Resume: t.Resume, KeyDir: t.KeyDir,
		Notices: tree.NoticeWriter(t.Stderr), StrayStderr: strayOut, Observer: append(event.Observers{tree}, w.Observers()...)}, func(start time.Time) {
		w.Hooks.SetMessageWriter(tree.NoticeWriter(t.Stderr)) // above the RUNNING line once live
		w.Started(p)
		shown := append([]string(nil), args...)
		red.Strings(shown)
		tree.Header(p.Source, shown)
		tree.Start(start)
	})
	strayOut.Flush()
	tree.Stop() // the RUNNING line goes and the ticker ends before the result
	switch {
	case err != nil && out.Interrupted != nil: // stopped while module locals ran: no step ran
		fmt.Fprintf(t.Stderr, "Process terminated by signal %s\n", out.Interrupted.SignalName())
		return out.ExitStatus()
	case err != nil:
		fmt.Fprintf(t.Stderr, "jaiph: %v\n", err)
		if le := (*runtime.LocalError)(nil); errors.As(err, &le) && le.Status > 0 {
			return le.Status // as the reference's script exits under set -e
		}
		return 1
	}
	w.Ended(out)
	if !out.Failed {
		progress.Pass(t.Stdout, style, out.Elapsed)
		return 0
	}
	progress.Fail(t.Stderr, style, out.Failure(stray.LastLine()))
	return out.ExitStatus()
}

// lookup reads an environment list as os.LookupEnv reads the process's.
func lookup(environ []string) func(string) (string, bool) {
	env := runtime.NewEnv(environ)
	return func(k string) (string, bool) { return env.Get(k), env.Has(k) }
}
