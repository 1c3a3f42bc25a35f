package main

import (
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// TestInboxMemory measures the peak RSS of `jaiph run` of an orchestrator
// that sends n messages (inboxFlow: one route, a trivial target) and
// checks that it stays flat: from 5,000 messages to n it may grow by at
// most 4 MB plus 150 KB per 1,000 messages. The 4 MB absorb the Go
// runtime: the live heap stays ~2 MB, but how far the heap's pages spread
// before the scavenger returns them moves the peak by up to ~4 MB between
// runs. Keeping ~150 bytes per message (its content, preview or summary
// line) would exceed the bound at 100,000 messages, where the peak must
// also stay under 64 MB.
//
// n is 20,000, or JAIPH_STRESS_INBOX_MESSAGES (`make stress`: 100,000).
func TestInboxMemory(t *testing.T) {
	const base = 5000
	n := 20000
	if v, err := strconv.Atoi(os.Getenv("JAIPH_STRESS_INBOX_MESSAGES")); err == nil && v > base {
		n = v
	}
	// The smaller of two runs each: how far the heap spreads before the
	// scavenger returns pages only ever adds to a peak, and under load
	// (make test runs packages side by side) one run in a few adds ~8 MB.
	small, large := min(peakRSS(t, base), peakRSS(t, base)), min(peakRSS(t, n), peakRSS(t, n))
	growth := large - small
	allowed := 4096 + 150*int64(n-base)/1000
	t.Logf("peak RSS: %d KB for %d messages, %d KB for %d (growth %d KB, allowed %d KB)", small, base, large, n, growth, allowed)
	if growth > allowed {
		t.Errorf("peak RSS grew by %d KB from %d to %d messages, more than %d KB", growth, base, n, allowed)
	}
	if n >= 100000 && large >= 64<<10 {
		t.Errorf("peak RSS %d KB for %d messages, want under 64 MB", large, n)
	}
}

// peakRSS runs inboxFlow(n) in a fresh workspace and returns the process's
// maximum resident set size in KB.
func peakRSS(t *testing.T, n int) int64 {
	t.Helper()
	dir := workspace(t, map[string]string{"flow.jh": inboxFlow(n)})
	cmd := exec.Command(os.Args[0], "run", "flow.jh")
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "JAIPH_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "JAIPH_TEST_AS_JAIPH=1", "NO_COLOR=1", "HOME="+dir, "JAIPH_INBOX_MAX_DISPATCH_DEPTH="+strconv.Itoa(n))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("%d messages: %v\n%s", n, err, out)
	}
	if files, _ := filepath.Glob(filepath.Join(dir, ".jaiph", "runs", "*", "*", "inbox", "*-work.txt")); len(files) != n {
		t.Fatalf("%d messages sent, want %d", len(files), n)
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
	if goruntime.GOOS == "darwin" {
		rss /= 1024 // bytes there, KB on Linux
	}
	return rss
}
