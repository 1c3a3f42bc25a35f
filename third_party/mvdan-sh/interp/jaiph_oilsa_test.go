// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// patches found by restating Oils' spec tests array-assoc, redirect,
// builtin-read and builtin-printf (testdata/bashcompat/oils_* in jaiph-go).
package interp_test

import "testing"

func TestJaiphUnsetAssocKeyExpanded(t *testing.T) {
	runCases(t, []string{
		// the key of unset 'm[…]' is expanded: quotes removed, $k, $(…)
		`declare -A h=(["a b"]=1 [x]=2 ['$k']=3 [y]=4 [z]=5); k=x; unset 'h[a b]'; declare -p h; unset 'h[$k]'; declare -p h; unset 'h[\$k]'; declare -p h; unset 'h["y"]' "h['z']"; declare -p h`,
		`declare -A h=([Z]=1 [W]=2); unset -v 'h[$(echo Z)]'; echo ${#h[@]} ${!h[@]}; a=(1 2 3); i=1; unset 'a[$i]' 'a[i+1]'; echo ${a[@]}`,
	})
}

func TestJaiphNamerefToElement(t *testing.T) {
	runCases(t, []string{
		// reading, assigning, appending and unsetting through a nameref
		// to an element; ${#r} stays 0 as in bash
		`a=(1 2 3); declare -n r='a[1]'; echo ${#r} ${r:-d} ${r/2/X} ${!r}; r+=5; echo ${a[@]}; echo "${r}"; r=7; echo ${a[@]}`,
		`declare -A m=([k]=v); declare -n q='m[k]'; q+=w; echo ${m[k]} $q; declare -n z='m["new"]'; z=n; echo ${m[new]}; unset q; declare -p m`,
		`a=(x y); f() { local -n lr='a[0]'; lr=L; echo $lr; }; f; echo ${a[@]}; k=1; declare -n d='a[$k]'; echo $d; d=D; echo ${a[@]}`,
	})
}
