package interp_test

import "testing"

// An EXIT trap's commands obey errexit even when the shell (or subshell)
// ran where errexit is ignored: a failing command in the trap ends it
// with that status.
func TestJaiphExitTrapErrexit(t *testing.T) {
	runCases(t, []string{
		`set -e; ( trap 'false; echo still' EXIT; true ) || echo "or $?"; echo end`,
		`set -e; if ( trap 'false; echo still' EXIT; true ); then echo then; else echo "else $?"; fi`,
		`set -e; ! ( trap 'false; echo still' EXIT; true ); echo "neg $?"`,
		`set -e; x=$(trap 'false; echo still' EXIT; true) || echo "or $?"; echo "x=[$x]"`,
		`set -e; ( trap 'false || echo and; false; echo still' EXIT; true ) || echo "or $?"`,
		`set -e; ( trap 'echo "in $?"; false; echo still' EXIT; (exit 4) ) || echo "or $?"`,
		`set -e; ( trap '{ false; echo still; }' EXIT; true ) || echo "or $?"`,
		`set -e; ( trap 'cat nosuch 2>/dev/null' EXIT; true ) || echo "or $?"`,
		`( trap 'false; echo still' EXIT; true ) || echo "or $?"`,
		`set -e; f() { trap 'false; echo still' EXIT; true; }; f || echo "or $?"; echo end`,
		`set -e; f() { trap 'false; echo still' EXIT; exit 0; }; f || echo "or $?"`,
		`set -e; trap 'false; echo still' EXIT; false || true`,
	})
}
