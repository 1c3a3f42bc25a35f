// jaiph-go: HandlerContext.SetVar, the assignment of an embedder's
// builtins (jaiph's printf -v), through a nameref.

package interp

import (
	"bytes"
	"context"
	"os"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// TestJaiphSetVarThroughElementNameref: SetVar of a nameref to an array
// element (declare -n w='a[1]') sets the element, as w=v does (it set
// something the nameref's reads did not see: jaiph's printf -v w, found
// by the soak, seed 132); of a nameref to an array, element 0.
func TestJaiphSetVarThroughElementNameref(t *testing.T) {
	setvar := func(next ExecHandlerFunc) ExecHandlerFunc {
		return func(ctx context.Context, args []string) error {
			if args[0] == "setvar" {
				return HandlerCtx(ctx).SetVar(args[1], args[2])
			}
			return next(ctx, args)
		}
	}
	for _, tc := range []struct{ src, want string }{
		{`f() { declare -n w='d1[1]'; setvar w abc; echo "[$w] ${d1[1]} ${#d1[@]}"; }; f`, "[abc] abc 1\n"},
		{`c1=(x y); f() { declare -n w='c1[1]'; setvar w 'a b'; echo "[$w]"; }; f; echo "${c1[@]}"`, "[a b]\nx a b\n"},
		{`c1=(x y); declare -n w=c1; setvar w z; echo "${c1[@]}"`, "z y\n"},
	} {
		file, err := syntax.NewParser().Parse(strings.NewReader(tc.src), "")
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		r, err := New(StdIO(nil, &out, os.Stderr), ExecHandlers(setvar))
		if err != nil {
			t.Fatal(err)
		}
		if err := r.Run(context.Background(), file); err != nil {
			t.Errorf("%s: %v", tc.src, err)
		}
		if out.String() != tc.want {
			t.Errorf("%s: output %q, want %q", tc.src, out.String(), tc.want)
		}
	}
}
