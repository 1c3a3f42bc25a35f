package syntax

import (
	"strings"
	"testing"
)

// A function body is a compound command, as in bash's grammar (jaiph
// patch): `f() echo x` is a syntax error at the word after the parentheses;
// a body ends before `&&`, `||` and `|`, which join the definition to the
// next command.
func TestJaiphFuncBodyCompound(t *testing.T) {
	for _, tc := range []struct {
		src     string
		wantErr string
	}{
		{"f() { echo a; }", ""},
		{"f() ( echo a )", ""},
		{"f() [[ -n x ]]", ""},
		{"f() (( 1 ))", ""},
		{"f() if true; then :; fi", ""},
		{"f() while false; do :; done", ""},
		{"f() for i in 1; do :; done", ""},
		{"f() case x in x) ;; esac", ""},
		{"f() { :; } >/dev/null", ""},
		{"function f { :; }", ""},
		{"f() { :; } && echo y", ""},
		{"f()\n{ :; }", ""},
		{"f() echo a", "1:5: a function body must be a compound command"},
		{"f()\necho a", "2:1: a function body must be a compound command"},
		{"f() ! { :; }", "1:5: a function body must be a compound command"},
		{"f() x=1", "1:5: a function body must be a compound command"},
		{"f() let x=1", "1:5: a function body must be a compound command"},
		{"f() declare x", "1:5: a function body must be a compound command"},
		{"f() g() { :; }", "1:5: a function body must be a compound command"},
	} {
		f, err := NewParser(Variant(LangBash)).Parse(strings.NewReader(tc.src), "")
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.wantErr {
			t.Errorf("%q: error %q, want %q", tc.src, got, tc.wantErr)
			continue
		}
		if err == nil && tc.src == "f() { :; } && echo y" {
			if _, ok := f.Stmts[0].Cmd.(*BinaryCmd); !ok {
				t.Errorf("%q: want the definition joined by &&, got %T", tc.src, f.Stmts[0].Cmd)
			}
		}
	}
}
