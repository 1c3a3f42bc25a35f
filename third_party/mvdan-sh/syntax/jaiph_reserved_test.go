package syntax

import (
	"strings"
	"testing"
)

// TestJaiphInIsReserved: `in` starting a command is bash's syntax error
// (yash's tests/case-y.tst), while the `in` of for, select and case and
// an `in` argument still parse.
func TestJaiphInIsReserved(t *testing.T) {
	for _, src := range []string{"in", "in x", "echo a; in"} {
		if _, err := NewParser().Parse(strings.NewReader(src), ""); err == nil || !strings.Contains(err.Error(), "`in` can only be used") {
			t.Errorf("%q: got %v, want the reserved word error", src, err)
		}
	}
	for _, src := range []string{"for i in 1; do :; done", "case x in x) ;; esac", "select v in a; do break; done", "echo in", "x=in"} {
		if _, err := NewParser().Parse(strings.NewReader(src), ""); err != nil {
			t.Errorf("%q: %v", src, err)
		}
	}
}
