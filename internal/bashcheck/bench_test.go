package bashcheck_test

import (
	"testing"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/codegen"
	"github.com/jaiph-go/jaiph/internal/bashcheck"
	"github.com/jaiph-go/jaiph/internal/benchdata"
	"github.com/jaiph-go/jaiph/lowered"
	"github.com/jaiph-go/jaiph/validate"
)

// BenchmarkCheckLowered measures lowering the generated 4,500-line module
// and checking every lowered body (parsing it with mvdan.cc/sh and looking
// for refused features), the part of `jaiph check` after validation.
func BenchmarkCheckLowered(b *testing.B) {
	path := benchdata.ModuleFile(b)
	l := validate.NewLoader()
	l.Load(path)
	f := l.File(path)
	if f == nil {
		b.Fatal("generated module did not load")
	}
	lower := func() *lowered.Module {
		return codegen.Lower(f, "main", func(*ast.Import) string { return "" })
	}
	if m := lower(); len(m.Order) != 900 {
		b.Fatalf("lowered %d bodies, want 900", len(m.Order))
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if ds := bashcheck.Module(lower()); len(ds) != 0 {
			b.Fatal(ds[0])
		}
	}
	b.ReportMetric(4500*float64(b.N)/b.Elapsed().Seconds(), "lines/s")
}
