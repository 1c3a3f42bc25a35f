package validate_test

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/parser"
	"github.com/jaiph-go/jaiph/validate"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGolden runs every input under testdata/golden through the parser and
// validator. A case is NAME.jh (or NAME.test.jh), or a directory NAME/ whose
// entry is main.jh or main.test.jh next to the modules it imports. The
// expected output is NAME.golden: the diagnostics `jaiph check` reports
// (paths relative to the case), each at its token (line:col-endcol, the
// end exclusive), then the single problem `jaiph run` (or
// `jaiph test` for a test file) stops at, which shows the reference's
// ordering, followed, for a file that parses, by its AST.
func TestGolden(t *testing.T) {
	root, _ := filepath.Abs("../testdata/golden")
	entries, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, e := range entries {
		name := e.Name()
		var entry, golden string
		switch {
		case e.IsDir():
			entry = filepath.Join(root, name, "main.jh")
			if _, err := os.Stat(entry); err != nil {
				entry = filepath.Join(root, name, "main.test.jh")
			}
			golden = filepath.Join(root, name+".golden")
		case strings.HasSuffix(name, ".jh") || strings.HasSuffix(name, ".jph"):
			entry = filepath.Join(root, name)
			base := strings.TrimSuffix(strings.TrimSuffix(name, ".jh"), ".jph")
			golden = filepath.Join(root, strings.TrimSuffix(base, ".test")+".golden")
		default:
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			got := goldenOutput(t, entry)
			if *update {
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("missing golden file (run go test ./validate -update): %v", err)
			}
			if got != string(want) {
				t.Errorf("output differs from %s\n--- got ---\n%s\n--- want ---\n%s", filepath.Base(golden), got, want)
			}
		})
	}
	if n == 0 {
		t.Fatal("no golden cases found")
	}
}

func goldenOutput(t *testing.T, entry string) string {
	t.Helper()
	var b strings.Builder
	dir := filepath.Dir(entry)
	l := validate.NewLoader()
	diags := validate.CheckWith(l, []string{entry})
	for _, d := range diags {
		if f := l.File(d.File); f != nil {
			diag.Locate([]*diag.Diagnostic{d}, f.Lines)
		}
	}
	b.WriteString("== diagnostics\n")
	for _, d := range diag.SortAndDedupe(diags) {
		rel, _ := filepath.Rel(dir, d.File)
		at := d.At()
		b.WriteString(rel + ":" + itoa(at.Line) + ":" + itoa(at.Col) + "-" + itoa(at.EndCol) + " " + d.Code + " " + strings.ReplaceAll(d.Message, dir, "<dir>") + "\n")
	}
	b.WriteString("== first\n")
	var err error
	if parser.IsTestFile(entry) {
		_, err = validate.LoadTestFile(entry)
	} else {
		_, err = validate.LoadEntry(entry)
	}
	var d *diag.Diagnostic
	switch {
	case err == nil:
		b.WriteString("ok\n")
	case errors.As(err, &d):
		rel, _ := filepath.Rel(dir, d.File)
		b.WriteString(rel + ":" + itoa(d.Line) + ":" + itoa(d.Col) + " " + d.Code + " " + strings.ReplaceAll(d.Message, dir, "<dir>") + "\n")
	default:
		b.WriteString(strings.ReplaceAll(err.Error(), dir, "<dir>") + "\n")
	}
	src, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	f, parseDiags := parser.Parse(entry, src)
	if len(parseDiags) == 0 {
		b.WriteString("== ast\n")
		b.WriteString(ast.Dump(f))
	}
	return b.String()
}

func itoa(i int) string {
	s := ""
	if i == 0 {
		return "0"
	}
	for ; i > 0; i /= 10 {
		s = string(rune('0'+i%10)) + s
	}
	return s
}
