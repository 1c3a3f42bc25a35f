package interp

import "github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"

// takeNegation models bash's execute_in_subshell for a subshell whose body
// is one negated command (jaiph-go patch): bash takes the `!` off that
// command, runs it as not negated (errexit and the ERR trap apply inside
// it) and inverts whatever status lands at its frame, after a jump to its
// top level or a return too (found by the soak, seed 229). It returns the
// statements to run and sets jumpInverts.
func (r *Runner) takeNegation(stmts []*syntax.Stmt) []*syntax.Stmt {
	if len(stmts) != 1 || !stmts[0].Negated {
		return stmts
	}
	st := *stmts[0]
	st.Negated = false
	r.jumpInverts = true
	return []*syntax.Stmt{&st}
}

// invertJump inverts the status of a subshell while jumpInverts holds
// (jaiph-go patch): its command ended, returned, failed under errexit or
// jumped to bash's top level (an expansion error); an `exit` ends the
// process with its own status. So ( ! echo $((1/0)) ) is 0 and ( ! return
// 3 ) in a function is 0.
func (r *Runner) invertJump() {
	if !r.jumpInverts || r.exit.exiting && !r.jumped() {
		return
	}
	r.invertStatus()
}

// invertElemJump inverts the status of a pipeline's simple command that
// jumped to the top level of a subshell with jumpInverts (jaiph-go patch):
// bash's child for it has no frame of its own, so in ( ! true | echo
// ${u?e} ) the element exits 0 and the subshell 1. An element that ends
// otherwise exits from its own child, as does a builtin's error (bash's
// execute_subshell_builtin_or_function has a frame).
func (r *Runner) invertElemJump() {
	if r.jumpInverts && r.exit.exiting && r.jumped() {
		r.invertStatus()
	}
}

// jumped says the shell is exiting by a jump to bash's top level (an
// expansion error, errexit), not by `exit`, a fatal error or a signal.
func (r *Runner) jumped() bool {
	if r.exit.fatalExit || r.exit.killed {
		return false
	}
	return r.exit.undoAll || r.exit.discard && !(r.exit.assignFailed && r.errexitOn()) || r.exit.errexitFuncs != nil
}

func (r *Runner) invertStatus() {
	if r.exit.code == 0 {
		r.exit.code = 1
	} else {
		r.exit.code, r.exit.err = 0, nil
	}
}

// inheritJumpInverts hands a pipeline's element its shell's jumpInverts
// when bash runs it with no execute_in_subshell of its own: a simple
// command (a compound one, a `[[ … ]]` or `(( … ))` gets its own frame).
func (r2 *Runner) inheritJumpInverts(r *Runner, st *syntax.Stmt) {
	switch st.Cmd.(type) {
	case *syntax.CallExpr, *syntax.DeclClause, *syntax.LetClause:
		r2.jumpInverts = r.jumpInverts
	}
}
