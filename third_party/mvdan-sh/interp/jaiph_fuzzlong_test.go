// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// divergences the differential fuzzer's long run found (issue 36).
package interp_test

import "testing"

func TestJaiphBadSubscriptReported(t *testing.T) {
	runCases(t, []string{
		// a negative subscript of an unset, empty or scalar variable is
		// reported and expands to nothing; the command goes on
		`echo "[${a[-1]}] $?"; x=${a[-1]}; echo "st $? [$x]"; f() { local x=${a[-1]}; echo "st $? [$x]"; }; f`,
		`readonly r1="${a1[-1]}"; declare -p A1; echo "st $?"`,
		`a=scalar; echo "[${a[-1]}]"; echo "st $?"; a=(); echo "[${a[-1]}]"; echo "st $?"; declare b; echo "[${b[-1]}]"`,
		`a=(1 2 3); echo "[${a[-5]}]"; echo "st $?"; echo "${a[@]: -1}" "${!a[-1]}"; echo "st $?"`,
		`echo "${a[-1]/x/y}" "${a[-1]#x}" "${a[-1]@Q}"; a=(); echo "${a[-1]-unset}" "${a[-1]+set}" "${a[-1]:-d}"; echo "st $?"`,
		`unset b; echo "${b[i++]}" $i; declare -A m; echo "[${m[-1]}] $?"`,
		`a=(); (( a[-1] )); echo st $?; echo $(( a[-1] )); echo st $?; [[ -v a[-1] ]]; echo st $?`,
		// under errexit the shell exits, in any context, with the last
		// status or 1; not in a command substitution (no errexit there)
		`set -e; x=${a[-1]}; echo "st $? [$x]"`,
		`set -e; (exit 3) || echo "${a[-1]}"; echo after`,
		`set -e; trap 'echo "trap $?"' EXIT; if x=${a[-1]}; then echo in; fi; echo after`,
		`set -e; f(){ x=${a[-1]}; echo inf; }; f || echo or; echo after`,
		`set -e; echo "$(echo "${a[-1]}"; echo in)"; echo "after $?"`,
		// ${#a[-9]}: 0 when unset, fatal when set
		`echo ${#a[-1]}; echo st $?; declare a; echo ${#a[-1]}; a=(1 2); echo ${#a[-2]}`,
		`a=(); echo ${#a[-1]}; echo st $?`,
		`a=(1 2); echo ${#a[n-5]}; echo st $?`,
		`a=x; echo ${#a[-1]}; echo st $?`,
	})
}
