package bashcheck

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/codegen"
	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/validate"
)

// TestLowerAndCheckInOrder checks that a module large enough to be checked
// while it is lowered (lowerAndCheck, on every CPU) reports exactly what
// lowering it first and checking each body in turn reports, in the same
// order: shell errors scattered over rules, functions and workflows.
func TestLowerAndCheckInOrder(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(2))
	}
	var b strings.Builder
	const n = 120
	for i := range n {
		bad := ""
		if i%7 == 3 {
			bad = "  echo $(( \n" // unterminated arithmetic: a syntax error
		}
		if i%11 == 5 {
			bad = "  coproc cat\n" // a refused construct
		}
		fmt.Fprintf(&b, "rule r%d {\n  test -n \"$1\"\n%s}\n", i, bad)
		fmt.Fprintf(&b, "function f%d() {\n  printf '%%s' \"$1\"\n%s}\n", i, bad)
		fmt.Fprintf(&b, "workflow w%d {\n  ensure r%d \"$1\"\n  x = run f%d \"a b\"\n  log \"got $x\"\n%s}\n", i, i, i, bad)
	}
	path := filepath.Join(t.TempDir(), "big.jh")
	if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	l := validate.NewLoader()
	l.Load(path)
	f := l.File(path)
	if f == nil {
		t.Fatal("module did not load")
	}
	symbolOf := func(*ast.Import) string { return "" }
	got := lowerAndCheck(f, "big", symbolOf)
	var want []*diag.Diagnostic
	for _, b := range codegen.Lower(f, "big", symbolOf).Order {
		want = append(want, Body(f.Path, b)...)
	}
	if len(want) < 2*n/7 {
		t.Fatalf("only %d diagnostics: the module's errors were not found", len(want))
	}
	if g, w := render(got), render(want); g != w {
		t.Errorf("checked while lowering:\n%s\nlowered, then checked:\n%s", g, w)
	}
}

func render(ds []*diag.Diagnostic) string {
	var b strings.Builder
	for _, d := range ds {
		fmt.Fprintf(&b, "%d:%d %s %s\n", d.Line, d.Col, d.Code, d.Message)
	}
	return b.String()
}
