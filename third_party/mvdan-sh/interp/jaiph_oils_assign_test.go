package interp_test

import "testing"

// TestJaiphExportReadonlyElement: export and readonly take variable names;
// an element (`export v[3]=w`, `readonly b[0]`) is bash's "not a valid
// identifier" with the subscript expanded and the value left out, status
// 1, the element stays unset and the other names still go (Oils'
// spec/assign-deferred).
func TestJaiphExportReadonlyElement(t *testing.T) {
	runCases(t, []string{
		`export v[3]=w e=2; echo "st $?"; declare -p v e; printenv e`,
		`readonly b[7]=8 c=1; echo "st $?"; declare -p b c`,
		`i=4; export 'x'[$i]=1 y; echo "st $?"; readonly -a z[i+1]=2; echo "st $?"`,
		`b=(1); readonly b[0]; echo "st $?"; b[0]=2; echo "${b[@]}"`,
		`x=(1 2 3); export 'x[2]+=1' "x[1]+=" 'x[0]' 'x[0]+'; echo "st $?"; declare -p x`,
		`f() { export v[1]=w; echo "in f: $?"; }; f; echo "${#v[@]}"`,
	})
}

// TestJaiphDeclareQueryWords: declare -p, -f and -F look their words up as
// written, valid names or not: `declare -p a=2` is "declare: a=2: not
// found" (it printed a), a word that is no name is not found either, and
// a function named with a `/` is listed by -f and -F; typeset and local
// name themselves in the message (Oils' spec/assign-extended).
func TestJaiphDeclareQueryWords(t *testing.T) {
	runCases(t, []string{
		`a=1; declare -p a=2; echo "st $?"; declare -p a+=3; echo "st $?"; echo $a; declare -p a 'a b' 'a[0]'; echo "st $?"`,
		`declare -f 'x y'; echo "st $?"; declare -F x/y; echo "st $?"; x/y() { echo in; }; declare -F x/y no/pe; echo "st $?"; declare -f x/y; typeset -f x/y > /dev/null; echo "st $?"; declare -f 'x/y=1'; echo "st $?"`,
		`typeset -p nope; echo "st $?"; f() { typeset -p x=1; echo "st $?"; }; f`,
	})
}

// TestJaiphDeclareElementWords: a declaration word naming an element is
// one also when an expansion made it (`declare "x[$i]=v"`, `local
// 'y'[2]+=w`; the subscript evaluated, or an associative array's key),
// and `declare x[2]` without a value makes x an indexed array without
// elements (a scalar's value goes), as bash.
func TestJaiphDeclareElementWords(t *testing.T) {
	runCases(t, []string{
		`i=2; declare 'x'[$i]=1; declare -p x; f() { local 'y'[$i]+=3; local "y[1]=a b"; declare -p y; }; f; declare -p y || echo "st $?"`,
		`declare -A m; k=key; declare "m[$k]=v" "m[two words]=w"; declare -p m; declare 'z[1+1]=5'; n='q[3]=9'; declare $n; declare -p z q`,
		`declare w[2]; declare -p w; declare "u[3]"; declare -p u; x=1; declare x[2]; declare -p x; declare -A m; declare m[k]; declare -p m; a=(1 2); declare a[5]; declare -p a`,
		`f() { local v[1]; declare -p v; v=3; declare -p v; }; v=outer; f; echo "$v"; g() { local s=1; local s[2]; declare -p s; }; g`,
	})
}
