// Package benchdata generates the inputs the front-end benchmarks share, so
// the numbers in docs/performance.md are measured on the same module.
//
// Only benchmarks and tests import it; it must not be used at run time.
package benchdata
