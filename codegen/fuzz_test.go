package codegen_test

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/jaiph-go/jaiph/codegen"
	"github.com/jaiph-go/jaiph/parser"
	"github.com/jaiph-go/jaiph/validate"
)

// FuzzCompile runs arbitrary modules through the whole compiler: validation
// must never panic, and whatever validates must lower without panicking to
// bodies whose step calls and step records match (checkSteps).
func FuzzCompile(f *testing.F) {
	_ = filepath.WalkDir("../testdata/golden", func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && parser.IsSourceFile(p) && !parser.IsTestFile(p) {
			if src, err := os.ReadFile(p); err == nil {
				f.Add(src)
			}
		}
		return nil
	})
	f.Add([]byte("channel c\nworkflow t {\n  echo \"$1\"\n}\nworkflow default {\n  c -> t\n  c <- echo hi\n  x = prompt \"q $1\" returns '{ a: string }'\n}\n"))
	f.Fuzz(func(t *testing.T, src []byte) {
		dir := t.TempDir()
		path := filepath.Join(dir, "main.jh")
		if err := os.WriteFile(path, src, 0o644); err != nil {
			t.Fatal(err)
		}
		if diags := validate.Check([]string{path}); len(diags) > 0 {
			return
		}
		prog, err := validate.LoadEntry(path)
		if err != nil {
			return
		}
		for _, m := range codegen.LowerProgram(prog.Modules, dir, prog.Loader.Resolved) {
			for _, b := range m.Order {
				if b.Source == "" {
					t.Errorf("%s lowered to nothing", b.Symbol)
				}
				checkSteps(t, b)
				codegen.Annotated(b) // must not panic whatever the source
			}
		}
	})
}
