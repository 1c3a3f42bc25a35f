// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// patches found by the differential fuzzer's soak in the session of
// 2026-11-30 (jaiph-go issue 36).
package interp_test

import "testing"

// TestJaiphNamerefToArrayAssign: r=v through a nameref to an array sets
// the array's element 0 (and r+=v appends to it), as a=v does on the
// array itself; the other elements and the attributes stay.
func TestJaiphNamerefToArrayAssign(t *testing.T) {
	runCases(t, []string{
		`a1=(1 'two words' three); declare -n v2=a1; v2=x; declare -p a1; v2+=y; declare -p a1`,
		`declare -ai n=(1 2); declare -n r=n; r=3+4; r+=1; declare -p n; declare -A m=([k]=v); declare -n s=m; s=q; declare -p m`,
		`f() { local -n q=$1; q=in; declare -p $1; }; g=(a b); f g; declare -u U=(a b); declare -n ru=U; ru=low; declare -p U g`,
		`readonly ro=(1 2); declare -n rr=ro; rr=3; echo "st=$?"; declare -p ro`,
		`h() { local -a loc=(l1 l2); local -n ln=loc; ln=new; declare -p loc; }; h`,
	})
}

// TestJaiphGlobAfterEveryExpansion: the words of a command, a for list or
// an array list are all expanded before any is globbed, so a command
// substitution in a later word that creates a file runs before an earlier
// word's glob; an expansion error stops them before any glob (failglob).
func TestJaiphGlobAfterEveryExpansion(t *testing.T) {
	runCases(t, []string{
		`echo * $(touch n1); for f in * $(touch n2); do echo "f=$f"; done; a=(* $(touch n3)); declare -p a; echo {x,*} $(touch n4)`,
		`declare -a a=(* $(touch n1)); declare -p a; f() { local -a b=(* [5]=$(touch n2) x*); declare -p b; }; f; c=(* [7]=$(touch n3)); declare -p c`,
		`(shopt -s failglob; echo nomatch* ${x:?boom}); echo "st=$?"; (shopt -s failglob; echo nomatch* $(echo sub >&2)); echo "st=$?"`,
	})
}

// TestJaiphDeclareGlobalArrayAttrUnderLocal: declare -ga NAME=v in a
// function where a local NAME is visible makes the global an indexed
// array (a scalar's value its element 0, an unset name an empty one) and
// sets element 0 of the local, as bash's bind_array_variable does; += of
// an integer local adds.
func TestJaiphDeclareGlobalArrayAttrUnderLocal(t *testing.T) {
	runCases(t, []string{
		`g=(1 2 3); f() { local g=loc; declare -ga g=x; declare -p g; }; f; declare -p g`,
		`f() { local g=loc; declare -ga g=x; declare -p g; }; f; declare -p g`,
		`g=str; f() { local g=loc; declare -gax g=x; declare -p g; }; f; declare -p g; env | grep '^g='`,
		`g=(1 2 3); f() { local -a g=(l1 l2); declare -ga g=x; declare -p g; }; f; declare -p g`,
		`g=(1 2); f() { local -i g=5; declare -ga g+=x; declare -p g; declare -ga g+=2; declare -p g; }; f; declare -p g`,
		`declare -A G=([k]=v); f() { local G=locG; declare -ga G=y; declare -p G; }; f; declare -p G`,
	})
}

// TestJaiphNamesByPrefixInvisibleLocal: ${!prefix*} lists a name an outer
// scope holds set though a local without a value (local v, declare -ai v
// in a function) shadows it: bash's invisible local hides nothing.
func TestJaiphNamesByPrefixInvisibleLocal(t *testing.T) {
	runCases(t, []string{
		`v1=a v2=' x y  z'; f() { declare -ai v2; printf '%s=%s\n' ${!v*}; declare -p v2; local v1; echo "[${!v*}]"; }; f`,
		`v2=g; f() { local v2=l; echo "[${!v*}]"; local -a v3; echo "[${!v*}]"; }; f; h() { unset v2; echo "[${!v*}]"; }; h; echo "[${!v*}]"`,
	})
}

// TestJaiphDeclareReadonlyThroughNamerefNamesIt: declare, local and
// typeset name a readonly variable as written, a nameref not followed
// (declare: v2: readonly variable for a nameref v2 to a readonly A1);
// readonly and export name the variable it refers to.
func TestJaiphDeclareReadonlyThroughNamerefNamesIt(t *testing.T) {
	runCases(t, []string{
		`f() { declare -n v2=A1; declare -r v2=x; readonly v2=y; echo "st=$?"; export v2=z; echo "st=$?"; local v2=q; echo "st=$?"; declare -i v2=3; echo "st=$?"; }; f`,
		`declare -n v2=A1; for ((i1=0; i1<3; i1++)); do declare -r v2="$v3"x; done; declare -p A1`,
	})
}
