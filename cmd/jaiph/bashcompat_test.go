package main

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/jaiph-go/jaiph/internal/shellscan"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	goruntime "runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/txtar"
)

// The bash differential test: every snippet of testdata/bashcompat/*.txtar
// runs once as the body of a Jaiph function (`jaiph run`) and once as the
// body of a bash function (/usr/bin/bash -c), and the two must agree on
// stdout, stderr (normalised, see normaliseBashCompat) and exit status, or
// `jaiph check` must refuse the snippet with a located diagnostic inside
// it: `E_VALIDATE unsupported shell feature: …` for what the interpreter
// cannot run as bash, or a Jaiph language rule (e.g. no nested function
// declarations with the `function` keyword).
//
// A snippet with a pipe or `&` runs on the bash side twice (see
// bashCompatRepeats) and bash must agree with itself first.
//
// Corpus format: one txtar file per feature group; its comment is a one-line
// description, each file `-- NAME.sh --` is one snippet (shell lines).
//
//	go test -count=1 -run '^TestBashCompat$' -v ./cmd/jaiph          # all
//	go test -count=1 -run '^TestBashCompat$/^params$/^colon_q$' ./cmd/jaiph  # one
//
// (`make bashcompat` runs the whole corpus and shows the summary.)

const (
	bashCompatBash    = "/usr/bin/bash"
	bashCompatTimeout = 10 * time.Second
	bashCompatDir     = "../../testdata/bashcompat"
)

// bashCompatArgs are the positional parameters both sides get.
var bashCompatArgs = []string{"one", "two words", "three"}

type bashCompatOutcome int

const (
	bcIdentical bashCompatOutcome = iota
	bcRefused
	bcDiffer
)

// bashCompatTally counts outcomes per group for the summary lines.
type bashCompatTally struct {
	mu     sync.Mutex
	counts map[string]*[3]int
}

func (b *bashCompatTally) add(group string, o bashCompatOutcome) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.counts[group] == nil {
		b.counts[group] = new([3]int)
	}
	b.counts[group][o]++
}

func (b *bashCompatTally) lines() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	groups := make([]string, 0, len(b.counts))
	for g := range b.counts {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	var out []string
	var total [3]int
	line := func(name string, c [3]int) string {
		return fmt.Sprintf("bashcompat: %s: %d identical, %d refused, %d differ (of %d)", name, c[bcIdentical], c[bcRefused], c[bcDiffer], c[0]+c[1]+c[2])
	}
	for _, g := range groups {
		c := *b.counts[g]
		for i := range total {
			total[i] += c[i]
		}
		out = append(out, line(g, c))
	}
	return append(out, line("total", total))
}

type bashCompatSnippet struct {
	group, name, body string
}

// loadBashCompatCorpus reads every group file; malformed files are fatal.
func loadBashCompatCorpus(t *testing.T) map[string][]bashCompatSnippet {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(bashCompatDir, "*.txtar"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no corpus files in %s (%v)", bashCompatDir, err)
	}
	groups := map[string][]bashCompatSnippet{}
	for _, p := range paths {
		group := strings.TrimSuffix(filepath.Base(p), ".txtar")
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		if c := strings.TrimSpace(string(ar.Comment)); c == "" || strings.Contains(c, "\n") {
			t.Fatalf("%s: the comment must be a one-line description, got %q", p, c)
		}
		seen := map[string]bool{}
		for _, f := range ar.Files {
			name, ok := strings.CutSuffix(f.Name, ".sh")
			if !ok || name == "" || strings.ContainsAny(name, "/ ") {
				t.Fatalf("%s: snippet file %q must be NAME.sh", p, f.Name)
			}
			if seen[name] {
				t.Fatalf("%s: duplicate snippet %q", p, name)
			}
			seen[name] = true
			body := strings.TrimRight(string(f.Data), "\n")
			if strings.TrimSpace(body) == "" {
				t.Fatalf("%s: snippet %q is empty", p, name)
			}
			groups[group] = append(groups[group], bashCompatSnippet{group, name, body})
		}
	}
	return groups
}

func TestBashCompat(t *testing.T) {
	if _, err := os.Stat(bashCompatBash); err != nil {
		t.Fatalf("the differential test needs bash 5.2 at %s: %v", bashCompatBash, err)
	}
	corpus := loadBashCompatCorpus(t)
	tally := &bashCompatTally{counts: map[string]*[3]int{}}
	// Cleanup runs once every (parallel) subtest has finished.
	t.Cleanup(func() {
		for _, l := range tally.lines() {
			fmt.Printf("%s\n", l)
			t.Log(l)
		}
	})
	workers := min(max(goruntime.GOMAXPROCS(0), 2), 4)
	sem := make(chan struct{}, workers)
	groups := make([]string, 0, len(corpus))
	for g := range corpus {
		groups = append(groups, g)
	}
	sort.Strings(groups)
	for _, g := range groups {
		t.Run(g, func(t *testing.T) {
			t.Parallel()
			for _, s := range corpus[g] {
				t.Run(s.name, func(t *testing.T) {
					t.Parallel()
					sem <- struct{}{}
					defer func() { <-sem }()
					tally.add(g, runBashCompatSnippet(t, s))
				})
			}
		})
	}
}

// bashCompatSide is what one side produced.
type bashCompatSide struct {
	stdout, stderr string
	status         int
}

// runBashCompatSnippet compares one snippet and reports a divergence as a
// test error.
func runBashCompatSnippet(t *testing.T, s bashCompatSnippet) bashCompatOutcome {
	if msg := lintBashCompatSnippet(s.body); msg != "" {
		t.Errorf("corpus snippet %s/%s: %s", s.group, s.name, msg)
		return bcDiffer
	}
	jdir := bashCompatTempDir(t)
	// The workspace marker and main.jh, as on the bash side, so globs and
	// `ls` in a snippet see the same entries on both sides.
	if err := writeBashCompatWorkspace(jdir, s.body); err != nil {
		t.Fatal(err)
	}

	// Jaiph side.
	check, err := bashCompatExec(jdir, os.Args[0], []string{"check", "main.jh"}, true)
	if err != nil {
		t.Errorf("jaiph check: %v\nstdout:\n%s\nstderr:\n%s", err, check.stdout, check.stderr)
		return bcDiffer
	}
	if check.status != 0 {
		if check.status == 1 && refusedInSnippet(check.stdout+check.stderr, strings.Count(s.body, "\n")+1) {
			t.Logf("refused by jaiph check:\n%s%s", check.stdout, check.stderr)
			return bcRefused
		}
		t.Errorf("jaiph check failed (status %d) without a located refusal inside the snippet:\nstdout:\n%s\nstderr:\n%s\nsnippet:\n%s",
			check.status, check.stdout, check.stderr, s.body)
		return bcDiffer
	}
	jres, err := bashCompatExec(jdir, os.Args[0], append([]string{"run", "main.jh"}, bashCompatArgs...), true)
	if err != nil {
		t.Errorf("jaiph run: %v\nstdout:\n%s\nstderr:\n%s\nsnippet:\n%s", err, jres.stdout, jres.stderr, s.body)
		return bcDiffer
	}
	jside, err := bashCompatStepResult(jdir)
	if err != nil {
		t.Errorf("jaiph run (status %d): %v\nstdout:\n%s\nstderr:\n%s\nsnippet:\n%s", jres.status, err, jres.stdout, jres.stderr, s.body)
		return bcDiffer
	}

	// Bash side.
	// A script file, as the reference runs its generated bash: FUNCNAME
	// ends with `main`, errors say `<script>: line N: `. It lives outside
	// the bash side's directory so globs in the snippet see the same files
	// on both sides.
	script := filepath.Join(bashCompatTempDir(t), "main.sh")
	bside, err := runBashCompatBashSide(t, s, script)
	if err != nil {
		t.Errorf("bash: %v\nsnippet:\n%s", err, s.body)
		return bcDiffer
	}
	// A snippet running something concurrently (a pipe, `&`) must give bash
	// the same result every time, or the comparison below is a coin toss:
	// a writer racing `head`'s exit under pipefail is 0 or 141 at random.
	// Run it again (JAIPH_STRESS_BASHCOMPAT_REPEATS times in `make stress`).
	if strings.ContainsAny(s.body, "|&") {
		for i := 1; i < bashCompatRepeats(t); i++ {
			again, err := runBashCompatBashSide(t, s, script)
			if err != nil {
				t.Errorf("bash: %v\nsnippet:\n%s", err, s.body)
				return bcDiffer
			}
			if again != bside {
				t.Errorf("bash gives this snippet different results from run to run (runs 1 and %d): make its output fixed\nsnippet:\n%s\n--- run 1: status %d\n%s%s--- run %d: status %d\n%s%s",
					i+1, s.body, bside.status, bashCompatShow(bside.stdout), bashCompatShow(bside.stderr),
					i+1, again.status, bashCompatShow(again.stdout), bashCompatShow(again.stderr))
				return bcDiffer
			}
		}
	}

	jout, jerr := normaliseBashCompat(jside.stdout, jdir, false), normaliseBashCompat(jside.stderr, jdir, false)
	bout, berr := bside.stdout, bside.stderr
	if jout == bout && jerr == berr && jside.status == bside.status {
		return bcIdentical
	}
	var b strings.Builder
	fmt.Fprintf(&b, "jaiph and bash differ\nsnippet:\n%s\n", s.body)
	fmt.Fprintf(&b, "status: jaiph %d, bash %d\n", jside.status, bside.status)
	fmt.Fprintf(&b, "--- jaiph stdout\n%s--- bash stdout\n%s", bashCompatShow(jout), bashCompatShow(bout))
	fmt.Fprintf(&b, "--- jaiph stderr\n%s--- bash stderr\n%s", bashCompatShow(jerr), bashCompatShow(berr))
	if jout != bout {
		fmt.Fprintf(&b, "[stdout diff -bash +jaiph]\n%s", lineDiff(bout, jout))
	}
	if jerr != berr {
		fmt.Fprintf(&b, "[stderr diff -bash +jaiph]\n%s", lineDiff(berr, jerr))
	}
	t.Error(b.String())
	return bcDiffer
}

// bashCompatShow prints an output with a visible end (and a note when it
// lacks a final newline).
func bashCompatShow(s string) string {
	switch {
	case s == "":
		return "(empty)\n"
	case !strings.HasSuffix(s, "\n"):
		return s + "\n(no final newline)\n"
	}
	return s
}

// bashCompatTempDir is a fresh temp dir with symlinks resolved, so the path
// the snippet sees (pwd) is the one normalisation replaces.
func bashCompatTempDir(t *testing.T) string {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

// bashCompatJaiphSource is main.jh: the snippet as a function body (snippet
// line k is file line k+1) called by the default workflow.
func bashCompatJaiphSource(body string) string {
	return "function snippet() {\n" + body + "\n}\n\nworkflow default {\n  run snippet \"$@\"\n}\n"
}

// bashCompatBashScript is the bash side: the snippet as the body of a
// function named like Jaiph's lowered one, line-aligned with main.jh.
func bashCompatBashScript(body string) string {
	return "set -eo pipefail; main::snippet::impl() {\n" + body + "\n}\nmain::snippet::impl \"$@\"\n"
}

// bashCompatEnv is the whole environment of both sides.
func bashCompatEnv(dir string) []string {
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "LC_ALL=C.UTF-8", "TZ=UTC", "NO_COLOR=1",
		"XDG_STATE_HOME=" + os.Getenv("XDG_STATE_HOME")} // jaiph's key store outside the workspace (main_test.go)
}

// bashCompatExec runs a command in dir with the compat environment, stdin
// /dev/null, stdout and stderr on pipes, and the timeout (the whole process
// group is killed on expiry). asJaiph makes the test binary act as the jaiph
// command (TestMain drops the marker variable before running, so snippets
// never see it). The output is complete when the background processes the
// command left have closed it too; what is left of the group is then killed.
// A timeout or a failure to start is an error.
func bashCompatExec(dir, prog string, args []string, asJaiph bool) (bashCompatSide, error) {
	ctx, cancel := context.WithTimeout(context.Background(), bashCompatTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, prog, args...)
	cmd.Dir = dir
	cmd.Env = bashCompatEnv(dir)
	if asJaiph {
		cmd.Env = append(cmd.Env, "JAIPH_TEST_AS_JAIPH=1")
	}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	type readResult struct {
		i    int
		data []byte
	}
	results := make(chan readResult, 2)
	var readers [2]*os.File
	for i := range readers {
		r, w, err := os.Pipe()
		if err != nil {
			return bashCompatSide{}, err
		}
		defer r.Close()
		defer w.Close()
		readers[i] = r
		if i == 0 {
			cmd.Stdout = w
		} else {
			cmd.Stderr = w
		}
	}
	if err := cmd.Start(); err != nil {
		return bashCompatSide{}, err
	}
	// Only the child keeps the write ends.
	cmd.Stdout.(*os.File).Close()
	cmd.Stderr.(*os.File).Close()
	for i, r := range readers {
		go func() {
			data, _ := io.ReadAll(r)
			results <- readResult{i, data}
		}()
	}
	err := cmd.Wait()
	// Jobs the script left running still write to its output, as in the
	// reference, whose run ends when the last of them lets go of it.
	var out [2][]byte
	for range readers {
		select {
		case r := <-results:
			out[r.i] = r.data
		case <-ctx.Done():
			_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			return bashCompatSide{}, fmt.Errorf("output still open when the %s timeout expired", bashCompatTimeout)
		}
	}
	_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	res := bashCompatSide{stdout: string(out[0]), stderr: string(out[1])}
	if ctx.Err() != nil {
		return res, fmt.Errorf("timed out after %s", bashCompatTimeout)
	}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		res.status = ee.ExitCode()
		// A shell killed by a signal (`kill -TERM $$`) has the status a
		// parent shell reports for it, 128+signal.
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			res.status = 128 + int(ws.Signal())
		}
	case err != nil:
		return res, err
	}
	return res, nil
}

// bashCompatStepResult reads the snippet function step's status (its
// STEP_END event) and its .out/.err artifacts from the only run directory.
func bashCompatStepResult(dir string) (bashCompatSide, error) {
	runs, _ := filepath.Glob(filepath.Join(dir, ".jaiph", "runs", "*", "*"))
	if len(runs) != 1 {
		return bashCompatSide{}, fmt.Errorf("want one run directory, found %d", len(runs))
	}
	f, err := os.Open(filepath.Join(runs[0], "run_summary.jsonl"))
	if err != nil {
		return bashCompatSide{}, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		var e struct {
			Type   string `json:"type"`
			Name   string `json:"name"`
			Kind   string `json:"kind"`
			Status *int   `json:"status"`
		}
		if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
			return bashCompatSide{}, fmt.Errorf("run_summary.jsonl: %v", err)
		}
		if e.Type != "STEP_END" || e.Name != "snippet" || e.Kind != "function" {
			continue
		}
		if e.Status == nil {
			return bashCompatSide{}, fmt.Errorf("STEP_END of snippet without a status")
		}
		res := bashCompatSide{status: *e.Status}
		for _, a := range []struct {
			ext string
			dst *string
		}{{".out", &res.stdout}, {".err", &res.stderr}} {
			data, err := os.ReadFile(filepath.Join(runs[0], "000002-main__snippet"+a.ext))
			if err != nil && !errors.Is(err, os.ErrNotExist) {
				return bashCompatSide{}, err
			}
			*a.dst = string(data)
		}
		return res, nil
	}
	if err := sc.Err(); err != nil {
		return bashCompatSide{}, err
	}
	return bashCompatSide{}, fmt.Errorf("no STEP_END event for function snippet in run_summary.jsonl")
}

// bashErrPrefixRE is the location prefix bash puts on its own diagnostics:
// `bash: line N: ` or `bash: ` at the top level of `bash -c`, and
// `environment: line N: ` inside a function defined by the -c string (bash
// 5.2 names that source "environment"), i.e. for almost every snippet line.
var bashErrPrefixRE = regexp.MustCompile(`^(bash: (line [0-9]+: )?|environment: line [0-9]+: )`)

// normaliseBashCompat prepares an output for comparison: the side's temp
// dir becomes $DIR, and on bash's stderr (fromBash) each line loses a
// leading `bash: line N: `, `bash: ` or `environment: line N: `.
func normaliseBashCompat(s, dir string, fromBash bool) string {
	if fromBash {
		lines := strings.SplitAfter(s, "\n")
		for i, l := range lines {
			lines[i] = bashErrPrefixRE.ReplaceAllLiteralString(l, "")
		}
		s = strings.Join(lines, "")
	}
	if dir != "" {
		s = strings.ReplaceAll(s, dir, "$DIR")
	}
	return s
}

// lintBashCompatSnippet rejects snippet lines that Jaiph reads as its own
// forms rather than shell (language quirks, not shell divergences), so the
// corpus only measures shell behaviour.
func lintBashCompatSnippet(body string) string {
	var open byte // the quoted string a line left open: its lines are text (D26)
	for i, raw := range strings.Split(body, "\n") {
		if open != 0 {
			open = shellscan.QuoteAfter("\n"+raw, open)
			continue
		}
		open = shellscan.QuoteAfter(raw, 0)
		l := strings.TrimSpace(raw)
		where := fmt.Sprintf("line %d %q", i+1, l)
		switch {
		case len(l) >= 2 && (l[0] == '"' || l[0] == '\'') && l[len(l)-1] == l[0]:
			return where + " starts and ends with the same quote (Jaiph drops the pair)"
		case jaiphFormRE.MatchString(l):
			return where + " is a Jaiph form, not shell"
		case strings.HasPrefix(l, "return ") || strings.HasPrefix(l, "return\t"):
			arg := strings.TrimSpace(l[len("return"):])
			if arg != "$?" && (arg[0] == '"' || arg[0] == '\'' || arg[0] == '$') {
				return where + " is a Jaiph value return"
			}
		case snippetRedefRE.MatchString(l):
			return where + " redefines the snippet function"
		}
	}
	return ""
}

var (
	jaiphFormRE    = regexp.MustCompile(`^((run|ensure|log|logerr|prompt)\s|(local|export|readonly)\s+[A-Za-z_][A-Za-z0-9_]*\s+=\s)`)
	snippetRedefRE = regexp.MustCompile(`^(function\s+)?snippet\s*(\(|\{|$)`)
)

func TestNormaliseBashCompat(t *testing.T) {
	const dir = "/tmp/TestBashCompat123/001"
	for _, tc := range []struct {
		name, in string
		fromBash bool
		want     string
	}{
		{"bash line prefix", "bash: line 3: nosuchcmd: command not found\n", true, "nosuchcmd: command not found\n"},
		{"bash bare prefix", "bash: x: unbound variable\n", true, "x: unbound variable\n"},
		{"prefix on every line", "bash: line 2: a\nbash: b\nplain\n", true, "a\nb\nplain\n"},
		{"only a leading prefix", "say bash: line 2: x\n", true, "say bash: line 2: x\n"},
		{"only once per line", "bash: line 2: bash: line 9: x\n", true, "bash: line 9: x\n"},
		{"function body prefix", "environment: line 2: zz: unbound variable\n", true, "zz: unbound variable\n"},
		{"environment without line kept", "environment: x\n", true, "environment: x\n"},
		{"no final newline", "bash: line 12: oops", true, "oops"},
		{"line without number kept", "bash: line x: y\n", true, "line x: y\n"},
		{"jaiph stderr keeps prefix", "bash: line 3: x\n", false, "bash: line 3: x\n"},
		{"dir replaced everywhere", dir + "/f: No such file\ncd " + dir + "\n", false, "$DIR/f: No such file\ncd $DIR\n"},
		{"dir replaced after prefix", "bash: line 1: " + dir + "/x: Permission denied\n", true, "$DIR/x: Permission denied\n"},
		{"other dirs kept", "/tmp/other/001\n", true, "/tmp/other/001\n"},
		{"empty", "", true, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := normaliseBashCompat(tc.in, dir, tc.fromBash); got != tc.want {
				t.Errorf("normaliseBashCompat(%q, %v) = %q, want %q", tc.in, tc.fromBash, got, tc.want)
			}
		})
	}
}

func TestLintBashCompatSnippet(t *testing.T) {
	for _, tc := range []struct {
		body string
		ok   bool
	}{
		{"echo hi", true},
		{"return $?", true},
		{"return 3", true},
		{"f() { return 1; }", true},
		{"x=1\nreturn $x", false},
		{`return "a"`, false},
		{`"echo hi"`, false},
		{`'a'`, false},
		{`echo "a"`, true},
		{"run foo", false},
		{"log hi", false},
		{"local x = 1", false},
		{"local x=1", true},
		{"snippet() { :; }", false},
		{"snippets=1", true},
	} {
		if got := lintBashCompatSnippet(tc.body) == ""; got != tc.ok {
			t.Errorf("lintBashCompatSnippet(%q) accepts = %v, want %v", tc.body, got, tc.ok)
		}
	}
}

// refusalLine matches a text-format diagnostic of main.jh.
var refusalLine = regexp.MustCompile(`(?m)^main\.jh:(\d+):\d+: (E_VALIDATE|E_PARSE) `)

// refusedInSnippet reports whether check output holds a diagnostic located
// in the snippet's function (main.jh lines 1 … n+2: some Jaiph rules point
// at the declaration, as the reference does).
func refusedInSnippet(out string, n int) bool {
	for _, m := range refusalLine.FindAllStringSubmatch(out, -1) {
		if line, _ := strconv.Atoi(m[1]); line >= 1 && line <= n+2 {
			return true
		}
	}
	return false
}

// runBashCompatBashSide runs a snippet's bash side once, as script, in a
// fresh directory and returns its normalised result.
func runBashCompatBashSide(t *testing.T, s bashCompatSnippet, script string) (bashCompatSide, error) {
	bdir := bashCompatTempDir(t)
	if err := writeBashCompatWorkspace(bdir, s.body); err != nil {
		return bashCompatSide{}, err
	}
	if err := os.WriteFile(script, []byte(bashCompatBashScript(s.body)), 0o644); err != nil {
		return bashCompatSide{}, err
	}
	side, err := bashCompatExec(bdir, bashCompatBash, append([]string{script}, bashCompatArgs...), false)
	if err != nil {
		return bashCompatSide{}, err
	}
	// getopts prefixes its messages with $0, jaiph's the function's
	// qualified name (docs/differences.md): bash's script path is that.
	for _, msg := range []string{"illegal option -- ", "option requires an argument -- "} {
		side.stderr = strings.ReplaceAll(side.stderr, script+": "+msg, "main::snippet: "+msg)
	}
	side.stderr = strings.ReplaceAll(side.stderr, script+": ", "bash: ")
	return bashCompatSide{normaliseBashCompat(side.stdout, bdir, false), normaliseBashCompat(side.stderr, bdir, true), side.status}, nil
}

// writeBashCompatWorkspace gives dir the workspace marker and main.jh.
func writeBashCompatWorkspace(dir, body string) error {
	if err := os.Mkdir(filepath.Join(dir, ".jaiph"), 0o755); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "main.jh"), []byte(bashCompatJaiphSource(body)), 0o644)
}

// bashCompatRepeats is how many times a concurrent snippet's bash side runs:
// 2, or JAIPH_STRESS_BASHCOMPAT_REPEATS.
func bashCompatRepeats(t *testing.T) int {
	v := os.Getenv("JAIPH_STRESS_BASHCOMPAT_REPEATS")
	if v == "" {
		return 2
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 2 {
		t.Fatalf("JAIPH_STRESS_BASHCOMPAT_REPEATS=%q: want a count of at least 2", v)
	}
	return n
}
