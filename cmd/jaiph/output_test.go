package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
)

// outputFlow prints $SIZE bytes in three ways: an external command, the
// shell's own builtins in a loop, and a callee whose forwarded output the
// caller throws away. Each step's .out artifact must hold all of it. Then a
// failing step printing it to stdout, and one printing it to stderr (which
// reaches the run's stderr through the root step).
const outputFlow = `
workflow external {
  head -c "$SIZE" /dev/zero | tr '\0' 'y'
}
workflow builtins {
  line=$(printf '%4095s' x)
  i=0
  while [ $i -lt $((SIZE / 4096)) ]; do echo "$line"; i=$((i + 1)); done
}
workflow forwarded {
  run external > /dev/null
}
workflow failing {
  yes 'a line of the failing step' | head -c "$SIZE" || true
  echo 'last line' >&2
  false
}
workflow noisy {
  yes 'an error line' | head -c "$SIZE" >&2 || true
  false
}
workflow default {
  if [ "$1" = external ]; then
    run external
  elif [ "$1" = builtins ]; then
    run builtins
  elif [ "$1" = forwarded ]; then
    run forwarded
  elif [ "$1" = noisy ]; then
    run noisy
  else
    run failing
  fi
}
`

// TestOutputMemoryFlat runs the real binary on steps printing
// JAIPH_STRESS_OUTPUT bytes (default 64 MiB; `make stress` uses 1 GiB) and
// checks that its memory does not grow with the output, against the same
// run printing 4 MiB (past out_content's 1 MiB cap, so every buffer is at
// its largest), that the artifacts hold every byte, and that out_content is
// the first 1,048,576 characters then "[truncated]".
//
// The memory compared is the peak live heap after a collection
// (JAIPH_TEST_HEAP_PEAK, collecting at GOGC=10), which the machine's load
// does not move: peak RSS did, by 29 MiB once under -race at load 13
// (`make test` failed). Output kept in memory would add the 60 MiB of
// extra output. The peak RSS is logged; under `make stress` (1 GiB, no
// -race, no sampler) it is what is checked, with room for the collector
// running late (256 MiB against the 1 GiB growth of output kept).
func TestOutputMemoryFlat(t *testing.T) {
	size := int64(64 << 20)
	if s := os.Getenv("JAIPH_STRESS_OUTPUT"); s != "" {
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil {
			t.Fatalf("JAIPH_STRESS_OUTPUT: %v", err)
		}
		size = n
	}
	stress := os.Getenv("JAIPH_STRESS_OUTPUT") != ""
	const heapGrowthMax, stressRSSGrowthMax = 16 << 20, 256 << 20
	// run runs workflow wf printing n bytes and returns its workspace, peak
	// RSS, peak live heap (0 under make stress), stderr and error.
	run := func(t *testing.T, wf string, n int64) (string, int64, int64, *tailWriter, error) {
		dir := workspace(t, map[string]string{"flow.jh": outputFlow})
		// Through a small wrapper process (init below): a child's Maxrss
		// also counts the memory of the process that forked it (Linux
		// records the vfork-shared parent's peak at exec), and this test
		// process may be big.
		rssFile, heapFile := filepath.Join(t.TempDir(), "rss"), filepath.Join(t.TempDir(), "heap")
		cmd := exec.Command(os.Args[0], "run", "flow.jh", wf)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "JAIPH_TEST_RSS_WRAPPER="+rssFile, "NO_COLOR=1", "HOME="+dir,
			fmt.Sprintf("SIZE=%d", n))
		if !stress {
			cmd.Env = append(cmd.Env, "JAIPH_TEST_HEAP_PEAK="+heapFile)
		}
		stderr := &tailWriter{}
		cmd.Stderr = stderr
		err := cmd.Run()
		data, rerr := os.ReadFile(rssFile)
		if rerr != nil {
			t.Fatalf("no peak RSS from the wrapper: %v", rerr)
		}
		rss, _ := strconv.ParseInt(string(data), 10, 64)
		var heap int64
		if !stress {
			data, herr := os.ReadFile(heapFile)
			if heap, _ = strconv.ParseInt(string(data), 10, 64); herr != nil || heap == 0 {
				t.Fatalf("no peak live heap from the run: %v %q", herr, data)
			}
		}
		return dir, rss, heap, stderr, err
	}
	for _, wf := range []string{"external", "builtins", "forwarded", "failing", "noisy"} {
		t.Run(wf, func(t *testing.T) {
			_, base, baseHeap, _, _ := run(t, wf, 4<<20)
			dir, rss, heap, stderr, err := run(t, wf, size)
			// The FAIL block shows the last 30 lines of out_content, then err_content.
			switch want := "\n    [truncated]\n    last line\n"; {
			case wf == "failing" || wf == "noisy":
				if wf == "noisy" {
					// 1,048,576 characters end 4 into a 14-byte line.
					want = strings.Repeat("\n    an error line", 28) + "\n    an e\n    [truncated]\n"
				}
				if err == nil {
					t.Fatalf("failing step passed")
				}
				if !strings.HasSuffix(stderr.String(), want) {
					t.Errorf("FAIL block does not end with the failed step's output %q:\n%s", want, tailOf(stderr.String()))
				}
				if wf == "noisy" && stderr.n <= size { // the step's stderr is shown, then the FAIL block
					t.Errorf("run's stderr: %d bytes, want the step's %d and the FAIL block", stderr.n, size)
				}
			case err != nil:
				t.Fatalf("run failed: %v\n%s", err, tailOf(stderr.String()))
			}
			t.Logf("%s: %d MiB output, peak RSS %.1f MiB (%.1f MiB printing 4 MiB), peak live heap %.1f MiB (%.1f MiB)", wf, size>>20,
				float64(rss)/(1<<20), float64(base)/(1<<20), float64(heap)/(1<<20), float64(baseHeap)/(1<<20))
			switch {
			case !stress && heap-baseHeap > heapGrowthMax:
				t.Errorf("peak live heap %.1f MiB, %.1f MiB more than printing 4 MiB; want at most %d MiB more",
					float64(heap)/(1<<20), float64(heap-baseHeap)/(1<<20), heapGrowthMax>>20)
			case stress && rss-base > stressRSSGrowthMax:
				t.Errorf("peak RSS %.1f MiB, %.1f MiB more than printing 4 MiB; want at most %d MiB more",
					float64(rss)/(1<<20), float64(rss-base)/(1<<20), stressRSSGrowthMax>>20)
			}

			runs, _ := filepath.Glob(filepath.Join(dir, ".jaiph", "runs", "*", "*"))
			if len(runs) != 1 {
				t.Fatalf("run directories: %v", runs)
			}
			outs, _ := filepath.Glob(filepath.Join(runs[0], "*external.out"))
			if wf == "builtins" {
				outs, _ = filepath.Glob(filepath.Join(runs[0], "*builtins.out"))
			}
			if wf == "noisy" {
				outs, _ = filepath.Glob(filepath.Join(runs[0], "*noisy.err"))
			}
			if wf != "failing" {
				if len(outs) != 1 {
					t.Fatalf("artifacts: %v", outs)
				}
				if fi, err := os.Stat(outs[0]); err != nil || fi.Size() != size {
					t.Errorf("%s: %v, want %d bytes", outs[0], err, size)
				}
			}
			var content string
			key := "out_content"
			if wf == "noisy" {
				key = "err_content"
			}
			for _, e := range summaryEvents(t, runs[0]) {
				if c, ok := e[key].(string); ok && e["name"] != "default" {
					content = c
				}
			}
			if want := contentMax + len("\n[truncated]"); len(content) != want || !strings.HasSuffix(content, "\n[truncated]") {
				t.Errorf("out_content: %d bytes ending %q, want %d ending \\n[truncated]", len(content), tailOf(content), want)
			}
		})
	}
}

// init makes the test binary, given JAIPH_TEST_RSS_WRAPPER=FILE, run its
// arguments as jaiph in a child process, write the child's peak RSS in bytes
// (its Maxrss, measured by wait4) to FILE and exit with its status.
func init() {
	file := os.Getenv("JAIPH_TEST_RSS_WRAPPER")
	if file == "" {
		return
	}
	os.Unsetenv("JAIPH_TEST_RSS_WRAPPER")
	cmd := exec.Command(os.Args[0], os.Args[1:]...)
	cmd.Env = append(os.Environ(), "JAIPH_TEST_AS_JAIPH=1")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	_ = cmd.Run()
	if cmd.ProcessState == nil {
		os.Exit(125)
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss * 1024 // KiB on Linux
	if err := os.WriteFile(file, []byte(strconv.FormatInt(rss, 10)), 0o644); err != nil {
		os.Exit(125)
	}
	os.Exit(cmd.ProcessState.ExitCode())
}

// contentMax is the out_content limit in characters (all ASCII here).
const contentMax = 1048576

func tailOf(s string) string { return s[max(0, len(s)-300):] }

// tailWriter keeps the last 64 KiB written to it and counts the bytes.
type tailWriter struct {
	b []byte
	n int64
}

func (w *tailWriter) Write(p []byte) (int, error) {
	w.n += int64(len(p))
	w.b = append(w.b, p...)
	if len(w.b) > 128<<10 {
		w.b = append(w.b[:0], w.b[len(w.b)-64<<10:]...)
	}
	return len(p), nil
}

func (w *tailWriter) String() string { return string(w.b) }
