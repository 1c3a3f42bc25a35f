package main

// TestConformance runs the conformance corpus (testdata/conformance, a copy of
// the upstream conformance programs) the way upstream's run.sh (a bash and
// python runner, not in this repository) does, so a fresh
// clone needs only Go, bash and git:
//
//	go test -count=1 -run '^TestConformance$' ./cmd/jaiph        # all cases (make conformance)
//	go test -count=1 -run 'TestConformance/025' ./cmd/jaiph      # one case
//
// Settings (environment):
//
//	JAIPH_CONFORMANCE_DIR=DIR  another corpus (a folder holding cases/; relative to cmd/jaiph)
//	JAIPH_CONFORMANCE_BIN=PATH run that jaiph binary instead of this test binary
//	JAIPH_CONFORMANCE_KEEP=1   keep the scratch folders (paths logged), the normalised facets in observed/
//
// For every case: a scratch copy of its inputs that is its own git repository
// (the workspace root, and `git status` lists what the run changed), the
// binary run there with stdin /dev/null, stdout/stderr to files, HOME and
// TMPDIR inside the scratch folder, PATH=<ws>/bin:$PATH, NO_COLOR=1, no
// inherited JAIPH_*/BASH_ENV/ENV/CDPATH, the case's env file exported and a
// 120 s limit (then TERM, KILL 5 s later: `timeout -k 5 120`). The observed
// facets are normalised (conformance_norm_test.go) and compared byte for
// byte with expected/; a failing case names its differing facets and shows a
// unified diff (40 lines at most) of the first.

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

var confFacetNames = []string{"exit", "stdout", "stderr", "files", "artifacts", "artifact_text", "summary"}

// conformanceDir is the corpus: JAIPH_CONFORMANCE_DIR or the copy in the repository.
func conformanceDir() string {
	if d := os.Getenv("JAIPH_CONFORMANCE_DIR"); d != "" {
		return d
	}
	return filepath.Join("..", "..", "testdata", "conformance")
}

func TestConformance(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatal("the conformance runner needs git (each case's workspace is a git repository)")
	}
	root := conformanceDir()
	entries, err := os.ReadDir(filepath.Join(root, "cases"))
	if err != nil {
		t.Fatalf("conformance corpus: %v", err)
	}
	bin, asJaiph := os.Getenv("JAIPH_CONFORMANCE_BIN"), []string(nil)
	if bin == "" {
		// This test binary acts as jaiph when re-executed with the marker (TestMain).
		if bin, err = os.Executable(); err != nil {
			t.Fatal(err)
		}
		asJaiph = []string{"JAIPH_TEST_AS_JAIPH=1"}
	} else if st, err := os.Stat(bin); err != nil || st.IsDir() || st.Mode()&0o111 == 0 {
		t.Fatalf("JAIPH_CONFORMANCE_BIN: not an executable: %s (a relative path is taken from cmd/jaiph)", bin)
	} else if bin, err = filepath.Abs(bin); err != nil {
		t.Fatal(err)
	}
	var passed, failed int
	t.Cleanup(func() { t.Logf("%d passed, %d failed", passed, failed) })
	for _, e := range entries {
		if !e.IsDir() {
			continue
		}
		caseDir, err := filepath.Abs(filepath.Join(root, "cases", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		ran := false // not when -run leaves the case out
		ok := t.Run(e.Name(), func(t *testing.T) {
			ran = true
			if report := conformanceCase(t, bin, asJaiph, caseDir); report != "" {
				t.Error(report)
			}
		})
		switch {
		case ok && ran:
			passed++
		case !ok:
			failed++
		}
	}
}

// conformanceCase runs one case and returns "" when every expected facet
// matches, else run.sh's report: "FAIL <case> (<facets>)" and a diff.
func conformanceCase(t *testing.T, bin string, extraEnv []string, caseDir string) string {
	name := filepath.Base(caseDir)
	if st, err := os.Stat(filepath.Join(caseDir, "expected")); err != nil || !st.IsDir() {
		return "FAIL " + name + " (no expected/)"
	}
	testMode := fileExists(filepath.Join(caseDir, "main.test.jh"))
	if !testMode && !fileExists(filepath.Join(caseDir, "main.jh")) {
		t.Fatalf("conformance: %s has neither main.jh nor main.test.jh", caseDir)
	}
	unordered := fileExists(filepath.Join(caseDir, "unordered"))

	tmp := os.Getenv("TMPDIR")
	if tmp == "" {
		tmp = "/tmp"
	}
	scratch, err := os.MkdirTemp(tmp, "jaiph-conf.")
	if err != nil {
		t.Fatal(err)
	}
	if os.Getenv("JAIPH_CONFORMANCE_KEEP") == "1" {
		t.Logf("scratch: %s", scratch)
	} else {
		t.Cleanup(func() { os.RemoveAll(scratch) })
	}
	ws := filepath.Join(scratch, "ws")
	for _, d := range []string{ws, filepath.Join(scratch, "home"), filepath.Join(scratch, "tmp")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := copyCaseTree(caseDir, ws); err != nil {
		t.Fatal(err)
	}
	gitEnv := confGitEnv(scratch)
	for _, args := range [][]string{
		{"init", "-q", "."},
		{"add", "-A"},
		{"-c", "user.email=conformance@example.invalid", "-c", "user.name=conformance", "-c", "commit.gpgsign=false",
			"commit", "-q", "--no-verify", "-m", "inputs"},
	} {
		if out, err := confGit(ws, gitEnv, args...); err != nil {
			t.Fatalf("conformance: git setup failed: git %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}

	var args []string
	if testMode {
		args = []string{"test", "main.test.jh"}
	} else {
		args = append([]string{"run", "main.jh"}, caseArgs(t, caseDir)...)
	}
	env := []string{}
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if !strings.HasPrefix(k, "JAIPH_") && k != "BASH_ENV" && k != "ENV" && k != "CDPATH" {
			env = append(env, kv)
		}
	}
	env = append(env, "PATH="+filepath.Join(ws, "bin")+":"+os.Getenv("PATH"), "HOME="+filepath.Join(scratch, "home"),
		"TMPDIR="+filepath.Join(scratch, "tmp"), "NO_COLOR=1", "PWD="+ws)
	env = append(env, caseEnv(t, caseDir)...)
	env = append(env, extraEnv...)
	exit, stdout, stderr := runLimited(t, bin, args, ws, env, filepath.Join(scratch, "raw"), 120*time.Second, 5*time.Second)

	status, err := confGit(ws, gitEnv, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames")
	if err != nil {
		t.Fatalf("git status: %v", err)
	}
	got, err := confFacets(ws, scratch, testMode, unordered, exit, stdout, stderr, status)
	if err != nil {
		t.Fatalf("normalising the observed run: %v", err)
	}
	if os.Getenv("JAIPH_CONFORMANCE_KEEP") == "1" {
		obs := filepath.Join(scratch, "observed")
		if err := os.Mkdir(obs, 0o755); err != nil {
			t.Fatal(err)
		}
		for f, text := range got {
			if err := os.WriteFile(filepath.Join(obs, f), []byte(text), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	var bad []string
	var first, want string
	for _, f := range confFacetNames {
		b, err := os.ReadFile(filepath.Join(caseDir, "expected", f))
		if err != nil {
			continue // a facet the case does not pin (test-runner cases keep exit/stdout/stderr)
		}
		if string(b) != got[f] {
			if bad = append(bad, f); len(bad) == 1 {
				first, want = f, string(b)
			}
		}
	}
	if len(bad) == 0 {
		return ""
	}
	return fmt.Sprintf("FAIL %s (%s)\n%s", name, strings.Join(bad, " "),
		unifiedDiff("expected/"+first, "actual/"+first, want, got[first], 40))
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// copyCaseTree copies the case (modes, symlinks kept, like cp -R) without
// expected/, args, env and unordered, and makes bin/* executable.
func copyCaseTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		switch rel {
		case ".":
			return nil
		case "expected":
			return filepath.SkipDir
		case "args", "env", "unordered":
			return nil
		}
		target := filepath.Join(dst, rel)
		info, err := os.Lstat(p)
		if err != nil {
			return err
		}
		mode := info.Mode().Perm()
		if filepath.Dir(rel) == "bin" {
			mode |= 0o111
		}
		switch {
		case info.Mode()&os.ModeSymlink != 0:
			link, err := os.Readlink(p)
			if err != nil {
				return err
			}
			return os.Symlink(link, target)
		case d.IsDir():
			return os.Mkdir(target, mode)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, mode)
	})
}

// caseArgs reads args like `mapfile -t`: one argument a line.
func caseArgs(t *testing.T, caseDir string) []string {
	b, err := os.ReadFile(filepath.Join(caseDir, "args"))
	if errors.Is(err, os.ErrNotExist) || len(b) == 0 {
		return nil
	} else if err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
}

// caseEnv reads the env file: KEY=VALUE lines, blank and # lines skipped,
// values taken verbatim.
func caseEnv(t *testing.T, caseDir string) []string {
	b, err := os.ReadFile(filepath.Join(caseDir, "env"))
	if errors.Is(err, os.ErrNotExist) {
		return nil
	} else if err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if l != "" && !strings.HasPrefix(l, "#") && strings.Contains(l, "=") {
			env = append(env, l)
		}
	}
	return env
}

// confGitEnv keeps git away from the user's and the system's configuration
// (a global excludesFile would hide files from the files facet) and from
// GIT_DIR and the like when the tests run inside a git hook.
func confGitEnv(scratch string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "GIT_") {
			env = append(env, kv)
		}
	}
	return append(env, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null",
		"HOME="+filepath.Join(scratch, "home"), "XDG_CONFIG_HOME="+filepath.Join(scratch, "home", ".config"))
}

func confGit(dir string, env []string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir, cmd.Env = dir, env
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.Output()
	if err != nil {
		return append(out, errb.Bytes()...), err
	}
	return out, nil
}

// runLimited runs bin like `timeout -k KILLAFTER LIMIT bin args… </dev/null
// >out 2>err` and returns the exit status bash would see: 124 after a
// timeout, 137 when the KILL was needed, 128+N for a death by signal N.
func runLimited(t *testing.T, bin string, args []string, dir string, env []string, rawDir string,
	limit, killAfter time.Duration) (int, []byte, []byte) {
	if err := os.MkdirAll(rawDir, 0o755); err != nil {
		t.Fatal(err)
	}
	outPath, errPath := filepath.Join(rawDir, "stdout"), filepath.Join(rawDir, "stderr")
	outF, err := os.Create(outPath)
	if err != nil {
		t.Fatal(err)
	}
	errF, err := os.Create(errPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Dir, cmd.Env, cmd.Stdout, cmd.Stderr = dir, env, outF, errF
	// timeout runs the command in a process group of its own and signals the group.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting %s: %v", bin, err)
	}
	outF.Close()
	errF.Close()
	waited := make(chan error, 1)
	go func() { waited <- cmd.Wait() }()
	timedOut, killed := false, false
	select {
	case err = <-waited:
	case <-time.After(limit):
		timedOut = true
		syscall.Kill(-cmd.Process.Pid, syscall.SIGTERM)
		select {
		case err = <-waited:
		case <-time.After(killAfter):
			killed = true
			syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
			err = <-waited
		}
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			code = 128 + int(ws.Signal())
		}
	} else if err != nil {
		t.Fatalf("running %s: %v", bin, err)
	}
	switch {
	case killed:
		code = 137
	case timedOut:
		code = 124
	}
	stdout, err := os.ReadFile(outPath)
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := os.ReadFile(errPath)
	if err != nil {
		t.Fatal(err)
	}
	return code, stdout, stderr
}

// unifiedDiff is `diff -u --label a --label b` of two texts cut to maxLines
// lines (3 lines of context; a longest common subsequence of the lines).
func unifiedDiff(nameA, nameB, a, b string, maxLines int) string {
	x, y := splitKeepNL(a), splitKeepNL(b)
	// common prefix and suffix, then a quadratic LCS of the rest (facets are small)
	pre := 0
	for pre < len(x) && pre < len(y) && x[pre] == y[pre] {
		pre++
	}
	suf := 0
	for suf < len(x)-pre && suf < len(y)-pre && x[len(x)-1-suf] == y[len(y)-1-suf] {
		suf++
	}
	mx, my := x[pre:len(x)-suf], y[pre:len(y)-suf]
	type op struct {
		kind byte // ' ', '-', '+'
		line string
		i, j int // lines of a and b before this one
	}
	var ops []op
	i, j := 0, 0
	emit := func(kind byte, line string) {
		ops = append(ops, op{kind, line, i, j})
		if kind != '+' {
			i++
		}
		if kind != '-' {
			j++
		}
	}
	for _, l := range x[:pre] {
		emit(' ', l)
	}
	n, m := len(mx), len(my)
	if n*m <= 4_000_000 {
		lcs := make([][]int32, n+1) // lcs[p][q]: LCS length of mx[p:], my[q:]
		for p := range lcs {
			lcs[p] = make([]int32, m+1)
		}
		for p := n - 1; p >= 0; p-- {
			for q := m - 1; q >= 0; q-- {
				if mx[p] == my[q] {
					lcs[p][q] = lcs[p+1][q+1] + 1
				} else {
					lcs[p][q] = max(lcs[p+1][q], lcs[p][q+1])
				}
			}
		}
		p, q := 0, 0
		for p < n || q < m {
			switch {
			case p < n && q < m && mx[p] == my[q]:
				emit(' ', mx[p])
				p, q = p+1, q+1
			case q == m || (p < n && lcs[p+1][q] >= lcs[p][q+1]):
				emit('-', mx[p])
				p++
			default:
				emit('+', my[q])
				q++
			}
		}
	} else {
		for _, l := range mx {
			emit('-', l)
		}
		for _, l := range my {
			emit('+', l)
		}
	}
	for _, l := range x[len(x)-suf:] {
		emit(' ', l)
	}

	out := []string{"--- " + nameA, "+++ " + nameB}
	const ctx = 3
	for k := 0; k < len(ops); {
		if ops[k].kind == ' ' {
			k++
			continue
		}
		// a hunk: from ctx lines before this change to ctx lines after the
		// last change that is at most 2*ctx equal lines from the previous one
		start, end := max(0, k-ctx), k
		for end < len(ops) {
			if ops[end].kind != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].kind == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*ctx {
				break
			}
			end = run
		}
		stop := min(len(ops), end+ctx)
		var na, nb int
		for _, o := range ops[start:stop] {
			if o.kind != '+' {
				na++
			}
			if o.kind != '-' {
				nb++
			}
		}
		out = append(out, fmt.Sprintf("@@ -%s +%s @@", hunkRange(ops[start].i, na), hunkRange(ops[start].j, nb)))
		for _, o := range ops[start:stop] {
			l := string(o.kind) + strings.TrimSuffix(o.line, "\n")
			out = append(out, l)
			if !strings.HasSuffix(o.line, "\n") {
				out = append(out, `\ No newline at end of file`)
			}
		}
		k = stop
	}
	if len(out) > maxLines {
		out = out[:maxLines]
	}
	return strings.Join(out, "\n") + "\n"
}

func hunkRange(before, n int) string {
	switch n {
	case 0:
		return strconv.Itoa(before) + ",0"
	case 1:
		return strconv.Itoa(before + 1)
	}
	return strconv.Itoa(before+1) + "," + strconv.Itoa(n)
}

// splitKeepNL splits text into lines that keep their newline (the last may have none).
func splitKeepNL(s string) []string {
	lines := strings.SplitAfter(s, "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	return lines
}
