package codegen

import (
	"path/filepath"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/lowered"
)

// LowerProgram lowers every module of a validated program. Module symbols are
// relative to root (the entry file's directory for run); resolved returns
// the path an import resolved to (validate's table, Loader.Resolved).
func LowerProgram(files []*ast.File, root string, resolved func(*ast.Import) string) []*lowered.Module {
	sym := func(path string) string { return ModuleSymbol(root, path) }
	out := make([]*lowered.Module, 0, len(files))
	for _, f := range files {
		out = append(out, Lower(f, sym(f.Path), func(im *ast.Import) string { return sym(resolved(im)) }))
	}
	return out
}

// RootOf returns the directory module symbols are relative to for an entry.
func RootOf(entry string) string { return filepath.Dir(entry) }
