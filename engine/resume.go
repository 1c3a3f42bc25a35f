package engine

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/jaiph-go/jaiph/runs"
	"github.com/jaiph-go/jaiph/runtime"
)

// Resume continues the run in dir (docs/durability.md "Journal and
// resume"): the same entry, arguments and JAIPH_* settings, in the same
// run directory, replaying the calls its journal says completed. It
// refuses (status 1) a live run, a passed one, and, unless force, one
// whose sources changed.
func Resume(ctx context.Context, t Terminal, dir string, force bool) int {
	meta, err := runs.Resumable(dir, force)
	if err != nil {
		fmt.Fprintf(t.Stderr, "jaiph resume: %v\n", err)
		return 1
	}
	prog, err := Open(meta.Entry)
	if err != nil {
		fmt.Fprintln(t.Stderr, err)
		return 1
	}
	t.Environ, t.Resume = meta.Environ(t.Environ), dir
	if err := prog.Refuse(ctx, t.Environ); err != nil {
		fmt.Fprintln(t.Stderr, err)
		return 1
	}
	return prog.RunInTerminal(ctx, t, meta.Args)
}

// ResumeShort and ResumeLong are `jaiph resume`'s help.
const (
	ResumeShort = "Continue an interrupted or failed run, replaying its completed calls"
	ResumeLong  = `Run RUN_DIR's entry again with the same arguments and JAIPH_* settings, in the same
run directory: the calls its journal records as completed are replayed, the rest run
(docs/durability.md). RUN_DIR defaults to the workspace's newest interrupted or failed
run. Refused: a run still running, a run that passed, a run whose sources changed
(unless --force).`
)

// ResumeCLI is `jaiph resume [RUN_DIR] [--force]` for the process's
// streams, environment and working directory; it returns the exit status.
func ResumeCLI(args []string, force bool, stdout, stderr io.Writer) int {
	var dir string
	var err error
	if len(args) == 0 {
		dir, err = runs.NewestResumable(runs.Root(CwdWorkspace(), os.Getenv("JAIPH_RUNS_DIR")))
	} else {
		dir, err = filepath.Abs(args[0])
	}
	if err != nil {
		fmt.Fprintf(stderr, "jaiph resume: %v\n", err)
		return 1
	}
	ctx, stop := runtime.NotifyInterrupt()
	defer stop()
	home, _ := os.UserHomeDir()
	return Resume(ctx, Terminal{Stdin: os.Stdin, Stdout: stdout, Stderr: stderr, Environ: os.Environ(), Home: home}, dir, force)
}

// CwdWorkspace is the workspace root of the working directory (the
// commands that read runs: runs, inbox, resume).
func CwdWorkspace() string {
	wd, _ := os.Getwd()
	return runtime.WorkspaceRoot(wd)
}
