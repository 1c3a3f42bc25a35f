package interp_test

import "testing"

// `return` inside a subshell of a function ends the subshell only, with
// the return's status, as bash's subshell (a child process) does.
func TestJaiphSubshellReturn(t *testing.T) {
	runCases(t, []string{
		`f() { ( return 3 ); echo "after $?"; ( echo in; return; echo no ); echo "after2 $?"; }; f; echo "f $?"`,
		`f() { ( trap 'echo "T $?"' EXIT; return 4 ); echo "after $?"; }; f`,
		`f() { ( ( return 5 ); echo "inner $?" ); echo "after $?"; }; f`,
		`f() { x=$(echo a; return 6; echo b); echo "subst $? $x"; }; f`,
		`f() { return 7 | cat; echo "pipe ${PIPESTATUS[*]}"; }; f`,
		`set -o pipefail; f() { return 7 | cat; echo "pipefail $?"; cat < <(return 3); echo "procsubst $?"; }; f`,
		`f() { return 3 & wait $!; echo "job $?"; }; f`,
		`shopt -s lastpipe; f() { echo x | return 4; echo "lastpipe not reached"; }; f; echo "f $?"`,
		`f() { ( exit 5 ); echo "exit $?"; ( return 6; exit 7 ); echo "return $?"; }; f`,
		`f() { ( for i in 1 2; do return 8; done; echo no ); echo "loop $?"; }; f`,
		`set -e; f() { ( return 9 ) || echo "or $?"; ( return 0 ); echo ok; }; f`,
		`set -e; f() { ( return 2 ); echo "not reached"; }; f; echo "not reached either"`,
		`f() { ( g() { return 3; }; g; echo "g $?"; return 4 ); echo "after $?"; }; f`,
	})
}
