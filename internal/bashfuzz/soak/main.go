// Command soak is the bash differential fuzzer's long run: generated
// programs (internal/bashfuzz) compared with bash in every context by
// several workers at once, for hours, with the known divergence classes
// avoided as in `make test`'s bounded run. It prints a progress line every
// -every programs and the tally at the end (or at Ctrl-C); each divergence
// outside the known classes is run once more, shrunk and appended to
// -findings (marked as not reproduced when it does not diverge again or
// its minimal program agrees: a divergence that depends on timing, or a
// side out of time on a loaded machine; the report then shows the
// original's first run). It is how
// the figure in docs/differences.md ("Found by machine") is measured:
//
//	make fuzz-soak SOAK_PROGRAMS=1000000
//	go run -buildvcs=true ./internal/bashfuzz/soak -n 1000000 -workers 2 -seed 7
//
// A finding is reduced further by hand with -body FILE, which compares
// one program in every context and prints how each differs.
//
// Worker w of seed s generates from its own sequence (seed s*1000+w), so
// a run is reproducible per worker; the scratch directories go under
// -root (tmpfs when /dev/shm exists: the fuzzer creates and removes
// thousands of directories a second, and on a disk that costs half its
// time).
package main

import (
	"context"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"os/signal"
	"runtime/debug"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jaiph-go/jaiph/internal/bashfuzz"
)

func main() {
	n := flag.Int64("n", 100000, "programs to run")
	workers := flag.Int("workers", 2, "programs run at once")
	seed := flag.Int64("seed", 7, "the seed of the generated sequences (the bounded run of make test uses 1)")
	every := flag.Int64("every", 10000, "print a progress line every this many programs")
	root := flag.String("root", defaultRoot(), "where the scratch directories go")
	findings := flag.String("findings", "bashfuzz-findings.txt", "where divergences are appended")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile of the run to this file")
	fdWatch := flag.Int("fdwatch", 1000, "when the process holds more open files than this, append the programs running then to FINDINGS.fds (0: off)")
	body := flag.String("body", "", "compare this one file's body in every context, print how each differs, and exit (1 when one does)")
	flag.Parse()
	if *body != "" {
		os.Exit(compareOne(*root, *body))
	}
	// The heap stays small (a few MB: one program and its runs per
	// worker) and the collector's share of the process's CPU was a tenth
	// at the default 100; 400 quarters its cycles for a few MB more.
	if os.Getenv("GOGC") == "" {
		debug.SetGCPercent(400)
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			fail(err)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fail(err)
		}
		defer pprof.StopCPUProfile()
	}

	// The figure is a count of programs on one tree: say which.
	fmt.Printf("soak: seed %d, %d workers, tree %s\n", *seed, *workers, tree())
	r, scratch := scratchRunner(*root, "bashfuzz-soak")
	defer os.RemoveAll(scratch)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()

	var (
		mu     sync.Mutex
		total  bashfuzz.Tally
		next   atomic.Int64
		found  atomic.Int64
		unrep  atomic.Int64 // findings whose minimal program agreed when run again
		start  = time.Now()
		wg     sync.WaitGroup
		avoid  = bashfuzz.KnownAvoided()
		report = func(final bool) {
			el := time.Since(start)
			word := "progress"
			if final {
				word = "total"
			}
			fmt.Printf("%s: %d programs in %s (%.1f/s): %d agree, %d refused, %d differ (%d outside the known classes, %d of them not reproduced), %d contexts skipped (known classes), %d where bash hit a bug of its own (wait_for, a crash)\n",
				word, total.Programs, el.Round(time.Second), float64(total.Programs)/el.Seconds(),
				total.Agree, total.Refused, total.Differ, found.Load(), unrep.Load(), total.Skipped, total.BashBug)
		}
	)
	running := make([]atomic.Pointer[string], *workers) // each worker's program, for -fdwatch
	if *fdWatch > 0 {
		go watchFds(ctx, *fdWatch, running, *findings+".fds")
	}
	for w := range *workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			rng := rand.New(rand.NewSource(*seed*1000 + int64(w)))
			for ctx.Err() == nil && next.Add(1) <= *n {
				b := make([]byte, 40+rng.Intn(200))
				rng.Read(b)
				p := bashfuzz.Generate(b, bashfuzz.Options{Avoid: avoid})
				if *fdWatch > 0 {
					src := p.String()
					running[w].Store(&src)
				}
				var t bashfuzz.Tally
				f := r.Trial(ctx, p, avoid, true, &t)
				if ctx.Err() != nil {
					return // an interrupted trial is no verdict
				}
				mu.Lock()
				total.Programs += t.Programs
				total.Agree += t.Agree
				total.Refused += t.Refused
				total.Differ += t.Differ
				total.Skipped += t.Skipped
				total.BashBug += t.BashBug
				if f != nil {
					found.Add(1)
					if f.Unreproduced {
						unrep.Add(1)
					}
					appendFinding(*findings, f.Report())
					fmt.Printf("divergence (appended to %s):\n%s", *findings, f.Report())
				}
				if int64(total.Programs)%*every == 0 {
					report(false)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	report(true)
	if found.Load() > 0 {
		pprof.StopCPUProfile()
		os.RemoveAll(scratch)
		os.Exit(1)
	}
}

// watchFds samples how many files the process holds, every 20 ms; above
// limit it appends the programs the workers are running to path, each
// once: a program that holds thousands of descriptors at once (seed 141
// ran out of its 20,000) is a finding of its own kind.
func watchFds(ctx context.Context, limit int, running []atomic.Pointer[string], path string) {
	seen := map[string]bool{}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		ents, err := os.ReadDir("/proc/self/fd")
		if err != nil || len(ents) <= limit {
			continue
		}
		for i := range running {
			if p := running[i].Load(); p != nil && !seen[*p] {
				seen[*p] = true
				appendFinding(path, fmt.Sprintf("%d open files while this program ran:\n%s\n", len(ents), *p))
			}
		}
	}
}

// tree is the commit the binary was built from (with "+modified" when the
// work tree had changes), or "unknown" when it was built without
// -buildvcs=true (make fuzz-soak passes it) or outside a git checkout.
func tree() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	rev, modified := "unknown", ""
	for _, s := range info.Settings {
		switch {
		case s.Key == "vcs.revision":
			rev = s.Value
		case s.Key == "vcs.modified" && s.Value == "true":
			modified = "+modified"
		}
	}
	return rev + modified
}

func defaultRoot() string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		return "/dev/shm"
	}
	return os.TempDir()
}

// compareOne runs the body in file on both sides in every context and
// prints each context's verdict, with the difference of one that differs:
// how a finding is reduced by hand.
func compareOne(root, file string) int {
	src, err := os.ReadFile(file)
	if err != nil {
		fail(err)
	}
	r, scratch := scratchRunner(root, "bashfuzz-one")
	defer os.RemoveAll(scratch)
	code := 0
	for _, res := range r.Compare(context.Background(), string(src), bashfuzz.Contexts) {
		fmt.Printf("%s: %s\n", res.Context, res.Verdict)
		switch res.Verdict {
		case bashfuzz.Differ:
			fmt.Print(res.Diff())
			code = 1
		case bashfuzz.Refused:
			fmt.Println(res.Refusal)
		}
	}
	return code
}

// scratchRunner is a runner whose scratch directories go in a new
// directory under root (the caller removes it).
func scratchRunner(root, prefix string) (*bashfuzz.Runner, string) {
	scratch, err := os.MkdirTemp(root, prefix)
	if err != nil {
		fail(err)
	}
	r, err := bashfuzz.NewRunner(scratch)
	if err != nil {
		os.RemoveAll(scratch)
		fail(err)
	}
	return r, scratch
}

func appendFinding(path, report string) {
	f, err := os.OpenFile(path, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, "soak:", err)
		return
	}
	defer f.Close()
	fmt.Fprintf(f, "%s\n%s\n", time.Now().UTC().Format(time.RFC3339), report)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "soak:", err)
	os.Exit(2)
}
