package parser_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/parser"
)

// TestItemsCoverFile checks File.Items on every clean module of the golden
// and conformance corpora: the items are in source order, do not overlap,
// and together cover every line of the file (declarations, comments and
// blank runs), so a formatter can rebuild the file from the tree.
func TestItemsCoverFile(t *testing.T) {
	checked := 0
	for _, dir := range []string{"../testdata/golden", "../testdata/conformance/cases", "../examples"} {
		_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !parser.IsSourceFile(path) {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			abs, _ := filepath.Abs(path)
			f, diags := parser.Parse(abs, src)
			if len(diags) != 0 {
				return nil
			}
			checked++
			var lines []string
			if len(src) > 0 {
				lines = strings.Split(strings.TrimSuffix(string(src), "\n"), "\n")
			}
			next := 1
			for _, it := range f.Items {
				start, end := it.ItemPos(), itemEnd(it)
				if start.Line != next {
					t.Errorf("%s: item %T starts at line %d, want %d", path, it, start.Line, next)
					return nil
				}
				if end.Line < start.Line || end.Col < 1 {
					t.Errorf("%s: item %T ends at %d:%d before its start %d:%d", path, it, end.Line, end.Col, start.Line, start.Col)
				}
				if end.Line <= len(lines) {
					if l := strings.TrimRight(lines[end.Line-1], " \t\r"); end.Col != len(l)+1 && !(end.Col == 1 && l == "") {
						t.Errorf("%s: item %T ends at column %d of line %d, want %d", path, it, end.Col, end.Line, len(l)+1)
					}
				}
				next = end.Line + 1
			}
			if next != len(lines)+1 {
				t.Errorf("%s: items end at line %d, the file has %d lines", path, next-1, len(lines))
			}
			return nil
		})
	}
	if checked < 50 {
		t.Fatalf("only %d clean modules checked", checked)
	}
}

func itemEnd(it ast.Item) ast.Pos {
	switch it := it.(type) {
	case *ast.Import:
		return it.End
	case *ast.Channel:
		return it.End
	case *ast.Local:
		return it.End
	case *ast.Config:
		return it.End
	case *ast.Rule:
		return it.End
	case *ast.Function:
		return it.End
	case *ast.Workflow:
		return it.End
	case *ast.Test:
		return it.End
	case *ast.Comment:
		return it.End
	case *ast.Blank:
		return it.End
	}
	panic("unknown item")
}
