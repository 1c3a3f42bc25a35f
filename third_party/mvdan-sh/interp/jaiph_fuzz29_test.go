// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// patches of the session of 2026-11-30, fourth stop (jaiph-go issue 36):
// behaviours bash's own test files and the soak found still different.
package interp_test

import "testing"

// TestJaiphBraceSequenceThatFails: bash 5.2 takes a brace as an expansion
// when a ".." between it and its "}" is not right before the "}"; when the
// text is no sequence, a comma anywhere inside (nested braces, quotes,
// expansions) makes it a list of one element, so the braces go and what is
// inside expands; without one the text stays as written, nested braces too.
func TestJaiphBraceSequenceThatFails(t *testing.T) {
	runCases(t, []string{
		`echo {{1,2,3}..{7,8,9}}`,
		`echo {1..{a,b}} {{a,b}..3} {a..{1,2}..b}`,
		`echo {{1..2}..3} {{x}..5} {{1..2}..{3..4}..x}`,
		`echo {a,b}{{1..2}..3}c {{1..2}..3}{a,b}`,
		`v=a,b; echo {"a,b"..c} {${v//,/x}..b} {$(echo a,b)..c} {'x,'..y}`,
		`v=Ab; echo {${v,}..b} {${v,,}..}`,
		`echo {x\,y..3} {{a..c}..{1..3}} {"{a,b}"..c} {'{1..3}'..x}`,
		`echo a{{1,2}..}b x{{1,2}..y} {{1,2}...} {,{1,2}..3}`,
		`echo {1..3}{{a,b}..{c,d}}`,
		`echo {a..} {..a} {1..2} {..} {a..b..} {1..2..x}`,
	})
}
