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
