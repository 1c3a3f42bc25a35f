package engine_test

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/internal/engine"
)

var update = flag.Bool("update", false, "rewrite testdata/lowered from the current lowering")

// TestLoweredConformance pins the lowered shell (the codegen→runtime
// hand-off, as `jaiph build` prints it: bodies, step ids and their records)
// of every module of the conformance corpus, so a change of the hand-off
// format shows up as a reviewed diff (`go test ./engine -update`). A case
// that does not compile pins its first diagnostic.
func TestLoweredConformance(t *testing.T) {
	cases, err := filepath.Glob(filepath.Join("..", "..", "testdata", "conformance", "cases", "*"))
	if err != nil || len(cases) < 50 {
		t.Fatalf("conformance cases: %d found, %v", len(cases), err)
	}
	for _, dir := range cases {
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			abs, err := filepath.Abs(dir)
			if err != nil {
				t.Fatal(err)
			}
			var got strings.Builder
			outs, err := engine.PlanBuild(abs, true, abs, "jaiph-go")
			var d *diag.Diagnostic
			switch {
			case errors.As(err, &d):
				rel, _ := filepath.Rel(abs, d.File)
				msg := strings.ReplaceAll(d.Message, abs, "<case>") // no machine paths in goldens
				got.WriteString("error: " + filepath.ToSlash(rel) + ": " + d.Code + " " + msg + "\n")
			case err != nil:
				got.WriteString("error: " + err.Error() + "\n")
			}
			for _, o := range outs {
				rel, _ := filepath.Rel(abs, o.Path)
				got.WriteString("=== " + filepath.ToSlash(rel) + "\n")
				got.Write(o.Content)
			}
			golden := filepath.Join("..", "..", "testdata", "lowered", name+".sh")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test ./engine -update)", err)
			}
			if got.String() != string(want) {
				t.Errorf("lowered shell of %s differs from %s (go test ./engine -update, then review the diff)", name, golden)
			}
		})
	}
}
