package codegen

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"

	"github.com/jaiph-go/jaiph/lowered"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// addStep records a step and returns the id word that stands for it.
func (l *lowerer) addStep(s lowered.Step) string {
	s.ID = len(l.tab) + 1
	l.tab = append(l.tab, s)
	return fmt.Sprint(s.ID)
}

// Annotated is b.Source for reading (`jaiph build`): each line that calls
// a recorded step ends with a comment saying what the step is
// (`x=$(jaiph::run 1 "$1")  # run lib::deploy capture`). A comment is added
// only where the shell reads it as one, which re-parsing checks (the end of
// a line may be inside a quoted argument); otherwise the records are listed
// as `# step N: …` lines after the body.
func Annotated(b *lowered.Body) string {
	if len(b.Steps) == 0 {
		return b.Source
	}
	if s, ok := annotate(b); ok {
		return s
	}
	var out strings.Builder
	out.WriteString(b.Source)
	for i := range b.Steps {
		fmt.Fprintf(&out, "# step %d: %s\n", b.Steps[i].ID, b.Steps[i].String())
	}
	return out.String()
}

func annotate(b *lowered.Body) (string, bool) {
	p := b.Parser()
	f, err := p.Parse(strings.NewReader(b.Source), "")
	if err != nil {
		return "", false
	}
	notes := map[int][]*lowered.Step{} // by index of the line in Source
	found := 0
	syntax.Walk(f, func(n syntax.Node) bool {
		ce, ok := n.(*syntax.CallExpr)
		if !ok || len(ce.Args) < 2 {
			return true
		}
		kind, ok := strings.CutPrefix(ce.Args[0].Lit(), "jaiph::")
		id, err := strconv.Atoi(ce.Args[1].Lit())
		if st := b.Step(id); ok && err == nil && st != nil && string(st.Kind) == kind {
			i := int(ce.Pos().Line()) - b.First()
			notes[i] = append(notes[i], st)
			found++
		}
		return true
	})
	if found != len(b.Steps) {
		return "", false
	}
	lines := strings.Split(b.Source, "\n")
	for i, sts := range notes {
		if i < 0 || i >= len(lines) {
			return "", false
		}
		var w []string
		for _, st := range sts {
			if len(sts) == 1 {
				w = append(w, st.String())
			} else {
				w = append(w, fmt.Sprintf("%d: %s", st.ID, st))
			}
		}
		lines[i] += "  # " + strings.Join(w, "; ")
	}
	out := strings.Join(lines, "\n")
	g, err := p.Parse(strings.NewReader(out), "")
	if err != nil {
		return "", false
	}
	var before, after bytes.Buffer // printed without comments
	if syntax.NewPrinter().Print(&before, f) != nil || syntax.NewPrinter().Print(&after, g) != nil ||
		before.String() != after.String() {
		return "", false
	}
	return out, true
}
