package bashcheck

import (
	"os"
	"strings"
	"testing"
)

// TestRefusalsDocumented keeps docs/differences.md in step with the
// refusal table: each construct `jaiph check` refuses is listed there by the
// name its diagnostic shows.
func TestRefusalsDocumented(t *testing.T) {
	data, err := os.ReadFile("../../docs/differences.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	i := strings.Index(doc, "## Refused by `jaiph check`")
	if i < 0 {
		t.Fatal("docs/differences.md has no section \"## Refused by `jaiph check`\"")
	}
	section := doc[i:]
	if j := strings.Index(section[3:], "\n## "); j >= 0 {
		section = section[:j+3]
	}
	for _, r := range table {
		if !strings.Contains(section, "`"+r.name+"`") {
			t.Errorf("refusal %q is not listed in docs/differences.md (section \"Refused by `jaiph check`\")", r.name)
		}
	}
}
