// Differential tests for an assignment to a readonly variable made by a
// command other than a plain assignment: bash reports it through
// report_error, which ends the shell at once when errexit is set, even
// where errexit is ignored (left of ||, an if condition, a function called
// from one); without errexit the command fails with status 1 and the shell
// goes on. declare, local, export's own errors are the builtin's and never
// end the shell.
package interp_test

import "testing"

func TestJaiphReadonlyAssignByCommand(t *testing.T) {
	var cases []string
	for _, c := range []string{
		`read -r first r <<< "one two"`,
		`read -a r <<< x`,
		`read -d "" r <<< x`,
		`mapfile r <<< x`,
		`readarray -t r <<< x`,
		`getopts a r -a`,
		`for r in 1; do :; done`,
		`let r=2`,
		`(( r = 2 ))`,
		`echo $((r=2))`,
		`export r=2`,
		`f() { local r=2; }; f`,
		`declare r=2`,
		`r+=x`,
		`r[1]=x`,
		`unset r`,
		`f() { readonly OPTARG; getopts a: o -a x; }; f`,
	} {
		cases = append(cases,
			"readonly r=1; "+c+" || echo \"or $?\"; echo \"next [$r]\"",
			"set -e; readonly r=1; "+c+" || echo \"or $?\"; echo next",
			"set -e; trap 'echo bye $?' EXIT; readonly r=1; f1() { "+c+" || echo \"or $?\"; echo in; }; if f1; then echo then; fi; echo next",
		)
	}
	cases = append(cases,
		`set -e; readonly r=1; x=$(read r <<< x || echo "or $?"; echo insub); echo "next $? $x"`,
		`set -e; readonly r=1; ( read r <<< x || echo "or $?"; echo insub ); echo "next $?"`,
		`set -e; readonly r=1; eval "read r <<< x || echo or; echo ineval"; echo next`,
		`set -e; shopt -s inherit_errexit; readonly r=1; x=$(read r <<< x || echo "or $?"; echo insub); echo "next $? $x"`,
		`set -e; readonly r=1; trap 'echo "err $?"' ERR; read r <<< x || echo "or $?"; echo next`,
		"readonly r=1\nlet r=2 || echo \"or $?\"\n(( r = 3 )) || echo \"or $?\"\nfor ((r=0; r<1; r++)); do :; done || echo \"or $?\"\necho next",
	)
	cases = append(cases,
		// wait -p unsets its variable first: a readonly one fails wait
		// (status 1, never fatal).
		`readonly r=1; sleep 0.01 & wait -p r || echo "or $?"; echo "next [$r]"; wait`,
		`set -e; readonly r=1; sleep 0.01 & wait -p r || echo "or $?"; echo "next [$r]"; wait`,
		// cd changes the directory, then fails on a readonly OLDPWD.
		`set -e; trap 'pwd' EXIT; cd /; readonly OLDPWD; cd /tmp || echo "or $?"; echo next`,
		`cd /; readonly OLDPWD; cd /tmp || echo "or $?"; pwd; echo next`,
		`set -e; readonly REPLY; read <<< x || echo "or $?"; echo next`,
		`set -e; readonly MAPFILE; mapfile <<< x || echo "or $?"; echo next`,
		`set -e; f() { local -r l=1; read l <<< x || echo "or $?"; echo in; }; f || echo "f $?"; echo next`,
		// A list assigned by declare to a readonly variable outside a
		// function's scope discards the command, errexit or not.
		`readonly r=1; declare -a r=(x) || echo "or $?"; echo next`,
		`readonly r=1; f() { declare -g r=(x) || echo "or $?"; echo in; }; f; echo next`,
		`readonly -a ra=(1); readonly -a ra=(2) || echo "or $?"; echo next`,
		`f() { readonly r=1; declare -a r=(x) || echo "or $?"; echo in; declare -p r; }; f; echo next`,
	)
	runCases(t, cases)
}
