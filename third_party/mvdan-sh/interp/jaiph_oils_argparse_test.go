package interp_test

import "testing"

// TestJaiphTooManyArgsDiscards: shift, break, continue, return and exit
// given a second argument are bash's no_args: "too many arguments", then
// the top-level command is discarded, with the status before it (1 if
// that was 0); a subshell ends so (Oils' spec/arg-parse).
func TestJaiphTooManyArgsDiscards(t *testing.T) {
	runCases(t, []string{
		`set -- a b c; shift 1 extra; echo "not reached $?"`,
		`(exit 4); ( shift 1 2; echo in ); echo "sub $?"; ( exit 1 2; echo in ); echo "sub $?"`,
		`false; for i in 1 2; do continue 1 extra; echo in; done; echo not reached`,
		`for i in 1 2; do ( break 1 2; echo in ); echo "sub $?"; done`,
		`f() { return 1 2; echo "in f $?"; }; f; echo "not reached $?"`,
		`exit 5 6; echo not reached`,
		`set -e; ( shift 1 2 ) || echo "sub $?"; echo after`,
	})
}

// TestJaiphClassicTestTerm: bash's test term takes a unary operator only
// when a word follows it, otherwise the operator is a string (`[ -a -a -a
// -a ]` is 1, it was an error); a word left over that starts with `-` is
// "syntax error: `-z' unexpected"; -t takes the next word only if it is a
// number (Oils' spec/blog2).
func TestJaiphClassicTestTerm(t *testing.T) {
	runCases(t, []string{
		`for n in 1 2 3 4 5 6 7 8 9; do set --; for ((i = 0; i < n; i++)); do set -- "$@" -a; done; [ "$@" ]; echo "$n: $?"; done`,
		`[ -q -a -q ]; echo $?; [ -q -a -q -a x ]; echo $?; [ x -a -z -o y ]; echo $?; [ -z -a -z -a -z ]; echo $?; [ x -o -z y -a -z ]; echo $?`,
		`touch ./-a; test -a -a -a -a; echo $?; test ! -a -a -a x; echo $?; test x -a -f; echo $?; test -n -a -n -o -z; echo $?`,
		`[ -t -a -t -a x ]; echo $?; [ -t 99 -a x ]; echo $?; [ x -a -t ]; echo $?; [ -t x -a -t ]; echo $?`,
	})
}

// TestJaiphHashParamOperators: ${##x}, ${#-x} and ${#?x} are the parameter
// $# followed by an operator (${###} removes an empty prefix: 25 for 25
// arguments; ${##2} is 5); ${##}, ${#?} are the lengths of $# and $?
// (Oils' spec/blog1).
func TestJaiphHashParamOperators(t *testing.T) {
	runCases(t, []string{
		`set -- $(seq 25); echo "${#}|${##}|${###}|${####}|${##2}|${###2}|${##%5}|${#%5}|${#-x}|${#:-x}|${#?}|${##-}"`,
		`set --; echo "${##}|${###}|${#-x}|${##-x}|${#:+y}|${#?x}"; x=abc; echo "${#x}|${#?}"`,
		`set -- '####'; echo "${1####}|${1#'###'}|${1##'#'}|${1%%#}"`,
	})
}
