package format_test

import (
	"os"
	"testing"

	"github.com/jaiph-go/jaiph/internal/benchdata"
	"github.com/jaiph-go/jaiph/internal/tools/format"
)

// BenchmarkSource formats the 4,500-line module once formatted (as an
// editor's format-on-save mostly sees it): check plus layout.
func BenchmarkSource(b *testing.B) {
	path := benchdata.ModuleFile(b)
	src, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	if src, err = format.Source(path, src); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		out, err := format.Source(path, src)
		if err != nil || string(out) != string(src) {
			b.Fatalf("not canonical or refused: %v", err)
		}
	}
}
