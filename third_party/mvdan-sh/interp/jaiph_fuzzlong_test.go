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

func TestJaiphAssignListOpJoin(t *testing.T) {
	runCases(t, []string{
		// a quoted list with a per-element operator in an assignment's
		// value or a here-string joins with IFS's first character
		`a1=(1 'two words' three); IFS=":/"; v2="${a1[@]/t/T}" printenv v2; v="${a1[@]/t/T}"; echo "$v"; v="${a1[*]}"; echo "$v"; v="${a1[@]}"; echo "$v"; v2="${a1[@]}" printenv v2; v2="${a1[*]}" printenv v2`,
		`a1=(1 'two words' three); v2="${a1[@]/t/T}" printenv v2; v="${a1[@]/t/T}"; echo "$v"; IFS=; v="${a1[@]^}"; echo "$v"; v="${a1[*]^}"; echo "$v"`,
		`set -- 1 'two words' three; IFS=":/"; v2="$@" printenv v2; v2="${@/t/T}" printenv v2; v="$@"; echo "$v"; v2=$@ printenv v2; IFS=; v2="$@" printenv v2; v2="${@^}" printenv v2`,
		"a1=(1 'two words' three); IFS=\":/\"\nv=${a1[@]/t/T}; echo \"1 $v\"\nv=\"${a1[@]:1}\"; echo \"2 $v\"\nv=\"${a1[@]@Q}\"; echo \"3 $v\"\nv=\"${a1[@]#t}\"; echo \"4 $v\"\nv=\"${a1[@],,}\"; echo \"5 $v\"\n" +
			"v=\"x${a1[@]^}y\"; echo \"8 $v\"\nv=\"${a1[@]:-d}\"; echo \"9 $v\"\nv=\"${!a1[@]}\"; echo \"10 $v\"\nv=${!a1[@]}; echo \"10u $v\"\nIFS=:; declare -A m=([a]=x [b]=y); v=\"${m[@]^}\"; echo \"19 $v\"\n" +
			"f() { local l=\"${a1[@]^}\"; echo \"20 $l\"; }; f\ndeclare d=\"${a1[@]^}\"; echo \"21 $d\"\nexport e=\"${a1[@]^}\"; echo \"22 $e\"\nfor w in \"${a1[@]^}\"; do echo \"23 $w\"; done\nv=pre\"${a1[@]^}\"; echo \"30 $v\"",
		// here-strings as assignments; [[ ]] and case words join with a space
		`a1=(1 'two words' three); IFS=":/"; cat <<< "${a1[@]}"; cat <<< ${a1[@]^}; cat <<< "${a1[@]^}"; cat <<< "${a1[@]:1}"; cat <<< "x${!a1[@]}"; IFS=; cat <<< "${a1[@]^}"`,
		`a1=(1 'two words' three); IFS=":/"; [[ "${a1[@]^}" == "1 Two words Three" ]] && echo space; case "${a1[@]^}" in "1 Two words Three") echo case;; esac; IFS=:; a1[1]+="${a1[@]^}"; echo "${a1[1]}"; v+="${a1[@]%e}"; echo "$v"`,
	})
}

func TestJaiphExecInRedirectedCompound(t *testing.T) {
	runCases(t, []string{
		// an exec inside a compound command (or function) with its own
		// redirections keeps what it changed, except the descriptors
		// the compound's redirections name, which are restored
		"v2='a b'; while read -r i1; do\nexec >>f1\ntrue\ndone <<< \"$v2\"\nread -r v1 <<'E2' && echo \"[$v1]\"\n${v2// /_} and $((n+1))\nE2\nexec >&2; cat f1",
		"for i in 1; do exec 3>f3; done >/dev/null; echo hi >&3; cat f3",
		"{ exec >f1; } 2>/dev/null; echo x; exec >/dev/tty 2>/dev/null; cat f1 >&2",
		"echo in > g; { exec 4<g; } </dev/null; cat <&4",
		"if true; then exec 5>f5; fi >out; echo five >&5; cat f5; cat out",
		"while read -r l; do exec 6>f6; done <<< x; echo six >&6; cat f6",
		"{ exec >f1; echo a; } >f2; echo x; exec >&2; echo f1:; cat f1; echo f2:; cat f2",
		"exec 3>&1; { exec 1>f1; echo a; } 3>f2; echo x; echo three >&3; exec >&2; echo f1:; cat f1; echo f2:; cat f2",
		"for i in 1; do exec 3>f3; done 3>/dev/null; echo hi >&3; echo st $?",
		"echo in > g; while read l; do exec 4<g; done <<< x; cat <&4; f() { exec 5>f5; } >/dev/null; f; echo five >&5; cat f5",
		"{ exec 3>&1; } >f2; echo via3 >&3; cat f2",
		"echo in > g; { exec 4<&0; } <g; cat <&4",
		"for i in 1 2; do exec 7>>f7; echo $i >&7; done 2>/dev/null; echo end >&7; cat f7",
		"{ exec 2>e; } >/dev/null; echo err >&2; cat e",
		"case x in x) exec 8>f8;; esac >/dev/null; echo c >&8; cat f8",
		"until true; do :; done; { exec {fd}>fv; } 2>/dev/null; echo v >&$fd; cat fv",
		"{ exec 3>f3; } 3>&-; echo x >&3; echo st $?",
		"exec 3>&1; { exec &>fa; } >/dev/null; echo both; echo err >&2; cat fa >&3",
	})
}

func TestJaiphArithBeforeNonVariableAssign(t *testing.T) {
	runCases(t, []string{
		// what comes before an assignment to a non-variable is evaluated
		// first (side effects, errors), in let strings, values, ((…))
		// and $((…))
		`let "1/0 < 3 - (0x1f) && n+=3"; echo "st $? n=$n"`,
		`let "(1/0 * 0x1f * 42 == 3 == (n,n+1) && n+=3 - (i) + n == -n)"; echo "st $? n=$n"`,
		`let "n++ && 2 += 3"; echo "st $? n=$n"; let "0 && 1/0 || n+=3"; echo "st $? n=$n"; let "5 += 1"; echo "st $?"`,
		`x='1/0 < 3 - (0x1f) && n+=3'; echo $(( x )); echo "st $? n=$n"`,
		`let "(n=4) += 2"; echo "st $? n=$n"; let "(1/0) += 2"; echo "st $?";`,
		`(( 1/0 < 3 - (0x1f) && n+=3 )); echo "st $? n=$n"`,
		`echo $(( 1/0 < 3 - (0x1f) && n+=3 )); echo "st $? n=$n"`,
		`(( (1/0 * 0x1f * 42 == 3 == (n,n+1) && n+=3 - (i) + n == -n) )); echo "st $? n=$n"`,
		`(( n++ && 2 += 3 )); echo "st $? n=$n"; (( 0 && 1/0 || n+=3 )); echo "st $? n=$n"`,
	})
}

func TestJaiphDeclareDoubleDash(t *testing.T) {
	runCases(t, []string{
		"declare -- x=1; echo $x; export -- E=2; echo $E; f() { local -- l=3; echo $l; typeset -i -- n=1+1; echo $n; }; f; readonly -- R=4; echo $R",
		"declare -- -x 2>/dev/null; echo st $?; declare -r -- y=5; echo $y; y=6; echo $y",
		"set -x; declare -- z=1; set +x",
	})
}

func TestJaiphArithNonVariableUnevaluated(t *testing.T) {
	runCases(t, []string{
		// an assignment to a non-variable fails also in a branch that is
		// not evaluated, and nothing after it is evaluated
		`n=2; (( n || (0x1f < n % n+=3) )); echo "st=$? n=$n"`,
		`n=2; x=0; (( 0 && (1 = 2), x = 5 )); echo "st=$? x=$x"; (( n || 1 = 2 )); echo "st=$?"`,
		`n=2; echo $(( n ? 2 : (5 << (n % n+=3)) )); echo "st=$?"`,
		`n=2; (( 1/0 < 3 && n+=3 )); echo "st=$? n=$n"; (( n++ || (1 - n+=3) )); echo "st=$? n=$n"`,
		`n=2; a=(1); (( a[0] += 1, n || a[0] += 7 )); echo "st=$? ${a[0]}";`,
	})
}

func TestJaiphRegexMatchOperands(t *testing.T) {
	runCases(t, []string{
		// the left operand of =~ is expanded first
		`n=1; [[ $((n++)) =~ $n ]] && echo match || echo "no match $n"`,
		`n=1; [[ $((n++)) == $n ]] && echo match || echo "no match $n"`,
		// a fatal expansion error ends the shell with 1, before an
		// invalid regex could make the status 2
		`[[ $((1/0)) =~ * ]]; echo "not reached $?"`,
		`[[ x =~ $((1/0)) ]]; echo "not reached $?"`,
		`[[ $((1/0)) =~ $((2/0)) ]]; echo "not reached $?"`,
		`[[ x =~ * ]]; echo "invalid regex $?"`,
	})
}

func TestJaiphExitTrapSeesLocals(t *testing.T) {
	runCases(t, []string{
		// an EXIT trap run by exit inside a function sees its locals
		`v=G; f() { local v=L; trap 'echo "[$v] $?"' EXIT; exit 3; }; f; echo no`,
		`v=G; trap 'echo "[$v] $?"' EXIT; f() { local v=L; exit 3; }; g() { local v=M; f; }; x=$(g; echo no); echo "x=$x st=$?"; g | cat; echo "pipe ${PIPESTATUS[*]}"; ( g ); echo "g $?"; g`,
		`v=G; f() { local v=L; trap 'echo "[$v] $?"; exit 5' EXIT; exit 3; }; f`,
		`f() { local v=L; trap 'echo "[$v] inner"' EXIT; exit 4; }; ( f ) > f1; cat f1; rm f1`,
		`trap 'echo T' EXIT; f() { { exit 1; } > f1; }; f; cat f1`,
		// errexit and fatal errors unwind the functions first
		`set -e; v=G; f() { local v=L; trap 'echo "[$v] $?"' EXIT; false; }; f`,
		`v=G; f() { local v=L; trap 'echo "[$v] $?"' EXIT; echo ${u?x}; }; f`,
		// exit in an ERR trap inside a function
		`v=G; trap 'echo "[$v] $?"' EXIT; h() { local v=E; trap 'echo err; exit 6' ERR; false; echo no; }; h`,
	})
}

func TestJaiphPrefixAssignNoAttrs(t *testing.T) {
	runCases(t, []string{
		// v=x cmd: the temporary variable has no declare -u/-l/-i
		`declare -u v2=x; v2=abc printenv v2; v2=abc env | grep ^v2; f() { echo "f $v2"; }; v2=abc f; v2=abc eval 'echo "eval $v2"'; v2=abc :; echo "after $v2"`,
		`declare -i n=1; n=1+2 printenv n; g() { echo "g $n"; }; n=1+2 g; declare -l lo; lo=ABC printenv lo; echo "[$n] [$lo]"`,
		// += still applies them
		`declare -u v=x; v+=abc printenv v; declare -i m=1; m+=2 printenv m; m+=2 eval 'echo "$m"'; echo "$v $m"`,
	})
}

func TestJaiphAssignEndsBeforeBadSubscript(t *testing.T) {
	runCases(t, []string{
		// under errexit the bad subscript in the value ends the shell
		// before the assignment (whose own bad subscript is not reported)
		`set -e; a1[-1]="${a1[-1]}"; echo "st $?"`,
		`set -e; f() { a1[-1]="${a1[-1]}"; echo "in $?"; }; f || echo "or $?"`,
		`a1[-1]="${a1[-1]}"; echo "st $?"`,
	})
}

func TestJaiphArrayElemsStopAtFatal(t *testing.T) {
	runCases(t, []string{
		// a fatal error in an array element ends the shell there: the
		// elements after it are not expanded (their errors not reported)
		`a1=( "${u1:?novalue}" $((1/0)) ); echo no`,
		`n=0; ( a1=( $((n+=1)) "${u:?gone}" $((n+=5)) ); echo no ) || echo "st=$? n=$n"; ( declare -A m=( [a]="${u:?x}" [b]=$((1/0)) ) ); ( declare -A m=( k "${u:?kv}" k2 $((1/0)) ) ); echo "st=$?"`,
	})
}

func TestJaiphPipeElemFatalRunsExitTrap(t *testing.T) {
	runCases(t, []string{
		// a pipeline's simple command ended by a fatal error while its
		// words or assignments expand runs the shell's EXIT trap (bash's
		// child has not reset its traps yet)
		// (one at a time: bash itself reports "wait_for: No record of
		// process" after a second such pipeline)
		`trap 'echo "T $?"' EXIT; echo $((1/0)) | cat; echo after`,
		`trap 'echo "T $?"' EXIT; true | echo ${u:?gone}; echo after`,
		`trap 'echo "T $?"' EXIT; x=${u:?q} | cat; echo after`,
		`trap 'echo "T $?"' EXIT; echo $((2/0)) > /dev/null | cat; echo after`,
		`trap 'echo "T $?"' EXIT; x=$((2/0)) echo hi | cat; echo after`,
		// not after the reset: redirections, compound commands,
		// functions, exit, a status
		`trap 'echo "T $?"' EXIT; echo hi | cat; exit 4 | cat; false | cat; cat <<< $((1/0)) | cat; ( echo $((1/0)) ) | cat; f() { echo $((1/0)); }; f | cat; { echo $((1/0)); } | cat; echo after`,
	})
}
