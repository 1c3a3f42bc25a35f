package lowered_test

import (
	"os/exec"
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
		{"./runtime", []string{"ast", "validate", "parser", "codegen"}},
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
// interpreter under third_party/, a module of its own).
func TestLayout(t *testing.T) {
	root := map[string]bool{"cmd/jaiph": true, "parser": true, "ast": true, "validate": true, "codegen": true, "runtime": true,
		"diag": true, "lowered": true}
	seen := map[string]bool{}
	for _, pkg := range goList(t, "./...") {
		rel := strings.TrimPrefix(pkg, mod)
		if strings.HasPrefix(rel, "internal/") {
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
