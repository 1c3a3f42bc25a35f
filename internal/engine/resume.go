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

// Resume continues the run in dir, or when dir is "" the newest
// interrupted or failed run of workspace (docs/durability.md "Journal and
// resume"): the same entry, arguments and JAIPH_* settings, in the same
// run directory, replaying the calls its journal says completed. It
// refuses (status 1) a live run, a passed one, and, unless force, one
// whose sources changed or whose summary and journal do not verify
// (tampered, unverifiable: docs/security.md).
func Resume(ctx context.Context, t Terminal, workspace, dir string, force bool) int {
	dir, err := runs.ResumableDir(dir, workspace, runtime.NewEnv(t.Environ).Get("JAIPH_RUNS_DIR"))
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
	if err := prog.Refuse(ctx, t.Environ); err != nil {
		fmt.Fprintln(t.Stderr, err)
		return 1
	}
	return prog.RunInTerminal(ctx, t, meta.Args)
}
