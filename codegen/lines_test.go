package codegen_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/codegen"
	"github.com/jaiph-go/jaiph/lowered"
	"github.com/jaiph-go/jaiph/validate"
)

// lowerSnippet lowers `function snippet() {` on line 1 of main.jh with the
// given body lines.
func lowerSnippet(t *testing.T, body string) *lowered.Body {
	t.Helper()
	dir := t.TempDir()
	path := filepath.Join(dir, "main.jh")
	src := "function snippet() {\n" + body + "\n}\n\nworkflow default {\n  run snippet\n}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, err := validate.LoadEntry(path)
	if err != nil {
		t.Fatalf("%q: %v", body, err)
	}
	return codegen.LowerProgram(prog.Modules, dir, prog.Loader.Resolved)[0].Bodies["snippet"]
}

func bash(t *testing.T, src string) (string, int) {
	t.Helper()
	cmd := exec.Command("/usr/bin/bash", "-c", src)
	cmd.Dir = t.TempDir()
	out, err := cmd.CombinedOutput()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return string(out), code
}

// TestLoweredFunctionRunsAsBashFunction runs a lowered function body with
// bash next to the reference form (the body as a bash function named
// main::snippet::impl, defined on line 1): $LINENO, ${FUNCNAME[0]}, output
// and exit status must be the same.
func TestLoweredFunctionRunsAsBashFunction(t *testing.T) {
	for _, body := range []string{
		"  echo \"line $LINENO\"\n  false && true",
		"  echo a\n\n  # comment\n  echo \"$LINENO ${FUNCNAME[0]}\"",
		"  if true; then\n    echo \"in if $LINENO\"\n  fi\n  ! true",
		"  for i in 1 2; do\n    echo \"$i at $LINENO\"\n  done\n  false || [ -f nope ]",
		"  cat <<EOF\n  indented $LINENO\nEOF\n  echo \"after $LINENO\"",
		"  echo \"multi\n    line $LINENO\"\n  echo \"$LINENO\"",
		"    local x = 5\n  echo \"$x $LINENO\"",
		"  f() { echo \"inner $LINENO\"; }\n  f\n  return 3",
		"  # only a comment",
	} {
		b := lowerSnippet(t, body)
		if !strings.HasPrefix(b.Source, "main::snippet::impl() {\n") {
			t.Errorf("%q: wrapper not on line 1:\n%s", body, b.Source)
		}
		ref := "set -eo pipefail; main::snippet::impl() {\n" + strings.ReplaceAll(body, "local x = 5", "local x=5") + "\n:\n}\nmain::snippet::impl"
		if !strings.Contains(body, "only a comment") {
			ref = strings.Replace(ref, "\n:\n}", "\n}", 1)
		}
		want, wantCode := bash(t, ref)
		got, gotCode := bash(t, "set -eo pipefail; "+b.Source)
		if got != want || gotCode != wantCode {
			t.Errorf("%q:\nlowered: %q (status %d)\nbash:    %q (status %d)\nsource:\n%s", body, got, gotCode, want, wantCode, b.Source)
		}
	}
}

// TestLineMap maps positions of lowered lines back to the .jh file, also
// for generated multi-line code (prompt here-documents) that shifts the
// steps after it. The body is not padded: its source starts on the
// declaration's line, numbered so by Body.Parser.
func TestLineMap(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "main.jh")
	src := "rule r {\n" + // 1
		"  true\n" + // 2
		"}\n" + // 3
		"\n" + // 4
		"workflow default {\n" + // 5
		"  x = prompt \"hi\"\n" + // 6
		"  y = echo $(( 1 + 2 ))\n" + // 7
		"  if ! [ -f a ]; then\n" + // 8
		"    echo no\n" + // 9
		"  fi\n" + // 10
		"}\n"
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, err := validate.LoadEntry(path)
	if err != nil {
		t.Fatal(err)
	}
	b := codegen.LowerProgram(prog.Modules, dir, prog.Loader.Resolved)[0].Bodies["default"]
	if b.StartLine != 5 || !strings.HasPrefix(b.Source, "main::default::impl() {\n") {
		t.Fatalf("body starts on line %d:\n%s", b.StartLine, b.Source)
	}
	f, err := b.Parser().Parse(strings.NewReader(b.Source), "")
	if err != nil {
		t.Fatal(err)
	}
	if l := f.Stmts[0].Pos().Line(); l != 5 {
		t.Errorf("wrapper parsed on line %d, want 5", l)
	}
	lines := strings.Split(b.Source, "\n")
	jh := strings.Split(src, "\n")
	// Every user word found in a lowered line maps to the same word in
	// the .jh file.
	for _, word := range []string{"$(( 1 + 2 ))", "[ -f a ]", "echo no"} {
		found := false
		for i, l := range lines {
			c := strings.Index(l, word)
			if c < 0 {
				continue
			}
			found = true
			line, col := b.Position(b.StartLine+i, c+1)
			if line < 1 || line > len(jh) || !strings.HasPrefix(jh[line-1][col-1:], word) {
				t.Errorf("%q at lowered %d:%d maps to %d:%d", word, b.StartLine+i, c+1, line, col)
			}
		}
		if !found {
			t.Errorf("%q not in lowered source:\n%s", word, b.Source)
		}
	}
	if len(b.Lines) != len(lines)-1 {
		t.Errorf("map has %d lines, source %d", len(b.Lines), len(lines)-1)
	}
}
