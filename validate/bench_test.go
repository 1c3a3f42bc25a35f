package validate_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/validate"
)

// generatedModule returns a module of 300 rules, 300 functions and 300
// workflows, five lines each (4,500 lines).
func generatedModule() string {
	var b strings.Builder
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "rule r%d {\n  test -n \"$1\"\n  echo \"rule %d\"\n  [ -d . ]\n}\n", i, i)
	}
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "function f%d() {\n  printf '%%s' \"$1\" | tr a-z A-Z\n  n=$(echo %d)\n  return \"$n\"\n}\n", i, i)
	}
	for i := 0; i < 300; i++ {
		fmt.Fprintf(&b, "workflow w%d {\n  ensure r%d \"$1\"\n  x = run f%d \"a b\"\n  log \"got $x\"\n}\n", i, i, i)
	}
	return b.String()
}

// BenchmarkCheck measures parse + validate of the generated 4,500-line module.
func BenchmarkCheck(b *testing.B) {
	path := filepath.Join(b.TempDir(), "big.jh")
	src := generatedModule()
	if n := strings.Count(src, "\n"); n != 4500 {
		b.Fatalf("generated %d lines, want 4500", n)
	}
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	if ds := validate.Check([]string{path}); len(ds) != 0 {
		b.Fatalf("generated module has diagnostics: %v", ds[0])
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if ds := validate.Check([]string{path}); len(ds) != 0 {
			b.Fatal(ds[0])
		}
	}
	b.ReportMetric(4500*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}
