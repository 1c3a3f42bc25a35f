// jaiph-go: the errors bash's redirection_error makes of its own (an
// ambiguous redirect, set -C's refusal) name a {NAME} redirection's
// variable, not its word.

package interp

import (
	"context"
	"testing"
)

// TestJaiphVarRedirErrorName: `exec {fd}>f2` under set -C with f2 there is
// "fd: cannot overwrite existing file" in bash (it named f2: found by the
// soak, seed 203); so are its ambiguous redirects (`{y}>$u`); an error of
// the system (no such directory) names the file.
func TestJaiphVarRedirErrorName(t *testing.T) {
	for _, src := range []string{
		`: > f2; set -C; exec {fd}>f2 || echo "st=$?"; { echo hi; } {x}>f2 || echo "st=$?"; echo hi > f2 || echo "st=$?"`,
		`v2=' x y  z'; echo hi {y}>$u || echo "st=$?"; echo hi {y}>>$v2 || echo "st=$?"; cat {y}<$v2 || echo "st=$?"`,
		`v2=' x y  z'; echo hi {y}<>$v2 || echo "st=$?"; echo hi {y}>&$v2 || echo "st=$?"; echo hi {y}>&abc || echo "st=$?"; echo hi >&$v2 || echo "st=$?"`,
		`echo hi {y}>nodir/x || echo "st=$?"; echo hi {y}>$u 2>&1 | sed 's/^.*: y/y/'`,
	} {
		t.Run(src, func(t *testing.T) {
			dir := t.TempDir()
			want := runBash(t, src, nil, dir, 0, 0)
			got := runInterp(t, context.Background(), src, nil, t.TempDir())
			compare(t, src, got, want)
		})
	}
}
