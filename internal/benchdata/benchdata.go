package benchdata

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Module returns a module of 300 rules, 300 functions and 300 workflows,
// five lines each (4,500 lines, no diagnostics).
func Module() string {
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

// ModuleFile writes Module to big.jh in a temporary directory of tb and
// returns its path.
func ModuleFile(tb testing.TB) string {
	tb.Helper()
	src := Module()
	if n := strings.Count(src, "\n"); n != 4500 {
		tb.Fatalf("generated %d lines, want 4500", n)
	}
	path := filepath.Join(tb.TempDir(), "big.jh")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}
