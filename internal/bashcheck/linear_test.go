package bashcheck_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/internal/bashcheck"
	"github.com/jaiph-go/jaiph/validate"
)

// multiline returns a module whose one construct of the given shape spans
// n lines (for "recover", n one-line recover statements in one workflow):
// the inputs on which `jaiph check` was quadratic (joining a multi-line
// string rescanned it once per line; each one-line recover copied the
// lowered body and padded a scratch body from line 1).
func multiline(shape string, n int) string {
	var b strings.Builder
	lines := func(format string) {
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, format, i)
		}
	}
	switch shape {
	case "local":
		b.WriteString("local v = \"start\n")
		lines("line %d of a long \\\"local\\\" $x text\n")
		b.WriteString("end\"\nworkflow default {\n  log \"$v\"\n}\n")
	case "prompt":
		b.WriteString("workflow default {\n  a = prompt \"start\n")
		lines("line %d of a long \\\"prompt\\\" $x text\n")
		b.WriteString("end\" returns '{ a: string }'\n}\n")
	case "schema":
		b.WriteString("workflow default {\n  a = prompt \"text\" returns '{\n")
		lines("  a%d: string,\n")
		b.WriteString("  z: string }'\n}\n")
	case "block":
		b.WriteString("workflow default {\n  if true; then {\n")
		lines("    echo \"line %d\"\n")
		b.WriteString("  } fi\n}\n")
	case "heredoc":
		b.WriteString("function f() {\n  cat <<EOF\n")
		lines("line %d $x\n")
		b.WriteString("EOF\n}\nworkflow default {\n  run f\n}\n")
	case "string":
		b.WriteString("function f() {\n  echo \"start\n")
		lines("  line %d\n")
		b.WriteString("end\"\n}\nworkflow default {\n  run f\n}\n")
	case "recover":
		b.WriteString("rule r {\n  true\n}\nworkflow default {\n")
		lines("  ensure r recover echo fix%d\n")
		b.WriteString("}\n")
	case "continuation":
		b.WriteString("function f() {\n  echo start \\\n")
		lines("    word%d \\\n")
		b.WriteString("    end\n}\nworkflow default {\n  run f\n}\n")
	}
	return b.String()
}

// checkAllocated runs what `jaiph check` runs on src and returns the bytes
// it allocated.
func checkAllocated(t *testing.T, src string) uint64 {
	t.Helper()
	path := filepath.Join(t.TempDir(), "big.jh")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	l := validate.NewLoader()
	files := []string{path}
	ds := validate.CheckWith(l, files)
	ds = append(ds, bashcheck.Files(l, files, nil)...)
	runtime.ReadMemStats(&after)
	if len(ds) != 0 {
		t.Fatalf("generated module has diagnostics: %v", ds[0])
	}
	return after.TotalAlloc - before.TotalAlloc
}

// TestCheckLinear guards that checking grows linearly with the size of a
// multi-line construct: eight times the lines must allocate well under
// sixteen times the bytes (a quadratic step allocates about 64 times).
// Bytes allocated, unlike time, do not depend on the machine's load.
func TestCheckLinear(t *testing.T) {
	const n = 1000
	for _, shape := range []string{"local", "prompt", "schema", "block", "heredoc", "string", "continuation", "recover"} {
		t.Run(shape, func(t *testing.T) {
			small := checkAllocated(t, multiline(shape, n))
			large := checkAllocated(t, multiline(shape, 8*n))
			ratio := float64(large) / float64(small)
			t.Logf("%d lines: %d bytes, %d lines: %d bytes, ratio %.1f", n, small, 8*n, large, ratio)
			if ratio > 16 {
				t.Errorf("8× the lines allocated %.1f× the bytes (%d → %d); want linear growth (about 8×)", ratio, small, large)
			}
		})
	}
}
