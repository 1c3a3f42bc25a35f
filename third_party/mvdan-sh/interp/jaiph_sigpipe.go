// jaiph-go: SIGPIPE. bash leaves SIGPIPE at its default action, so a
// builtin (echo, printf, declare -p …) that writes into a pipe whose reader
// has exited kills the shell process it runs in: in a pipeline element
// that is a child (every element without lastpipe), silently, with status
// 128+13 in PIPESTATUS and under pipefail, the rest of the element not run;
// the process's EXIT trap still runs (bash's handler of the fatal signal
// runs it, with $? the status before the write, and the status stays 141).
// With SIGPIPE ignored (trap '' PIPE, kept by subshells) or trapped, the
// write fails instead and the builtin reports it ("write error: Broken
// pipe", status 1).

package interp

import (
	"context"
	"errors"
	"syscall"
)

const sigPIPE = 13

// notePipeWrite notes a builtin's write error err and reports whether it
// kills the shell: a broken pipe while SIGPIPE has its default action. The
// builtin then ends without its own message; the shell dies when the
// builtin returns (pipeKill).
func (r *Runner) notePipeWrite(err error) bool {
	if err == nil || !errors.Is(err, syscall.EPIPE) {
		return false
	}
	if _, set := r.traps[sigPIPE]; set {
		return false
	}
	r.pipeKilled = true
	return true
}

// BrokenPipe is for a builtin installed with [BuiltinHandler]: it reports
// whether err, the builtin's write error, kills the shell as SIGPIPE kills
// bash's process (a write into a pipe whose reader has exited, SIGPIPE not
// ignored or trapped). The builtin should then return at once, without a
// message: the shell ends with status 141 when it returns.
func (hc HandlerContext) BrokenPipe(err error) bool {
	return hc.runner != nil && hc.runner.notePipeWrite(err)
}

// pipeKill turns the status of a builtin that wrote into a broken pipe
// into the death of the shell by SIGPIPE.
func (r *Runner) pipeKill(exit *exitStatus) {
	if !r.pipeKilled {
		return
	}
	r.pipeKilled = false
	r.beforeKill = r.lastExit.code
	*exit = exitStatus{code: 128 + sigPIPE, exiting: true, killed: true}
}

// killedExitTrap runs the EXIT trap of a shell that died of SIGPIPE, with
// $? the status before the write; the status stays 141 whatever the trap
// does.
func (r *Runner) killedExitTrap(ctx context.Context) {
	if !r.exit.killed {
		return
	}
	st := r.exit
	r.exit = exitStatus{code: r.beforeKill}
	r.runExitTrap(ctx)
	r.exit, r.lastExit = st, st
}
