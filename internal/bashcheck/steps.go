package bashcheck

import (
	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/lowered"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// stepWords are the Jaiph keywords that start a managed call only where the
// parser classifies a line (the start of a workflow line, a rule's `ensure`
// line, an if-run/if-ensure header and its branches). Anywhere else in a body's shell (`if
// run w; then …; fi` on one line, `while run w; do`, `{ run w && x; }`,
// `echo a; run w`) the word would be a simple command named "run", which
// fails with "command not found" into the step's .err while the condition
// is just false: a gate that silently passes.
var stepWords = map[string]bool{"run": true, "ensure": true, "prompt": true}

// stepWord is the word naming the command of a simple command (after
// `command`, `builtin` or `exec`) when it is a literal step word; the
// caller drops those of a body that defines a shell function of that name.
func stepWord(words []*syntax.Word) *syntax.Word {
	for len(words) > 1 && (words[0].Lit() == "command" || words[0].Lit() == "builtin" || words[0].Lit() == "exec") {
		words = words[1:]
	}
	if stepWords[words[0].Lit()] {
		return words[0]
	}
	return nil
}

// stepDiagnostics reports each misplaced step word of a parsed body.
func stepDiagnostics(file string, steps []found, b *lowered.Body) []*diag.Diagnostic {
	var out []*diag.Diagnostic
	for _, s := range steps {
		line, col := b.Position(int(s.pos.Line()), int(s.pos.Col()))
		out = append(out, diag.New(file, line, col, diag.Validate, misplacedMessage(s.name, b.Kind)))
	}
	return out
}

// misplacedMessage is the diagnostic of a misplaced step word, with a hint.
func misplacedMessage(word string, k lowered.Kind) string {
	msg := `"` + word + `" inside a shell construct is not a Jaiph step: bash would run a command named "` + word + `" ("command not found"); `
	switch {
	case word == "prompt":
		msg += `start a workflow line with it ("prompt \"…\"" or "x = prompt \"…\"")`
	case k == lowered.Workflow:
		msg += `start a line with it ("` + word + ` ref args", "x = ` + word + ` ref", or "if ` + word + ` ref; then" with the branch on the following lines)`
	case k == lowered.Rule && word == "ensure":
		msg += `start a line with it ("ensure ref args")`
	default:
		msg += `call a function of the module by its bare name ("f args"), which is a managed call in any position`
	}
	return msg
}
