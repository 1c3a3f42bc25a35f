package format

import (
	"os"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/bashcheck"
	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/validate"
)

// check returns the AST of src and the diagnostics `jaiph check path`
// reports for path itself, with src standing in for the file's contents;
// imported modules are read from disk. Problems of imported modules are
// not this file's: they do not stop it from being formatted.
func check(path string, src []byte) (*ast.File, []*diag.Diagnostic) {
	l := validate.NewLoader()
	l.ReadFile = func(p string) ([]byte, error) {
		if p == path {
			return src, nil
		}
		return os.ReadFile(p)
	}
	all := validate.CheckWith(l, []string{path})
	mine := map[string]bool{}
	for _, d := range all {
		mine[d.File] = true
	}
	all = append(all, bashcheck.Files(l, []string{path}, mine)...)
	var ds []*diag.Diagnostic
	for _, d := range all {
		if d.File == path {
			ds = append(ds, d)
		}
	}
	return l.File(path), diag.SortAndDedupe(ds)
}
