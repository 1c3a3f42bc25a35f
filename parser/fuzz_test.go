package parser_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/parser"
)

// fuzzSeedDirs are searched (recursively) for seed inputs at test time, so
// files others add later become seeds too: the golden cases and the
// conformance corpus's modules.
var fuzzSeedDirs = []struct {
	dir      string
	onlySrcs bool // only .jh/.jph files (else every file)
}{
	{"../testdata/golden", false},
	{"../testdata/conformance/cases", true},
}

var knownCodes = map[string]bool{
	diag.Parse: true, diag.Validate: true, diag.Schema: true, diag.ImportNotFound: true,
}

// FuzzParse feeds arbitrary text to the parser as a module or as a test file.
// The parser must never panic, and every diagnostic must name the parsed file,
// a 1-based position on one of its lines (or just past the end), a known code and a
// message.
func FuzzParse(f *testing.F) {
	for _, sd := range fuzzSeedDirs {
		err := filepath.WalkDir(sd.dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			if sd.onlySrcs && !parser.IsSourceFile(p) {
				return nil
			}
			src, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			f.Add(parser.IsTestFile(p), src)
			return nil
		})
		if err != nil {
			f.Fatalf("reading seeds under %s: %v", sd.dir, err)
		}
	}
	f.Add(false, []byte(""))
	f.Add(true, []byte(""))
	f.Add(false, []byte("workflow default {\n  echo \"{\"\n}\n"))

	f.Fuzz(func(t *testing.T, isTest bool, src []byte) {
		path := "/fuzz/main.jh"
		if isTest {
			path = "/fuzz/main.test.jh"
		}
		file, diags := parser.Parse(path, src)
		if file == nil {
			t.Fatalf("Parse returned a nil file")
		}
		lines := strings.Count(string(src), "\n") + 1
		for _, d := range diags {
			if d == nil {
				t.Fatalf("nil diagnostic")
			}
			if d.File != path {
				t.Errorf("diagnostic %v names file %q, want %q", d, d.File, path)
			}
			if d.Line < 1 || d.Col < 1 {
				t.Errorf("diagnostic %v has position %d:%d, want both >= 1", d, d.Line, d.Col)
			}
			// One past the last line is allowed: like the reference, an
			// unterminated mock block is reported on the line after its header.
			if d.Line > lines+1 {
				t.Errorf("diagnostic %v is at line %d; the input has %d lines", d, d.Line, lines)
			}
			if !knownCodes[d.Code] {
				t.Errorf("diagnostic %v has unknown code %q", d, d.Code)
			}
			if d.Message == "" {
				t.Errorf("diagnostic at %d:%d has an empty message", d.Line, d.Col)
			}
		}
	})
}
