// Differential tests for the ERR trap: bash runs it exactly where errexit
// would end the shell (whether errexit is on or not), after the failed
// command's redirections were undone, and (without set -E) not in functions,
// command substitutions or subshells.
package interp_test

import "testing"

func TestJaiphErrTrapWhere(t *testing.T) {
	runCases(t, []string{
		`trap 'echo "trap $?"' ERR; [[ -e ok ]] && false; echo after`,
		`trap 'echo "trap $?"' ERR; false && true; true && false; false || false; echo after`,
		`trap 'echo "trap $?"' ERR; if false; then :; fi; while false; do :; done; until true; do :; done; ! true; echo after`,
		`trap 'echo "trap $?"' ERR; f() { false; echo "in f"; }; f || echo or; f && echo and; if f; then echo then; fi; ! f; echo after`,
		`trap 'echo "trap $?"' ERR; f() { false; echo "in f"; }; f; g() { false; }; g; echo after`,
		`set -E; trap 'echo "trap $?"' ERR; f() { false; echo "in f"; }; f; f || echo or; echo after`,
		`trap 'echo "trap $?"' ERR; { false; true && false; }; for i in 1; do false; done; if true; then false; fi; echo after`,
		`trap 'echo "trap $?"' ERR; ( false ); x=$(false); echo "after $x"`,
		`set -E; trap 'echo "trap $?"' ERR; ( false ); x=$(false; echo in); echo "after $x"`,
		`trap 'echo "trap $?"' ERR; false | true; true | false; echo after`,
		`set -o pipefail; trap 'echo "trap $?"' ERR; false | true; echo after`,
		`trap 'echo "trap $?"' ERR; { false && true; }; echo "group $?"; { true && false; }; echo after`,
		`trap 'echo "trap $?"' ERR; f() { return 3; }; f; echo after`,
		`trap 'echo "trap $?"' ERR; (( 0 )); [[ -z x ]]; echo after`,
		`trap 'echo "trap $?"' ERR; x=$(exit 4); echo "after $?"`,
		`trap 'echo "trap $?"' ERR; while true; do false; break; done; echo after`,
		`trap 'echo "trap $?"' ERR; case x in x) false;; esac; echo after`,
		`trap 'echo "trap $?"' ERR; false || { false; echo in; }; echo after`,
		`trap 'echo "trap $?"' ERR; if ! false; then false; fi; echo after`,
		`set -e; trap 'echo "trap $?"' ERR; false && true; f() { false; echo in; }; f || echo or; false; echo notreached`,
		`set -e; trap 'echo "trap $?"' ERR; f() { false; echo in; }; f; echo notreached`,
		`set -eE; trap 'echo "trap $?"' ERR; f() { false; echo in; }; f; echo notreached`,
		`set -E; trap 'echo "trap $?"' ERR; false | true; true | false; { false; } | cat; echo "$-"; set +E; f() { false; }; f; echo after`,
		`trap 'echo "T $? $BASH_SUBSHELL"' ERR; true | (false); (false) | true; true | (false; echo in); true | ( (false) ); x=1; true | (x=2; false); echo $x`,
		`trap 'echo "T $?"' ERR; if true | (false); then :; fi; true | (false) || echo or; true | (false) && echo and; f() { true | (false); }; f`,
		`set -E; trap 'echo "T $? $BASH_SUBSHELL"' ERR; true | (false)`,
		`set -e; trap 'echo "T $?"' ERR; true | (false); echo after`,
		`true | (echo $BASH_SUBSHELL); (echo $BASH_SUBSHELL) | cat; { echo $BASH_SUBSHELL; } | cat; true | ( (echo $BASH_SUBSHELL) )`,
		`set -o errtrace; trap 'echo "trap $?"' ERR; x=$(false; echo in); echo "[$x]"; (false; echo sub); set -o | grep errtrace`,
	})
}

// The trap a function sets stays set after it (traps are global), but its
// own call, which began without one, does not run it (bash decides from the
// trap set when the command starts).
func TestJaiphErrTrapSetInFunction(t *testing.T) {
	runCases(t, []string{
		"set -eo pipefail; f() {\ntrap 'echo \"trap $?\"' ERR\n[[ -e ok ]] && false\n}\nf",
		"f() {\ntrap 'echo \"trap $?\"' ERR\n}\nf || true; f; false; echo x",
		"f() { trap - ERR; return 1; }\ntrap 'echo \"trap $?\"' ERR\nf; echo x; false",
		`f() { trap 'echo "in $?"' ERR; false; echo x; g; }; g() { false; echo ing; }; f`,
		`set -e; f() { trap 'echo "in $?"' ERR; trap 'echo bye' EXIT; ! true; }; f; echo x`,
		`set -e; f() { trap 'echo "in $?"' ERR; trap 'echo bye' EXIT; false; }; f; echo x`,
		`trap 'echo a' ERR; f() { trap 'echo b' ERR; }; f; false; trap -p ERR`,
		`set -E; trap 'echo "err $?"' ERR; f() { return 3; }; f; g() { if true; then return 4; fi; }; g; echo end`,
		`trap 'echo a' ERR; f() { trap -p ERR; trap - ERR; }; f; false; trap -p ERR`,
		`trap 'echo a' ERR; f() { trap 'echo b' ERR; false; }; f; false; trap -p ERR`,
	})
}

func TestJaiphErrTrapRedirections(t *testing.T) {
	runCases(t, []string{
		`trap 'echo "trap: $?" >&2' ERR; grep -q a f1 2>/dev/null; echo after`,
		`trap 'echo "trap: $?"' ERR; false > f1; echo after; cat f1`,
		`trap 'echo "trap: $?" >&2' ERR; { grep -q a nof; } 2>/dev/null; echo after`,
		`trap 'echo "trap: $?" >&2' ERR; f() { return 3; }; f 2>/dev/null; echo after`,
		`trap 'echo "trap: $?"' ERR; { false; echo in; } > f1; echo after; cat f1`,
		`trap 'echo "trap: $?"' ERR; for i in 1; do false; done > f1; echo after; cat f1`,
		`set -e; trap 'echo "trap: $?" >&2' ERR; grep -q a nof 2>/dev/null; echo after`,
	})
}

// When errexit or exit ends the shell inside a redirected compound command
// (or exit inside a redirected simple command), bash runs the EXIT trap with
// those redirections still in force; errexit after a simple command first
// undoes the innermost simple command's redirections (a function call's)
// and everything inside it.
func TestJaiphExitTrapRedirections(t *testing.T) {
	runCases(t, []string{
		"set -e; trap 'echo bye' EXIT\n{\ndeclare -p r1\n} > f1\necho no",
		"trap 'echo bye' EXIT\n{ exit 2; } > f1",
		"trap 'echo bye' EXIT\nexit 2 > f1",
		"trap 'echo bye' EXIT\nf() { exit 2; }\nf > f1",
		"set -e; trap 'echo bye' EXIT\nfalse > f1",
		"set -e; trap 'echo bye' EXIT\nf() { false; echo no; }\nf > f1",
		"set -e; trap 'echo bye' EXIT\nf() { { false; } > f1; }\nf",
		"set -e; trap 'echo bye' EXIT\nf() { false; } > f1\nf",
		"set -e; trap 'echo bye' EXIT\nfor i in 1; do false; done > f1",
		"set -e; trap 'echo bye' EXIT\ncase x in x) false;; esac > f1",
		"set -e; trap 'echo bye' EXIT\n[[ -z x ]] > f1",
		"set -e; trap 'echo bye' EXIT\n(( 0 )) > f1",
		"set -e; trap 'echo bye' EXIT\n( false ) > f1",
		"set -e; trap 'echo bye' EXIT\n{ true | false; } > f1",
		"set -e; trap 'echo bye >&2; echo bye2' EXIT\n{ { false; } 2>/dev/null; } > f1",
		"set -e; trap 'echo bye' EXIT\ng() { false; }; f() { g > f2; }; f > f1",
		"set -e; trap 'echo bye' EXIT\nf() { false; }; { f; } > f1",
		"set -e; trap 'echo bye' EXIT\nf() { [[ -z x ]]; }; f > f1",
		"set -e; trap 'echo bye' EXIT\n{ false; } > f1 2>&1 | cat; echo after",
		"set -e; x=$({ trap 'echo bye' EXIT; false; } > f1; echo no); echo \"[$x]\"",
		"set -e; ( trap 'echo bye' EXIT; { false; } > f1 ); echo no",
		"trap 'echo bye' EXIT\nwhile read -r l; do exit 3; done < <(echo a) > f1",
	})
}

// $LINENO in the ERR trap is the failed command's line; for a compound
// command's failed redirection, the line of the last simple command run
// (bash updates it no further).
func TestJaiphErrTrapLineno(t *testing.T) {
	runCases(t, []string{
		"trap 'echo \"at $LINENO\"' ERR\nfalse\n\nfalse\necho end",
		"trap 'echo \"at $LINENO\"' ERR\nf() {\n  false\n}\nf\n( exit 3 )\n[[ a == b ]]\necho end",
		"trap 'echo \"at $LINENO\"' ERR\nfalse\n{ false\n  true\n} > /no/such/dir/f\necho end",
	})
}

// trap with one argument resets that signal; one that names no signal
// (an action without a signal, a lone `-`) is the usage error, status 2.
func TestJaiphTrapLoneArgument(t *testing.T) {
	runCases(t, []string{
		`trap 'echo x' || echo "failed $?"; trap - || echo "failed $?"; trap nosuch || echo "failed $?"; echo after`,
		`trap 'echo int' INT; trap INT; trap -p INT; trap 'echo bye' EXIT; trap EXIT; trap 'echo term' 15; trap 15; trap -p; echo end`,
		"printf 'echo sourced\\nreturn 42\\n' > helper.sh\nf() { trap 'echo \"ret [$?]\"' RETURN; . ./helper.sh; echo \"st=$?\"; }\nf\necho \"f=$?\"",
		"printf 'echo sourced\\nreturn 42\\n' > helper.sh\ntrap 'echo \"ret [$?]\"' RETURN\n. ./helper.sh\necho \"st=$?\"",
		"set -e; printf 'echo sourced\\nreturn 42\\n' > helper.sh\nf() { trap 'echo \"ret [$?]\"' RETURN; . ./helper.sh; echo \"st=$?\"; }\nf\necho \"f=$?\"",
		"set -e; printf 'echo sourced\\nfalse\\necho no\\n' > helper.sh\nf() { trap 'echo \"ret [$?]\"' RETURN; . ./helper.sh; echo \"st=$?\"; }\nf\necho \"f=$?\"",
	})
}

// An external command's redirections are performed in the child bash forks
// for it: a fatal expansion error in one ends that child only (the command
// fails with status 1, the ERR trap runs); for a builtin, a function or a
// compound command it is the shell's fatal error.
func TestJaiphRedirExpansionInChild(t *testing.T) {
	var cases []string
	for _, c := range []string{
		"cat <<E1\n$u\nE1", "cat < $u", "cat <<< $u", "cat <&$u", "cat 3<$u", "cat /dev/null > $u",
		"cat /dev/null > ${u:?msg}", "cat /dev/null 2>$((1/0))", "echo x > $u", "read x <<< $u",
		"f() { :; }; f <<< $u", "{ cat; } <<< $u", "x=$(cat <<< $u); echo \"[$x]\"",
	} {
		cases = append(cases, "trap 'echo \"trap: $?\"' ERR\nset -u\n"+c+"\necho after")
	}
	runCases(t, cases)
}

// Under set -u the subscript of an unset array is evaluated before the
// array is found unset (bash reports an unset name in it first).
func TestJaiphNounsetSubscriptFirst(t *testing.T) {
	var cases []string
	for _, c := range []string{
		`echo "${A1[k]}"`, `echo "${A1[k+1]}"`, `k=1; echo "${A1[k]}"`, `declare -A m; echo "${m[k]}"`,
		`echo "${A1[@]}"`, `echo "${#A1[k]}"`, `echo "${A1[k]:-d}"`, `a=(1); echo "${a[k]}"`,
	} {
		cases = append(cases, "set -u; "+c+"; echo after")
	}
	runCases(t, cases)
}

// The ERR trap runs for a command failing inside the EXIT trap (bash marks
// each trap in progress on its own), never inside itself.
func TestJaiphErrTrapInsideExitTrap(t *testing.T) {
	runCases(t, []string{
		`f() { trap 'cat f1 2>/dev/null' EXIT; trap 'echo err $?' ERR; }; f`,
		`f() { trap 'cat f1 2>/dev/null' EXIT; trap 'echo err $?' ERR; }; set -e; f`,
		`f() { trap 'echo err $?; false' ERR; false; echo after; }; f`,
		`f() { trap 'echo in exit; exit 3' EXIT; trap 'echo err $?; exit 4' ERR; false; }; set -e; f`,
	})
}
