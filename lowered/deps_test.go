package lowered_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

const mod = "github.com/jaiph-go/jaiph/"

// goList runs `go list` from the module root with the given arguments and
// returns its output lines.
func goList(t *testing.T, args ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append([]string{"list"}, args...)...)
	cmd.Dir = ".."
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %v: %v", args, err)
	}
	return strings.Split(strings.TrimSpace(string(out)), "\n")
}

// TestDependencies checks the one-way pipeline (issue 11): the runtime
// takes lowered modules and knows neither the AST nor the validator;
// codegen does not call the validator; nothing imports the CLI.
func TestDependencies(t *testing.T) {
	for _, c := range []struct {
		pkg       string
		forbidden []string
	}{
		// The transports import the runtime, never the reverse
		// (docs/architecture.md; TestRuntimeKnowsNoInboxLayout).
		{"./runtime", []string{"ast", "validate", "parser", "codegen", "internal/fileinbox", "internal/broker"}},
		{"./lowered", []string{"ast", "validate", "parser", "codegen"}},
		{"./codegen", []string{"validate"}},
	} {
		deps := map[string]bool{}
		for _, d := range goList(t, "-deps", c.pkg) {
			deps[d] = true
		}
		if !deps[mod+"internal/exec/agent"] && c.pkg == "./runtime" {
			t.Fatalf("go list -deps %s does not list agent, which it imports: %v", c.pkg, deps)
		}
		for _, f := range c.forbidden {
			if deps[mod+f] {
				t.Errorf("%s depends on %s", c.pkg, f)
			}
		}
	}
	for _, line := range goList(t, "-f", `{{.ImportPath}}:{{join .Imports " "}} {{join .TestImports " "}} {{join .XTestImports " "}}`, "./...") {
		pkg, imports, _ := strings.Cut(line, ":")
		for _, im := range strings.Fields(imports) {
			if im == mod+"cmd/jaiph" {
				t.Errorf("%s imports cmd/jaiph", pkg)
			}
		}
	}
}

// TestLayout keeps the repository's shape (issue 20): the root holds only
// the design card's stages and the values they hand each other (diag,
// lowered: issue 33), everything else is under internal/ (or the patched
// interpreter under third_party/mvdan-sh/, packages of this module since
// `go install` refuses a module with a replace directive).
func TestLayout(t *testing.T) {
	root := map[string]bool{"cmd/jaiph": true, "parser": true, "ast": true, "validate": true, "codegen": true, "runtime": true,
		"diag": true, "lowered": true}
	seen := map[string]bool{}
	for _, pkg := range goList(t, "./...") {
		rel := strings.TrimPrefix(pkg, mod)
		if strings.HasPrefix(rel, "internal/") || strings.HasPrefix(rel, "third_party/mvdan-sh/") {
			continue
		}
		if !root[rel] {
			t.Errorf("package %s is at the root; only the design card's stages are (move it under internal/)", rel)
		}
		seen[rel] = true
	}
	for stage := range root {
		if !seen[stage] {
			t.Errorf("go list ./... does not list the stage %s", stage)
		}
	}
}

// fileSystem names, by import path, the functions that reach the file
// system (or the working directory); "" stands for every name of the
// package. io/fs is not listed: its functions read an fs.FS a caller
// hands down, which is data, not the disk.
var fileSystem = map[string]map[string]bool{
	"io/ioutil": {"": true},
	"os": {"Chdir": true, "Chmod": true, "Chown": true, "Chtimes": true, "CopyFS": true, "Create": true,
		"CreateTemp": true, "DirFS": true, "Getwd": true, "Lchown": true, "Link": true, "Lstat": true,
		"Mkdir": true, "MkdirAll": true, "MkdirTemp": true, "Open": true, "OpenFile": true, "OpenInRoot": true,
		"OpenRoot": true, "ReadDir": true, "ReadFile": true, "Readlink": true, "Remove": true, "RemoveAll": true,
		"Rename": true, "Stat": true, "Symlink": true, "Truncate": true, "WriteFile": true},
	"path/filepath": {"Abs": true, "EvalSymlinks": true, "Glob": true, "Walk": true, "WalkDir": true},
}

// fileSystemUses returns "file:line: pkg.Name" for every use of a
// fileSystem function in the non-test Go files of dir.
func fileSystemUses(t *testing.T, dir string) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
	if len(files) == 0 {
		t.Fatalf("no Go files in %s", dir)
	}
	var uses []string
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		local := map[string]string{} // the name a file gives an import → its path
		for _, im := range f.Imports {
			path, _ := strconv.Unquote(im.Path.Value)
			if fileSystem[path] == nil {
				continue
			}
			n := filepath.Base(path)
			if im.Name != nil {
				n = im.Name.Name
			}
			local[n] = path
			if fileSystem[path][""] {
				uses = append(uses, fset.Position(im.Pos()).String()+": imports "+path)
			}
		}
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			if x, ok := sel.X.(*ast.Ident); ok && x.Obj == nil && fileSystem[local[x.Name]][sel.Sel.Name] {
				uses = append(uses, fset.Position(sel.Pos()).String()+": "+x.Name+"."+sel.Sel.Name)
			}
			return true
		})
	}
	return uses
}

// TestNoFileSystem keeps the stages after the parser off the file system
// (issue 33): the text they work on is what the parser was given (an
// editor's buffer is not the file on disk), kept on ast.File. Only the
// loader (validate/load.go: reading modules, resolving imports, finding
// a directory's sources) reads source files.
func TestNoFileSystem(t *testing.T) {
	const loader = "../validate/load.go"
	for _, dir := range []string{"ast", "validate", "codegen", "lowered", "internal/bashcheck"} {
		for _, use := range fileSystemUses(t, filepath.Join("..", dir)) {
			if !strings.HasPrefix(use, loader+":") {
				t.Errorf("%s: a stage after the parser reaches the file system; take the text from ast.File.Lines, or read in the loader (validate/load.go) and pass the data down", use)
			}
		}
	}
	// The scan sees the loader's reads; if not, it sees nothing.
	if uses := fileSystemUses(t, "../validate"); !strings.Contains(strings.Join(uses, "\n"), "os.ReadFile") {
		t.Errorf("the scan does not find the loader's os.ReadFile in %s: %v", loader, uses)
	}
}

// TestRuntimeKnowsNoInboxLayout keeps the inbox's files out of the runtime
// (issue 33): the file inbox (internal/fileinbox, internal/store/inbox)
// and the broker are transports behind runtime.Transport, and the runtime
// dispatches messages without knowing where they are kept. Its code
// imports none of them (internal/store/runs, which it imports, may read
// the inbox's dead letters), and no string and no comment of it names a
// file of the inbox directory.
func TestRuntimeKnowsNoInboxLayout(t *testing.T) {
	files, err := filepath.Glob("../runtime/*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no runtime sources: %v", err)
	}
	names := []string{".queue", ".deliveries", "inbox/", "dead/", ".txt", "-<channel>"}
	fset := token.NewFileSet()
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			for _, pkg := range []string{"internal/store/inbox", "internal/fileinbox", "internal/broker"} {
				if p == mod+pkg {
					t.Errorf("%s: the runtime imports %s", fset.Position(im.Pos()), pkg)
				}
			}
		}
		check := func(pos token.Pos, text string) {
			for _, n := range names {
				if strings.Contains(text, n) {
					t.Errorf("%s: the runtime names the inbox's %q (internal/store/inbox owns the layout)", fset.Position(pos), n)
				}
			}
		}
		for _, c := range f.Comments {
			check(c.Pos(), c.Text())
		}
		ast.Inspect(f, func(n ast.Node) bool {
			if lit, ok := n.(*ast.BasicLit); ok && lit.Kind == token.STRING {
				s, _ := strconv.Unquote(lit.Value)
				check(lit.Pos(), s)
				if s == "inbox" {
					t.Errorf("%s: the runtime names the inbox directory", fset.Position(lit.Pos()))
				}
			}
			return true
		})
	}
}
