package interp_test

import "testing"

// "((" and "$((" whose matching ")" is not followed at once by another ")"
// are nested subshells and a command substitution, as in bash (Oils'
// spec/paren-ambiguity); "))" together keeps them arithmetic.
func TestJaiphDparenNested(t *testing.T) {
	runCases(t, []string{
		"(( echo 1\necho 2\n: $(( x ))\necho 3\n) )",
		"echo $(( echo 1\necho 2\n(( x ))\necho 3\n) )",
		`((echo a) || (echo b)); echo "st $?"`,
		`v=$((echo out; echo err >&2) 2>/dev/null); echo "[$v]"`,
		"x=`((echo in-backquotes) | tr a-z A-Z)`; echo \"$x\"",
		`if ! ((test x = y) || (test y = y)); then echo no; else echo yes; fi`,
		`(( (1 + 2) * 3 )); echo "st $?"; echo $(( (1 + 2) * 3 )) "$(( (4) ))"`,
		`for (( i = 0; i < (2); i++ )); do echo $i; done; ((x = 1, (x) + 1)); echo $x`,
		`echo $(( ')' == 1 )) 2>/dev/null || echo "st $?"`,
		`((echo ')' ) ); echo "(( $(( 2 )) ))"`,
	})
}

// A declaration builtin's word that looks like an assignment to an invalid
// name is no syntax error in bash: the builtin reports it when it runs
// (Oils' spec/parse-errors).
func TestJaiphDeclInvalidAssignName(t *testing.T) {
	runCases(t, []string{
		`export FOO-BAR=foo; echo "st $?"; echo "${FOO-unset}"`,
		`f() { local A-B=1 c=2; echo "st $? c=$c"; }; f`,
		`declare x.y=1 z=3; echo "st $? $z"; readonly p+q=1 || echo "st $?"`,
		`typeset 1a=b; echo "st $?"; export -n 'a b'=c; echo "st $?"`,
	})
}

// A lone "+" or "-" given to a declaration builtin is a name, not a valid
// one; an invalid option is reported with the builtin's name and usage
// line, status 2 (Oils' spec/explore-parsing).
func TestJaiphDeclLoneSign(t *testing.T) {
	runCases(t, []string{
		`readonly + >/dev/null; echo "st $?"; declare +; echo "st $?"; export -; echo "st $?"`,
		`f() { local +; echo "st $?"; typeset -; echo "st $?"; }; f`,
		`declare -Z x; echo "st $?"; export -Z x; echo "st $?"; readonly -Z; echo "st $?"`,
		`f() { local -Z x; echo "st $?"; typeset -Z; echo "st $?"; }; f`,
	})
}

// A command name holding a control character is shown $'…'-quoted in the
// "command not found" message, as bash's printable_filename.
func TestJaiphNotFoundQuoted(t *testing.T) {
	runCases(t, []string{
		`$'echo\rTEST' || echo "st $?"; $'a\tb' x || echo "st $?"; 'a b' || echo "st $?"`,
	})
}

// declare -f prints a nested function definition as bash does:
// "function NAME () " with its body on the next lines (Oils'
// spec/print-source-code).
func TestJaiphDeclareFNested(t *testing.T) {
	runCases(t, []string{
		"outer() {\n  echo outer\n  : prefix; inner() {\n    echo inner\n  }\n}\ntypeset -f outer; eval \"$(declare -f outer)\"; outer; inner",
		`o() { a() ( echo x ); c() { :; }; echo after; }; declare -f o`,
	})
}

// While a file is sourced bash has "source" on FUNCNAME (visible within a
// function only), no function for FUNCNEST (Oils' spec/introspect).
func TestJaiphFuncnameSource(t *testing.T) {
	runCases(t, []string{
		"echo 'echo \"[${FUNCNAME[*]}]\"; g' > s.sh; g() { echo \"g: ${FUNCNAME[*]}\"; }; f() { . ./s.sh; echo \"f: ${FUNCNAME[*]}\"; }; f; . ./s.sh",
		"echo 'echo \"${#FUNCNAME[@]}\"' > s.sh; f() { source ./s.sh; ( . ./s.sh ); echo $(. ./s.sh); }; f",
		"echo 'f' > s.sh; FUNCNEST=3; f() { echo in; }; g() { . ./s.sh; }; h() { g; }; h",
	})
}

// set: each o of a flag word takes the next word as its option name; a
// next word starting with - or + is not taken (the options are listed)
// (Oils' spec/sh-usage).
func TestJaiphSetOptionWords(t *testing.T) {
	runCases(t, []string{
		`set -oo errexit noglob; [[ -o errexit ]] && echo e; [[ -o noglob ]] && echo f; set +oo errexit noglob; [[ -o errexit ]] || echo no-e`,
		`set -eo pipefail; [[ -o pipefail ]] && echo p; set -oe nounset; [[ -o nounset && -o errexit ]] && echo u; set +eu`,
		`set -o -e > /dev/null; [[ -o errexit ]] && echo e; set +e; set -o '' x > /dev/null; echo "$1"`,
		`set -o bogus; echo "st $?"`,
	})
}

// set -o, set +o and shopt -o list all of bash's -o options in its order,
// those the interpreter does not run with bash's values.
func TestJaiphSetOptionListing(t *testing.T) {
	runCases(t, []string{
		`set -o; set +o`,
		`set -eu -o pipefail; set -o; set +o; set +eu +o pipefail`,
		`shopt -o; shopt -op; shopt -so; shopt -uo | head -3`,
	})
}
