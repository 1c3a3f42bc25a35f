package event_test

import (
	"go/ast"
	"go/parser"
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/internal/event"
)

// TestTypeNamesOnlyHere: outside internal/event, Go code names an event
// type by its constant (event.StepEnd), never as a string ("STEP_END", or
// `"type":"STEP_END"` in a JSON literal): renaming a type must stop the
// build of its readers, not silently break jaiph runs, inbox or report.
// The names are event's string constants, read from its source, so a type
// added there is covered at once. Tests may spell names: they check the
// bytes a summary holds.
func TestTypeNamesOnlyHere(t *testing.T) {
	names := typeNames(t)
	for _, want := range []string{event.StepEnd, event.DispatchStart, event.RunResumed} {
		if !slices.Contains(names, want) {
			t.Fatalf("the constants read from internal/event miss %s: %v", want, names)
		}
	}
	const root = "../.."
	scanned := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel := filepath.ToSlash(strings.TrimPrefix(p, root+"/"))
		if d.IsDir() {
			if rel == "internal/event" || rel == "third_party" || d.Name() == "testdata" || strings.HasPrefix(d.Name(), ".") && p != root {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") || strings.HasSuffix(p, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		scanned++
		for _, h := range quotedNames(src, names) {
			t.Errorf("%s:%d: %s names an event type: use internal/event's constant", rel, h.line, h.lit)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if scanned < 100 {
		t.Fatalf("scanned %d Go files from %s: not the repository", scanned, root)
	}
}

// TestQuotedNames: the scan finds a type name in a string and in a JSON
// literal, not in a comment, an identifier or a longer word.
func TestQuotedNames(t *testing.T) {
	src := "package x\n" +
		"// \"STEP_END\" in a comment\n" +
		"var a = \"STEP_END\"\n" +
		"var b = `{\"type\":\"LOG\",\"depth\":1}`\n" +
		"var c, LOG = \"LOGGER\", \"log\"\n"
	var got []string
	for _, h := range quotedNames([]byte(src), []string{event.StepEnd, event.Log}) {
		got = append(got, strconv.Itoa(h.line)+" "+h.lit)
	}
	want := []string{`3 "STEP_END"`, "4 `{\"type\":\"LOG\",\"depth\":1}`"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

type hit struct {
	line int
	lit  string
}

// quotedNames lists the string literals of src that are one of names or
// hold one in double quotes.
func quotedNames(src []byte, names []string) []hit {
	fset := token.NewFileSet()
	var s scanner.Scanner
	s.Init(fset.AddFile("", fset.Base(), len(src)), src, nil, 0)
	var out []hit
	for {
		pos, tok, lit := s.Scan()
		if tok == token.EOF {
			return out
		}
		if tok != token.STRING {
			continue
		}
		v, err := strconv.Unquote(lit)
		if err != nil {
			continue
		}
		for _, n := range names {
			if v == n || strings.Contains(v, `"`+n+`"`) {
				out = append(out, hit{fset.Position(pos).Line, lit})
				break
			}
		}
	}
}

// typeNames are the values of internal/event's top-level string constants
// that look like a type name (upper case and underscores).
func typeNames(t *testing.T) []string {
	files, _ := filepath.Glob("*.go")
	shape := regexp.MustCompile(`^[A-Z][A-Z_]*$`)
	var names []string
	for _, p := range files {
		if strings.HasSuffix(p, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), p, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			g, ok := d.(*ast.GenDecl)
			if !ok || g.Tok != token.CONST {
				continue
			}
			for _, spec := range g.Specs {
				for _, v := range spec.(*ast.ValueSpec).Values {
					if lit, ok := v.(*ast.BasicLit); ok && lit.Kind == token.STRING {
						if s, err := strconv.Unquote(lit.Value); err == nil && shape.MatchString(s) {
							names = append(names, s)
						}
					}
				}
			}
		}
	}
	return names
}
