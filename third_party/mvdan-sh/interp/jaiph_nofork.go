package interp

import "github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"

// jaiph-go patch: bash runs the last simple command of a command
// substitution without forking for it (evalstring.c's
// should_suppress_fork), and when that command calls a function, the last
// simple command of the function's body too (optimize_shell_function): an
// external command so run replaces the substitution's shell, so an EXIT
// trap the function set meanwhile never runs (`f() { trap 'echo T' EXIT;
// wc -l f; }; x=$(f)` captures no T), nor does anything after it. The
// choice needs no EXIT, ERR or signal trap set and no trap running: for
// the substitution's own last command as it starts (noForkCall), for a
// function's as the function is called (noForkChosen). An external
// command so run ends the substitution with its status (execTail).

// noForkTail is the simple command a command substitution of stmts would
// run without forking: its last command as bash parses one (a line: the
// statements joined by ; or & on it), when that is a simple command or,
// alone on its line, a list of && and || whose last part is one (&& and
// || bind tighter than ; in bash's grammar, so `a; b && c` ends in a
// list, not a simple command), with no redirection, `!` or `&` on it.
func noForkTail(stmts []*syntax.Stmt) *syntax.CallExpr {
	if len(stmts) == 0 {
		return nil
	}
	last := stmts[len(stmts)-1]
	joined := len(stmts) > 1 && stmts[len(stmts)-2].End().Line() == last.Pos().Line()
	return tailCall(last, joined, len(stmts) > 1 && stmts[len(stmts)-2].Background)
}

// functionTail is the same for a function's body, a brace group's list
// (a body of another kind is not optimized): there newlines join the
// statements as ; does.
func functionTail(body *syntax.Stmt) *syntax.CallExpr {
	block, ok := body.Cmd.(*syntax.Block)
	if !ok || len(block.Stmts) == 0 {
		return nil
	}
	n := len(block.Stmts)
	return tailCall(block.Stmts[n-1], n > 1, n > 1 && block.Stmts[n-2].Background)
}

// tailCall is last's simple command bash would not fork for; joined says
// a command comes before it in the same list (so a list of && and || is
// no simple command), afterAsync that it follows a `&`.
func tailCall(last *syntax.Stmt, joined, afterAsync bool) *syntax.CallExpr {
	if joined && afterAsync {
		return nil // bash's connection & is not optimized
	}
	for {
		if last.Background || last.Coprocess || last.Negated || len(last.Redirs) > 0 {
			return nil
		}
		switch cm := last.Cmd.(type) {
		case *syntax.CallExpr:
			if len(cm.Args) == 0 {
				return nil
			}
			return cm
		case *syntax.BinaryCmd:
			if joined || cm.Op != syntax.AndStmt && cm.Op != syntax.OrStmt {
				return nil
			}
			last = cm.Y
		default:
			return nil
		}
	}
}

// noForkAllowed is should_optimize_fork's state of the shell: no trap
// running, and none set but RETURN or a signal ignored.
func (r *Runner) noForkAllowed() bool {
	if r.handlingTraps != 0 {
		return false
	}
	for sig, cb := range r.traps {
		if sig != trapReturn && (sig == trapExit || sig == trapErr || cb != "") {
			return false
		}
	}
	return true
}

// execTail ends the command substitution after an external command it
// ran in bash's place of an exec: with its status, without the EXIT trap.
func (r *Runner) execTail() {
	r.exit.exiting = true
	r.execedTail = true
}
