package interp_test

import "testing"

// A compound command whose status comes from a negated command that
// failed (`{ …; ! true; }`) does not exit under errexit: the `!` makes
// errexit ignore that failure, and bash ignores it for the compound too.
func TestJaiphCompoundEndsNegated(t *testing.T) {
	runCases(t, []string{
		`set -e; f() { { echo; ! true; }; echo "group $?"; }; f`,
		`set -e; f() { { echo; ! true; } 2>&1; echo "redirected $?"; }; f`,
		`set -e; f() { case x in *) ! true ;; esac; echo "case $?"; }; f`,
		`set -e; f() { if true; then ! true; fi; echo "if $?"; }; f`,
		`set -e; for i in 1; do ! true; done; echo "for $?"`,
		`set -e; ( ! true ); echo "not reached"`,
		`set -e; { ! false; }; echo "ok $?"`,
		`set -e; trap 'echo ERR' ERR; { ! true; }; echo "no trap $?"`,
	})
}

// exit or return inside a negated command leaves with its own status
// (found by the fuzzer's long run: ! f1 where f1 runs exit 0).
func TestJaiphNegatedExit(t *testing.T) {
	runCases(t, []string{
		`g() { set -eo pipefail; f1() { exit 0; }; ! f1 || v1=set; echo after; }; g; echo "st=$?"`,
		`g() { f1() { exit 0; }; ! f1; echo after; }; g; echo "st=$?"`,
		`g() { f1() { exit 3; }; ! f1; echo after; }; g; echo "st=$?"`,
		`f() { ! return 3; }; f; echo $?; g() { ! return 0; }; g; echo $?`,
	})
}
