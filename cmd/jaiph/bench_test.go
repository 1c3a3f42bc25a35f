package main

import (
	"io"
	"os"
	"testing"

	"github.com/jaiph-go/jaiph/internal/benchdata"
)

// Whole-process benchmarks: each iteration starts the jaiph binary (this
// test binary acting as jaiph) on a real .jh file, as a user would.

var (
	trivialFlow  = benchdata.Workloads["trivial.jh"]
	hundredSteps = benchdata.Workloads["steps.jh"]
	inboxFlow    = benchdata.InboxFlow
)

// benchDir is where benchmark workspaces live: below $JAIPH_BENCH_DIR if
// set, else in the system temp dir (removed afterwards). Workspaces below
// $JAIPH_BENCH_DIR are kept, and runs are not deleted between iterations:
// on file systems mounted with `discard` (like this project's CI machines)
// deleting thousands of files makes file creation slow for seconds
// afterwards, which would be measured as inbox cost.
func benchDir(b *testing.B) string {
	dir, err := os.MkdirTemp(os.Getenv("JAIPH_BENCH_DIR"), "jaiph-bench-")
	if err != nil {
		b.Fatal(err)
	}
	if os.Getenv("JAIPH_BENCH_DIR") == "" {
		b.Cleanup(func() { os.RemoveAll(dir) })
	}
	if err := os.MkdirAll(dir+"/.jaiph", 0o755); err != nil {
		b.Fatal(err)
	}
	return dir
}

func benchProcess(b *testing.B, src string, env ...string) {
	dir := benchDir(b)
	if err := os.WriteFile(dir+"/flow.jh", []byte(src), 0o644); err != nil {
		b.Fatal(err)
	}
	t := &testing.T{}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		res := runProcess(t, dir, append(env, "JAIPH_INBOX_MAX_DISPATCH_DEPTH=100000"), "run", "flow.jh")
		if res.code != 0 {
			b.Fatalf("exit %d: %s", res.code, res.stderr)
		}
	}
}

func BenchmarkRunTrivial(b *testing.B)  { benchProcess(b, trivialFlow) }
func BenchmarkRun100Steps(b *testing.B) { benchProcess(b, hundredSteps) }
func BenchmarkInbox100(b *testing.B)    { benchProcess(b, inboxFlow(100)) }
func BenchmarkInbox10000(b *testing.B)  { benchProcess(b, inboxFlow(10000)) }

// The in-process benchmarks run a flow inside the test process, for CPU
// profiles of the runtime itself (-cpuprofile).
func benchInProcess(b *testing.B, src string) {
	b.Setenv("JAIPH_INBOX_MAX_DISPATCH_DEPTH", "100000")
	dir := benchDir(b)
	os.WriteFile(dir+"/flow.jh", []byte(src), 0o644)
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code := run([]string{"run", dir + "/flow.jh"}, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}

func BenchmarkInProcess100Steps(b *testing.B)   { benchInProcess(b, hundredSteps) }
func BenchmarkInProcessInbox100(b *testing.B)   { benchInProcess(b, inboxFlow(100)) }
func BenchmarkInProcessInbox10000(b *testing.B) { benchInProcess(b, inboxFlow(10000)) }

func BenchmarkInProcessTrivial(b *testing.B) { benchInProcess(b, trivialFlow) }
