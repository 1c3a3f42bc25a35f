// jaiph-go: HandlerContext.SetVar, the assignment of an embedder's
// builtins (jaiph's printf -v), through a nameref.

package interp

import (
	"bytes"
	"context"
	"fmt"
	"io"
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

// TestJaiphSetVarMessageBeforeExitTrap: an assignment's error that ends
// the shell in place (set -u in an element's subscript, under errexit in
// a function) is printed before the EXIT trap runs, as bash's
// report_error prints it before exiting; the trap ran first, while
// SetVar held the message for its caller (found by the soak, seed 201:
// printf -v 'A1[k]' inside `{ …; } 2>&1`).
func TestJaiphSetVarMessageBeforeExitTrap(t *testing.T) {
	setvar := func(next ExecHandlerFunc) ExecHandlerFunc {
		return func(ctx context.Context, args []string) error {
			if args[0] == "setvar" {
				hc := HandlerCtx(ctx)
				err := hc.SetVar(args[1], args[2])
				if err != nil {
					fmt.Fprintln(hc.Stderr, err) // as jaiph's printf -v
				}
				return err
			}
			return next(ctx, args)
		}
	}
	for _, tc := range []struct{ src, want string }{
		{`f() { set -eu; trap 'echo "T $v"' EXIT; local v=L; { setvar 'A1[k]' x; } 2>&1; echo after; }; f`, "k: unbound variable\nT L\n"},
		{`f() { set -eu; trap 'echo "T $v"' EXIT; local v=L; { read 'A1[k]' <<< x; } 2>&1; echo after; }; f`, "k: unbound variable\nT L\n"},
		{`f() { set -eu; trap 'echo T' EXIT; { setvar 'A1[k]' x; } 2>f1; echo after; }; f`, "T\n"},
	} {
		file, err := syntax.NewParser().Parse(strings.NewReader(tc.src), "")
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		r, err := New(StdIO(nil, &out, io.Discard), ExecHandlers(setvar), Dir(t.TempDir()))
		if err != nil {
			t.Fatal(err)
		}
		r.Run(context.Background(), file)
		if out.String() != tc.want {
			t.Errorf("%s: output %q, want %q", tc.src, out.String(), tc.want)
		}
	}
}
