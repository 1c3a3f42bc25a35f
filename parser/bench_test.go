package parser_test

import (
	"testing"

	"github.com/jaiph-go/jaiph/internal/benchdata"
	"github.com/jaiph-go/jaiph/parser"
)

// BenchmarkParse measures the parser alone on the generated 4,500-line
// module (BenchmarkCheck in validate adds reading and validation).
func BenchmarkParse(b *testing.B) {
	src := []byte(benchdata.Module())
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, ds := parser.Parse("/bench/big.jh", src); len(ds) != 0 {
			b.Fatal(ds[0])
		}
	}
}
