// jaiph-go: a brace expansion is counted before it is made.

package expand

import (
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// TestJaiphBraceCount: braceCount, which decides whether an expansion
// passes BraceLimit before anything is made, is the number of words the
// expansion makes, for sequences (steps, negative ones, characters,
// padding, downward), lists, nesting and empty elements.
func TestJaiphBraceCount(t *testing.T) {
	for _, src := range []string{
		"{1..10..3}", "{a..z}", "{-5..5}", "{a,b{1..3},}x{0..2}", "{Z..a}", "{01..10}",
		"{1..-3..2}", "{a,{b,{c,d}}}", "x{,}y", "{5..1..-2}{a,b}", "{1..3..0}", "{a..e..2}{,}",
		"{-9223372036854775808..-9223372036854775807}", "pre{1..2}mid{x,y,z}post",
	} {
		word, err := syntax.NewParser().Document(strings.NewReader(src))
		if err != nil {
			t.Fatal(err)
		}
		if !syntax.SplitBraces(word) {
			t.Fatalf("%s: no brace expansion", src)
		}
		made := 0
		for _, err := range BracesSeq(nil, word) {
			if err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			made++
		}
		if n := braceCount(word.Parts); n != uint64(made) {
			t.Errorf("%s: counted %d, made %d", src, n, made)
		}
	}
}
