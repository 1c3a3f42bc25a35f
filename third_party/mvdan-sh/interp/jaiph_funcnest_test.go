package interp_test

import (
	"fmt"
	"testing"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"
)

// TestJaiphFuncNest compares FUNCNEST with bash: the call past the limit
// prints bash's message and discards the whole top-level command it belongs
// to (the next one runs with status 1; a subshell ends with status 1; errexit
// does not fire); invalid or non-positive values set no limit.
func TestJaiphFuncNest(t *testing.T) {
	runCases(t, []string{
		"FUNCNEST=5\ng(){ echo \"in $1\"; g $(( $1 + 1 )); echo \"after $1 $?\"; }\ng 1\necho \"top $?\"",
		`FUNCNEST=3
g(){ g; }
if g; then echo then; else echo "else $?"; fi
x=$(g; echo "in subst $?"); echo "x=$x $?"
( g; echo "in subshell $?" ); echo "sub $?"
g || echo "or $?"
{ g; echo "in group $?"; }; echo "group $?"
for i in 1 2; do g; echo "loop $i $?"; done; echo "loop done $?"
echo end`,
		"set -e\nFUNCNEST=3\ng(){ g; }\ng\necho \"after g $?\"",
		"FUNCNEST=3\nh(){ h2; echo \"h after $?\"; }\nh2(){ h3; echo \"h2 after $?\"; }\nh3(){ echo h3; }\nh\necho \"h $?\"\nh3(){ h4; }\nh4(){ echo h4; }\nh\necho \"deeper $?\"",
		`FUNCNEST=" 2 "; f(){ f; }; f; echo "a $?"`,
		"FUNCNEST=+2; f(){ f; }\nf\necho \"b $?\"",
		"c(){ (( $1 > 0 )) && c $(( $1 - 1 )); echo \"c $1\"; }\nfor v in 2x -1 0 '' abc 0x10; do FUNCNEST=$v; c 20 | tail -1; done\nunset FUNCNEST; c 20 | tail -1",
		// (bash then keeps FUNCNEST=2 as if assigned: its temporary
		// environment is not restored after the discard. Not followed.)
		"c(){ (( $1 > 0 )) && c $(( $1 - 1 )); echo \"c $1\"; }\nFUNCNEST=2 c 3\necho \"st $?\"",
		"FUNCNEST=2; f(){ f; }\nf & wait $!; echo \"bg $?\"\nf | while read -r l; do :; done; echo \"pipe $? ${PIPESTATUS[*]}\"",
		"FUNCNEST=2\nf(){ echo \"${FUNCNAME[*]}\"; g; }; g(){ echo \"${FUNCNAME[@]}\" ${#FUNCNAME[@]}; }\nf\nf(){ ( g ); }\nf",
	})
}

// TestJaiphFuncNestDefault: without FUNCNEST, endless recursion stops at
// DefaultFuncNest (bash would recurse until it crashes).
func TestJaiphFuncNestDefault(t *testing.T) {
	got := runInterp(t, t.TempDir(), "g(){ g; }\ng\necho \"after $?\"")
	want := fmt.Sprintf("g: maximum function nesting level exceeded (%d)\n", interp.DefaultFuncNest)
	if got.stdout != "after 1\n" || got.stderr != want || got.status != 0 {
		t.Errorf("got %q %q %d, want %q %q 0", got.stdout, got.stderr, got.status, "after 1\n", want)
	}
}
