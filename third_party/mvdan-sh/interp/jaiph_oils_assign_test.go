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
