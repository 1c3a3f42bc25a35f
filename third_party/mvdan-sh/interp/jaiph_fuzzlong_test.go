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

func TestJaiphUnquotedListOpSplit(t *testing.T) {
	runCases(t, []string{
		// an unquoted list with a per-element operator is joined with
		// IFS's first character and split
		`a1=(1 'two words' three); IFS=':'; printf '<%s>' ${a1[@]^}; echo; printf '<%s>' ${a1[@]/t/T}; echo; printf '<%s>' ${a1[@]#?}; echo; IFS=':/'; printf '<%s>' ${a1[@]^} ${a1[*]%e}; echo`,
		`set -- 'a:b' 'c d'; IFS=:; printf '<%s>' ${@^} ${@/c/C} ${*^} ${@:1} ${@@Q}; echo`,
		"a1=(1 'two words' three); set -- 1 'two words' three\nfor ifs in unset ' ' ':' '' ': '; do\nif [ \"$ifs\" = unset ]; then unset IFS; else IFS=$ifs; fi\n" +
			`printf '<%s>' ${a1[@]^} ${a1[@]/t/T} ${a1[@]#?} ${a1[@]%e} ${a1[@]@Q} ${a1[@]:1} ${a1[*]^} ${a1[*]/t/T} ${a1[*]#?}; echo; printf '<%s>' ${@^} ${@/t/T} ${@#?} ${*#?} ${@:1}; echo` + "\ndone",
		// the plain list too: with IFS=: an empty element is a field
		`a=(x: y "" "" z :); IFS=:; printf "<%s>" ${a[@]}; echo; printf "<%s>" ${a[*]}; echo; set -- "${a[@]}"; printf "<%s>" $@; echo; printf "<%s>" w${a[@]}v; echo; IFS=": "; printf "<%s>" ${a[@]}; echo`,
		`a=(1 '' 3 'x:'); set -- 1 '' 3; IFS=:; printf '<%s>' ${a[@]#?} x${a[*]#?}y $@ ${@#?}; echo; IFS=' :'; printf '<%s>' ${a[@]}; echo; IFS=; printf '<%s>' ${a[@]} ${a[@]#?}; echo`,
		// with IFS empty, # and % of an array are one field (bash leaves
		// its CTLESC before spaces there)
		`a=('a b' $'c\td' $'e\x01f' $'g\x7fh' "  "); IFS=; printf "<%s>" ${a[@]#x} ${a[*]%y} | od -c; declare -A m=([k]="p q"); printf "<%s>" ${m[@]#x} | od -c; set -- "a b" c; printf "<%s>" ${@#x}`,
	})
}
