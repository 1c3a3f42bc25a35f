// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// patches found by the differential fuzzer's soak in the session of
// 2026-11-30, third stop (jaiph-go issue 36), and the behaviours around
// them read in bash's variables.c and arrayfunc.c.
package interp_test

import "testing"

// TestJaiphNegativeSubscriptOfDeclaredVariable: a negative subscript of an
// element of a variable that exists but is no array counts back from
// element 0, set or not (declare v; v[-1]=x sets v[0]); only a variable
// that does not exist, an empty array or a nameref has nothing to count
// back over. A declaration whose element is before the start has made
// NAME an array with its attributes before it fails.
func TestJaiphNegativeSubscriptOfDeclaredVariable(t *testing.T) {
	runCases(t, []string{
		`f() { declare a; a[-1]=X; declare -p a; }; f`,
		`f() { local a; a[-1]+=X; declare -p a; }; f`,
		`f() { declare -i a; a[-1]=2+3; declare -p a; }; f`,
		`f() { export e; e[-1]=X; declare -p e; }; f`,
		`f() { declare -l q; q[-1]=ABC; declare -p q; }; f`,
		`f() { declare -u w; w[-2]=X; echo st=$?; declare -p w; }; f; echo "st=$?"`,
		`f() { declare -n n; n[-1]=X; echo st=$?; declare -p n; }; f; echo "st=$?"`,
		`f() { local -a e; e[-1]=X; echo st=$?; declare -p e; }; f; echo "st=$?"`,
		`f() { local v=abc; v[-1]=X; v[-2]=Y; declare -p v; }; f; echo "st=$?"`,
		`h() { a3[-1]=X; echo "st=$?"; }; h; echo "st=$?"`,
		`f() { declare e; declare -l e[-1]=X; declare -p e; }; f`,
		`f() { local e=abc; local -u e[-2]=X; declare -p e; }; f`,
		`f() { local e; local -u e[-2]=X; declare -p e; }; f`,
		`f() { declare -l e[-2]=X; declare -p e; }; f`,
		`f() { declare -g g7; declare -g -l g7[-2]=X; declare -p g7; }; f`,
		`g8=abc; f() { declare -g -l g8[-2]=X; declare -p g8; }; f`,
		`f() { local e=abc; local -i e[-2]=X; declare -p e; }; f`,
		`declare c[-1]=X; declare -p c`,
		`d=abc; declare -u d[-2]=X; declare -p d`,
	})
}

// TestJaiphIntegerValueSeesItsVariable: bash's bind_variable makes a
// variable visible before it evaluates its declare -i value, so under set
// -u the variable itself is empty, not unbound, in its own value (v=v+1,
// a new local's local -i v=v, read, export, for, ${v:=…}); an array's
// element has no such step (a[0]=a+1 of an unset declare -ai a is
// unbound).
func TestJaiphIntegerValueSeesItsVariable(t *testing.T) {
	var cases []string
	for _, c := range []string{
		`declare -i v; v=v+1; echo $v`,
		`local -i v; v+=v+1; echo $v`,
		`declare -i v; v+=v; echo $v`,
		`declare -i v; read v <<< "v+1"; echo $v`,
		`declare -i v; : ${v:=v+1}; echo $v`,
		`declare -i v; export v=v+1; echo $v`,
		`declare -i v; readonly v=v+1; echo $v`,
		`declare -i v; v=v; declare -p v`,
		`declare -il v=v; echo $v`,
		`declare -i v=v+1; echo $v`,
		`declare -i v; for v in v+1; do echo $v; done`,
		`declare -i v; v=w+1; echo $v`,
		`declare -i v; getopts a: v -a x; declare -p v`,
		`local v1; declare -i v1="v1+1"; echo $v1`,
		`local -i v5=v5; echo $v5`,
		`local -i v3="v1+1"; echo $v3`,
		`v1=7; local -i v1="v1+1"; echo $v1`,
		`v1=a v2=b; local -i v1='v1 v2'`,
		`v1='a/b/c.d' v2=' x y  z'; local -i v1=${!v*}`,
		`local v1; echo $((v1+1))`,
		`declare -i v; v=1; unset v; v=v+2; echo $v`,
		`declare -i v w; read v w <<< "w+1 v+1"; declare -p v w`,
		`declare -i v; declare -n r=v; r=r+1; declare -p v`,
		`declare -i v; declare -n r=v; r=v+1; declare -p v`,
		`declare -i v; let v=v+1; declare -p v`,
		`declare -ai a; a[0]=a+1; echo $a`,
		`declare -ai a; a[1]=a+1; declare -p a`,
	} {
		cases = append(cases, `f() { set -u; `+c+`; }; f; echo "st=$?"`)
	}
	runCases(t, cases)
}

// TestJaiphListPlacedInTurn: a list assigned to a declare -i array (a=(…),
// read -a, mapfile) is bound a word at a time, each evaluated as it is
// placed: the array is unset until its first element when it was unset
// (set -u: a=(a+1) is unbound), and a word sees the words before it, not
// what the array held (mapfile and read -a empty it first).
func TestJaiphListPlacedInTurn(t *testing.T) {
	var cases []string
	for _, c := range []string{
		`declare -ai a; a=(a+1); declare -p a`,
		`declare -ai a; a=(1 a+1); declare -p a`,
		`declare -ai a=(5); a=(a+1 a+1); declare -p a`,
		`a=(5); declare -ai a=(a+1); declare -p a`,
		`declare -ai a; a+=(a+1); declare -p a`,
		`declare -ai a=(); a=(a+1); declare -p a`,
		`local a=5; local -ai a=(a+1); declare -p a`,
		`declare -ai a; declare -ai a=(a+1); declare -p a`,
		`declare -ai a; a=([1]=a+1); declare -p a`,
		`declare -ai a; a=([1]=3 a+1); declare -p a`,
		`declare -i v; mapfile -t v <<< "v+1"; declare -p v`,
		`declare -ai a; mapfile -t a <<< "a+1"; declare -p a`,
		`local -ai a; read -a a <<< "a+1"; declare -p a`,
		`declare -i v; read -a v <<< "v+1 v+2"; declare -p v`,
	} {
		cases = append(cases, `f() { set -u; `+c+`; }; f; echo "st=$?"`)
	}
	cases = append(cases,
		`f() { declare -ai a; a=(a+1); declare -p a; }; f`,
		`f() { declare -ai a; mapfile -t a <<< $'5\na+1\na[1]+a'; declare -p a; }; f`,
		`f() { declare -ai a=(7 8); mapfile -t a <<< $'a+1'; declare -p a; }; f`,
		`f() { declare -ai a=(7 8); mapfile -t -O 1 a <<< $'a+1\na[1]'; declare -p a; }; f`,
		`f() { declare -ai a=(4 5); read -a a <<< "a+1 a[0]+1"; declare -p a; }; f`,
		`f() { declare -ai a=(9); read -a a <<< "1 2/0 3"; echo "st=$?"; declare -p a; }; f; echo "st=$?"`,
		`f() { declare -ai a=(9); mapfile -t a <<< $'1\n2/0\n3'; echo "st=$?"; declare -p a; }; f; echo "st=$?"`,
		`f() { declare -ai a=(9); a=(1 2/0 3); echo "st=$?"; declare -p a; }; f; echo "st=$?"`,
	)
	runCases(t, cases)
}

// setU runs each snippet in a function under set -u and, with both, also
// without it.
func setU(both bool, snippets ...string) []string {
	var cases []string
	for _, c := range snippets {
		cases = append(cases, `f() { set -u; `+c+`; }; f; echo "st=$?"`)
		if both {
			cases = append(cases, `f() { `+c+`; }; f; echo "st=$?"`)
		}
	}
	return cases
}

// TestJaiphArrayMadeBeforeListWords: NAME=(…) and NAME+=(…) make NAME an
// indexed array before the list's words expand, as bash's
// find_or_make_array_variable (a new NAME empty and set, a scalar's value
// its element 0); a declaration's words expand first.
func TestJaiphArrayMadeBeforeListWords(t *testing.T) {
	runCases(t, setU(true,
		`A1+=([k]="${#A1[@]}")`,
		`A1=([k]="${#A1[@]}")`,
		`A1+=([0]="${#A1[@]}"); declare -p A1`,
		`A1+=("${#A1[@]}"); declare -p A1`,
		`A1=("${#A1[@]}"); declare -p A1`,
		`A1=("${A1[@]}" x); declare -p A1`,
		`A1=("${A1[0]}" x); declare -p A1`,
		`A1=("$A1" x); declare -p A1`,
		`A1=("${A1-unset}" x); declare -p A1`,
		`A1=("${A1[*]-unset}" x); declare -p A1`,
		`A1+=([k]="$(echo sub >&2)")`,
		`local -a A2=("${#A2[@]}"); declare -p A2`,
		`declare -a A3=("${#A3[@]}"); declare -p A3`,
		`declare A4=("${#A4[@]}"); declare -p A4`,
		`M2=([a]="${#M2[@]}"); declare -p M2`,
		`v=abc; v=(x "$v" "${#v[@]}"); declare -p v`,
		`local v=abc; local -a v=(x "$v" "${#v[@]}"); declare -p v`,
		`local v=abc; v=(x "$v" "${#v[@]}"); declare -p v`,
		`declare v; v=("${#v[@]}"); declare -p v`,
		`declare -x v; v=("${#v[@]}"); declare -p v`,
		`declare -a v; v=("${#v[@]}"); declare -p v`,
		`readonly r9=1; r9=(x "${#r9[@]}")`,
		`local -i n=5; n=(n+1 "${#n[@]}"); declare -p n`,
		`v=abc; v+=(x "${#v[@]}"); declare -p v`,
		`g() { local L=q; h; declare -p L; }; h() { L=(x "${#L[@]}" "$L"); }; g; declare -p L`,
		`declare -n r=T; r=(x "${#T[@]}"); declare -p T r`,
	))
}

// TestJaiphUnsetValuesOfArrays: under set -u bash's
// array_length_reference finds the length of an element of a variable
// that is no array unbound (${#s[@]}, ${#s[0]} of s=abc), and $a, ${a},
// ${#a} and a@OP of an array without element 0 are unbound too (not ${a@a},
// ${a@A}, arithmetic or ${#a[0]}).
func TestJaiphUnsetValuesOfArrays(t *testing.T) {
	runCases(t, setU(false,
		`local v=abc; echo "${#v[@]}"`,
		`v=abc; echo "${#v[*]}"`,
		`v=abc; echo "${#v[0]}" "${#v[1]}"`,
		`v=abc; echo "${#v[1]}"`,
		`v=abc; echo "${v[@]}" "${!v[@]}" "${v[1]-d}" "${v[@]:0:1}"`,
		`declare v; echo "${#v[@]}"`,
		`declare -a v; echo "${#v[@]}"`,
		`v=(); echo "${#v[@]}"`,
		`declare -A m; echo "${#m[@]}"`,
		`declare -A m=(); echo "${#m[@]}"`,
		`echo "${#u[@]}"`,
		`a=(); echo "$a"`,
		`a=([1]=x); echo "$a"`,
		`a=([1]=x); echo "${a}"`,
		`a=([1]=x); echo "${#a}"`,
		`a=([1]=x); echo "${a:-d}"`,
		`a=([1]=x); echo $((a+1))`,
		`declare -A m=([x]=1); echo "$m"`,
		`declare -A m=([0]=1); echo "$m"`,
		`a=(); echo "${a[0]}"`,
		`a=([1]=x); echo "${#a[5]}"`, `a=([1]=x); echo "${#a[0]}"`, `a=([1]=x); echo "${a[0]}"`,
		`a=([1]=x); echo "${a:0:1}"`, `a=([1]=x); echo "${a/x/y}"`, `a=([1]=x); echo "${a@Q}"`,
		`a=([1]=x); echo "${a+set}"`, `a=([1]=x); echo "${a^}"`, `a=([1]=x); [[ -v a ]]; echo $?`,
		`a=([1]=x); echo "${a#x}"`, `a=([1]=x); echo "${a,,}"`, `a=([1]=x); echo "${a@a}"`,
		`a=([1]=x); echo "${a@A}"`, `a=([1]=x); echo "${a@K}"`, `a=([1]=x); echo "${a@E}"`,
		`declare -a u; echo "${u@a}"`, `echo "${nosuch@a}"`, `declare -a u; echo "${u@A}"`, `declare -A m=([x]=1); echo "${m@A}"`,
		`a=([1]=x); echo "${a:=y}"; declare -p a`, `a=([1]=x); echo "${a:?m}"`,
		`a=([1]=x); b=$a; echo "$b"`, `a=([1]=x); case $a in *) echo c;; esac`, `a=([1]=x); [[ $a ]]; echo $?`,
		`a=([1]=x); for i in $a; do echo "$i"; done; echo done`,
		`a=([1]=x); echo "${a[@]}" "${a[*]}" "${#a[@]}"`,
	))
}

// TestJaiphIndirectThroughNothing: ${!ref…} whose ref exists but has an
// unset value (declare ref; an array without element 0) is an expansion
// of an unset parameter named !ref, as bash's
// parameter_brace_expand_indir; an empty value is ": invalid variable
// name"; a ref that does not exist stays an invalid indirect expansion.
func TestJaiphIndirectThroughNothing(t *testing.T) {
	runCases(t, setU(true,
		`a=([1]=x); echo "${!a:=v}"; declare -p a`, `declare y; echo "${!y=v}"; declare -p y`,
		`declare y; echo "${!y?oops}"`, `declare y; echo "[${!y#p}]"`, `declare y; echo "[${!y@Q}]"`,
		`declare y; echo "[${!y:0:1}]"`, `declare y; echo "[${!y/a/b}]"`, `declare y; echo "[${!y+set}]"`,
		`declare y; echo "[${!y-d}]"`, `declare y; echo "[${!y:-d}]"`, `y=; echo "[${!y-d}]"`, `y=; echo "[${!y+d}]"`,
		`y="a b"; echo "[${!y-d}]"`, `a=([1]=x); echo "[${!a-d}]"`, `a=([1]=x); echo "[${!a[0]-d}]"`,
		`a=([1]=x); echo "[${!a[1]-d}]"`, `x=7; a=([1]=x); echo "[${!a[1]-d}]"`,
		`echo "${!nosuch}"`, `x=; echo "${!x}"`, `declare x; echo "${!x}"`, `a=(); echo "${!a}"`,
		`a=([1]=x); echo "${!a}"`, `x=nosuch; echo "${!x}"`, `a=([1]=x); echo "${!a[0]}"`,
		`declare y; printf '<%s>' "${!y}" ${!y} "${!y-"$@"}"; echo`,
	))
}

// TestJaiphExportReadonlyOptions: export and readonly take -a, -A, -f, -n
// and -p alone (bash's ATTROPTS): declare's other options are invalid
// there, with the builtin's usage line; readonly -n takes the readonly
// attribute away, so it assigns and nothing more.
func TestJaiphExportReadonlyOptions(t *testing.T) {
	var cases []string
	for _, c := range []string{
		`x=4; readonly -i x+=1; echo "st=$? $x"`, `readonly -l y=ABC; echo "st=$? $y"`, `export -i z=1+1; echo "st=$? $z"`,
		`export -a w=1; echo "st=$? $w"`, `readonly -x q=1; echo "st=$? $q"`, `readonly -n r=q; echo "st=$?"; declare -p r`,
		`export -r s=1; echo "st=$? $s"`, `readonly -g t=1; echo "st=$?"`, `export -g t2=1; echo "st=$?"`,
		`readonly -n v=1; v=2; echo $v; declare -p v`, `v=1; readonly v; readonly -n v; v=3; echo $v`,
		`readonly -a a=(1 2); declare -p a`, `readonly -A m=([k]=1); declare -p m`, `export -a a=(1 2); declare -p a`,
		`export -A m=([k]=1); declare -p m`, `export -n -a a=(1); declare -p a`, `readonly -an x=1; declare -p x`,
		`readonly -- -x; echo $?`, `export -xn v=1; echo $?`, `readonly -rn v=1; echo $?`, `export -F; echo $?`, `readonly -ia x; echo $?`,
	} {
		cases = append(cases, `f() { `+c+`; }; f; echo "st=$?"`)
	}
	runCases(t, cases)
}

// TestJaiphDeclareIntegerAppend: a declaration's -i is the variable's
// before its += (declare -i x+=5 of x=4 is 9), and the += arithmetic of
// an integer in a declaration names the builtin in its error.
func TestJaiphDeclareIntegerAppend(t *testing.T) {
	var cases []string
	for _, c := range []string{
		`typeset x+=4; typeset -i x+=5; echo $x; readonly x+=7; echo $x`,
		`local x=4; local -i x+=5; echo $x`,
		`export -n x; declare -i x+=5; echo $x`,
		`declare -i 'x[1]+=6'; declare -p x`,
		`declare -il x+=5 y=2+2; echo $x $y`,
		`declare -A m=([k]=4); declare -i m+=5; declare -p m`,
		`declare x=$((1/0))`, `declare -i x+=1/0`, `declare -i x=4; declare x+=1/0`, `declare -i x; x+=1/0`,
		`declare -i x=1/0`, `local -i x+=1/0`, `export x+=$((1/0))`, `declare -i x=4; declare x+="\${u=1/0}"; echo $x`,
		`declare -i x=4; export x+=1/0`, `declare -i x=4; readonly x+=1/0`, `declare -ai a=(1); declare a+=1/0`,
	} {
		cases = append(cases, `x=4; f() { `+c+`; }; f; echo "st=$? $x"`)
	}
	cases = append(cases, `x=4; declare -i x+=5; echo $x`, `x=(4 5); declare -i x+=6; declare -p x`, `x=4; f(){ declare -gi x+=5; echo $x; }; f; echo $x`)
	runCases(t, cases)
}

// TestJaiphNamerefAppend: declare -n r+=v appends v to the name the
// nameref holds in this scope (a new one holds none) and checks the name
// made, naming v in its error (bash's "`v': not a valid identifier").
func TestJaiphNamerefAppend(t *testing.T) {
	var cases []string
	for _, c := range []string{
		`x=4; declare -n x+=5; echo $?; declare -p x`, `x=a; declare -n x+=bc; echo $?; declare -p x`,
		`declare -n x+=bc; echo $?; declare -p x`, `bc=1; declare -n x=b; declare -n x+=c; echo $?; declare -p x; echo $x`,
		`declare -n x=b; declare -n x+=" "; echo $?; declare -p x`, `declare -n x+=" "; echo $?; declare -p x`,
		`declare -n x=b; declare -n x+="c[1]"; echo $?; declare -p x`, `x=4; local -n x+=y; declare -p x`,
		`declare -n x=b; local -n x+=; echo $?; declare -p x`, `declare -n x+=; echo $?; declare -p x`,
	} {
		cases = append(cases, `f() { `+c+`; }; f; echo "st=$?"`)
	}
	runCases(t, cases)
}

// TestJaiphReadonlyScalarToArray: declare -a or -A of a readonly scalar
// changes its kind all the same, as bash: a function's own local is
// emptied, a global's value becomes element (key) 0, an unset one stays
// unset; the attributes given follow (seed 136).
func TestJaiphReadonlyScalarToArray(t *testing.T) {
	var cases []string
	for _, c := range []string{
		`declare -r v1=abc; declare -ai v1; echo $?; declare -p v1`, `declare -r v1=abc; declare -a v1; echo $?; declare -p v1`,
		`declare -r v1=abc; declare -i v1; echo $?; declare -p v1`, `declare -r v1=abc; declare -l v1; echo $?; declare -p v1`,
		`declare -r v1=abc; declare -A v1; echo $?; declare -p v1`, `declare -r v1=5; declare -ai v1=3; echo $?; declare -p v1`,
		`declare -r v1=5; declare -x v1; echo $?; declare -p v1`, `declare -ra v1=(1); declare -i v1; echo $?; declare -p v1`,
		`declare -r v1; declare -a v1; echo $?; declare -p v1`, `declare -r v1; declare -A v1; echo $?; declare -p v1`,
		`readonly v1=abc; declare -gA v1; echo $?; declare -p v1`, `readonly v1; declare -ga v1; echo $?; declare -p v1`,
		`local -r v1=abc; local -a v1; declare -p v1`, `local -r v1=abc; ( local -a v1; declare -p v1 ); declare -p v1`,
	} {
		cases = append(cases, `f() { `+c+`; }; f; echo "st=$?"`)
	}
	cases = append(cases,
		`readonly v1=abc; f() { declare -a v1; echo $?; declare -p v1; }; f`,
		`readonly v1=abc; f() { declare -ga v1; echo $?; declare -p v1; }; f; declare -p v1`,
		`readonly v1=abc; f() { ( declare -ga v1; declare -p v1 ); declare -p v1; }; f; declare -p v1`,
		`f() { local -r v1=abc; g; declare -p v1; }; g() { declare -a v1 2>&1; declare -p v1; }; f`,
	)
	runCases(t, cases)
}

// TestJaiphMapfileKeepsExport: mapfile into an exported variable leaves
// it an exported array (seed 136).
func TestJaiphMapfileKeepsExport(t *testing.T) {
	runCases(t, []string{
		`f() { export v1=abc; mapfile -t v1 <<< 'm*'; declare -p v1; }; f`,
		`f() { declare -ax a=(1); mapfile -t -O 1 a <<< $'x\ny'; declare -p a; }; f`,
		`f() { export v1; declare -i v1; mapfile -t v1 <<< '1+1'; declare -p v1; }; f`,
	})
}

// TestJaiphReportErrorStatusUnderErrexit: under errexit bash's
// report_error (an invalid indirect expansion or variable name, a bad
// length subscript) exits with the last status, a command substitution's
// earlier in the command, or 1 (seed 136); ${!r:=x} through a name that
// is no variable is an invalid variable name.
func TestJaiphReportErrorStatusUnderErrexit(t *testing.T) {
	var cases []string
	for _, e := range []string{`${!v2@Q}`, `${!v2}`, `${!nosuch}`, `${u?x}`, `${v1:0:-9}`, `${#a[-9]}`, `$((1/0))`, `${v1:1/0}`, `${!y:=x}`, `${!a[@]:=x}`} {
		for _, sub := range []string{`$(exit 3)`, `$(true)`} {
			body := `v1=abc v2=' x' a=(1); declare y; printf '%s' ` + sub + ` ` + e
			cases = append(cases, `set -e; f() { `+body+`; }; f`, `f() { `+body+`; echo after $?; }; f`, `set -e; f() { `+body+`; }; f || exit $?`)
		}
	}
	for _, c := range []string{`set -- a; r=1; echo ${!r:=x}`, `set --; r=1; echo ${!r:=x}`, `r=@; echo ${!r:=x}`,
		`set -- a; r=1; echo ${!r=x}`, `set --; r=1; echo ${!r:-x}`, `set --; r=1; echo "${!r:=x}"`, `set --; echo "${1:=x}"`} {
		cases = append(cases, `f() { `+c+`; echo st=$?; }; f`)
	}
	runCases(t, cases)
}

// TestJaiphPrefixThroughElementNameref: a prefix assignment to a nameref
// naming an array element binds the name itself, a plain variable of the
// command's environment (r=0 printenv r prints 0), += appending to the
// nameref's own value, as bash's assign_in_env (seed 136).
func TestJaiphPrefixThroughElementNameref(t *testing.T) {
	runCases(t, []string{
		`f() { a1=(1 2 3); declare -n v2='a1[1]'; v2="$(echo 0)" printenv v2; echo "st=$? ${a1[*]}"; }; f`,
		`f() { a1=(1 2 3); declare -n v2='a1[1]'; v2=0 g; echo "st=$? ${a1[*]}"; }; g() { echo "in: $v2 ${a1[*]}"; }; f`,
		`f() { x=1; declare -n v2=x; v2=0 printenv v2 x; echo "st=$? $x"; }; f`,
		`f() { x=1; declare -n v2=x; v2=0 g; echo "st=$? $x"; }; g() { echo "in: $v2 $x"; declare -p v2; }; f`,
		`f() { a1=(1 2 3); declare -n v2='a1[1]'; v2=0 :; echo "st=$? ${a1[*]} $v2"; declare -p v2; }; f`,
		`f() { a1=(1 2 3); declare -n v2='a1[1]'; v2+=x g; echo "st=$? ${a1[*]} $v2"; }; g() { echo "in: $v2"; }; f`,
		`f() { a1=(1 2 3); declare -n v2='a1[1]'; v2=0 eval 'echo $v2'; echo "st=$? ${a1[*]} $v2"; }; f`,
	})
}

// TestJaiphIndirectToNameref: ${!p} whose p names a nameref expands what
// the nameref names, an element too (seed 136; it was empty).
func TestJaiphIndirectToNameref(t *testing.T) {
	runCases(t, []string{
		`f() { declare -n v2=A1; A1+=([0]=x); echo "${A1}" "$v2"; p1=v2; echo "${!p1}"; }; f`,
		`f() { declare -n v2=A1; A1=(y); p1=v2; echo "${!p1}"; }; f`,
		`f() { declare -n v2=A1; A1=y; p1=v2; echo "${!p1}"; }; f`,
		`f() { a=(1 2); declare -n v2='a[1]'; p1=v2; echo "${!p1}"; }; f`,
		`f() { declare -n v2=nosuch; p1=v2; echo "[${!p1}]"; }; f`,
		`f() { set -u; declare -n v2=nosuch; p1=v2; echo "[${!p1}]"; }; f; echo st=$?`,
		`f() { declare -n v2=A1; A1=y; p1=v2; echo "${!p1-d}" "${!p1@Q}"; }; f`,
	})
}

// TestJaiphIndirectNamerefOperators: ${!r OP} of a nameref r is an
// operator on the name r holds (${!r+s} is s, ${!r@Q} of r naming x is
// 'x'), but on the element's value when that name is an array or an
// element of one, without set -u's check, as bash's get_var_and_type
// (seed 136: ${!r-d} read what r named, ${!r+s} gave the name).
func TestJaiphIndirectNamerefOperators(t *testing.T) {
	var cases []string
	for _, c := range []string{
		`a1=(1 'two words'); declare -n v2='a1[1]'; [[ -v "${!v2-d}" ]] && echo yes`,
		`declare -n v2='a1[1]'; printf '<%s>' "${!v2+s}" "${!v2-d}" "${!v2:-d}" "${!v2#?}" "${!v2/1/X}" "${!v2:1:2}" "${!v2@Q}" "${!v2^^}" "${!v2:=z}" "${!v2:?m}" ${!v2+"$@"}; echo`,
		`x=5; declare -n r=x; printf '<%s>' "${!r}" "${!r-d}" "${!r#?}" "${!r@Q}" "${!r:0:1}"; echo`,
		`declare -n r; printf '<%s>' "${!r-d}"; echo`, `declare -n r=x; printf '<%s>' "${!r-d}" "${r-e}"; echo`,
		`a=(p q); declare -n r='a[@]'; printf '<%s>' "${!r-d}" "${!r}" ${!r+x}; echo`,
		`a=(p q); declare -n r=a; printf '<%s>' "${!r}" "${!r-d}" "${!r#?}" "${!r@Q}" "${!r:0:1}" "${!r/p/X}"; echo`,
		`a=(p q); declare -n r='a[1]'; printf '<%s>' "${!r}" "${!r-d}" "${!r#?}" "${!r@Q}" "${!r:0:1}" "${!r/q/X}"; echo`,
		`declare -A m=([k]=vv); declare -n r='m[k]'; printf '<%s>' "${!r}" "${!r#?}" "${!r@Q}"; echo`,
		`x='a b'; declare -n r=x; printf '<%s>' "${!r^^}" "${!r,}" "${!r@U}" "${!r//x/y}" "${!r%x}"; echo`,
		`set -u; declare -n r='a[1]'; printf '<%s>' "${!r#?}"; echo`,
	} {
		cases = append(cases, `f() { `+c+`; }; f a b; echo "st=$?"`)
	}
	runCases(t, cases)
}

// TestJaiphReplacementBackslashes: the replacement of ${v/p/r} is read as
// bash's strcreplace reads it once quoted & and \ are escaped (its
// quote_string_for_repl): & is the match, \& a literal &, \\ one
// backslash, also where an unquoted expansion in it produced them
// (${v//a/$w} of w='\\' puts one backslash; seed 136: three rounds of
// printf -v w %q kept them all).
func TestJaiphReplacementBackslashes(t *testing.T) {
	var cases []string
	for _, c := range []string{
		`w='x\&y'; echo ${v//a/$w} "${v//a/$w}" ${v//a/"$w"}`,
		`w='\\'; echo ${v//a/$w} "${v//a/$w}" ${v//a/"$w"}`,
		`w='\\\\'; echo ${v//a/$w} "${v//a/$w}" ${v//a/"$w"}`,
		`w='\x\'; echo ${v//a/$w} "${v//a/$w}" ${v//a/"$w"}`,
		`w='&&'; echo ${v//a/$w} "${v//a/$w}" ${v//a/"$w"}`,
		`w='\'; echo ${v//a/$w} "${v//a/$w}" ${v//a/"$w"} ${v//a/$w"&"} ${v//a/$w&}`,
		`echo ${v//a/\\\\} "${v//a/\\\\}" ${v//a/'\\'} ${v//a/"\\"} ${v//a/\&} "${v//a/\&}" ${v//a/x\\&y}`,
		`w='\\'; echo ${v//a/$w&} ${v//a/q$w}`,
		`echo ${v//a/$(echo '\\')} ${v//a/$(echo '\&')}`,
		`w='\\'; u=${v//a/$w}; echo "$u"`,
		`w='\\'; echo ${v/a/$w} ${v/#a/$w} ${v/%c/$w}`,
		`w='\\'; a=(a b); echo ${a[@]//a/$w} "${a[@]/#/$w&}"`,
		`shopt -u patsub_replacement; w='\\&'; echo ${v//a/$w} ${v//a/\&} ${v//a/"\\"}`,
		`w=$'\\\\\\\'\\\\\\\''; echo "$w" ${v//[ab]/$w}`, // printf %q three times from empty
	} {
		cases = append(cases, `f() { v=abca; `+c+`; }; f`)
	}
	runCases(t, cases)
}

// TestJaiphGlobalUnderReadonlyLocal: declare -g NAME in a function whose
// readonly local NAME hides the global sets the global, in a subshell of
// the function too (its copy), as bash (seed 136: the subshell's failed as
// readonly).
func TestJaiphGlobalUnderReadonlyLocal(t *testing.T) {
	runCases(t, []string{
		`f(){ declare -r v2=7; declare -gi v2=5; echo $?; declare -p v2; }; f; declare -p v2`,
		`v2=1; f(){ declare -r v2=7; declare -g v2=5; echo $?; declare -p v2; }; f; declare -p v2`,
		`f(){ declare -r v2=7; ( declare -gi v2="$1"; echo "$? $v2" ); echo $?; }; f 3`,
		`f(){ declare -r v2=7; declare -g v2; echo $?; declare -p v2; }; f; declare -p v2`,
		`f(){ local -r v2=7; declare -g -a v2=(1); echo $?; declare -p v2; }; f; declare -p v2`,
		`v2=1; f(){ local -r v2=7; declare -g v2+=5; echo $?; declare -p v2; }; f; declare -p v2`,
		`readonly v2=1; f(){ local v2=7; declare -g v2=5; echo $?; declare -p v2; }; f; declare -p v2`,
		`readonly v2=1; f(){ local v2=7; ( declare -g v2=5; echo $? ); }; f`,
		`f(){ local v2=7; ( declare -g v2=5; echo "in $v2"; g ); echo "out $v2"; }; g() { echo "g $v2"; }; v2=1; f; echo "top $v2"`,
	})
}

// TestJaiphAssocPairsAfterFirstWord: an associative list whose first word
// has no subscript is key-value pairs, a later [k]=v word's expanded text
// included (seed 137: declare -Ai a1; a1=('x y' [-2]=v) evaluated no
// value); `[k]= v` is [k] empty and the word v, as bash parses it.
func TestJaiphAssocPairsAfterFirstWord(t *testing.T) {
	var cases []string
	for _, c := range []string{
		`declare -Ai m; m=('AbC dEf' [-2]="x"); echo "st=$?"; declare -p m`,
		`declare -A m; m=('AbC dEf' [-2]="x"); echo "st=$?"; declare -p m`,
		`declare -Ai m; m=('1+1' [k]=2); echo "st=$?"; declare -p m`,
		`declare -Ai m; m=([a]=1 'b c'); echo "st=$?"; declare -p m`,
		`declare -A m=(k [a]=1 [b]= z); echo "st=$?"; declare -p m`,
		`declare -A m; m=(k [a]=1 [b]= z); echo "st=$?"; declare -p m`,
		`k=K; declare -A m; m=(x [$k]="$k" y); declare -p m`,
		`declare -A m; m+=(x [k]=v); declare -p m`,
		`local -A m=(x [k]=v); declare -p m`,
		`declare -A m=([a]=1 [b]= z); declare -p m`,
		`a=([1]= z); declare -p a`,
		`a=([1]= [3]=y); declare -p a`,
	} {
		cases = append(cases, `f() { `+c+`; }; f; echo "st=$?"`)
	}
	runCases(t, cases)
}

// TestJaiphCondPrecedence: in [[ ]], && binds tighter than ||, both are
// left-associative, ! negates one term, and the right side of && and ||
// is expanded only when the left does not decide, as bash's cond_or,
// cond_and and cond_term (found running bash's tests/cond.tests as
// bodies: [[ ! x || x ]] was false).
func TestJaiphCondPrecedence(t *testing.T) {
	var cases []string
	for _, c := range []string{
		`[[ ! x || x ]]`, `[[ ! x && x ]]`, `[[ x && ! x || x ]]`, `[[ ! ! x || x ]]`, `[[ ! -n "" || -z x ]]`, `[[ ! ( x || x ) ]]`,
		`[[ ! x == x || x ]]`, `[[ ! "" ]]`, `[[ "" && x || x ]]`, `[[ x || "" && "" ]]`, `[[ "" || x && x ]]`,
		`[[ ( "" || x ) && "" ]]`, `[[ x && ( "" || "" ) || x ]]`, `[[ ! x && ! "" || "" ]]`,
		`[[ a == a && ! b == c || d == e ]]`, `[[ -n x && -z "" && x ]]`, `[[ "" || "" || x ]]`,
		`x=1; [[ $((x++)) == 1 || $((x++)) == 2 && $((x++)) ]]; echo $x`, `x=1; [[ $((x++)) == 0 && $((x++)) == 2 || $((x++)) ]]; echo $x`,
		`x=1; [[ $((x++)) == 0 && $((x++)) ]]; echo $x`, `x=1; [[ $((x++)) || $((x++)) ]]; echo $x`,
		`set -u; [[ x || $nosuch ]]`, `[[ "" && $((1/0)) ]]`, `[[ -n x || -z $(echo sub >&2) ]]`,
	} {
		cases = append(cases, c+`; echo $?`)
	}
	runCases(t, cases)
}

// TestJaiphIndirectUnboundName: under set -u an unset target of ${!r OP}
// is "!r: unbound variable" whatever the operator, and ${!r:?m} names !r,
// not the element r names (seed 138).
func TestJaiphIndirectUnboundName(t *testing.T) {
	var cases []string
	for _, e := range []string{`${!p2:1}`, `${!p2#x}`, `${!p2/x/y}`, `${!p2@Q}`, `${!p2^}`, `${!p3:1}`, `${!p3#x}`, `${!p2:-$nosuch}`, `${!p2:-d}`, `${!p3:?m}`, `${!p2:?m}`} {
		cases = append(cases, `f() { set -u; p2=a1; a=(1); p3='a[4]'; echo "`+e+`"; }; f`)
	}
	runCases(t, cases)
}

// TestJaiphGetoptsOptionsAndAtSubscripts: getopts takes no option of its
// own (getopts -a o is bash's invalid option, status 2); a[@]=v, a[*]=v,
// a[@]+=v and declare a[@]=v are bash's bad array subscript, not an
// arithmetic error (bash's tests/getopts.tests and assoc.tests as bodies).
func TestJaiphGetoptsOptionsAndAtSubscripts(t *testing.T) {
	runCases(t, []string{
		`getopts -a opts name; echo $?`, `getopts - opts name; echo $?`, `getopts -- -a opts; echo $?`, `getopts -ab opts name; echo $?`, `getopts -: o -:; echo $? $o`,
		`declare -A chaff; chaff[*]=12; echo $?`, `chaff[*]=12; echo $?`, `a=(1); a[@]=2; echo $?; declare -p a`, `declare -A m; m[@]=3; echo $?`,
		`f() { declare -A c; c[*]=1; echo $?; }; f; echo $?`, `declare -A c=( [one]=a [*]=12 ); declare -p c`, `declare -A c; c=( [one]=a [*]=12 ); declare -p c`,
		`f() { a=(1); a[@]=2; echo $?; }; f; echo "st=$?"; declare -p a`, `f() { a=(1); a[*]+=2; echo $?; }; f; echo "st=$?"; declare -p a`,
		`f() { a=(1); declare a[@]=2; echo $?; declare -p a; }; f; echo "st=$?"`, `set -e; f() { a=(1); declare a[@]=2; echo after; }; f; echo "st=$?"`,
		`f() { a=(1); read 'a[@]' <<< x; echo $?; declare -p a; }; f; echo "st=$?"`,
	})
}

// TestJaiphPrefixRestoreKeepsValue: a variable a prefix assignment
// shadowed comes back as it was after the command, its stored value not
// evaluated again by its declare -i (seed 138: v1='a/b/c.d'; declare -i
// v1; v1=5 true divided by zero).
func TestJaiphPrefixRestoreKeepsValue(t *testing.T) {
	runCases(t, []string{
		`f() { v1='a/b/c.d'; declare -gi v1; v1=5 true; echo "st=$? $v1"; declare -p v1; }; f`,
		`v1='a/b/c.d'; declare -i v1; v1=5 true; echo "st=$? $v1"; declare -p v1`,
		`v1='1+1'; declare -i v1; v1=5 true; echo "st=$? $v1"; declare -p v1`,
		`v1='x'; declare -l v1=ABC; v1=Q true; declare -p v1`,
		`v1='1/0'; declare -i v1; v1=5 printenv v1; echo "st=$? $v1"`,
		`PATH=/nonexistent ls; echo $?; ls / >/dev/null; echo $?`,
	})
}

// TestJaiphBackquoteLineContinuation: inside backquotes a backslash-newline
// goes before the command inside is read, quotes and all, as bash's
// reader removes it (bash's tests/quote.tests run as bodies: echo `echo
// 'foo\<newline>bar'` printed foo\ bar).
func TestJaiphBackquoteLineContinuation(t *testing.T) {
	runCases(t, []string{
		"echo `echo 'foo\\\nbar'`",
		"echo `echo \"foo\\\nbar\"`",
		"echo `echo foo\\\nbar`",
		"echo \"`echo 'foo\\\nbar'`\"",
		"echo $(echo 'foo\\\nbar')",
		"x=`echo a\\\nb`; echo \"$x $LINENO\"",
		"echo `echo 'a  \\\n  b'` \"`printf '%s|' 'c\\\nd'`\"",
	})
}
