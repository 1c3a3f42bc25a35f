// jaiph-go: brace expansions as large as bash makes them, and a clear
// end past the limit.

package interp_test

import (
	"fmt"
	"testing"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"
)

// TestJaiphLargeBraceExpansion: a brace expansion of more than 16Ki words
// (upstream's limit, under which {1..20000} expanded to nothing and the
// command did not run, with status 0) makes every word, as bash.
func TestJaiphLargeBraceExpansion(t *testing.T) {
	runCases(t, []string{
		`echo {1..20000} | wc -w; a=({1..16385}); echo ${#a[@]} ${a[-1]}; x=$(echo {1..40000}); echo ${#x}`,
		`echo {a..c}{1..3000}{x,y} | wc -w; set -- {0..100000..3}; echo $# ${!#}; echo {-20000..20000..7} | wc -w`,
	})
}

// TestJaiphBraceLimit: past expand.BraceLimit words (where bash needs more
// than 4 GB) the shell ends with status 2 and says why, as bash ends with
// its xmalloc error; the expansion is counted before anything is made of
// it, so this fails at once. A subshell ends alone.
func TestJaiphBraceLimit(t *testing.T) {
	msg := fmt.Sprintf("brace expansion would make more than %d words\n", expand.BraceLimit)
	for _, tc := range []struct {
		src, stdout string
		status      int
	}{
		{"echo {1..4097}{1..4096}; echo never", "", 2},
		{"(echo {1..4097}{1..4096}; echo never); echo st=$?", "st=2\n", 0},
	} {
		got := runInterp(t, t.TempDir(), tc.src)
		if got.stdout != tc.stdout || got.stderr != msg || got.status != tc.status {
			t.Errorf("%s: got %q %q %d, want %q %q %d", tc.src, got.stdout, got.stderr, got.status, tc.stdout, msg, tc.status)
		}
	}
}
