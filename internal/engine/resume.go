package engine

import (
	"context"
	"fmt"

	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/jaiph-go/jaiph/runtime"
)

// ResumeHelp is `jaiph resume`'s help text.
const ResumeHelp = `Run RUN_DIR's entry again with the same arguments and JAIPH_* settings, in the same
run directory: the calls its journal records as completed are replayed, the rest run
(docs/durability.md). RUN_DIR defaults to the workspace's newest interrupted or failed
run. Refused: a run still running, a run that passed, and, unless --force, a run whose
sources changed or whose summary and journal do not verify (jaiph verify).`

// ResumeOptions are what `jaiph resume` takes from its command line.
type ResumeOptions struct {
	Workspace string // where to look for the newest run when RunDir is ""
	RunDir    string
	Force     bool // resume although the sources changed or the run does not verify
	Inbox     Inbox
}

// Resume continues the run in o.RunDir, or when it is "" the newest
// interrupted or failed run of o.Workspace (docs/durability.md "Journal and
// resume"): the same entry, arguments and JAIPH_* settings, in the same
// run directory, replaying the calls its journal says completed. It
// refuses (status 1) a live run, a passed one, and, unless force, one
// whose sources changed or whose summary and journal do not verify
// (tampered, unverifiable: docs/security.md).
func Resume(ctx context.Context, t Terminal, o ResumeOptions) int {
	if err := o.Inbox.check(); err != nil {
		fmt.Fprintf(t.Stderr, "jaiph resume: %v\n", err)
		return 1
	}
	t.Environ = o.Inbox.apply(t.Environ)
	dir, force := o.RunDir, o.Force
	dir, err := runs.ResumableDir(dir, o.Workspace, runtime.NewEnv(t.Environ).Get("JAIPH_RUNS_DIR"))
	if err != nil {
		fmt.Fprintf(t.Stderr, "jaiph resume: %v\n", err)
		return 1
	}
	meta, err := runs.Resumable(dir, force)
	if err == nil && !force {
		err = trusted(dir, keyStore(t.KeyDir, t.Environ), "resumes")
	}
	if err != nil {
		fmt.Fprintf(t.Stderr, "jaiph resume: %v\n", err)
		return 1
	}
	t.KeyDir = keyStore(t.KeyDir, t.Environ).Dir // not the recorded settings' below
	prog, err := Open(meta.Entry)
	if err != nil {
		fmt.Fprintln(t.Stderr, err)
		return 1
	}
	t.Environ, t.Resume = meta.Environ(t.Environ), dir
	run, err := prog.Plan(ctx, t.Environ)
	if err != nil {
		fmt.Fprintln(t.Stderr, err)
		return 1
	}
	return run.RunInTerminal(ctx, t, meta.Args)
}
