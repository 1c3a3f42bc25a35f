package interp_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// TestJaiphHandlerFunctions: names HandlerFunctions reports are functions
// to command -v/-V, type [-t] and declare -F/-f NAME; shell functions of
// the same name take precedence; other names stay not found.
func TestJaiphHandlerFunctions(t *testing.T) {
	src := `command -v g; echo "v $?"
type -t g
declare -F g
declare -f g
type g
command -V g
command -v h || echo "h $?"
type -t h || echo "t $?"
declare -F h || echo "F $?"
(command -v g)
g() { :; }
declare -F g
`
	f, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	r, err := interp.New(interp.StdIO(nil, &out, &out), interp.HandlerFunctions(func(_ context.Context, name string) (string, bool) {
		return `m::g "$@"`, name == "g"
	}))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(context.Background(), f); err != nil {
		t.Fatal(err)
	}
	def := "g () \n{ \n    m::g \"$@\"\n}\n"
	want := "g\nv 0\nfunction\ng\n" + def + "g is a function\n" + def + "g is a function\n" + def +
		"h 1\nt 1\nF 1\ng\ng\n"
	if got := out.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
}
