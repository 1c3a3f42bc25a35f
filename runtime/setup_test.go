package runtime

import (
	"context"
	"fmt"
	goruntime "runtime"
	"testing"

	"github.com/jaiph-go/jaiph/lowered"
)

func localsModule(values ...string) *lowered.Module {
	m := &lowered.Module{Symbol: "main"}
	for i, v := range values {
		m.Locals = append(m.Locals, lowered.Local{Name: fmt.Sprintf("v%d", i), Value: v})
	}
	return m
}

// TestEvalLocalsValues: literal values are their own expansion (quotes,
// spaces, invalid UTF-8 kept); $ and ` expand, a backslash stays itself.
func TestEvalLocalsValues(t *testing.T) {
	m := localsModule(`say "hi" it's`, "a  b\xff", `$1-${v0}`, `\$x \"q\"`, "`echo sub`")
	got, err := evalLocals(context.Background(), m, NewEnv([]string{"x="}), t.TempDir(), []string{"arg"})
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

// TestEvalLocalsFail: as under the reference's `set -euo pipefail`, an
// unset variable, a failed ${x:?} or a failing command substitution ends
// the evaluation with a LocalError carrying the status.
func TestEvalLocalsFail(t *testing.T) {
	for _, tc := range []struct {
		value  string
		status int
	}{{"$unset_var", 1}, {"${unset_var:?no}", 1}, {"$(exit 4)", 4}, {"$(false | true)", 1}, {"$1", 1}} {
		m := localsModule("ok", tc.value, "never")
		_, err := evalLocals(context.Background(), m, NewEnv(nil), t.TempDir(), nil)
		le, ok := err.(*LocalError)
		if !ok || le.Name != "v1" || le.Status != tc.status {
			t.Errorf("%s: got %v, want a LocalError for v1 with status %d", tc.value, err, tc.status)
		}
	}
}

// TestEvalLocalsLinear: eight times as many locals allocate well under
// sixteen times the bytes (expanding each in a new shell holding all the
// earlier ones allocated about 64 times). Half the values expand.
func TestEvalLocalsLinear(t *testing.T) {
	allocated := func(n int) uint64 {
		values := make([]string, n)
		for i := range values {
			values[i] = fmt.Sprintf("value %d of a module", i)
			if i%2 == 1 {
				values[i] += " in $HOME"
			}
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
	t.Logf("250 locals: %d bytes, 2000 locals: %d bytes", small, large)
	if ratio := float64(large) / float64(small); ratio > 16 {
		t.Errorf("8× the locals allocated %.1f× the bytes (%d → %d); want linear growth", ratio, small, large)
	}
}

// TestEvalLocalsOneShell: values are expanded in one shell that sees the
// locals set before (by their exported names) and what earlier expansions
// assigned, as the reference's script-level assignments do.
func TestEvalLocalsOneShell(t *testing.T) {
	m := localsModule("it's $1", "${main__v0}!", "${n:=7}", "n=$n", "${unset_var:-}", "after $n")
	got, err := evalLocals(context.Background(), m, NewEnv(nil), t.TempDir(), []string{"x"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"it's x", "it's x!", "7", "n=7", "", "after 7"}
	for i, l := range got {
		if l.Value != want[i] {
			t.Errorf("local %s = %q, want %q", l.Name, l.Value, want[i])
		}
	}
}
