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
	} {
		t.Run(src, func(t *testing.T) {
			want := runBash(t, src, nil, t.TempDir(), 0, 0)
			got := runInterp(t, context.Background(), src, nil, t.TempDir())
			compare(t, src, got, want)
		})
	}
}
