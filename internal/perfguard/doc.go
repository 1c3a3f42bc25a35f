// Package perfguard holds the benchmark guard of `make test` (its test,
// perfguard_test.go): the whole-process workloads of docs/performance.md,
// measured in instructions executed (valgrind's callgrind), compared with a
// committed baseline. An instruction count does not depend on how busy the
// machine is, so the guard needs no absolute time and no retries: it fails
// only when a workload executes more than 25 % more instructions than its
// baseline. The package has no code; `make perf-baseline` rewrites
// testdata/instructions.txt after an intended change.
package perfguard
