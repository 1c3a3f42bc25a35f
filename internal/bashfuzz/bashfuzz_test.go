package bashfuzz

import (
	"bytes"
	"context"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
)

const bash = "/usr/bin/bash"

var (
	runnerOnce sync.Once
	runnerDir  string
	runner     *Runner
	runnerErr  error
)

// TestMain removes the shared scratch root the fuzz workers use.
func TestMain(m *testing.M) {
	code := m.Run()
	if runnerDir != "" {
		os.RemoveAll(runnerDir)
	}
	os.Exit(code)
}

// sharedRunner is one runner per test process (the fuzz function runs
// many times in each worker).
func sharedRunner(t testing.TB) *Runner {
	t.Helper()
	if _, err := os.Stat(bash); err != nil {
		t.Fatalf("the differential fuzzer needs bash 5.2 at %s: %v", bash, err)
	}
	runnerOnce.Do(func() {
		runnerDir, runnerErr = os.MkdirTemp("", "bashfuzz")
		if runnerErr == nil {
			runner, runnerErr = NewRunner(runnerDir)
		}
	})
	if runnerErr != nil {
		t.Fatal(runnerErr)
	}
	return runner
}

// randomBytes is the n-th choice string of a seeded sequence.
func randomBytes(rng *rand.Rand) []byte {
	b := make([]byte, 40+rng.Intn(200))
	rng.Read(b)
	return b
}

// envInt reads a count from the environment.
func envInt(t testing.TB, name string, def int) int {
	v := os.Getenv(name)
	if v == "" {
		return def
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q: want a positive count", name, v)
	}
	return n
}

// The bounded run of `make test`: a fixed seed, a fixed number of
// programs, each in every context, with the known divergences avoided
// (Known). A divergence fails the test with the shrunk program as a
// bashcompat snippet. JAIPH_BASHFUZZ_PROGRAMS changes the count,
// JAIPH_BASHFUZZ_SEED the seed. Two settings measure the fuzzer instead
// of testing jaiph (divergences are logged, not errors):
// JAIPH_BASHFUZZ_ALL=1 avoids nothing; JAIPH_BASHFUZZ_ONLY=CLASS avoids
// every known class but that one and stops at its first divergence (how
// quickly the fuzzer finds it).
func TestBashDiffBounded(t *testing.T) {
	r := sharedRunner(t)
	n := envInt(t, "JAIPH_BASHFUZZ_PROGRAMS", 300)
	seed := envInt(t, "JAIPH_BASHFUZZ_SEED", 1)
	avoid := KnownAvoided()
	measure := false
	only := Class(os.Getenv("JAIPH_BASHFUZZ_ONLY"))
	switch {
	case os.Getenv("JAIPH_BASHFUZZ_ALL") == "1":
		avoid, measure = nil, true
	case only != "":
		if _, ok := Known[only]; !ok {
			t.Fatalf("JAIPH_BASHFUZZ_ONLY=%s: not a class of Known", only)
		}
		delete(avoid, only)
		measure = true
	}
	rng := rand.New(rand.NewSource(int64(seed)))
	var tally Tally
	start := time.Now()
	failures := 0
	for i := 0; i < n && failures < 3; i++ {
		p := Generate(randomBytes(rng), Options{Avoid: avoid})
		f := r.Trial(context.Background(), p, avoid, true, &tally)
		switch {
		case f != nil && measure:
			t.Logf("program %d (seed %d), no known class: %s", i, seed, f.Report())
		case f != nil:
			failures++
			t.Errorf("program %d (seed %d): %s", i, seed, f.Report())
		}
		if _, ok := tally.FirstKnown[only]; ok && only != "" {
			t.Logf("class %s: first divergence at program %d:\n%s", only, i, p)
			break
		}
	}
	elapsed := time.Since(start)
	t.Logf("%d programs (seed %d) in %s, %.1f programs/s: %d agree, %d refused, %d differ, %d skipped (known classes), %d bash's own bugs",
		tally.Programs, seed, elapsed.Round(time.Millisecond), float64(tally.Programs)/elapsed.Seconds(),
		tally.Agree, tally.Refused, tally.Differ, tally.Skipped, tally.BashBug)
	var known []string
	for c, k := range tally.FirstKnown {
		known = append(known, fmt.Sprintf("%s (first at program %d, %d divergent runs)", c, k, tally.KnownFound[c]))
	}
	sort.Strings(known)
	if len(known) > 0 {
		t.Logf("known classes met (as a program's only class): %s", strings.Join(known, "; "))
	}
}

// FuzzBashDiff is the open-ended fuzzer: `go test -fuzz FuzzBashDiff
// ./internal/bashfuzz` (`make fuzz`). Every input is a choice string; the
// known divergences are avoided unless JAIPH_BASHFUZZ_ALL=1.
func FuzzBashDiff(f *testing.F) {
	rng := rand.New(rand.NewSource(7))
	for range 4 {
		f.Add(randomBytes(rng))
	}
	f.Add([]byte{})
	avoid := KnownAvoided()
	if os.Getenv("JAIPH_BASHFUZZ_ALL") == "1" {
		avoid = nil
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		r := sharedRunner(t)
		var tally Tally
		p := Generate(data, Options{Avoid: avoid})
		if found := r.Trial(context.Background(), p, avoid, true, &tally); found != nil {
			t.Fatal(found.Report())
		}
	})
}

// Generation is deterministic, and every program is valid bash (bash -n),
// for any string, the empty one included.
func TestGenerateDeterministicAndValid(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	inputs := [][]byte{nil, {0}, {255, 255, 255}, bytes.Repeat([]byte{13}, 300)}
	for range 150 {
		inputs = append(inputs, randomBytes(rng))
	}
	var script strings.Builder
	for i, in := range inputs {
		a, b := Generate(in, Options{}).String(), Generate(in, Options{}).String()
		if a != b {
			t.Fatalf("input %d: two programs from the same bytes:\n%s\n---\n%s", i, a, b)
		}
		if strings.TrimSpace(a) == "" {
			t.Fatalf("input %d: empty program", i)
		}
		// Each program as a function of one script: bash -n parses all.
		fmt.Fprintf(&script, "f%d() {\n%s\n}\n", i, a)
	}
	cmd := exec.Command(bash, "-n")
	cmd.Stdin = strings.NewReader(script.String())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("bash -n refused a generated program: %v\n%s", err, out)
	}
}

// The generator produces every class when nothing is avoided (so the
// fuzzer can find them), and none of those it avoids at the choice when
// they are avoided (the others are skipped by Classify).
func TestGeneratorClasses(t *testing.T) {
	tagged := []Class{ClassBraceBreak, ClassSlashPattern, ClassBracketBang, ClassEmptyQuoteIFS, ClassHeredocFd, ClassPipeWrite, ClassSubshellTrap,
		ClassLocalArrayAttr, ClassNestedArrayAlt, ClassColonQQuote, ClassDeclBraceExpansion,
		ClassLevelsBeyondLoops}
	classified := []Class{ClassStatusAfterSubst, ClassPatternUnset, ClassReadonlyPrefix, ClassErrexitIgnored,
		ClassSubshellReturn, ClassNegLenUnset, ClassArithMessage, ClassErrTrap, ClassTestVEmpty,
		ClassIndirectUnset, ClassNounset, ClassCompoundAndOr, ClassReadonlyAssign, ClassWhileStatus,
		ClassDashHeredocEmpty, ClassExitTrapRedirect, ClassReadonlyRedeclare, ClassForSubstStatus, ClassPipestatusNegation, ClassWorkflowIfNotHeredoc, ClassLocalShadowNames,
		ClassFatalDiscardStatus}
	// ClassPipestatusStart needs the prelude gone: only the shrinker
	// makes such programs.
	seen := map[Class]bool{}
	rng := rand.New(rand.NewSource(5))
	for range 3000 {
		p := Generate(randomBytes(rng), Options{})
		for _, c := range Contexts {
			for cl := range Classify(p, c) {
				seen[cl] = true
			}
		}
	}
	for _, c := range append(tagged, classified...) {
		if !seen[c] {
			t.Errorf("3000 programs without class %s", c)
		}
		_, known := Known[c]
		_, fixed := Fixed[c]
		if !known && !fixed {
			t.Errorf("class %s is described neither in Known nor in Fixed", c)
		}
	}
	avoid := KnownAvoided()
	for range 3000 {
		p := Generate(randomBytes(rng), Options{Avoid: avoid})
		var walk func(l []*Stmt)
		walk = func(l []*Stmt) {
			for _, s := range l {
				for _, c := range s.Classes {
					if avoid[c] && slices.Contains(tagged, c) {
						t.Fatalf("class %s generated while avoided:\n%s", c, p)
					}
				}
				for _, part := range s.Parts {
					walk(part.Body)
				}
			}
		}
		walk(p.Body)
	}
}

func TestClassify(t *testing.T) {
	simple := func(words ...string) *Stmt { return &Stmt{Words: words} }
	for _, tc := range []struct {
		name string
		prog *Prog
		ctx  Context
		want []Class
	}{
		{"nothing", &Prog{Body: []*Stmt{simple("echo", "x")}}, CtxRun, nil},
		{"status after subst", &Prog{Body: []*Stmt{simple("echo", "$(false)", "$?")}}, CtxRun, []Class{ClassStatusAfterSubst}},
		{"status before subst", &Prog{Body: []*Stmt{simple("echo", "$?", "$(false)")}}, CtxRun, nil},
		{"pattern on unset", &Prog{Body: []*Stmt{{Words: []string{"echo", "${u1#a}"}, Patterned: []string{"u1"}}}}, CtxRun, []Class{ClassPatternUnset}},
		{"pattern on set", &Prog{Body: []*Stmt{{Words: []string{"v1=a"}, Sets: []string{"v1"}}, {Words: []string{"echo", "${v1#a}"}, Patterned: []string{"v1"}}}}, CtxRun, nil},
		{"readonly prefix", &Prog{Body: []*Stmt{{Words: []string{"readonly", "r1=1"}, ReadonlyVar: "r1"}, {Words: []string{"r1=2", "true"}, PrefixVar: "r1"}}}, CtxRun, []Class{ClassReadonlyPrefix}},
		{"set -e in run", &Prog{Body: []*Stmt{{Words: []string{"set", "-e"}, SetsErrexit: true}}}, CtxRun, nil},
		{"set -e in run-or", &Prog{Body: []*Stmt{{Words: []string{"set", "-e"}, SetsErrexit: true}}}, CtxRunOr, []Class{ClassErrexitIgnored}},
		{"pipeline in if-run", &Prog{Body: []*Stmt{simple("echo", "x", "|", "cat")}}, CtxIfRun, []Class{ClassErrexitIgnored}},
		{"return in subshell", &Prog{Body: []*Stmt{{Parts: []Part{{Head: "(", Body: []*Stmt{simple("return", "0")}}}, Tail: ")"}}}, CtxRun, []Class{ClassSubshellReturn}},
		{"return in function in subshell", &Prog{Body: []*Stmt{{Parts: []Part{{Head: "(", Body: []*Stmt{{Parts: []Part{{Head: "f1() {", Body: []*Stmt{simple("return", "0")}}}, Tail: "}"}}}}, Tail: ")"}}}, CtxRun, nil},
		{"brace group ending in &&", &Prog{Body: []*Stmt{{Parts: []Part{{Head: "{", Body: []*Stmt{simple("false", "&&", "true")}}}, Tail: "}"}}}, CtxRun, []Class{ClassCompoundAndOr}},
		{"subshell ending in &&", &Prog{Body: []*Stmt{{Parts: []Part{{Head: "(", Body: []*Stmt{simple("false", "&&", "true")}}}, Tail: ")"}}}, CtxRun, nil},
		{"ERR trap", &Prog{Body: []*Stmt{simple("trap", "'echo e'", "ERR")}}, CtxRun, []Class{ClassErrTrap}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []Class
			for c := range Classify(tc.prog, tc.ctx) {
				got = append(got, c)
			}
			sort.Slice(got, func(i, j int) bool { return got[i] < got[j] })
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("Classify(%q, %s) = %v, want %v", tc.prog.String(), tc.ctx, got, tc.want)
			}
		})
	}
}

// The shrinker finds the smallest program that keeps a property: here
// "has a break", which a loop's lone `break` hoisted to the top keeps.
func TestShrinkToMinimal(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	shrunk := 0
	for range 2000 {
		p := Generate(randomBytes(rng), Options{})
		if !strings.Contains(p.String(), "\nbreak") {
			continue
		}
		keep := func(c *Prog) bool { return strings.Contains("\n"+c.String(), "\nbreak") }
		got := Shrink(p, keep).String()
		if !keep(&Prog{Body: []*Stmt{{Words: []string{got}}}}) || strings.Count(got, "\n") != 0 || !strings.HasPrefix(got, "break") {
			t.Fatalf("shrunk to %q, want a single break statement; from:\n%s", got, p)
		}
		if p.String() == got {
			t.Fatalf("Shrink changed its input")
		}
		shrunk++
	}
	if shrunk < 5 {
		t.Fatalf("only %d generated programs with a break", shrunk)
	}
}

func TestSnippet(t *testing.T) {
	got := Snippet("a", "echo x\n")
	if got != "-- a.sh --\necho x\n" {
		t.Errorf("Snippet = %q", got)
	}
	if n := Snippet("", "echo x"); !strings.HasPrefix(n, "-- fuzz_") || !strings.HasSuffix(n, ".sh --\necho x\n") {
		t.Errorf("Snippet without a name = %q", n)
	}
}

// testdata/bashfuzz/found.txtar holds the minimal programs of the
// divergences this fuzzer found that are not fixed yet, each with its
// context on its first line (`# context: run-or`). Each must still
// diverge in that context: once one agrees, its fix has landed, and the
// snippet belongs in testdata/bashcompat (and its class out of Known).
func TestFoundStillDiverge(t *testing.T) {
	r := sharedRunner(t)
	ar, err := txtar.ParseFile(filepath.Join("..", "..", "testdata", "bashfuzz", "found.txtar"))
	if err != nil {
		t.Fatal(err)
	}
	// No snippet is the goal: every divergence found is fixed or refused.
	for _, f := range ar.Files {
		t.Run(f.Name, func(t *testing.T) {
			body := strings.TrimRight(string(f.Data), "\n")
			first, _, _ := strings.Cut(body, "\n")
			name, ok := strings.CutPrefix(first, "# context: ")
			var ctx Context = -1
			for _, c := range Contexts {
				if ok && c.String() == name {
					ctx = c
				}
			}
			if ctx < 0 {
				t.Fatalf("first line %q must be `# context: NAME` (workflow, run, run-or, if-run)", first)
			}
			res := r.Compare(context.Background(), body, []Context{ctx})[0]
			if res.Verdict != Differ {
				t.Fatalf("no longer diverges in context %s (%s): promote it to testdata/bashcompat and remove its class from Known\n%s", ctx, res.Verdict, body)
			}
		})
	}
}

// BenchmarkTrial is the fuzzer's throughput: generated programs compared
// in all four contexts per second (jaiph in-process, one bash process per
// errexit mode), known classes skipped as in the bounded run.
func BenchmarkTrial(b *testing.B) {
	r := sharedRunner(b)
	rng := rand.New(rand.NewSource(1))
	avoid := KnownAvoided()
	var tally Tally
	b.ResetTimer()
	for range b.N {
		p := Generate(randomBytes(rng), Options{Avoid: avoid})
		r.Trial(context.Background(), p, avoid, false, &tally)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "programs/s")
}

// bash's location prefix is dropped from its diagnostics wherever they
// land: at a line's start, or after what stdout held (2>&1).
func TestNormaliseDropsBashPrefix(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"bash: line 3: u: unbound\n", "u: unbound\n"},
		{"bash: x: readonly variable\n", "x: readonly variable\n"},
		{"[]bash: line 5: printf: x: invalid number\n", "[]printf: x: invalid number\n"},
		{"a bash: b\n", "a bash: b\n"}, // no line number mid-line: the program's own text
		{"x\nbash: line 4: wait_for: No record of process 20853\ny\n", "x\ny\n"},
		{"/tmp/d/f\n", "$DIR/f\n"},
	} {
		if got := normalise(tc.in, "/tmp/d", true); got != tc.want {
			t.Errorf("normalise(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// bash's own bugs are nothing to compare: the verdict is BashBug in
// every context. Each body shows its bug every time under bash 5.2.15 (a
// bash without it needs another body here).
func TestBashBugIsBashBug(t *testing.T) {
	r, err := NewRunner(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, body string
		status     int
	}{
		// bash looks for a pipeline's child it already reaped (after an
		// element's fatal expansion error, with an EXIT trap set): it
		// prints "wait_for: No record of process N" and its status
		// becomes wait_for's 127 (also in $? of an EXIT trap); found by
		// a soak of seed 94
		{"wait_for", "(\nprintf -v u1 '%q' x=1\n) || echo failed $?\ntrap 'echo \"[$v1]\"' EXIT\nprintf '%s\\n' \"${u1:?gone}\" | sed s/a/b/", 127},
		// bash crashes (SIGSEGV) assigning a default through a nameref
		// to an element of an unset array; found by a soak of seed 200
		{"crash", "declare -n v2='a1[1]'\nprintf \"${v2=5}\"", 128 + int(syscall.SIGSEGV)},
		// bash leaves its quoting byte CTLESC (\x01) in what an
		// operator makes of a nameref to a list in an unquoted
		// assignment's value or a here-string (the pattern does not
		// match); the interpreter gives what bash gives in double quotes
		{"ctlesc", "a1=(x1 'y 2')\ndeclare -n v2='a1[@]'\nv1=${v2#x}\necho \"$v1\"\ncat <<< ${v2/y/z} > f1", 0},
		// the same byte as declare -p quotes it, and CTLNUL (\x7f) for
		// an empty element of such a list (found by a soak of seed 217)
		{"ctlesc-quoted", "a1=(x1 'y 2')\ndeclare -n v2='a1[@]'\nreadonly v1=${v2@L}\ndeclare -p v1", 0},
		{"ctlnul", "declare -n v2='a1[@]'\nIFS=: read -ra a1 <<< 'a:b::c'; echo \"[${v2-}]\"", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			side := r.bash(context.Background(), tc.body, CtxWorkflow)
			if !side.bashBug || side.Status != tc.status {
				t.Fatalf("bash did not show its bug (status %d, want %d; stderr %q)", side.Status, tc.status, side.Stderr)
			}
			for _, res := range r.Compare(context.Background(), tc.body, Contexts) {
				if res.Verdict != BashBug {
					t.Errorf("%s: %s, want %s\n%s", res.Context, res.Verdict, BashBug, res.Diff())
				}
			}
		})
	}
}

// A file's holes are compared without their lengths: bash's diagnostics
// written past a truncation carry its location prefix and move its
// offsets further (found by a soak of seed 94: exec 2>f2 beside 2> f2).
func TestFilesLeaveOutHoleLengths(t *testing.T) {
	dir := t.TempDir()
	for name, content := range map[string]string{"j": strings.Repeat("\x00", 55) + "x: not found\n", "b": strings.Repeat("\x00", 149) + "x: not found\n"} {
		sub := filepath.Join(dir, name)
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(sub, "f2"), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	id := func(s string) string { return s }
	j, b := files(filepath.Join(dir, "j"), id), files(filepath.Join(dir, "b"), id)
	if j != b || !strings.Contains(j, `\x00…x: not found`) {
		t.Errorf("files: jaiph %q, bash %q; want both with one hole marker", j, b)
	}
}
