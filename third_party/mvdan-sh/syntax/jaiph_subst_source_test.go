package syntax

import (
	"strings"
	"testing"
)

// TestJaiphSubstSource: an arithmetic expansion and a backquoted command
// substitution keep their text as written (jaiph-go patch: bash names a word
// holding one as written), also when it straddles the parser's read buffer,
// whose bytes fill drops.
func TestJaiphSubstSource(t *testing.T) {
	for _, tc := range []struct{ src, arith, bquote string }{
		{"echo $((1+ 2))", "$((1+ 2))", ""},
		{"echo $[ 1+2 ]", "$[ 1+2 ]", ""},
		{"echo `echo  x`", "", "`echo  x`"},
		{"echo \"`echo  \\\"x\\\"`\"", "", "`echo  \\\"x\\\"`"},
		{"echo $(echo $((n +1)))", "$((n +1))", ""},
		{"echo `echo $((n +1))`", "$((n +1))", "`echo $((n +1))`"},
		{"x=${a[$(( 1 ))]}", "$(( 1 ))", ""},
		{"((  n+1 ))", "((  n+1 ))", ""},
		{"if ((n>1)); then :; fi", "((n>1))", ""},
	} {
		for pad := 1000; pad < 1040; pad++ {
			src := strings.Repeat("#", pad) + "\n" + tc.src
			f, err := NewParser().Parse(strings.NewReader(src), "")
			if err != nil {
				t.Fatalf("%q: %v", tc.src, err)
			}
			var arith, bquote string
			Walk(f, func(n Node) bool {
				switch n := n.(type) {
				case *ArithmExp:
					arith = n.Source
				case *ArithmCmd:
					arith = n.Source
				case *CmdSubst:
					if n.Backquotes {
						bquote = n.Source
					}
				}
				return true
			})
			if arith != tc.arith || bquote != tc.bquote {
				t.Fatalf("%q after %d bytes: arithmetic %q, backquotes %q; want %q, %q", tc.src, pad+1, arith, bquote, tc.arith, tc.bquote)
			}
		}
	}
}
