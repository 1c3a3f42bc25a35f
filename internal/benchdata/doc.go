// Package benchdata generates the inputs the benchmarks share (the
// 4,500-line module, the workloads of the performance goals and a
// workspace of them: WriteWorkspace, `go run ./internal/benchdata/benchws
// DIR`), so the numbers in docs/performance.md are measured on the same
// flows.
//
// Only benchmarks and tests import it; it must not be used at run time.
package benchdata
