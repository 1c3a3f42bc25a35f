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
