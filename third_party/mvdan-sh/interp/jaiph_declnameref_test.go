// jaiph-go: a declaration with a value through a function's own nameref.

package interp

import (
	"context"
	"testing"
)

// TestJaiphDeclValueThroughNameref: `local -a r=v` (-A, +=, declare in a
// function) where r is the function's nameref to a calling scope's array
// makes a new local of the name r holds, which takes nothing of that array
// (it set element 0 of a copy of it: `local -a v2=""` of v2 naming
// a1=(1 'two words' three) kept the other elements; soak seed 195); and
// `declare -ga r=v` sets element 0 of the variable r names, the global r
// taking the attributes alone (it set nothing). `local r[SUB]=v` sets the
// element of what r names (a new local's when it is a calling scope's);
// the subscript was lost (element 0 was set).
func TestJaiphDeclValueThroughNameref(t *testing.T) {
	for _, src := range []string{
		`a1=(1 'two words' three); f() { declare -n v2=a1; local -a v2=""; echo "${a1[*]}|${#a1[@]}"; }; f; declare -p a1`,
		`a1=(1 2); f() { declare -n v2=a1; local -a v2=x; declare -p a1; }; f; declare -p a1`,
		`a1=(1 2); f() { declare -n v2=a1; declare -a v2=y; declare -p a1; }; f`,
		`a1=(1 2); f() { declare -n v2=a1; local -a v2+=x; declare -p a1; }; f`,
		`declare -A m=([k]=v); f() { declare -n v2=m; local -A v2=x; declare -p m; }; f; declare -p m`,
		`declare -A m=([k]=v); f() { declare -n v2=m; local -A v2+=x; declare -p m; }; f`,
		`a1=(1 2); j() { local a1=(q r); k; }; k() { declare -n v2=a1; local -ai v2=3+4; declare -p a1; }; j`,
		`a1=(1 2); f() { local -a a1=(q r); declare -n v2=a1; local -a v2=z; declare -p a1; }; f`,
		`a1=(1 2); f() { declare -n v2=a1; declare -ga v2=w; declare -p a1 v2; }; f; declare -p a1 v2`,
		`a1=(1 2); f() { declare -n v2=a1; declare -g v2=w; declare -p a1; }; f; declare -p a1`,
		// += without -a, and an element (the subscript was lost: [0])
		`a1=(1 2); f() { declare -n v2=a1; local v2+=x; declare -p a1; }; f; declare -p a1`,
		`a1=x; f() { declare -n v2=a1; local v2+=y; declare -p a1; }; f; declare -p a1`,
		`a1=(1 2); f() { declare -n v2=a1; local -a v2[1]=z; declare -p a1; }; f; declare -p a1`,
		`declare -A m=([k]=v); f() { declare -n v2=m; local -A v2[j]=z; declare -p m; }; f; declare -p m`,
		`a1=(1 2); f() { local a1=(p q); declare -n v2=a1; local v2[1]=z; declare -p a1; }; f`,
		`f() { local -A m=([k]=v); declare -n v2=m; local v2[j]=z; declare -p m; }; f`,
		// a scalar value: a new local, which takes only the export
		// (it took -i, -u: seed 202); through a chain of namerefs
		// whose last is not the function's, the nameref itself
		`a=(1 2); f() { declare -n r=a; local r=x; declare -p a; }; f; declare -p a`,
		`declare -A m=([k]=1); f(){ declare -n r=m; local r=x; declare -p m; }; f; declare -p m`,
		`a=(1 2); f(){ declare -n r='a[1]'; local r=x; declare -p a; echo "$r"; }; f; declare -p a`,
		`f(){ local -i a=1; declare -n r=a; local r=1+1; declare -p a; }; f`,
		`declare -gi a=5; f(){ declare -n r=a; declare r=1+1; declare -p a; }; f; declare -p a`,
		`declare -gi a=5; f(){ declare -n r=a; typeset r=1+1; declare -p a; }; f; declare -p a`,
		`declare -gi a=5; f(){ declare -n r=a; declare -g r=1+1; declare -p a; }; f; declare -p a`,
		`declare -gi a=5; f(){ declare -n r=a; export r=1+1; declare -p a; }; f; declare -p a`,
		`a=5; f(){ declare -n r=a; local r=x; declare -p a; }; a=7 f; declare -p a`,
		`declare -gi a=5; declare -gn b=a; f(){ declare -n r=b; local r=1+1; declare -p a b; }; f; declare -p a`,
		`f(){ declare -n r=zz; local r=x; declare -p zz; }; f; declare -p zz`,
		`g(){ local -i a=5; f; declare -p a; }; f(){ declare -n r=a; local r=1+1; declare -p a; }; g`,
		`declare -gu a=x; f(){ declare -n r=a; local -i r=1+1; declare -p a; }; f; declare -p a`,
		`declare -gi a=5; f(){ declare -n r=a; local -x r=v; declare -p a; }; f; declare -p a`,
		`declare -gi a=5; f(){ declare -n r=a; local r="$(echo hi)"; declare -p a; }; f; declare -p a`,
		`declare -gi a=5; f(){ declare -n r=a; local r; declare -p a; r=1+1; declare -p a; }; f; declare -p a`,
		`declare -gi a=5 b=6; f(){ declare -n r=a s=b; local r=1+1 s=2+2; declare -p a b; }; f; declare -p a b`,
		`declare -gi a=5; f(){ declare -n r=a; local r=1+1; r+=3; declare -p a; }; f; declare -p a`,
		`declare -gi a=5; f(){ declare -n r=a; local r+=1; declare -p a; }; f; declare -p a`,
		`declare -gi a=5; f(){ declare -n r=a; local -n r=b; declare -p r a; }; f`,
		`f(){ declare -n r=a; local r=x; declare -p a; g; }; g(){ declare -p a; }; a=1; f`,
		`declare -gi a=5; f(){ declare -n r=a; local -r r=1+1; declare -p a; }; f; declare -p a`,
		`declare -gi a=5; f(){ declare -n r=a; readonly r=1+1; declare -p a; }; f; declare -p a`,
		`declare -gi a=5; f(){ declare -n r=a; local r=1+1; unset r; declare -p a r; }; f; declare -p a`,
		`a=5; declare -gn b=a; f(){ declare -n r=b; local r=zz; echo "st=$?"; declare -p a b r; }; f; declare -p a b`,
		`a=5; declare -gn b=a; f(){ declare -n r=b; local r+=zz; echo "st=$?"; declare -p a b r; }; f; declare -p a b`,
		`a=5; f(){ local -n b=a; declare -n r=b; local r=zz; echo "st=$?"; declare -p a b r; }; f; declare -p a`,
		`a=5; declare -gn b=a; f(){ declare -n r=b; local r=; echo "st=$?"; declare -p r; }; f`,
		`a=5; declare -gn b=a; f(){ declare -n r=b; local r='a[1]'; echo "st=$?"; declare -p r; }; f`,
		`a=5; declare -gn b=a; f(){ declare -n r=b; declare r=q; echo "st=$?"; declare -p r; }; f`,
		`a=5; declare -gn b=a; f(){ declare -n r=b; export r=q; echo "st=$?"; declare -p r a; }; f`,
		`a=5; declare -gn b=a; g(){ declare -n r=b; local r=q; declare -p r; }; f(){ local -n b=a; g; }; f`,
	} {
		t.Run(src, func(t *testing.T) {
			want := runBash(t, src, nil, t.TempDir(), 0, 0)
			got := runInterp(t, context.Background(), src, nil, t.TempDir())
			compare(t, src, got, want)
		})
	}
}
