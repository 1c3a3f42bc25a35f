package interp

import (
	"cmp"
	"context"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// jaiph-go patch: FUNCNEST, as in bash. A shell function called when
// FUNCNEST (a positive decimal number) functions are already running fails
// with "NAME: maximum function nesting level exceeded (N)" and the whole
// top-level command it belongs to is discarded: the shell goes on with the
// next one with status 1 (a subshell ends with status 1). Where bash has no
// limit (FUNCNEST unset, empty, not a number, zero or negative) this
// interpreter uses DefaultFuncNest, so endless recursion ends with that
// message instead of exhausting memory (bash recurses until it crashes).

// DefaultFuncNest is the nesting limit when FUNCNEST sets none.
const DefaultFuncNest = 2000

// funcNestExceeded reports whether calling the function name would exceed
// the nesting limit, after printing bash's message and starting to discard
// the current top-level command.
func (r *Runner) funcNestExceeded(name string) bool {
	limit := DefaultFuncNest
	if n, ok := legalNumber(r.envGet("FUNCNEST")); ok && n > 0 && n < 1<<31 {
		limit = int(n)
	}
	if len(r.funcStack)-r.sourceFrames < limit {
		return false
	}
	r.errf("%s: maximum function nesting level exceeded (%d)\n", name, limit)
	// Unwound like exit; Run's top-level loop (topStmts) then continues.
	r.exit = exitStatus{code: 1, exiting: true, discard: true}
	return true
}

// topStmts runs a file's top-level commands. bash reads and runs a script
// a line at a time (with whole compound commands), so a command discarded
// by funcNestExceeded takes the rest of its line with it; then the next
// line runs, with status 1.
func (r *Runner) topStmts(ctx context.Context, stmts []*syntax.Stmt) {
	r.discardingStmts(ctx, stmts, false)
}

// discardingStmts is topStmts; inEval: the commands are an eval string's or
// a sourced file's, which bash runs with errexit off where the eval or
// source ignores it (execute_builtin: exit_immediately_on_error = 0).
func (r *Runner) discardingStmts(ctx context.Context, stmts []*syntax.Stmt, inEval bool) {
	for i := 0; i < len(stmts); i++ {
		r.stmt(ctx, stmts[i])
		if !r.exit.exiting || !r.exit.discard && !(inEval && r.exit.expDiscard) {
			continue
		}
		if r.exit.assignFailed && r.errexitOn() && !(inEval && r.noErrExit) {
			// A failed assignment's discard under errexit (even
			// where errexit is ignored: bash's report_error tests
			// the option itself; a body run as `run f || …`), but
			// not in an eval or source that ignores it, exits the shell
			// with status 1, or that of a substitution in the value
			// (a[-1]="$(exit 3)": 3), or else the last command's
			// (bash's report_error exits with last_command_exit_value:
			// `false || r=1` of a readonly r ends with 1, `(exit 3)
			// || r=1` with 3), as bash (FUNCNEST's does not).
			r.exit = exitStatus{code: cmp.Or(r.exit.code, r.lastExpandExit.code, 1), exiting: true}
			return
		}
		for i+1 < len(stmts) && stmts[i+1].Pos().Line() == stmts[i].End().Line() {
			i++
		}
		badUsage := r.exit.badUsage
		if r.exit.leftFuncs && !inEval {
			r.funcnameMain = true // bash's leftover, see exitStatus.leftFuncs
		}
		r.exit = exitStatus{code: 1}
		if badUsage && !inEval {
			// bash's reader_loop keeps it; parse_and_execute makes
			// every discard 1
			r.exit.code = 2
		}
		r.lastExit = r.exit
	}
}

// evalStmts runs the commands of an eval string or a sourced file as bash's
// parse_and_execute does: a discarded command (FUNCNEST, an assignment to a
// readonly variable, an expansion error bash discards the command for:
// exitStatus.expDiscard) takes the rest of its line with it and the next
// line runs, the eval or source returning 1 if it was the last; in a
// subshell the discard ends the subshell instead.
func (r *Runner) evalStmts(ctx context.Context, stmts []*syntax.Stmt) {
	if r.noErrExit && !r.errexitOff {
		// bash's execute_builtin runs an eval or source where errexit
		// is ignored with exit_immediately_on_error off, restored
		// after it: report_error does not end the shell there.
		r.errexitOff = true
		defer func() { r.errexitOff = false }()
	}
	if r.inSubshell {
		r.stmts(ctx, stmts)
		return
	}
	r.discardingStmts(ctx, stmts, true)
}

// errexitOn is bash's exit_immediately_on_error, which report_error tests
// (a readonly variable assigned, a fatal expansion error, a bad subscript
// end the shell under errexit even where errexit is ignored): the errexit
// option, off inside an eval or source run where errexit is ignored, even
// after a `set -e` there (bash's builtin_ignoring_errexit), jaiph-go patch.
func (r *Runner) errexitOn() bool { return r.opts[optErrExit] && !r.errexitOff }
