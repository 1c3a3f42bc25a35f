package bashcheck_test

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/jaiph-go/jaiph/codegen"
	"github.com/jaiph-go/jaiph/internal/bashcheck"
	"github.com/jaiph-go/jaiph/parser"
	"github.com/jaiph-go/jaiph/validate"
)

// TestASTNotMutated runs the compile stages (validation with import
// resolution, the shell check, lowering, `jaiph check`'s walk) over a
// program and compares every module's AST with a fresh parse: resolved
// imports live in the loader's table, never in the AST.
func TestASTNotMutated(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"main.jh":      "import \"lib/tools\" as tools\nconfig {\n  agent.backend = \"claude\"\n}\nlocal who = \"me\"\nchannel c\nworkflow t {\n  echo \"$1\"\n}\nworkflow default {\n  c -> t\n  ensure tools.ok \"$who\"\n  x = run tools.w\n  c <- echo hi\n}\n",
		"lib/tools.jh": "rule ok {\n  test -n \"$1\"\n}\nworkflow w {\n  echo w\n}\n",
	}
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	entry := filepath.Join(dir, "main.jh")
	prog, err := validate.LoadEntry(entry)
	if err != nil {
		t.Fatal(err)
	}
	if ds := bashcheck.Program(prog, dir); len(ds) > 0 {
		t.Fatal(ds[0])
	}
	mods := codegen.LowerProgram(prog.Modules, dir, prog.Loader.Resolved)
	for _, m := range mods {
		if got := m.Imports["tools"]; m.Symbol == "main" && got != "lib::tools" {
			t.Errorf("main imports tools as %q, want lib::tools", got)
		}
	}
	if ds := bashcheck.Files(prog.Loader, []string{entry}, nil); len(ds) > 0 {
		t.Fatal(ds[0])
	}
	if len(prog.Modules) != len(files) {
		t.Fatalf("%d modules loaded, want %d", len(prog.Modules), len(files))
	}
	for _, f := range prog.Modules {
		src, err := os.ReadFile(f.Path)
		if err != nil {
			t.Fatal(err)
		}
		fresh, ds := parser.Parse(f.Path, src)
		if len(ds) > 0 {
			t.Fatal(ds[0])
		}
		if !reflect.DeepEqual(f, fresh) {
			t.Errorf("%s: the AST after the compile stages differs from a fresh parse", f.Path)
		}
	}
}
