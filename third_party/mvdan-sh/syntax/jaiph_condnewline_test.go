package syntax

import (
	"strings"
	"testing"
)

// TestJaiphCondNewlineAfterWord: in [[ ]] bash skips newlines before a
// term and after a unary test, a comparison or a ( … ) group, but a
// newline right after a lone operand word is its syntax error.
func TestJaiphCondNewlineAfterWord(t *testing.T) {
	for _, tc := range []struct {
		src  string
		fail bool
	}{
		{"[[ a\n&& b ]]", true},
		{"[[ a\n]]", true},
		{"[[ a\n|| b ]]", true},
		{"[[ a && b\n]]", true},
		{"[[ ( a\n) ]]", true},
		{"[[ a &&\nb ]]", false},
		{"[[\na ]]", false},
		{"[[ -n a\n]]", false},
		{"[[ a == a\n&& b ]]", false},
		{"[[ ( a )\n]]", false},
		{"[[ !\na ]]", false},
		{"[[ a < b\n]]", false},
	} {
		_, err := NewParser().Parse(strings.NewReader(tc.src), "")
		if got := err != nil; got != tc.fail {
			t.Errorf("%q: error %v, want one: %v", tc.src, err, tc.fail)
		}
		if err != nil && !strings.Contains(err.Error(), "conditional binary operator expected") {
			t.Errorf("%q: %v", tc.src, err)
		}
	}
}
