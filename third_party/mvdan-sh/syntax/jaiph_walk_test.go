package syntax

import (
	"fmt"
	"strings"
	"testing"
)

// walkTrace is the order Walk calls f in: each node's type on the way in,
// "/" on the way out.
func walkTrace(t *testing.T, src string) string {
	t.Helper()
	f, err := NewParser(KeepComments(true)).Parse(strings.NewReader(src), "")
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	Walk(f, func(n Node) bool {
		if n == nil {
			sb.WriteString("/ ")
			return true
		}
		fmt.Fprintf(&sb, "%T ", n)
		if c, ok := n.(*Comment); ok {
			sb.WriteString(c.Text + " ")
		}
		return true
	})
	return strings.ReplaceAll(sb.String(), "*syntax.", "")
}

// TestJaiphWalkTrailingComment: a statement's, case item's or array
// element's trailing comment is still visited after the node is left (the
// patch only replaced the defer that did it).
func TestJaiphWalkTrailingComment(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{"# a\necho x # b\n", "File Stmt Comment  a / CallExpr Word Lit / / Word Lit / / / / Comment  b / / "},
		{"case x in\n# a\ny) z ;; # b\nesac\n", "File Stmt CaseClause Word Lit / / CaseItem Comment  a / Word Lit / / Stmt CallExpr Word Lit / / / / / Comment  b / / / / "},
		{"a=(\n# a\nx # b\ny)\n", "File Stmt CallExpr Assign Lit / ArrayExpr ArrayElem Comment  a / Word Lit / / / Comment  b / ArrayElem Word Lit / / / / / / / / "},
	} {
		if got := walkTrace(t, tc.src); got != tc.want {
			t.Errorf("%q:\n got %s\nwant %s", tc.src, got, tc.want)
		}
	}
}

// TestJaiphWordLit: the one-part shortcut gives what the general case
// gives: the value, or "" when a part is not a literal.
func TestJaiphWordLit(t *testing.T) {
	for _, tc := range []struct {
		parts []WordPart
		want  string
	}{
		{[]WordPart{&Lit{Value: "echo"}}, "echo"},
		{[]WordPart{&Lit{Value: "a"}, &Lit{Value: "b"}}, "ab"},
		{[]WordPart{&ParamExp{Param: &Lit{Value: "x"}}}, ""},
		{[]WordPart{&Lit{Value: "a"}, &SglQuoted{Value: "b"}}, ""},
		{nil, ""},
	} {
		if got := (&Word{Parts: tc.parts}).Lit(); got != tc.want {
			t.Errorf("%#v: %q, want %q", tc.parts, got, tc.want)
		}
	}
}
