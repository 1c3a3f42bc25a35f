package interp_test

import (
	"context"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// TestJaiphNoFinalVars: without the option Run leaves the variables in
// Vars, as upstream does; with it Vars stays empty across runs (Reset
// keeps the option), and the variables still live in the runner's
// environment for its next Run.
func TestJaiphNoFinalVars(t *testing.T) {
	f, err := syntax.NewParser().Parse(strings.NewReader("x=1\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	check, err := syntax.NewParser().Parse(strings.NewReader(`[ "$x" = 1 ]`+"\n"), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		opts []interp.RunnerOption
		want bool
	}{{nil, true}, {[]interp.RunnerOption{interp.NoFinalVars()}, false}} {
		r, err := interp.New(c.opts...)
		if err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 2; i++ { // the second Run follows a Reset
			r.Reset()
			if err := r.Run(context.Background(), f); err != nil {
				t.Fatal(err)
			}
			if _, got := r.Vars["x"]; got != c.want {
				t.Errorf("run %d with %d options: x in Vars = %v, want %v", i, len(c.opts), got, c.want)
			}
			if err := r.Run(context.Background(), check); err != nil {
				t.Errorf("run %d: x not set for the next Run: %v", i, err)
			}
		}
	}
}
