package interp_test

import "testing"

// An arithmetic error in the offset or length of ${p:o:l} names the
// parameter first, as bash does.
func TestJaiphSliceArithMessages(t *testing.T) {
	runCases(t, []string{
		`v1=abc; n="1+"; echo ${v1:n}`,
		`v1=abc; echo ${v1:1/0}`,
		`v1=abc; echo ${v1:0:1/0}`,
		`a=(1 2); echo ${a[@]:1/0}`,
		`v1=abc; n='a/&'; echo ${v1:n}`,
	})
}
