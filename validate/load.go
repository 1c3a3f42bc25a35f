package validate

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/parser"
)

// Loader reads and parses each file once and remembers the result.
type Loader struct {
	mods map[string]*loaded
	// imports holds each resolved import's path: the AST is never written
	// after parsing.
	imports map[*ast.Import]string
	// ReadFile reads a source file; tests may replace it.
	ReadFile func(string) ([]byte, error)
}

type loaded struct {
	file    *ast.File
	diags   []*diag.Diagnostic // parse (and namespace) diagnostics
	missing bool               // the file does not exist
	readErr error              // any other read failure
}

// NewLoader returns a loader reading from the file system.
func NewLoader() *Loader {
	return &Loader{mods: map[string]*loaded{}, imports: map[*ast.Import]string{}, ReadFile: os.ReadFile}
}

// ResolveImport resolves im, an import of the module at importer, records
// the path for Resolved and returns it.
func (l *Loader) ResolveImport(importer string, im *ast.Import) string {
	p := l.Resolve(importer, im.Path)
	l.imports[im] = p
	return p
}

// Resolved returns the absolute path an import of a loaded module resolved
// to ("" if it was never resolved).
func (l *Loader) Resolved(im *ast.Import) string { return l.imports[im] }

// Resolve applies the import resolution rule for an import in importer.
func (l *Loader) Resolve(importer, path string) string {
	return parser.ResolveImport(importer, path, func(p string) bool {
		if m, ok := l.mods[p]; ok {
			return !m.missing
		}
		st, err := os.Stat(p)
		return err == nil && st.Mode().IsRegular()
	})
}

// Load reads and parses path (absolute) once.
func (l *Loader) Load(path string) *loaded {
	if m, ok := l.mods[path]; ok {
		return m
	}
	m := &loaded{}
	src, err := l.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		m.missing = true
	case err != nil:
		m.readErr = err
		m.missing = true
	default:
		m.file, m.diags = parser.Parse(path, src)
	}
	l.mods[path] = m
	return m
}

// File returns the parsed module at path, or nil.
func (l *Loader) File(path string) *ast.File {
	if m, ok := l.mods[path]; ok {
		return m.file
	}
	return nil
}

// Program is a validated entry module with its import closure.
type Program struct {
	Entry   *ast.File
	Modules []*ast.File // the closure, sorted by absolute path
	Loader  *Loader
}

// LoadEntry loads and validates the import closure of entry (an absolute
// path) the way `jaiph run` and `jaiph build FILE` do: the first problem
// found, in the reference's order, is returned as a *diag.Diagnostic or a
// *diag.Abort (a missing file).
func LoadEntry(entry string) (*Program, error) {
	l := NewLoader()
	visited := map[string]bool{}
	stack := []string{entry}
	var closure []*ast.File
	for len(stack) > 0 {
		path := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if visited[path] {
			continue
		}
		visited[path] = true
		m := l.Load(path)
		if m.missing {
			return nil, diag.MissingFile(path)
		}
		if len(m.diags) > 0 {
			return nil, m.diags[0]
		}
		closure = append(closure, m.file)
		for _, im := range m.file.Imports {
			if p := l.ResolveImport(path, im); !visited[p] {
				stack = append(stack, p)
			}
		}
	}
	sort.Slice(closure, func(i, j int) bool { return closure[i].Path < closure[j].Path })
	for _, f := range closure {
		if ds := checkModule(f, l); len(ds) > 0 {
			return nil, ds[0]
		}
	}
	return &Program{Entry: l.File(entry), Modules: closure, Loader: l}, nil
}

// LoadTestFile loads a test file and the modules it imports (D19: nothing
// else under the workspace is compiled) and returns the first diagnostic in
// the reference's order: the non-test modules first, in lexicographic path
// order (each parsed, then validated, with a missing import reported as
// E_IMPORT_NOT_FOUND as directory builds do), then the test file.
func LoadTestFile(path string) (*Program, error) {
	l := NewLoader()
	m := l.Load(path)
	if m.missing {
		return nil, diag.MissingFile(path)
	}
	// The import closure, walked from the test file's imports (also when the
	// test file itself has parse errors: its import lines still parse).
	visited := map[string]bool{path: true}
	var stack []string
	push := func(importer string, imports []*ast.Import) {
		for _, im := range imports {
			if p := l.ResolveImport(importer, im); !visited[p] {
				stack = append(stack, p)
			}
		}
	}
	push(path, m.file.Imports)
	var closure []*loaded
	for len(stack) > 0 {
		p := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if visited[p] || parser.IsTestFile(p) {
			continue
		}
		visited[p] = true
		dep := l.Load(p)
		if dep.missing {
			continue // reported by its importer
		}
		closure = append(closure, dep)
		push(p, dep.file.Imports)
	}
	sort.Slice(closure, func(i, j int) bool { return closure[i].file.Path < closure[j].file.Path })
	prog := &Program{Entry: m.file, Loader: l}
	for _, dep := range closure {
		if len(dep.diags) > 0 {
			return nil, dep.diags[0]
		}
		if ds := checkModule(dep.file, l); len(ds) > 0 {
			return nil, ds[0]
		}
		prog.Modules = append(prog.Modules, dep.file)
	}
	if len(m.diags) > 0 {
		return nil, m.diags[0]
	}
	if ds := checkModule(m.file, l); len(ds) > 0 {
		return nil, ds[0]
	}
	return prog, nil
}

// Check parses and validates every given file and every module they import,
// recovering after errors, and returns all diagnostics sorted by file, line
// and column. A file with parse errors is not validated further, so its
// diagnostics are not drowned in follow-on noise; the modules it imports are
// still checked.
func Check(files []string) []*diag.Diagnostic { return CheckWith(NewLoader(), files) }

// CheckWith is Check with a loader the caller keeps, so a later stage (the
// shell check of `jaiph check`) reuses the parsed files.
func CheckWith(l *Loader, files []string) []*diag.Diagnostic {
	var all []*diag.Diagnostic
	checked := map[string]bool{}
	queue := append([]string(nil), files...)
	for len(queue) > 0 {
		path := queue[0]
		queue = queue[1:]
		if checked[path] {
			continue
		}
		checked[path] = true
		m := l.Load(path)
		if m.missing {
			all = append(all, diag.New(path, 1, 1, diag.ImportNotFound, "cannot read file: "+readProblem(m)))
			continue
		}
		all = append(all, m.diags...)
		if len(m.diags) > 0 && !m.file.EntryErrorsOnly {
			// Not validated further, but the modules it imports still are.
			for _, im := range m.file.Imports {
				l.ResolveImport(path, im)
			}
		} else {
			all = append(all, checkModule(m.file, l)...)
		}
		for _, im := range m.file.Imports {
			if p := l.Resolved(im); p != "" && !l.Load(p).missing {
				queue = append(queue, p)
			}
		}
	}
	return diag.SortAndDedupe(all)
}

func readProblem(m *loaded) string {
	if m.readErr != nil {
		return m.readErr.Error()
	}
	return "no such file"
}

// FindSources returns every .jh/.jph file below dir (recursive, sorted).
// Test files are included when withTests is set.
func FindSources(dir string, withTests bool) ([]string, error) {
	var out []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p != dir && (d.Name() == ".git" || d.Name() == "node_modules") {
				return filepath.SkipDir
			}
			return nil
		}
		if !parser.IsSourceFile(p) || (!withTests && parser.IsTestFile(p)) {
			return nil
		}
		if d.Type()&fs.ModeSymlink != 0 {
			if _, err := os.Stat(p); err != nil {
				return fmt.Errorf("%s: broken symbolic link", p)
			}
		}
		out = append(out, p)
		return nil
	})
	sort.Strings(out)
	return out, err
}
