package perfguard

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/internal/benchdata"
)

// tolerance is how much more work than its baseline a workload may do.
const tolerance = 1.25

const baselineFile = "testdata/instructions.txt"

// A workload is one whole `jaiph` process, as a user starts it.
type workload struct {
	name string
	args []string
}

// The workloads of docs/performance.md's goals (cmd/jaiph/bench_test.go has
// the same flows as time benchmarks). Each run takes 1–8 s under callgrind.
var workloads = []workload{
	{"version", []string{"--version"}},
	{"run-trivial", []string{"run", "trivial.jh"}},
	{"check-4500-lines", []string{"check", "big.jh"}},
	{"run-100-steps", []string{"run", "steps.jh"}},
	{"inbox-100", []string{"run", "inbox100.jh"}},
}

// TestInstructionBudget runs each workload three times under callgrind and fails
// when the smaller count is more than 25 % above its baseline. Load on the
// machine slows valgrind down but does not change what it counts. What
// varies between runs is kept out: the collector (GOGC=off: whether a
// collection starts before the process ends moved the 100-step run between
// 41 and 48 million instructions; allocations still count, in malloc), idle
// spinning between Ps (GOMAXPROCS=1: the inbox flow's worst run under
// stress-ng was +16 % with 2). What remains (the runtime's timers,
// goroutine order) only adds: about ±1 % on the large workloads, up to 7 % on
// the start-up-only --version (1.19–1.27 M on one binary), hence the
// smallest of three.
func TestInstructionBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("the instruction budget takes 15–80 s (valgrind)")
	}
	valgrind, err := exec.LookPath("valgrind")
	if err != nil {
		msg := "valgrind is not installed: the benchmark guard cannot count instructions (apt-get install valgrind)"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + "; CI=true forbids skipping it (.ci/run installs it)")
		}
		t.Skip(msg)
	}
	base, meta, err := readBaseline(baselineFile)
	update := os.Getenv("JAIPH_PERF_UPDATE") != ""
	if err != nil && !update {
		t.Fatalf("%v (make perf-baseline writes it)", err)
	}
	if !update && meta["goarch"] != "" && meta["goarch"] != runtime.GOARCH {
		t.Skipf("the baseline was counted on %s, this is %s", meta["goarch"], runtime.GOARCH)
	}
	bin := buildJaiph(t)
	dir := t.TempDir()
	if err := benchdata.WriteWorkspace(dir); err != nil {
		t.Fatal(err)
	}
	// The runs' keys (internal/store/chain) outside the workspace, as a
	// user's are: inside it, a run would go unchained.
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	got := map[string]int64{}
	for _, w := range workloads {
		var n int64
		for range 3 {
			c, err := instructions(valgrind, bin, dir, w.args)
			if err != nil {
				t.Fatalf("%s: %v", w.name, err)
			}
			if n == 0 || c < n {
				n = c
			}
		}
		got[w.name] = n
		b, ok := base[w.name]
		switch {
		case update:
			t.Logf("%-18s %13d instructions", w.name, n)
		case !ok:
			t.Errorf("%s: no baseline in %s (make perf-baseline)", w.name, baselineFile)
		case float64(n) > float64(b)*tolerance:
			t.Errorf("%s: %d instructions, %.0f %% more than the baseline's %d (allowed: +%.0f %%; %s, baseline %s). "+
				"Find the cost with a profile (docs/performance.md); if it is intended, make perf-baseline",
				w.name, n, 100*(float64(n)/float64(b)-1), b, 100*(tolerance-1), runtime.Version(), meta["go"])
		default:
			t.Logf("%-18s %13d instructions, baseline %13d (%+.1f %%)", w.name, n, b, 100*(float64(n)/float64(b)-1))
		}
	}
	if update {
		if err := writeBaseline(baselineFile, got); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s", baselineFile)
	}
}

// buildJaiph builds the jaiph binary as `make build` does (no race
// detector, whatever flags this test runs with).
func buildJaiph(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "jaiph")
	cmd := exec.Command("go", "build", "-trimpath", "-o", bin, "github.com/jaiph-go/jaiph/cmd/jaiph")
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// instructions runs bin with args in dir under callgrind and returns the
// instructions executed by the process (every thread; no children).
// Asynchronous preemption is off because callgrind cannot follow the
// signal it uses; GOMAXPROCS is fixed so that the count does not depend on
// the machine's cores, and the collector is off (see TestInstructionBudget).
func instructions(valgrind, bin, dir string, args []string) (int64, error) {
	out := filepath.Join(dir, "callgrind.out")
	defer os.Remove(out)
	cmd := exec.Command(valgrind, append([]string{"--tool=callgrind", "--callgrind-out-file=" + out, bin}, args...)...)
	cmd.Dir = dir
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "JAIPH_") && !strings.HasPrefix(kv, "GODEBUG=") && !strings.HasPrefix(kv, "GOMAXPROCS=") &&
			!strings.HasPrefix(kv, "GOGC=") && !strings.HasPrefix(kv, "GOMEMLIMIT=") && !strings.HasPrefix(kv, "OTEL_") {
			env = append(env, kv)
		}
	}
	cmd.Env = append(env, "GODEBUG=asyncpreemptoff=1,cpu.rdtscp=off", "GOMAXPROCS=1", "GOGC=off", "NO_COLOR=1", "HOME="+dir,
		"JAIPH_INBOX_MAX_DISPATCH_DEPTH=100000")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = nil, &stderr
	if err := cmd.Run(); err != nil {
		return 0, fmt.Errorf("%v\n%s", err, stderr.String())
	}
	for _, line := range strings.Split(stderr.String(), "\n") {
		// ==123== Collected : 4091534
		if _, rest, ok := strings.Cut(line, "Collected :"); ok {
			return strconv.ParseInt(strings.TrimSpace(rest), 10, 64)
		}
	}
	return 0, fmt.Errorf("no instruction count in callgrind's output:\n%s", stderr.String())
}

// readBaseline reads `name count` lines; `# key: value` comments are
// metadata.
func readBaseline(path string) (map[string]int64, map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	counts, meta := map[string]int64{}, map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if c, ok := strings.CutPrefix(line, "#"); ok {
			if k, v, ok := strings.Cut(c, ":"); ok {
				meta[strings.TrimSpace(k)] = strings.TrimSpace(v)
			}
			continue
		}
		name, n, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		v, err := strconv.ParseInt(strings.TrimSpace(n), 10, 64)
		if err != nil {
			return nil, nil, fmt.Errorf("%s: %q: %v", path, line, err)
		}
		counts[name] = v
	}
	return counts, meta, sc.Err()
}

func writeBaseline(path string, counts map[string]int64) error {
	var b strings.Builder
	b.WriteString("# Instructions executed by whole jaiph processes (valgrind --tool=callgrind),\n")
	b.WriteString("# checked by TestInstructionBudget; rewritten by `make perf-baseline`.\n")
	fmt.Fprintf(&b, "# go: %s\n# goarch: %s\n", runtime.Version(), runtime.GOARCH)
	for _, w := range workloads {
		fmt.Fprintf(&b, "%s %d\n", w.name, counts[w.name])
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
