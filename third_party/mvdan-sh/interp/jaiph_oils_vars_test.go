package interp_test

import "testing"

// Startup variables as bash sets them (Oils' spec/vars-special and
// spec/vars-bash, restated): PWD and OLDPWD exported (cd keeps that),
// PPID readonly, an unset SHELL filled from the passwd entry.
func TestJaiphOilsStartupVars(t *testing.T) {
	runCases(t, []string{
		`env | grep -c '^PWD='; declare -p OLDPWD; cd /; env | grep -c '^OLDPWD='; env | grep '^PWD='`,
		`PPID=1; echo "status $?"`,
		`( PPID=xx; echo not reached ); echo "status $?"; declare -p PPID | cut -c1-16`,
		`test -n "$SHELL" && echo set; printenv SHELL || echo not exported; declare -p SHELL | cut -c1-13`,
	})
}

// ${!ref} as bash's parameter_brace_expand_indir (Oils' spec/var-ref,
// restated): a target naming a list gives its fields, a value naming no
// parameter is fatal, ${!a[@]OP} goes through the value of ${a[@]}.
func TestJaiphOilsIndirection(t *testing.T) {
	runCases(t, []string{
		`set -- p q; r=@; printf '<%s>' "${!r}"; echo; r='*'; printf '<%s>' "${!r}"; echo; echo ${!r}`,
		`set -- uno dos; r=@; echo r=${!r}`,
		`a=(p q r); r='a[@]'; printf '<%s>' "${!r}"; echo; r='a[*]'; printf '<%s>' "${!r}"; echo`,
		`r=LINENO; echo
echo line=${!r}`,
		`a='bad name'; (echo got ${!a}; echo no) || echo status=$?; b=/; (echo ${!b}; echo no) || echo status=$?`,
		`w=ww; ww=; (echo ${!w:?is empty}; echo no) || echo status $?`,
		`(echo "${!a[@]-d}"; echo no) || echo status=$?; a=(p q); (echo "${!a[@]-d}"; echo no) || echo status=$?; b=(s); echo "${!b[@]-d}"`,
		`declare -A m=([k]=v); v=value; printf '<%s>' "${!m[@]:2}" "${!m[@]#?}" "${!m[@]@Q}" "${!m[@]@a}"; echo`,
		`declare -A m=([k]='a3[@]'); a3=(1 2 3); printf '<%s>' "${!m[@]:1}"; echo; printf '<%s>' "${!m[@]:-e}"; echo`,
		`r='a[@]'; a=('' '' ''); printf '<%s>' "${!r:-set}"; echo; printf '<%s>' "${!r:=assign}"; echo`,
		`declare -A A=([x]=y); echo "[${!A[@]@P}] [${!A[@]@a}]"; echo x=${!A[@]@a}`,
	})
}

// Positional parameters have no attributes: ${@@a} is one empty word per
// parameter, as in bash (Oils' spec/var-op-bash, restated).
func TestJaiphOilsPositionalAttrs(t *testing.T) {
	runCases(t, []string{
		`set -- a b c; echo "[${@@a}]" "[${*@a}]"; printf '<%s>' "${@@a}"; echo`,
	})
}

// "$_" after a declaration is its last word (Oils' spec/vars-special,
// restated).
func TestJaiphOilsDeclLastArg(t *testing.T) {
	runCases(t, []string{
		`f() { : foo; s=bar; echo "[$_]"; declare s=bar; echo "[$_]"; declare a=(1 2); echo "[$_]"; declare -g d=(1 2); echo "[$_]"; local -i n; echo "[$_]"; export e+="x y"; echo "[$_]"; }; f`,
		`readonly r=1 q; echo "[$_]"; declare -p r >/dev/null; echo "[$_]"`,
	})
}

// LINENO read by name in arithmetic is the current line.
func TestJaiphOilsArithLineno(t *testing.T) {
	runCases(t, []string{
		`echo one
(( x = LINENO ))
echo $x $((LINENO)) $[LINENO + 1]
for (( i = 0; i < LINENO - 3; i++ )); do echo $i; done`,
	})
}

// ${!r} naming an element whose subscript is no arithmetic fails with
// bash's arithmetic error.
func TestJaiphOilsIndirectBadSubscript(t *testing.T) {
	runCases(t, []string{
		`a=(x y); r='a[~+]'; (echo ${!r}; echo no) || echo status $?`,
		`a=(x y); for r in 'a[b*]' 'a[1"]' 'a[1 0]'; do (echo "${!r}"; echo no) || echo status $?; done`,
		`a=(x y); r='a[b*]'; (echo "${!r:-d}"; echo no) || echo status $?`,
	})
}
