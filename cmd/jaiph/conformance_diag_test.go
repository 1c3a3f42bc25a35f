package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/diag"
)

// runDiagRe matches the first line of a compile diagnostic as `jaiph run`
// prints it (docs/cli.md#jaiph-run): `<dir>/FILE:L:C CODE message`.
// checkLineRe matches a line of `jaiph check`'s text format.
var checkLineRe = regexp.MustCompile(`^(\S+):(\d+):(\d+): (.*)$`)

var runDiagRe = regexp.MustCompile(`^<dir>/(\S+):(\d+):(\d+) (E_[A-Z_]+) (.*)$`)

// TestConformanceDiagnostics checks that `jaiph check` reports, for every
// diagnostics case of the conformance corpus (040–055), the diagnostic the
// reference printed for `jaiph run`/`jaiph test`: same file, code and
// message, placed at its token (a deliberate difference,
// docs/differences.md): at or after the reference's line and column (which
// is often the keyword or column 1), never before it. `jaiph run` itself
// keeps the reference's position (TestConformance compares its stderr).
// Two cases are not compile diagnostics of the entry and are special-cased
// below.
func TestConformanceDiagnostics(t *testing.T) {
	conformanceCases := filepath.Join(conformanceDir(), "cases")
	entries, err := os.ReadDir(conformanceCases)
	if err != nil {
		t.Fatalf("conformance corpus: %v", err)
	}
	seen := 0
	for _, e := range entries {
		name := e.Name()
		if !e.IsDir() || len(name) < 4 || name[:3] < "040" || name[:3] > "055" || name[3] != '_' {
			continue
		}
		seen++
		t.Run(name, func(t *testing.T) {
			checkConformanceCase(t, filepath.Join(conformanceCases, name))
		})
	}
	if seen != 16 {
		t.Fatalf("found %d diagnostics cases 040–055 in %s, want 16", seen, conformanceCases)
	}
}

func checkConformanceCase(t *testing.T, caseDir string) {
	stderr, err := os.ReadFile(filepath.Join(caseDir, "expected", "stderr"))
	if err != nil {
		t.Fatal(err)
	}
	dir := copyCaseInputs(t, caseDir)
	entry := filepath.Join(dir, "main.jh")
	if _, err := os.Stat(filepath.Join(dir, "main.test.jh")); err == nil {
		entry = filepath.Join(dir, "main.test.jh")
	}

	var want *diag.Diagnostic
	switch base := filepath.Base(caseDir); {
	case strings.HasPrefix(base, "047_"):
		// `jaiph run` aborts with ENOENT while walking the import closure;
		// check reports the missing import where it is written instead.
		if !strings.HasPrefix(string(stderr), "ENOENT: ") {
			t.Fatalf("case 047 changed; expected/stderr is now %q", stderr)
		}
		want = &diag.Diagnostic{
			File: filepath.Join(dir, "lib", "tools.jh"), Line: 1, Col: 1, Code: diag.ImportNotFound,
			Message: `import "common" resolves to missing file "` + filepath.Join(dir, "shared", "common.jh") + `"`,
		}
	case strings.HasPrefix(base, "052_"):
		// A missing default workflow is a run-time error, not a diagnostic.
		if !strings.HasPrefix(string(stderr), "jaiph run requires workflow 'default'") {
			t.Fatalf("case 052 changed; expected/stderr is now %q", stderr)
		}
	default:
		want = parseRunDiagnostic(t, string(stderr), dir)
	}

	// Text format.
	out, errOut, code := runJaiph(t, "check", entry)
	if errOut != "" {
		t.Errorf("check wrote to stderr: %q", errOut)
	}
	if want == nil {
		if code != exitOK || out != "" {
			t.Fatalf("check %s: exit %d, stdout %q; want a clean check (exit 0, no output)", entry, code, out)
		}
		return
	}
	if code != exitFailure {
		t.Errorf("check exit status %d, want %d", code, exitFailure)
	}
	cwd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	m := checkLineRe.FindStringSubmatch(lines[0])
	wantRest := want.Code + " " + strings.ReplaceAll(want.Message, "\n", " ")
	if m == nil || m[1] != diag.Shown(cwd, want.File) || m[4] != wantRest {
		t.Fatalf("check text output, first line:\n got: %s\nwant: %s:LINE:COL: %s\n(all output:\n%s)", lines[0], diag.Shown(cwd, want.File), wantRest, out)
	}
	line, col := atoi(t, m[2]), atoi(t, m[3])
	atOrAfter := func(what string, line, col int) {
		if line < want.Line || line == want.Line && col < want.Col {
			t.Errorf("%s: at %d:%d, before the reference's %d:%d", what, line, col, want.Line, want.Col)
		}
	}
	atOrAfter("check text output", line, col)
	if len(lines) > 1 {
		t.Logf("check also reported (the reference stops at the first):\n%s", strings.Join(lines[1:], "\n"))
	}

	// JSON format: the message is exact, newlines included.
	out, errOut, code = runJaiph(t, "check", "--format", "json", entry)
	if errOut != "" || code != exitFailure {
		t.Errorf("check --format json: exit %d, stderr %q", code, errOut)
	}
	var got struct {
		Version     int                `json:"version"`
		Files       []string           `json:"files"`
		Diagnostics []*diag.Diagnostic `json:"diagnostics"`
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("check --format json: %v\n%s", err, out)
	}
	if len(got.Diagnostics) == 0 {
		t.Fatalf("check --format json reported no diagnostics:\n%s", out)
	}
	want.File = diag.Shown(cwd, want.File)
	d := got.Diagnostics[0]
	if d.File != want.File || d.Code != want.Code || d.Message != want.Message || d.Line != line || d.Col != col {
		t.Errorf("check --format json, first diagnostic:\n got: %+v\nwant: %+v at %d:%d (the text format's)", *d, *want, line, col)
	}
}

// parseRunDiagnostic reads the reference's `<dir>/FILE:L:C CODE message`
// stderr; a message may continue on the following lines.
func parseRunDiagnostic(t *testing.T, stderr, dir string) *diag.Diagnostic {
	t.Helper()
	lines := strings.Split(strings.TrimSuffix(stderr, "\n"), "\n")
	m := runDiagRe.FindStringSubmatch(lines[0])
	if m == nil {
		t.Fatalf("expected/stderr is not a compile diagnostic (special-case this case): %q", stderr)
	}
	msg := strings.Join(append([]string{m[5]}, lines[1:]...), "\n")
	return &diag.Diagnostic{
		File:    filepath.Join(dir, filepath.FromSlash(m[1])),
		Line:    atoi(t, m[2]),
		Col:     atoi(t, m[3]),
		Code:    m[4],
		Message: strings.ReplaceAll(msg, "<dir>", dir),
	}
}

// copyCaseInputs copies a case without its expected outputs and run options
// into a fresh directory and returns that directory's resolved path.
func copyCaseInputs(t *testing.T, caseDir string) string {
	t.Helper()
	dst, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	err = copyCaseTree(caseDir, dst)
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// runJaiph runs the CLI in-process.
func runJaiph(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, &out, &errb)
	return out.String(), errb.String(), code
}

func atoi(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	if err != nil {
		t.Fatal(err)
	}
	return n
}
