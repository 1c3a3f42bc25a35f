package bashcheck

import (
	"path/filepath"
	"strings"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"

	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/lowered"
)

// fileName reports a module whose file name cannot name its shell
// functions (`<module symbol>::<name>::impl`, from the path): a blank,
// a quote, `=` or `[` in it would otherwise surface as a shell syntax
// error about a line the file does not have. nil when the name is fine.
func fileName(m *lowered.Module) []*diag.Diagnostic {
	if len(m.Order) == 0 || validFuncName(m.Symbol+"::x") {
		return nil
	}
	base := filepath.Base(m.Path)
	return []*diag.Diagnostic{diag.New(m.Path, 1, 1, diag.Parse,
		`invalid file name "`+base+`": the module's path names its shell functions, so it cannot contain blanks, quotes, $, =, [ or other shell syntax (rename the file or its folder)`)}
}

// validFuncName reports whether name parses as the name of a shell
// function declaration.
func validFuncName(name string) bool {
	p := parsers.Get().(*syntax.Parser)
	defer parsers.Put(p)
	f, err := p.Parse(strings.NewReader(name+"() { :; }\n"), "")
	if err != nil || len(f.Stmts) != 1 {
		return false
	}
	fd, ok := f.Stmts[0].Cmd.(*syntax.FuncDecl)
	return ok && fd.Name.Value == name
}
