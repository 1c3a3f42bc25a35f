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
		if !deps[mod+"agent"] && c.pkg == "./runtime" {
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
