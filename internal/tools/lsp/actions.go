package lsp

import (
	"fmt"
	"sort"
	"strings"
)

// Code actions: the quick fix of a "Did you mean" diagnostic (its range is
// the misspelt name: the fix writes the suggestion there), and organising
// a module's imports (sorted by alias, the unused ones dropped).

const (
	kindQuickFix        = "quickfix"
	kindOrganizeImports = "source.organizeImports"
)

func (s *server) codeActions(p CodeActionParams) []CodeAction {
	out := []CodeAction{}
	wants := func(kind string) bool {
		if len(p.Context.Only) == 0 {
			return true
		}
		for _, k := range p.Context.Only {
			if k == kind || strings.HasPrefix(kind, k+".") {
				return true
			}
		}
		return false
	}
	if wants(kindQuickFix) {
		for _, d := range p.Context.Diagnostics {
			name := suggestion(d.Message)
			if name == "" || d.Source != "jaiph" {
				continue
			}
			out = append(out, CodeAction{
				Title: fmt.Sprintf("Change to %q", name), Kind: kindQuickFix, IsPreferred: true,
				Diagnostics: []Diagnostic{d},
				Edit:        &WorkspaceEdit{Changes: map[string][]TextEdit{p.TextDocument.URI: {{Range: d.Range, NewText: name}}}},
			})
		}
	}
	if wants(kindOrganizeImports) {
		if edit := s.organizeImports(p.TextDocument.URI); edit != nil {
			out = append(out, CodeAction{Title: "Organize imports", Kind: kindOrganizeImports, Edit: edit})
		}
	}
	return out
}

// suggestion is the name of a message's `Did you mean "X"?` (diag.Suggest),
// or "".
func suggestion(msg string) string {
	const mark = `Did you mean "`
	i := strings.LastIndex(msg, mark)
	if i < 0 {
		return ""
	}
	name, _, ok := strings.Cut(msg[i+len(mark):], `"`)
	if !ok {
		return ""
	}
	return name
}

// organizeImports rewrites a module's imports, when they are consecutive
// lines, sorted by alias and without those no line uses; nil when there is
// nothing to change or the imports are spread out (comments or code
// between them: moving lines around them is not this action's job).
func (s *server) organizeImports(uri string) *WorkspaceEdit {
	ix := s.index(pathOf(uri))
	if ix == nil || len(ix.file.Imports) == 0 {
		return nil
	}
	imps := ix.file.Imports
	first, last := imps[0].Line-1, imps[len(imps)-1].Line-1
	if last-first+1 != len(imps) {
		return nil
	}
	// Used: written as `alias.` on any other line, the way the alias
	// rewrite finds it (in quotes too), so dropping it changes nothing.
	used := map[string]bool{}
	for l, text := range ix.text.lines {
		if l >= first && l <= last {
			continue
		}
		for _, im := range imps {
			for i := tokenIndex(text, im.Alias, 0); i >= 0 && !used[im.Alias]; i = tokenIndex(text, im.Alias, i+1) {
				used[im.Alias] = strings.HasPrefix(text[i+len(im.Alias):], ".")
			}
		}
	}
	type line struct{ alias, text string }
	var keep []line
	for _, im := range imps {
		// A test file runs its first import's workflows by name (mock
		// lines, no alias): keep every import of a test file.
		if used[im.Alias] || ix.file.IsTest {
			keep = append(keep, line{im.Alias, strings.TrimSpace(ix.text.line(im.Line - 1))})
		}
	}
	sort.SliceStable(keep, func(i, j int) bool { return keep[i].alias < keep[j].alias })
	var b strings.Builder
	for _, l := range keep {
		b.WriteString(l.text + "\n")
	}
	var old strings.Builder
	for l := first; l <= last; l++ {
		old.WriteString(ix.text.line(l) + "\n")
	}
	if b.String() == old.String() {
		return nil
	}
	r := Range{Start: Position{Line: first}, End: Position{Line: last + 1}}
	return &WorkspaceEdit{Changes: map[string][]TextEdit{uri: {{Range: r, NewText: b.String()}}}}
}
