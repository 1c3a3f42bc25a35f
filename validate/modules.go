package validate

import "github.com/jaiph-go/jaiph/diag"

// LoadModules loads and validates the given modules (absolute paths, sorted)
// the way `jaiph build DIR` does: each module in turn is parsed, then
// validated, and the first problem found is returned as a *diag.Diagnostic
// (a missing import is E_IMPORT_NOT_FOUND, as directory builds report it).
// Modules they import are parsed and checked as imports but not returned.
func LoadModules(paths []string) (*Program, error) {
	l := NewLoader()
	prog := &Program{Loader: l}
	for _, p := range paths {
		m := l.Load(p)
		if m.missing {
			return nil, diag.MissingFile(p)
		}
		if len(m.diags) > 0 {
			return nil, m.diags[0]
		}
		if ds := checkModule(m.file, l); len(ds) > 0 {
			return nil, ds[0]
		}
		prog.Modules = append(prog.Modules, m.file)
	}
	return prog, nil
}
