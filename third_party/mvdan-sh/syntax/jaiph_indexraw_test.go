package syntax

import (
	"strings"
	"testing"
)

// TestJaiphIndexRaw: a subscript's source text is kept where blanks in it
// would be lost from the tree (jaiph-go patch, ParamExp.IndexRaw), also
// when it straddles the parser's read buffer, whose bytes fill drops.
func TestJaiphIndexRaw(t *testing.T) {
	for _, tc := range []struct{ src, want string }{
		{`echo ${m[ k ]}`, " k "},
		{`echo ${m[k]}`, ""},
		{`echo ${m[1 + 2]}`, "1 + 2"},
		{`echo ${m[1+2]}`, ""},
		{`echo ${m["a b"]}`, ""},
		{"echo ${m[\tk\t]}", "\tk\t"},
		{`echo ${m[ a[ 1 ] ]}`, " a[ 1 ] "},
	} {
		for pad := 1000; pad < 1030; pad++ {
			src := strings.Repeat("#", pad) + "\n" + tc.src
			f, err := NewParser().Parse(strings.NewReader(src), "")
			if err != nil {
				t.Fatalf("%q: %v", tc.src, err)
			}
			var got string
			Walk(f, func(n Node) bool {
				if pe, ok := n.(*ParamExp); ok && pe.Param.Value == "m" {
					got = pe.IndexRaw
				}
				return true
			})
			if got != tc.want {
				t.Fatalf("%q after %d bytes: IndexRaw %q, want %q", tc.src, pad+1, got, tc.want)
			}
		}
	}
	// an assignment's and a list element's subscripts too
	f, err := NewParser().Parse(strings.NewReader("m[ k ]=1 a=([ x ]=2 [y]=3)"), "")
	if err != nil {
		t.Fatal(err)
	}
	as := f.Stmts[0].Cmd.(*CallExpr).Assigns
	if as[0].IndexRaw != " k " || as[1].Array.Elems[0].IndexRaw != " x " || as[1].Array.Elems[1].IndexRaw != "" {
		t.Fatalf("assignment raw subscripts: %q %q %q", as[0].IndexRaw, as[1].Array.Elems[0].IndexRaw, as[1].Array.Elems[1].IndexRaw)
	}
}
