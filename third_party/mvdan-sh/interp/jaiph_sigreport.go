// jaiph-go: bash's report of a foreground command a signal killed
// (jobs.c notify_of_job_status, non-interactive): "Terminated" for
// SIGTERM, the signal's description for one the shell traps, and for any
// other but SIGINT and SIGPIPE the job's line, "PID DESCRIPTION COMMAND".
// The shell says it on its own standard error once the command's
// redirections are undone; a command substitution, a pipeline's elements
// (the pipeline reports for them) and a background job that is one simple
// command (bash execs it) say nothing. A subshell killed by a signal it
// sent itself is reported by the shell that ran it.

package interp

import (
	"errors"
	"strings"
	"syscall"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// SignalStatus is the status an exec handler returns for a program a
// signal killed: ExitStatus(128+signal) for the shell, and what the shell
// reports of it.
type SignalStatus struct {
	Signal   syscall.Signal
	CoreDump bool
	Pid      int
}

func (s SignalStatus) Error() string { return "killed by " + s.Signal.String() }

// Unwrap gives the shell's status, 128 plus the signal.
func (s SignalStatus) Unwrap() error { return ExitStatus(128 + int(s.Signal)) }

// reportSignalDeath says what bash says when the foreground command of
// st, a simple command or a pipeline, was killed by a signal; killedBy is
// the command's error before `!` negated its status (and dropped it).
func (r *Runner) reportSignalDeath(st *syntax.Stmt, killedBy error) {
	err := r.exit.err
	if st.Negated {
		err = killedBy
	}
	if r.noSignalReport || err == nil {
		return
	}
	var s SignalStatus
	// SIGINT (2) and SIGPIPE are not reported
	if !errors.As(err, &s) || s.Signal == 2 || s.Signal == sigPIPE {
		return
	}
	// A program's death is its command's (the status of an assignment
	// alone comes from a substitution, which says nothing); a subshell's
	// own (kill $BASHPID) is the subshell's, pid 0.
	var cmd syntax.Node
	switch cm := st.Cmd.(type) {
	case *syntax.CallExpr:
		if len(cm.Args) == 0 || s.Pid == 0 {
			return
		}
		cmd = cm
	case *syntax.Subshell:
		if s.Pid != 0 {
			return // the program it ran last said it
		}
		cmd = cm
	case *syntax.BinaryCmd:
		if cm.Op != syntax.Pipe && cm.Op != syntax.PipeAll {
			return
		}
		cmd = cm
		for {
			b, ok := cm.Y.Cmd.(*syntax.BinaryCmd)
			if !ok || b.Op != syntax.Pipe && b.Op != syntax.PipeAll {
				cmd = cm.Y.Cmd
				break
			}
			cm = b
		}
	default:
		return
	}
	desc := s.Signal.String()
	if desc != "" {
		desc = strings.ToUpper(desc[:1]) + desc[1:]
	}
	// reported once: the commands around this one (a function's call, an
	// eval) see the status alone
	r.exit.err = nil
	// SIGTERM (15), or a signal the shell traps: its description alone
	if _, trapped := r.traps[int(s.Signal)]; s.Signal == 15 || trapped {
		if s.CoreDump {
			desc += " (core dumped)"
		}
		r.errf("%s\n", desc)
		return
	}
	core := ""
	if s.CoreDump {
		core = "(core dumped) "
	}
	r.errf("%5d %-24s%s%s\n", s.Pid, desc, core, printNode(cmd))
}
