package runtime

import (
	"context"
	"fmt"
	goruntime "runtime"
	"testing"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/codegen"
)

func localsModule(values ...string) *codegen.Module {
	f := &ast.File{}
	for i, v := range values {
		f.Locals = append(f.Locals, &ast.Local{Name: fmt.Sprintf("v%d", i), Value: v, Quote: ast.LocalDouble})
	}
	return &codegen.Module{Symbol: "main", File: f}
}

// TestEvalLocalsValues: literal values are their own expansion (quotes,
// spaces, invalid UTF-8 kept); $ and ` expand, a backslash stays itself.
func TestEvalLocalsValues(t *testing.T) {
	m := localsModule(`say "hi" it's`, "a  b\xff", `$1-${v0}`, `\$x \"q\"`, "`echo sub`")
	got, err := evalLocals(context.Background(), m, NewEnv(nil), t.TempDir(), []string{"arg"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{`say "hi" it's`, "a  b\xff", `arg-say "hi" it's`, `\ \"q\"`, "sub"}
	for i, l := range got {
		if l.Value != want[i] {
			t.Errorf("local %s = %q, want %q", l.Name, l.Value, want[i])
		}
	}
}

// TestEvalLocalsLinear: eight times as many literal locals allocate well
// under sixteen times the bytes (expanding each in a shell holding all the
// earlier ones allocated about 64 times).
func TestEvalLocalsLinear(t *testing.T) {
	allocated := func(n int) uint64 {
		values := make([]string, n)
		for i := range values {
			values[i] = fmt.Sprintf("value %d of a module", i)
		}
		m := localsModule(values...)
		var before, after goruntime.MemStats
		goruntime.ReadMemStats(&before)
		if _, err := evalLocals(context.Background(), m, NewEnv(nil), t.TempDir(), nil); err != nil {
			t.Fatal(err)
		}
		goruntime.ReadMemStats(&after)
		return after.TotalAlloc - before.TotalAlloc
	}
	small, large := allocated(250), allocated(2000)
	if ratio := float64(large) / float64(small); ratio > 16 {
		t.Errorf("8× the locals allocated %.1f× the bytes (%d → %d); want linear growth", ratio, small, large)
	}
}
