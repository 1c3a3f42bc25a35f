package parser

import (
	"fmt"
	"strings"

	"github.com/jaiph-go/jaiph/ast"
)

// The classification of a workflow line is one ordered table, language
// docs/language.md#steps: the first form whose grammar matches wins.
func Example_stepForms() {
	for _, f := range stepForms {
		fmt.Println(f.name)
	}
	line := `findings <- echo "a -> b"`
	p := &parser{path: "/flow.jh", lines: []string{line}}
	s := &stepLine{line: newLine(line), raw: line, w: &ast.Workflow{}}
	for _, f := range stepForms {
		if r, ok := f.parse(p, s); ok {
			send := r.steps[0].(*ast.Send)
			fmt.Printf("%q is item %s: send to %s of %q\n", line, strings.Fields(f.name)[0], send.Channel, send.Cmd)
			break
		}
	}
	// Output:
	// 1–3 if [!] ensure|run REF …; then / if ! SHELL; then
	// 4 IDENT = prompt …
	// 5 prompt …
	// 5a IDENT = <- REF [key …] [timeout …]
	// 5b <- REF [key …] [timeout …]
	// 5c [IDENT =] prompt|run|ensure alone
	// 6 IDENT WS = RHS
	// 7 ensure …
	// 8 run …
	// 9 log / logerr
	// 10 return "…" | '…' | $…
	// 11 malformed if-ensure
	// 12 REF -> targets
	// 13 REF <- [command]
	// 14 a line that opens braces starts a multi-line shell block
	// 15 shell step
	// "findings <- echo \"a -> b\"" is item 13: send to findings of "echo \"a -> b\""
}
