package broker_test

// Whole-process measures of the broker inbox, recorded in
// docs/performance.md (`make bench`, or go test -run '^$' -bench . -benchtime 1x ./internal/broker).
// Each iteration is a whole run with real jaiph-full processes.

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

const sleepy = `channel jobs

config {
  run.inbox_max_dispatch_depth = 1000000
}

workflow work {
  sleep 0.2
}

workflow noop {
  :
}

workflow default {
  i=0
  while [ "$i" -lt "$1" ]; do
    i=$((i + 1))
    jobs <- echo "m$i"
  done
  jobs -> TARGET
}
`

// BenchmarkScaleOut: 400 deliveries of a target that sleeps 200 ms, with
// 1, 2, 4 and 8 workers of one slot each; the work is waiting, not CPU.
func BenchmarkScaleOut(b *testing.B) {
	for _, workers := range []int{1, 2, 4, 8} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			for range b.N {
				wall := brokerRun(b, strings.Replace(sleepy, "TARGET", "work", 1), 400, workers, 1)
				b.ReportMetric(wall.Seconds(), "s/run")
				b.ReportMetric(400/wall.Seconds(), "deliveries/s")
			}
		})
	}
}

// BenchmarkDeliveryOverhead: what one no-op delivery costs through the
// broker (one worker, one slot: deliveries one after another, as the file
// inbox makes them) and through the file inbox.
func BenchmarkDeliveryOverhead(b *testing.B) {
	const n = 200
	src := strings.Replace(sleepy, "TARGET", "noop", 1)
	b.Run("broker", func(b *testing.B) {
		for range b.N {
			wall := brokerRun(b, src, n, 1, 1)
			b.ReportMetric(float64(wall.Microseconds())/1000/n, "ms/delivery")
		}
	})
	b.Run("file", func(b *testing.B) {
		for range b.N {
			dir := b.TempDir()
			os.WriteFile(filepath.Join(dir, "flow.jh"), []byte(src), 0o644)
			os.MkdirAll(filepath.Join(dir, ".jaiph"), 0o755)
			cmd := exec.Command(jaiphFull, "run", "flow.jh", strconv.Itoa(n))
			cmd.Dir = dir
			start := time.Now()
			if out, err := cmd.CombinedOutput(); err != nil {
				b.Fatalf("%v\n%s", err, out)
			}
			b.ReportMetric(float64(time.Since(start).Microseconds())/1000/n, "ms/delivery")
		}
	})
}

// BenchmarkThroughput: JAIPH_BENCH_BROKER_MESSAGES (10,000) no-op
// messages through 4 workers of 2 slots, against a `jaiph broker` process:
// messages per second and the peak RSS of the broker and the workers.
func BenchmarkThroughput(b *testing.B) {
	n := sizeFromEnv("JAIPH_BENCH_BROKER_MESSAGES", 10000)
	src := strings.Replace(sleepy, "TARGET", "noop", 1)
	for range b.N {
		store := b.TempDir()
		port := freePort(b)
		brk := exec.Command(jaiphFull, "broker", "--listen", fmt.Sprintf("127.0.0.1:%d", port), "--store", store)
		out, _ := brk.StdoutPipe()
		if err := brk.Start(); err != nil {
			b.Fatal(err)
		}
		buf := make([]byte, 256)
		out.Read(buf) // "listening on …"
		url := fmt.Sprintf("nats://127.0.0.1:%d", port)
		dir := b.TempDir()
		os.WriteFile(filepath.Join(dir, "flow.jh"), []byte(src), 0o644)
		os.MkdirAll(filepath.Join(dir, ".jaiph"), 0o755)
		var workers []*exec.Cmd
		for i := range 4 {
			w := exec.Command(jaiphFull, "worker", "--inbox", url, "--name", fmt.Sprint("w", i), "--dir", dir, "--concurrency", "2")
			if err := w.Start(); err != nil {
				b.Fatal(err)
			}
			workers = append(workers, w)
		}
		run := exec.Command(jaiphFull, "run", "--inbox", url, "flow.jh", strconv.Itoa(n))
		run.Dir = dir
		start := time.Now()
		if o, err := run.CombinedOutput(); err != nil {
			b.Fatalf("%v\n%.2000s", err, o)
		}
		wall := time.Since(start)
		b.ReportMetric(float64(n)/wall.Seconds(), "messages/s")
		b.ReportMetric(float64(peakRSS(brk.Process.Pid))/1024, "broker-MB")
		worst := 0
		for _, w := range workers {
			worst = max(worst, peakRSS(w.Process.Pid))
			w.Process.Kill()
			w.Wait()
		}
		b.ReportMetric(float64(worst)/1024, "worker-MB")
		brk.Process.Kill()
		brk.Wait()
	}
}

// brokerRun runs src with n messages on an in-process broker and the
// given workers, and returns the run's wall time.
func brokerRun(b *testing.B, src string, n, workers, slots int) time.Duration {
	srvT := &testServer{t: b, store: b.TempDir(), addr: "127.0.0.1:0"}
	srvT.start()
	defer srvT.stop()
	dir := b.TempDir()
	os.WriteFile(filepath.Join(dir, "flow.jh"), []byte(src), 0o644)
	os.MkdirAll(filepath.Join(dir, ".jaiph"), 0o755)
	var cmds []*exec.Cmd
	for i := range workers {
		w := exec.Command(jaiphFull, "worker", "--inbox", srvT.url(), "--name", fmt.Sprint("w", i), "--dir", dir, "--concurrency", strconv.Itoa(slots))
		if err := w.Start(); err != nil {
			b.Fatal(err)
		}
		cmds = append(cmds, w)
	}
	defer func() {
		for _, w := range cmds {
			w.Process.Kill()
			w.Wait()
		}
	}()
	run := exec.Command(jaiphFull, "run", "--inbox", srvT.url(), "flow.jh", strconv.Itoa(n))
	run.Dir = dir
	start := time.Now()
	if o, err := run.CombinedOutput(); err != nil {
		b.Fatalf("%v\n%.2000s", err, o)
	}
	return time.Since(start)
}

// peakRSS is a live process's peak resident set (VmHWM), in KiB.
func peakRSS(pid int) int {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, "VmHWM:"); ok {
			n, _ := strconv.Atoi(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")))
			return n
		}
	}
	return 0
}

// BenchmarkNoopDeliveries: no-op deliveries per second on one in-process
// node, through 1 and 4 workers of one slot (issue 32's measure;
// JAIPH_BENCH_BROKER_MESSAGES, default 1,000). The R3 figures come from
// three `jaiph broker` processes (docs/performance.md says how).
func BenchmarkNoopDeliveries(b *testing.B) {
	n := sizeFromEnv("JAIPH_BENCH_BROKER_MESSAGES", 1000)
	src := strings.Replace(sleepy, "TARGET", "noop", 1)
	for _, workers := range []int{1, 4} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			for range b.N {
				wall := brokerRun(b, src, n, workers, 1)
				b.ReportMetric(float64(n)/wall.Seconds(), "deliveries/s")
			}
		})
	}
}
