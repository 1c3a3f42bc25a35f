package lsp

import (
	"bytes"
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/parser"
	"github.com/jaiph-go/jaiph/validate"
)

// lookup returns the index of the document and the key and span under the
// position.
func (s *server) lookup(p TextDocumentPositionParams) (*index, key, span, bool) {
	ix := s.index(pathOf(p.TextDocument.URI))
	if ix == nil {
		return nil, key{}, span{}, false
	}
	k, sp, ok := ix.at(p.Position.Line, ix.text.offset(p.Position))
	return ix, k, sp, ok
}

func (s *server) location(ix *index, sp span) Location {
	return Location{URI: s.uriOf(ix.path), Range: ix.text.rng(sp.line, sp.from, sp.to)}
}

// target returns the definition k names and the index holding it.
func (s *server) target(k key) (*index, *def) {
	if k.ns == nsFile {
		return nil, nil
	}
	ix := s.index(k.path)
	if ix == nil {
		return nil, nil
	}
	return ix, ix.def(k)
}

func (s *server) definition(p TextDocumentPositionParams) []Location {
	_, k, _, ok := s.lookup(p)
	if !ok {
		return nil
	}
	if k.ns == nsFile {
		if !s.exists(k.path) {
			return nil
		}
		return []Location{{URI: s.uriOf(k.path)}}
	}
	ix, d := s.target(k)
	if d == nil {
		return nil
	}
	return []Location{s.location(ix, d.name)}
}

// workspace lists the modules references and renames look at: the open
// documents and every source and test file under the workspace root.
func (s *server) workspace() []string {
	seen := map[string]bool{}
	var out []string
	for p := range s.docs {
		seen[p] = true
		out = append(out, p)
	}
	if s.root != "" {
		found, _ := validate.FindSources(s.root, true)
		for _, p := range found {
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	sort.Strings(out)
	return out
}

// occurrences returns every span naming k in the workspace, its
// definition's name first when withDef.
func (s *server) occurrences(k key, withDef bool) []Location {
	var out []Location
	if withDef {
		if ix, d := s.target(k); d != nil {
			out = append(out, s.location(ix, d.name))
		}
	}
	for _, p := range s.workspace() {
		ix := s.index(p)
		if ix == nil {
			continue
		}
		for _, r := range ix.refs {
			if r.key == k {
				out = append(out, s.location(ix, r.span))
			}
		}
	}
	return out
}

func (s *server) references(p ReferenceParams) []Location {
	_, k, _, ok := s.lookup(p.TextDocumentPositionParams)
	if !ok {
		return nil
	}
	return s.occurrences(k, p.Context.IncludeDeclaration)
}

func (s *server) hover(p TextDocumentPositionParams) *Hover {
	ix, k, sp, ok := s.lookup(p)
	if !ok {
		return nil
	}
	r := ix.text.rng(sp.line, sp.from, sp.to)
	if k.ns == nsFile {
		return &Hover{Contents: MarkupContent{Kind: "markdown", Value: "`" + k.path + "`"}, Range: &r}
	}
	tix, d := s.target(k)
	if d == nil {
		return nil
	}
	var b strings.Builder
	b.WriteString("```jaiph\n")
	for _, c := range d.doc {
		b.WriteString(c + "\n")
	}
	b.WriteString(strings.TrimSpace(tix.text.line(d.first)) + "\n```")
	if d.kind == "channel" {
		if routes := channelRoutes(tix, d.name); len(routes) > 0 {
			b.WriteString("\n\nRoutes:\n")
			for _, rt := range routes {
				b.WriteString("- " + rt + "\n")
			}
		}
	}
	if tix != ix {
		b.WriteString("\n\n" + ix.importPath(tix.path))
	}
	return &Hover{Contents: MarkupContent{Kind: "markdown", Value: strings.TrimRight(b.String(), "\n")}, Range: &r}
}

// channelRoutes lists the routes of the module's workflows for channel
// (`name -> targets` in workflow w).
func channelRoutes(ix *index, name span) []string {
	ch := ix.text.line(name.line)[name.from:name.to]
	var out []string
	for _, w := range ix.file.Workflows {
		for _, rt := range w.Routes {
			if rt.Channel.Alias != "" || rt.Channel.Name != ch {
				continue
			}
			var ts []string
			for _, t := range rt.Targets {
				ts = append(ts, t.Ref.String())
			}
			out = append(out, fmt.Sprintf("`%s -> %s` in workflow `%s`", ch, strings.Join(ts, ", "), w.Name))
		}
	}
	return out
}

var (
	topKeywords      = []string{"channel", "config", "export", "function", "import", "local", "rule", "workflow"}
	workflowKeywords = []string{"ensure", "if", "log", "logerr", "prompt", "return", "run"}
	ruleKeywords     = []string{"ensure", "log", "logerr", "return"}
	functionKeywords = []string{"log", "logerr", "return"}
	testKeywords     = []string{"expectContain", "expectEqual", "expectNotContain", "mock"}

	// The step and declaration forms, offered as snippets (label, text).
	topForms = [][2]string{
		{"import … as …", "import \"${1:path}\" as ${2:alias}"},
		{"config { … }", "config {\n  ${1:agent.backend} = ${2:\"claude\"}\n}"},
		{"channel …", "channel ${1:name}"},
		{"local … = …", "local ${1:name} = \"${2:value}\""},
		{"workflow … { … }", "workflow ${1:name} {\n  $0\n}"},
		{"rule … { … }", "rule ${1:name} {\n  $0\n}"},
		{"function …() { … }", "function ${1:name}() {\n  $0\n}"},
	}
	workflowForms = [][2]string{
		{"… = run …", "${1:result} = run ${2:workflow}"},
		{"ensure … recover …", "ensure ${1:rule} recover run ${2:fix}"},
		{"… = prompt \"…\"", "${1:answer} = prompt \"${2:text}\""},
		{"… = prompt \"…\" returns '…'", "${1:answer} = prompt \"${2:text}\" returns '{ ${3:field}: string }'"},
		{"if ! ensure …; then … fi", "if ! ensure ${1:rule}; then\n  $0\nfi"},
		{"if run …; then … else … fi", "if run ${1:workflow}; then\n  $2\nelse\n  $0\nfi"},
		{"… <- …", "${1:channel} <- ${0:echo \"message\"}"},
		{"… -> …", "${1:channel} -> ${2:workflow}"},
		{"… = <- … timeout \"…\"", "${1:reply} = <- ${2:replies} timeout \"${3:1h}\""},
	}
)

func (s *server) completion(p TextDocumentPositionParams) (list CompletionList) {
	list = CompletionList{Items: []CompletionItem{}}
	ix := s.index(pathOf(p.TextDocument.URI))
	if ix == nil {
		return list
	}
	line := p.Position.Line
	before := ix.text.line(line)[:ix.text.offset(p.Position)]
	add := func(label string, kind int, detail string) {
		list.Items = append(list.Items, CompletionItem{Label: label, Kind: kind, Detail: detail})
	}
	// The word being typed and what precedes it.
	w := len(before)
	for w > 0 && (isIdentByte(before[w-1]) || before[w-1] == '.') {
		w--
	}
	word, head := before[w:], before[:w]
	// Every item replaces the whole word typed so far, qualifier included:
	// a client left to find the word's start itself stops at the dot
	// (`.` is no identifier character) and inserts `checks.checks.ok`,
	// or filters `text.title` out against the prefix `ti`. No filterText:
	// the label is the text inserted, and Neovim 0.7's omnifunc ignores
	// the edit's range for an item that has one.
	typed := ix.text.rng(line, w, len(before))
	defer func() {
		for i := range list.Items {
			it := &list.Items[i]
			text := it.Label
			if it.InsertText != "" {
				text, it.InsertText = it.InsertText, ""
			}
			it.TextEdit = &TextEdit{Range: typed, NewText: text}
		}
	}()
	for _, c := range ix.configs {
		if line > c.Line-1 && line < c.End.Line-1 {
			if !strings.Contains(before, "=") {
				for _, k := range parser.ConfigKeys {
					add(k, complProperty, "config key")
				}
			}
			return list
		}
	}
	if strings.HasSuffix(head, "$") || strings.HasSuffix(head, "${") {
		// The variables of the body around the cursor (assigned above it),
		// then the module's locals.
		for _, d := range ix.defs {
			if _, body, ok := strings.Cut(d.key.name, "@"); ok && d.kind == "variable" && d.first <= line {
				for _, td := range ix.textDecls() {
					if fmt.Sprint(td.first+1) == body && line > td.first && line < td.last {
						add(d.label(ix), complVariable, "variable")
					}
				}
			}
		}
		for _, d := range ix.defs {
			if d.kind == "local" {
				add(d.label(ix), complVariable, "local")
			}
		}
		return list
	}
	trimmed := strings.TrimSpace(head)
	lastWord := trimmed[strings.LastIndexAny(trimmed, " \t")+1:]
	route := strings.HasSuffix(trimmed, "->") || strings.Contains(trimmed, "->") && strings.HasSuffix(trimmed, ",")
	if alias, _, dotted := strings.Cut(word, "."); dotted {
		// The imported module's members that fit where the word is.
		kinds := "workflow rule function channel"
		switch {
		case lastWord == "run":
			kinds = "workflow function"
		case lastWord == "ensure":
			kinds = "rule"
		case route:
			kinds = "workflow"
		}
		if t, ok := ix.aliases[alias]; ok && s.index(t) != nil {
			tix := s.index(t)
			for _, d := range tix.defs {
				if d.ns == nsSymbol && d.kind != "local" && strings.Contains(kinds, d.kind) {
					add(alias+"."+d.label(tix), kindOf(d.kind), d.kind)
				}
			}
		}
		return list
	}
	// The body around the cursor comes from the text: one being typed
	// has no closing brace yet, or swallows the next declaration.
	decls := ix.textDecls()
	var body *textDecl
	for i, d := range decls {
		if line > d.first && line < d.last {
			body = &decls[i]
		}
	}
	symbols := func(kinds ...string) {
		for _, d := range ix.defs {
			for _, k := range kinds {
				if d.kind == k {
					add(d.label(ix), kindOf(k), k)
				}
			}
		}
		for _, d := range ix.defs {
			if d.kind == "import" {
				add(d.label(ix), complModule, strings.TrimSpace(ix.text.line(d.first)))
			}
		}
	}
	keywords := func(ks []string) {
		for _, k := range ks {
			add(k, complKeyword, "")
		}
	}
	forms := func(fs [][2]string) {
		for _, f := range fs {
			if s.snippets {
				list.Items = append(list.Items, CompletionItem{Label: f[0], Kind: complSnippet, InsertText: f[1], InsertTextFormat: 2})
			}
		}
	}
	switch {
	case body == nil:
		switch {
		case ix.file.IsTest && trimmed == "":
			keywords([]string{"import", "test"}) // a test file's other declarations never run
		case trimmed == "" || trimmed == "export":
			keywords(topKeywords)
			forms(topForms)
		}
	case lastWord == "run":
		symbols("workflow", "function")
	case lastWord == "ensure":
		symbols("rule")
	case route:
		symbols("workflow")
	case body.kind == "workflow" && (trimmed == "<-" || strings.HasSuffix(trimmed, " <-") && strings.Contains(trimmed, "=")):
		symbols("channel") // a receive (docs/language.md#receives)
	case trimmed == "" && body.kind == "workflow":
		keywords(workflowKeywords)
		forms(workflowForms)
		symbols("channel") // a workflow calls functions with run only
	case trimmed == "" && body.kind == "rule":
		keywords(ruleKeywords)
		symbols("function")
	case trimmed == "" && body.kind == "function":
		keywords(functionKeywords)
		symbols("function")
	case trimmed == "" && body.kind == "test":
		keywords(testKeywords)
		symbols() // the aliases: a test runs alias.workflow
	}
	return list
}

// label is the definition's name as written.
func (d *def) label(ix *index) string { return d.name.name(ix) }

func (sp span) name(ix *index) string { return ix.text.line(sp.line)[sp.from:sp.to] }

func kindOf(k string) int {
	switch k {
	case "channel":
		return complEvent
	case "local":
		return complVariable
	}
	return complFunction
}

func (s *server) symbols(path string) []DocumentSymbol {
	out := []DocumentSymbol{}
	ix := s.index(path)
	if ix == nil {
		return out
	}
	kinds := map[string]int{"import": symModule, "config": symNamespace, "channel": symEvent, "local": symVariable,
		"workflow": symFunction, "rule": symFunction, "function": symFunction, "test": symMethod}
	for _, d := range ix.defs {
		if d.kind == "variable" {
			continue // a body's variables are not part of the outline
		}
		name := d.label(ix)
		if d.kind == "test" {
			name = d.key.name
		}
		out = append(out, DocumentSymbol{
			Name: name, Detail: d.kind, Kind: kinds[d.kind],
			Range:          Range{Start: Position{Line: d.first}, End: ix.text.pos(d.last, len(ix.text.line(d.last)))},
			SelectionRange: ix.text.rng(d.name.line, d.name.from, d.name.to),
		})
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Range.Start.Line < out[j].Range.Start.Line })
	// A workflow's config block is its child; the module's is top level.
	for _, c := range ix.configs {
		first, last := c.Line-1, c.End.Line-1
		sym := DocumentSymbol{
			Name: "config", Kind: symObject,
			Range:          Range{Start: Position{Line: first}, End: ix.text.pos(last, len(ix.text.line(last)))},
			SelectionRange: ix.text.rng(first, c.Col-1, c.Col-1+len("config")),
		}
		at := sort.Search(len(out), func(i int) bool { return out[i].Range.Start.Line > first })
		if at > 0 && out[at-1].Detail == "workflow" && out[at-1].Range.End.Line >= last {
			out[at-1].Children = append(out[at-1].Children, sym)
			continue
		}
		out = append(out[:at], append([]DocumentSymbol{sym}, out[at:]...)...)
	}
	return out
}

// renamable returns what can be renamed under the position (a workflow,
// rule, function, channel, module local, body variable or import alias),
// with the index holding its definition and the range of the name there.
// A module path and a body's positional parameters ($1) are not names.
func (s *server) renamable(p TextDocumentPositionParams) (key, *index, *def, Range, error) {
	ix, k, sp, ok := s.lookup(p)
	if !ok {
		return k, nil, nil, Range{}, &jsonrpc2.Error{Code: codeRequestFailed, Message: "nothing to rename here: put the cursor on a workflow, rule, function, channel, local, variable or import alias"}
	}
	tix, d := s.target(k)
	if d == nil || k.ns == nsFile || k.ns == nsNone {
		return k, nil, nil, Range{}, &jsonrpc2.Error{Code: codeRequestFailed, Message: "only workflows, rules, functions, channels, locals, variables and import aliases can be renamed"}
	}
	return k, tix, d, ix.text.rng(sp.line, sp.from, sp.to), nil
}

func (s *server) prepareRename(p TextDocumentPositionParams) (any, error) {
	_, _, _, r, err := s.renamable(p)
	if err != nil {
		return nil, err
	}
	return r, nil
}

func (s *server) rename(p RenameParams) (any, error) {
	k, tix, d, _, err := s.renamable(p.TextDocumentPositionParams)
	if err != nil {
		return nil, err
	}
	if !ast.IsIdent(p.NewName) {
		return nil, &jsonrpc2.Error{Code: codeInvalidParams, Message: fmt.Sprintf("%q is not a name ([A-Za-z_][A-Za-z0-9_]*)", p.NewName)}
	}
	clash := func(what string) error {
		return &jsonrpc2.Error{Code: codeRequestFailed, Message: fmt.Sprintf("%s already declares %s %q", filepath.Base(tix.path), what, p.NewName)}
	}
	switch k.ns {
	case nsSymbol:
		if other := tix.byName[p.NewName]; other != nil && other != d {
			return nil, clash(other.kind)
		}
	case nsAlias:
		if _, taken := tix.aliases[p.NewName]; taken && p.NewName != k.name {
			return nil, clash("import alias")
		}
	case nsVar:
		_, body, _ := strings.Cut(k.name, "@")
		if other := tix.def(key{k.path, p.NewName + "@" + body, nsVar}); other != nil && other != d {
			return nil, clash("variable")
		}
	}
	edit := WorkspaceEdit{Changes: map[string][]TextEdit{}}
	for _, loc := range s.occurrences(k, true) {
		edit.Changes[loc.URI] = append(edit.Changes[loc.URI], TextEdit{Range: loc.Range, NewText: p.NewName})
	}
	return edit, nil
}

// format replaces the whole document with Options.Format's result (no
// edits when it is already formatted).
func (s *server) format(path string) (any, error) {
	src, out, err := s.formatted(path)
	if err != nil {
		return nil, err
	}
	edits := []TextEdit{}
	if !bytes.Equal(out, src) {
		t := newText(string(src))
		last := len(t.lines) - 1
		edits = append(edits, TextEdit{Range: Range{End: t.pos(last, len(t.lines[last]))}, NewText: string(out)})
	}
	return edits, nil
}

// formatted is the document at path and Options.Format's result, or the
// error as the client gets it (whole-document and range formatting).
func (s *server) formatted(path string) (src, out []byte, err error) {
	if src, err = s.read(path); err == nil {
		out, err = s.opts.Format(path, src)
	}
	if err != nil {
		return nil, nil, &jsonrpc2.Error{Code: codeRequestFailed, Message: err.Error()}
	}
	return src, out, nil
}

// importPath names the module at path as the file of ix imports it (the
// path as written: `lib/util.jh`, not `util.jh`), else relative to ix's
// folder.
func (ix *index) importPath(path string) string {
	for _, im := range ix.file.Imports {
		if ix.aliases[im.Alias] == path {
			return im.Path
		}
	}
	if rel, err := filepath.Rel(filepath.Dir(ix.path), path); err == nil {
		return rel
	}
	return path
}
