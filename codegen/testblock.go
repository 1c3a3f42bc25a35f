package codegen

import (
	"fmt"
	"strings"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/internal/shellscan"
	"github.com/jaiph-go/jaiph/lowered"
)

// TestCommand is the command a lowered test block uses for each statement
// that is not a shell line: `jaiph::test <index>`, index into Test.Stmts.
// The test runner executes the statement from the AST, so nothing a test
// file contains (responses, expected strings, mock bodies) becomes shell
// source here.
const TestCommand = "jaiph::test"

// TestStopCommand halts a test block after a captured run failed without
// allow_failure: inside the command substitution the run itself can only
// fail, not stop the block.
const TestStopCommand = "jaiph::test_stop"

// LowerTest lowers one `test "…" { … }` block to the source of the shell it
// runs in (docs/language.md#test-blocks, D15): shell lines stay as written, in order, so
// multi-line shell constructs work; every other statement becomes
// `jaiph::test <index>`, a captured run
// `name=$(jaiph::test <index>) || jaiph::test_stop`. Each statement stays on
// its line of the test file, so shell errors point there.
func LowerTest(t *ast.Test) string {
	var b strings.Builder
	line := 1
	for i, s := range t.Stmts {
		for ; line < s.StmtPos().Line; line++ {
			b.WriteByte('\n')
		}
		switch s := s.(type) {
		case *ast.TestShell:
			b.WriteString(s.Text)
		case *ast.TestRun:
			if s.Capture != "" {
				fmt.Fprintf(&b, "%s=$(%s %d) || %s", s.Capture, TestCommand, i, TestStopCommand)
				break
			}
			fmt.Fprintf(&b, "%s %d", TestCommand, i)
		default:
			fmt.Fprintf(&b, "%s %d", TestCommand, i)
		}
		b.WriteByte('\n')
		line++
	}
	return b.String()
}

// MockBody lowers the body of a `mock workflow|rule|function REF { … }` to a
// body that replaces symbol for one test (docs/language.md#mocks). The reference
// runs the lines as a separate bash script: a fresh shell with the exported
// environment (Script), errexit and pipefail off. Its script also gets
// internal prefix arguments before the call's own *(quirk)*
// (`<symbol>::impl`, and `jaiph::execute_readonly` before it for rules), so
// `$1` in a mock body was a mangled function name: here `$1`, `$2`, … and
// `$@` are the call's arguments (docs/differences.md). The second line
// stays, so the body's lines start on line 3 as bashcheck counts them.
// A value return gives the call its return value (mockReturns).
func MockBody(kind lowered.Kind, symbol, text string) *lowered.Body {
	name := symbol
	if i := strings.LastIndex(symbol, "::"); i >= 0 {
		name = symbol[i+2:]
	}
	src := "set +e +o pipefail\n# the mock of " + strings.ReplaceAll(symbol, "\n", " ") + ": $@ are the call's arguments\n" + mockReturns(text) + "\n"
	return &lowered.Body{Kind: kind, Name: name, Symbol: symbol, Source: src, Script: true}
}

// mockReturns rewrites the value returns of a mock body (`return "v"`,
// `return 'v'`, `return $v`; not `return $?` or a number), outside braces
// and here-documents, to `jaiph::return v; exit 0`, one line for one, as a
// function body's are lowered. The body runs as a script, where bash's
// `return` fails ("can only `return' from a function or sourced script")
// and the mock could not give the value the symbol it replaces returns; in
// the reference it could not either.
func mockReturns(text string) string {
	lines := strings.Split(text, "\n")
	depth := 0
	var delims []string
	for i, l := range lines {
		t := strings.TrimSpace(l)
		if len(delims) > 0 {
			if t == delims[0] {
				delims = delims[1:]
			}
			continue
		}
		if depth == 0 && shellscan.HasWordPrefix(t, "return") {
			if v := strings.TrimSpace(t[len("return"):]); v != "" && v != "$?" && strings.ContainsRune(`"'$`, rune(v[0])) {
				lines[i] = l[:len(l)-len(strings.TrimLeft(l, " \t"))] + "jaiph::return " + v + "; exit 0"
			}
		}
		depth = max(0, depth+shellscan.BraceDelta(l))
		for _, h := range shellscan.Heredocs(l) {
			delims = append(delims, h.Delim)
		}
	}
	return strings.Join(lines, "\n")
}
