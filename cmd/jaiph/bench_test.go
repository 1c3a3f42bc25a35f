package main

import (
	"fmt"
	"io"
	"os"
	"testing"
)

// Whole-process benchmarks: each iteration starts the jaiph binary (this
// test binary acting as jaiph) on a real .jh file, as a user would.

const trivialFlow = "workflow default {\n  echo hi\n}\n"

const hundredSteps = `workflow step {
  :
}

workflow default {
  i=0
  while [ "$i" -lt 100 ]; do
    run step
    i=$((i + 1))
  done
}
`

// inboxFlow sends n messages through one route.
func inboxFlow(n int) string {
	return fmt.Sprintf(`channel work

workflow target {
  :
}

workflow default {
  work -> target
  i=0
  while [ "$i" -lt %d ]; do
    work <- echo "message $i"
    i=$((i + 1))
  done
}
`, n)
}

func benchProcess(b *testing.B, src string, env ...string) {
	dir := workspace(&testing.T{}, nil)
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
		b.StopTimer()
		os.RemoveAll(dir + "/.jaiph/runs")
		b.StartTimer()
	}
}

func BenchmarkRunTrivial(b *testing.B)  { benchProcess(b, trivialFlow) }
func BenchmarkRun100Steps(b *testing.B) { benchProcess(b, hundredSteps) }
func BenchmarkInbox100(b *testing.B)    { benchProcess(b, inboxFlow(100)) }
func BenchmarkInbox10000(b *testing.B)  { benchProcess(b, inboxFlow(10000)) }

// BenchmarkInProcess100Steps runs the 100-step flow inside the test process,
// for CPU profiles of the runtime itself (-cpuprofile).
func BenchmarkInProcess100Steps(b *testing.B) {
	dir := b.TempDir()
	os.MkdirAll(dir+"/.jaiph", 0o755)
	os.WriteFile(dir+"/flow.jh", []byte(hundredSteps), 0o644)
	wd, _ := os.Getwd()
	defer os.Chdir(wd)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if code := run([]string{"run", dir + "/flow.jh"}, io.Discard, io.Discard); code != 0 {
			b.Fatalf("exit %d", code)
		}
	}
}
