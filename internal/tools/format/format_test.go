package format_test

import (
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/codegen"
	"github.com/jaiph-go/jaiph/internal/tools/format"
	"github.com/jaiph-go/jaiph/lowered"
	"github.com/jaiph-go/jaiph/parser"
)

var update = flag.Bool("update", false, "rewrite testdata/fmt/*.golden")

// TestGolden formats every input of testdata/fmt and compares with its
// .golden file: the canonical text, or "error:" and the diagnostics.
func TestGolden(t *testing.T) {
	dir, _ := filepath.Abs("../../../testdata/fmt")
	inputs, _ := filepath.Glob(filepath.Join(dir, "*.j*h"))
	if len(inputs) < 10 {
		t.Fatalf("only %d inputs in %s", len(inputs), dir)
	}
	for _, in := range inputs {
		t.Run(filepath.Base(in), func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			out, err := format.Source(in, src)
			var de *format.Error
			switch {
			case errors.As(err, &de):
				out = []byte("error:\n" + strings.ReplaceAll(err.Error(), dir+"/", "") + "\n")
			case err != nil:
				t.Fatal(err)
			default:
				checkProperties(t, in, src, out)
			}
			golden := in + ".golden"
			if *update {
				if err := os.WriteFile(golden, out, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if string(out) != string(want) {
				t.Errorf("got:\n%s\nwant:\n%s", out, want)
			}
		})
	}
}

// TestRepoFiles checks the three properties on every .jh/.jph file of the
// repository (examples, conformance, golden and script inputs): a file
// with diagnostics is refused with them; any other formats to a text that
// formats to itself, is check-clean and lowers to the same shell.
func TestRepoFiles(t *testing.T) {
	root, _ := filepath.Abs("../../..")
	clean, refused := 0, 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == ".git" || d.Name() == "third_party" || d.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if d.IsDir() || !parser.IsSourceFile(p) || strings.HasSuffix(p, ".golden") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out, ferr := format.Source(p, src)
		var de *format.Error
		switch {
		case errors.As(ferr, &de):
			if len(de.Diags) == 0 {
				t.Errorf("%s: refused without diagnostics", p)
			}
			refused++
		case ferr != nil:
			t.Errorf("%s: %v", p, ferr)
		default:
			clean++
			checkProperties(t, p, src, out)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d files formatted, %d refused with diagnostics", clean, refused)
	if clean < 100 {
		t.Errorf("only %d clean files found", clean)
	}
}

// FuzzFormat checks the properties on arbitrary modules and test files
// (whatever is check-clean), seeded with the repository's files.
func FuzzFormat(f *testing.F) {
	root, _ := filepath.Abs("../../..")
	for _, sub := range []string{"examples", "testdata/fmt", "testdata/conformance", "cmd/jaiph/testdata"} {
		_ = filepath.WalkDir(filepath.Join(root, sub), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && parser.IsSourceFile(p) {
				if src, err := os.ReadFile(p); err == nil {
					f.Add(src, parser.IsTestFile(p))
				}
			}
			return nil
		})
	}
	f.Fuzz(func(t *testing.T, src []byte, test bool) {
		path := filepath.Join(t.TempDir(), "main.jh")
		if test {
			path = filepath.Join(filepath.Dir(path), "main.test.jh")
		}
		out, err := format.Source(path, src)
		if err != nil {
			return
		}
		checkProperties(t, path, src, out)
	})
}

// checkProperties: out formats to itself, and out lowers to the shell src
// lowers to (normalised, see lowerText).
func checkProperties(t *testing.T, path string, src, out []byte) {
	t.Helper()
	again, err := format.Source(path, out)
	if err != nil {
		t.Errorf("%s: the formatted text is refused: %v\n%s", path, err, out)
		return
	}
	if string(again) != string(out) {
		t.Errorf("%s: not idempotent:\nfirst:\n%s\nsecond:\n%s", path, out, again)
		return
	}
	a, b := lowerText(t, path, src), lowerText(t, path, out)
	if a != b {
		t.Errorf("%s: lowered shell differs:\n%s", path, firstDiff(a, b))
	}
}

// lowerText lowers src as the file at path's name would be (written to a
// temporary directory, since codegen reads the source for columns) and
// renders everything codegen hands on: each body's shell, normalised by
// normalizeShell, with its step records, config and routes, the
// module's imports, config and locals, and for a test file each block's
// lowered shell, its statements without positions and its mocks' bodies.
func lowerText(t *testing.T, path string, src []byte) string {
	t.Helper()
	tmp := filepath.Join(t.TempDir(), filepath.Base(path))
	if err := os.WriteFile(tmp, src, 0o644); err != nil {
		t.Fatal(err)
	}
	f, ds := parser.Parse(tmp, src)
	if len(ds) > 0 {
		t.Fatalf("%s: %v", path, ds[0])
	}
	var b strings.Builder
	if f.IsTest {
		for _, tb := range f.Tests {
			fmt.Fprintf(&b, "test %q\n%s\n", tb.Description, normalizeShell(codegen.LowerTest(tb)))
			for _, s := range tb.Stmts {
				fmt.Fprintf(&b, "%T %s\n", s, withoutPos(t, s))
				if m, ok := s.(*ast.MockSymbol); ok {
					b.WriteString(normalizeShell(codegen.MockBody(lowered.Kind(m.Kind), "mock", m.Body).Source))
				}
			}
		}
	}
	m := codegen.Lower(f, "main", func(im *ast.Import) string { return "mod_" + im.Alias })
	fmt.Fprintf(&b, "imports %v %v\nconfig %+v\nlocals %+v\n", m.Imports, m.Deps, m.Config, m.Locals)
	for _, body := range m.Order {
		src := body.Source
		body.Source, body.StartLine, body.Lines, body.Blocks, body.Line = "", 0, nil, nil, 0
		fmt.Fprintf(&b, "%+v\n%s\n", *body, normalizeShell(src))
	}
	return b.String()
}

// withoutPos renders a test statement as JSON without its position.
func withoutPos(t *testing.T, s ast.TestStmt) string {
	data, err := json.Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "File")
	delete(m, "Line")
	delete(m, "Col")
	// Shell lines and mock bodies are compared in their lowered form.
	delete(m, "Text")
	delete(m, "Body")
	data, _ = json.Marshal(m)
	return string(data)
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d:\n- %q\n+ %q", i+1, al[i], bl[i])
		}
	}
	return fmt.Sprintf("lengths %d and %d", len(al), len(bl))
}
