package validate_test

import (
	"testing"

	"github.com/jaiph-go/jaiph/internal/benchdata"
	"github.com/jaiph-go/jaiph/validate"
)

// BenchmarkCheck measures parse + validate of the generated 4,500-line module.
func BenchmarkCheck(b *testing.B) {
	path := benchdata.ModuleFile(b)
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
