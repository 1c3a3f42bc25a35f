package codegen

import (
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/lowered"
)

func TestLowerTestKeepsLinesAndNeverInlinesData(t *testing.T) {
	at := func(line int) ast.Pos { return ast.Pos{Line: line, Col: 3} }
	tb := &ast.Test{Pos: ast.Pos{Line: 2, Col: 1}, Description: "d", Stmts: []ast.TestStmt{
		&ast.MockPrompt{Pos: at(3), Response: `$(rm -rf /) '"`},
		&ast.TestShell{Pos: at(4), Text: `  for i in 1 2; do`},
		&ast.TestShell{Pos: at(5), Text: `    echo "$i"`},
		&ast.TestShell{Pos: at(6), Text: `  done`},
		&ast.TestRun{Pos: at(8), Capture: "out", Ref: ast.Ref{Alias: "w", Name: "x"}, Arg: "$HOME", HasArg: true},
		&ast.TestRun{Pos: at(9), Ref: ast.Ref{Alias: "w", Name: "x"}},
		&ast.Expect{Pos: at(10), Kind: "expectEqual", Var: "out", Expected: "`id`"},
	}}
	want := "\n\njaiph::test 0\n" +
		"  for i in 1 2; do\n    echo \"$i\"\n  done\n\n" +
		"out=$(jaiph::test 4) || jaiph::test_stop\n" +
		"jaiph::test 5\n" +
		"jaiph::test 6\n"
	if got := LowerTest(tb); got != want {
		t.Errorf("LowerTest:\n%q\nwant\n%q", got, want)
	}
}

func TestMockBody(t *testing.T) {
	for _, tc := range []struct {
		kind   lowered.Kind
		symbol string
		want   string
	}{
		// $1… are the call's arguments (the reference's internal prefix
		// arguments are not added; docs/differences.md).
		{lowered.Workflow, "lib::tools::deploy", "set +e +o pipefail\n# the mock of lib::tools::deploy: $@ are the call's arguments\necho hi\n"},
		{lowered.Function, "main::f", "set +e +o pipefail\n# the mock of main::f: $@ are the call's arguments\necho hi\n"},
		{lowered.Rule, "main::ok", "set +e +o pipefail\n# the mock of main::ok: $@ are the call's arguments\necho hi\n"},
	} {
		b := MockBody(tc.kind, tc.symbol, "echo hi")
		if b.Source != tc.want || b.Symbol != tc.symbol || b.Kind != tc.kind || !b.Script {
			t.Errorf("MockBody(%s, %s) = %+v", tc.kind, tc.symbol, b)
		}
	}
	if b := MockBody(lowered.Workflow, "lib::tools::deploy", ""); b.Name != "deploy" {
		t.Errorf("name = %q, want deploy", b.Name)
	}
}

// TestMockReturns: a mock body's value returns end the mock with a value;
// returns inside a shell function it defines, a here-document's text,
// `return $?` and a numeric return stay bash's.
func TestMockReturns(t *testing.T) {
	in := strings.Join([]string{
		`  return "v"`,
		`return $x`,
		`return $?`,
		`return 3`,
		`helper() {`,
		`  return "$1"`,
		`}`,
		`cat <<EOF`,
		`return "text"`,
		`EOF`,
		`returned "x"`,
	}, "\n")
	want := strings.Join([]string{
		`  jaiph::return "v"; exit 0`,
		`jaiph::return $x; exit 0`,
		`return $?`,
		`return 3`,
		`helper() {`,
		`  return "$1"`,
		`}`,
		`cat <<EOF`,
		`return "text"`,
		`EOF`,
		`returned "x"`,
	}, "\n")
	if got := mockReturns(in); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}
