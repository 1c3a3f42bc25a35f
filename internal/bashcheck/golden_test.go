package bashcheck_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/internal/bashcheck"
	"github.com/jaiph-go/jaiph/validate"
)

var update = flag.Bool("update", false, "rewrite golden files")

// TestGolden checks every testdata/NAME.jh (or NAME.test.jh) as `jaiph check`
// does and compares the diagnostics, one `file:line:col: CODE message` line
// each, with NAME.golden.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.jh")
	if len(files) == 0 {
		t.Fatal("no golden cases")
	}
	for _, f := range files {
		abs, _ := filepath.Abs(f)
		name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(f), ".jh"), ".test")
		t.Run(name, func(t *testing.T) {
			l := validate.NewLoader()
			ds := validate.CheckWith(l, []string{abs})
			skip := map[string]bool{}
			for _, d := range ds {
				skip[d.File] = true
			}
			ds = diag.SortAndDedupe(append(ds, bashcheck.Files(l, []string{abs}, skip)...))
			var b strings.Builder
			for _, d := range ds {
				fmt.Fprintf(&b, "%s:%d:%d: %s %s\n", filepath.Base(d.File), d.Line, d.Col, d.Code, d.OneLine())
			}
			golden := filepath.Join("testdata", name+".golden")
			if *update {
				if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("missing golden (go test ./bashcheck -update): %v", err)
			}
			if b.String() != string(want) {
				t.Errorf("got\n%s\nwant\n%s", b.String(), want)
			}
		})
	}
}
