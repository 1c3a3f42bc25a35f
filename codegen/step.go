package codegen

import (
	"fmt"
	"strings"

	"github.com/jaiph-go/jaiph/agent"
)

// StepKind is the kind of a step that has a typed record.
type StepKind string

// The step kinds with records.
const (
	StepRun    StepKind = "run"
	StepEnsure StepKind = "ensure"
	StepPrompt StepKind = "prompt"
)

// Step is the typed record of one `jaiph::<builtin> <id> [words…]` call of a
// body: everything about the call that is known when lowering. The words
// after the id are only what the shell must expand at run time (arguments,
// prompt variable values), so the runtime never parses options back out of
// shell words. Records are numbered from 1 in Body.Steps.
type Step struct {
	ID     int
	Kind   StepKind
	Target string // symbol of the called body (run, ensure)
	// Capture: `x = run|ensure|prompt …`, the call prints its value for
	// the command substitution.
	Capture bool
	// Always prints the captured value even when the call failed (the
	// retry loop of ensure … recover).
	Always bool
	// NoErrExit runs the callee with errexit off (a condition or a list).
	NoErrExit bool

	// Prompt steps.
	Typed   bool          // has a `returns` schema
	Name    string        // capture variable of a typed prompt
	Returns string        // the schema as written
	Fields  []agent.Field // the schema, parsed once when lowering
	Preview string        // first 24 characters of the compile-time text
	// Vars names the variables the prompt text refers to; the call passes
	// their values as its words, in this order.
	Vars []string
}

// String says what the step is, for the step table comments of the lowered
// source (one line).
func (s *Step) String() string {
	w := []string{string(s.Kind)}
	if s.Target != "" {
		w = append(w, s.Target)
	}
	if s.Capture {
		w = append(w, "capture")
	}
	if s.Always {
		w = append(w, "always")
	}
	if s.NoErrExit {
		w = append(w, "noerrexit")
	}
	if s.Typed {
		w = append(w, "returns", strings.Join(strings.Fields(s.Returns), " "), "into", s.Name)
	}
	if len(s.Vars) > 0 {
		w = append(w, "vars", strings.Join(s.Vars, " "))
	}
	return strings.Join(w, " ")
}

// Step returns the record of step id, or nil.
func (b *Body) Step(id int) *Step {
	if id < 1 || id > len(b.Steps) {
		return nil
	}
	return &b.Steps[id-1]
}

// addStep records a step and returns the id word that stands for it.
func (l *lowerer) addStep(s Step) string {
	s.ID = len(l.tab) + 1
	l.tab = append(l.tab, s)
	return fmt.Sprint(s.ID)
}

// table writes the step table as comments after the body, so `jaiph build`
// output says what each step id is. (A comment beside the call itself would
// comment out what follows it on the line: `)`, `; then`, a joined recover.)
func (l *lowerer) table() {
	for i := range l.tab {
		l.put(fmt.Sprintf("# step %d: %s", l.tab[i].ID, l.tab[i].String()), Origin{Line: l.next()})
	}
}
