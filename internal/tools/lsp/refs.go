package lsp

import (
	"fmt"
	"sort"
	"strings"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/internal/lazy"
	"github.com/jaiph-go/jaiph/internal/shellscan"
	"github.com/jaiph-go/jaiph/parser"
)

// This file is the one place that turns a module's syntax tree and source
// lines into name ranges and references. Extents, config blocks, leading
// comments and the references of Jaiph steps (run, ensure, if, send,
// routes and their targets, a rule's ensure) come from the tree; the text
// is read only where the tree has no node (see scanLine, tokenAfter and
// textDecls).

// ns tells what a key names.
type ns int

const (
	nsSymbol ns = iota // a workflow, rule, function, channel or local of path
	nsAlias            // an import alias declared in path
	nsFile             // the module path itself (an import's path)
	nsNone             // not referable (tests, config blocks)
	nsVar              // a variable of one body (name@first line of the body)
)

// key identifies what a definition declares and a reference names.
type key struct {
	path, name string
	ns         ns
}

// span is the bytes [from, to) of a 0-based line.
type span struct{ line, from, to int }

func (s span) contains(line, b int) bool { return s.line == line && s.from <= b && b <= s.to }

type def struct {
	key
	kind        string // workflow, rule, function, channel, local, import, config, test
	name        span
	first, last int      // the declaration's lines, body included
	doc         []string // the comment lines right above it
}

type ref struct {
	key
	span
}

type index struct {
	path    string
	src     []byte
	text    *text
	file    *ast.File
	defs    []*def
	refs    []ref
	byName  map[string]*def   // the module's namespace
	aliases map[string]string // import alias → resolved path
	configs []*ast.Config     // module and workflow config blocks
}

// newIndex parses src (the module at path) and collects its definitions
// and references; resolve resolves an import path written in path.
func newIndex(path string, src []byte, resolve func(importer, p string) string) *index {
	file, diags := parser.Parse(path, src)
	ix := &index{path: path, text: newText(string(src)), file: file, byName: map[string]*def{}, aliases: map[string]string{}}
	// add records a declaration from start to end (the tree has no
	// position for the name: it is the first whole token name after
	// keyword on the first line).
	add := func(k key, kind string, start, end ast.Pos, keyword string) *def {
		d := &def{key: k, kind: kind, first: start.Line - 1, last: max(start.Line, end.Line) - 1}
		d.name = ix.tokenAfter(d.first, keyword, k.name)
		ix.defs = append(ix.defs, d)
		if k.ns == nsSymbol {
			ix.byName[k.name] = d
		}
		return d
	}
	for _, im := range file.Imports {
		line := im.Line - 1
		target := resolve(path, im.Path)
		ix.aliases[im.Alias] = target
		// The path is the first occurrence after the keyword (the tree
		// has the line, not the string's column).
		l, after := ix.text.line(line), im.Col-1+len("import")
		if at := strings.Index(l[min(after, len(l)):], im.Path); at >= 0 && im.Path != "" {
			at += min(after, len(l))
			ix.refs = append(ix.refs, ref{key{target, "", nsFile}, span{line, at, at + len(im.Path)}})
		}
		d := &def{key: key{path, im.Alias, nsAlias}, kind: "import", first: line, last: line}
		d.name = ix.lastToken(line, im.Alias)
		ix.defs = append(ix.defs, d)
	}
	if file.Config != nil {
		ix.configs = append(ix.configs, file.Config)
	}
	for _, c := range file.Channels {
		add(key{path, c.Name, nsSymbol}, "channel", c.Pos, c.End, "channel")
	}
	for _, lo := range file.Locals {
		add(key{path, lo.Name, nsSymbol}, "local", lo.Pos, lo.End, "local")
	}
	for _, w := range file.Workflows {
		add(key{path, w.Name, nsSymbol}, "workflow", w.Pos, w.End, "workflow")
		if w.Config != nil {
			ix.configs = append(ix.configs, w.Config)
		}
	}
	for _, r := range file.Rules {
		add(key{path, r.Name, nsSymbol}, "rule", r.Pos, r.End, "rule")
	}
	for _, f := range file.Functions {
		add(key{path, f.Name, nsSymbol}, "function", f.Pos, f.End, "function")
	}
	for _, tb := range file.Tests {
		d := add(key{path, tb.Description, nsNone}, "test", tb.Pos, tb.End, "test")
		d.name = span{d.first, 0, len(ix.text.line(d.first))}
	}
	// A body that does not parse yet (being typed) is still a definition
	// (without parse errors, the tree has every declaration).
	if len(diags) > 0 {
		for _, td := range ix.textDecls() {
			if td.kind != "test" && ix.byName[td.name] == nil {
				l := min(td.last, len(ix.text.lines)-1)
				add(key{path, td.name, nsSymbol}, td.kind, ast.Pos{Line: td.first + 1}, ast.Pos{Line: l + 1}, td.kind)
			}
		}
	}
	ix.leadingComments()
	tree := ix.treeRefs()
	for _, d := range append([]*def(nil), ix.defs...) {
		switch d.kind {
		case "workflow", "rule", "function", "test":
			vars := ix.bodyVars(d)
			for l := d.first + 1; l < d.last; l++ {
				if !ix.inConfig(l) {
					ix.scanLine(l, false, tree, vars)
				}
			}
		case "local":
			for l := d.first; l <= d.last; l++ {
				ix.scanLine(l, true, tree, nil)
			}
		}
	}
	sort.SliceStable(ix.defs, func(i, j int) bool { return ix.defs[i].first < ix.defs[j].first })
	sort.SliceStable(ix.refs, func(i, j int) bool {
		a, b := ix.refs[i], ix.refs[j]
		return a.line < b.line || a.line == b.line && a.from < b.from
	})
	return ix
}

// leadingComments gives each declaration the run of top-level comment
// lines of File.Items right above it (a shebang is not documentation).
func (ix *index) leadingComments() {
	runs := map[int][]string{} // by the run's last 0-based line
	var run []string
	last := -2
	for _, it := range ix.file.Items {
		c, ok := it.(*ast.Comment)
		if !ok || c.Line == 1 && strings.HasPrefix(c.Text, "#!") {
			continue
		}
		if c.Line-1 != last+1 {
			run = nil
		}
		run, last = append(run, strings.TrimSpace(c.Text)), c.Line-1
		runs[last] = run
	}
	for _, d := range ix.defs {
		d.doc = runs[d.first-1]
	}
}

// treeRefs adds the references the tree positions: the REFs of run,
// ensure, if, send, routes and route targets, and a rule's ensure. It
// returns where each starts, so that scanLine does not add them again.
func (ix *index) treeRefs() map[[2]int]bool {
	at := map[[2]int]bool{}
	add := func(r ast.Ref, p ast.Pos) {
		line, from := p.Line-1, p.Col-1
		switch d := ix.byName[r.Name]; {
		case p.Line == 0: // no REF, or a recover body's statement (scanLine reads it)
			return
		case r.Alias != "":
			if !ix.aliasRef(line, from, r.Alias, r.Name) {
				return
			}
		case d != nil && d.kind != "local":
			ix.refs = append(ix.refs, ref{d.key, span{line, from, from + len(r.Name)}})
		default:
			return
		}
		at[[2]int{line, from}] = true
	}
	var steps func([]ast.Step)
	steps = func(ss []ast.Step) {
		for _, s := range ss {
			switch s := s.(type) {
			case *ast.Run:
				add(s.Ref, s.RefPos)
			case *ast.Ensure:
				add(s.Ref, s.RefPos)
				steps(s.Recover)
			case *ast.If:
				add(s.Ref, s.RefPos)
				steps(s.Then)
				steps(s.Else)
			case *ast.Send:
				add(s.Channel, s.RefPos)
			case *ast.Receive:
				add(s.Channel, s.RefPos)
			}
		}
	}
	for _, w := range ix.file.Workflows {
		for _, rt := range w.Routes {
			add(rt.Channel, rt.RefPos)
			for _, t := range rt.Targets {
				add(t.Ref, t.RefPos)
			}
		}
		steps(w.Steps)
	}
	for _, r := range ix.file.Rules {
		for _, c := range r.Body {
			if c.Kind == ast.BodyEnsure {
				add(c.Ref, c.RefPos)
			}
		}
	}
	return at
}

// aliasRef adds the references of `alias.name` written at byte from of
// line: to the import and to the imported module's name. It is false when
// alias is no import's.
func (ix *index) aliasRef(line, from int, alias, name string) bool {
	target, ok := ix.aliases[alias]
	if ok {
		to := from + len(alias)
		ix.refs = append(ix.refs,
			ref{key{ix.path, alias, nsAlias}, span{line, from, to}},
			ref{key{target, name, nsSymbol}, span{line, to + 1, to + 1 + len(name)}})
	}
	return ok
}

// inConfig reports whether line is inside a config block (keys such as
// agent.backend are not references, even when an alias is called agent).
func (ix *index) inConfig(line int) bool {
	for _, c := range ix.configs {
		if line >= c.Line-1 && line <= c.End.Line-1 {
			return true
		}
	}
	return false
}

func indent(l string) int { return len(l) - len(strings.TrimLeft(l, " \t")) }
func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// tokenIndex is the first whole-token occurrence of tok in l at or after
// from, or -1.
func tokenIndex(l, tok string, from int) int {
	for from <= len(l) {
		i := strings.Index(l[from:], tok)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(tok)
		if (i == 0 || !isIdentByte(l[i-1]) && l[i-1] != '.') && (end == len(l) || !isIdentByte(l[end])) {
			return i
		}
		from = i + 1
	}
	return -1
}

// tokenAfter is the span of name after the keyword on line (the whole
// line's start when either is missing): a declaration's name, which the
// tree does not position.
func (ix *index) tokenAfter(line int, keyword, name string) span {
	l := ix.text.line(line)
	from := tokenIndex(l, keyword, 0)
	if from < 0 {
		from = 0
	} else {
		from += len(keyword)
	}
	if i := tokenIndex(l, name, from); i >= 0 {
		return span{line, i, i + len(name)}
	}
	return span{line, 0, 0}
}

// lastToken is the span of the last whole-token name on line: an
// import's alias (the tree has no position for it).
func (ix *index) lastToken(line int, name string) span {
	l := ix.text.line(line)
	at := -1
	for i := tokenIndex(l, name, 0); i >= 0; i = tokenIndex(l, name, i+1) {
		at = i
	}
	if at < 0 {
		return span{line, 0, 0}
	}
	return span{line, at, at + len(name)}
}

// scanLine collects the references of one body line that the tree does
// not position (onlyLocals: a local's value, where only `$name` refers to
// something; tree: where treeRefs found a REF). The tree has no node for:
//   - `$local` and `${local}` uses, inside any shell text;
//   - `alias.name` words inside shell text (the alias rewrite replaces them
//     anywhere, quotes or not);
//   - command words naming a workflow, rule or function in shell lines and
//     the `run`/`ensure` targets and channel sends of recover bodies, whose
//     statements have no RefPos;
//   - a test block's statements (`mock workflow name`, `out = alias.wf`);
//   - everything in a body the parser did not reach (being typed), and
//     sends and routes it rejected (`ch -> good, bad-target`).
func (ix *index) scanLine(line int, onlyLocals bool, tree map[[2]int]bool, vars map[string]*def) {
	l := ix.text.line(line)
	if strings.HasPrefix(strings.TrimSpace(l), "#") {
		return
	}
	// A test's `mock workflow name {` names a symbol of the first import.
	if m := mockLine().FindStringSubmatchIndex(l); m != nil && ix.file.IsTest && len(ix.file.Imports) > 0 {
		target := ix.aliases[ix.file.Imports[0].Alias]
		ix.refs = append(ix.refs, ref{key{target, l[m[2]:m[3]], nsSymbol}, span{line, m[2], m[3]}})
		return
	}
	// A route's targets: every REF after `->`.
	routeAt := -1
	if head, _, ok := strings.Cut(strings.TrimSpace(l), "->"); ok && shellscan.IsRef(strings.TrimSpace(head)) {
		routeAt = strings.Index(l, "->")
	}
	quoted := quotes(l)
	for i := 0; i < len(l); i++ {
		c := l[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') || i > 0 && (isIdentByte(l[i-1]) || l[i-1] == '.') {
			continue
		}
		j := i
		for j < len(l) && (isIdentByte(l[j]) || l[j] == '.' && j+1 < len(l) && isIdentByte(l[j+1])) {
			j++
		}
		tok := l[i:j]
		start := i
		i = j - 1
		if tree[[2]int{line, start}] {
			continue
		}
		dollar := start > 0 && l[start-1] == '$' || start > 1 && l[start-2:start] == "${"
		if dollar {
			if quoted[start] == '\'' {
				continue // no expansion inside single quotes
			}
			name, _, _ := strings.Cut(tok, ".")
			if d := vars[name]; d != nil {
				ix.refs = append(ix.refs, ref{d.key, span{line, start, start + len(name)}})
			} else if d := ix.byName[name]; d != nil && d.kind == "local" {
				ix.refs = append(ix.refs, ref{d.key, span{line, start, start + len(name)}})
			}
			continue
		}
		if onlyLocals {
			continue
		}
		// A name inside quotes is text (`log "run x"`, `echo "see lib.x"`),
		// except as the first word of a command substitution.
		text := quoted[start] != 0 && l[start-1] != '(' && l[start-1] != '`'
		if d := vars[tok]; d != nil && !text && assignsAt(l, start, tok) {
			if d.name.line != line || d.name.from != start {
				ix.refs = append(ix.refs, ref{d.key, span{line, start, j}})
			}
			continue
		}
		if alias, name, dotted := strings.Cut(tok, "."); dotted {
			if !text {
				name, _, _ = strings.Cut(name, ".")
				ix.aliasRef(line, start, alias, name)
			}
			continue
		}
		d := ix.byName[tok]
		if d == nil || text {
			continue
		}
		rest := strings.TrimLeft(l[j:], " \t")
		var is bool
		switch d.kind {
		case "channel":
			is = strings.HasPrefix(rest, "<-") || strings.HasPrefix(rest, "->") ||
				strings.HasSuffix(strings.TrimRight(l[:start], " \t"), "<-") // a receive
		case "workflow", "rule", "function":
			is = routeAt >= 0 && start > routeAt || commandWord(l[:start])
		}
		if is {
			ix.refs = append(ix.refs, ref{d.key, span{line, start, j}})
		}
	}
}

// quotes tells for each byte of l the quote it is inside ('\”, '"' or 0),
// the way the shell reads one line: backslash escapes outside single
// quotes. (Alias rewriting ignores quotes, so only bare names consult it.)
func quotes(l string) []byte {
	q := make([]byte, len(l)+1)
	var in byte
	for i := 0; i < len(l); i++ {
		c := l[i]
		switch {
		case in != '\'' && c == '\\' && i+1 < len(l):
			q[i], q[i+1] = in, in
			i++
			continue
		case in == 0 && (c == '\'' || c == '"'):
			q[i] = 0
			in = c
			continue
		case in != 0 && c == in:
			in = 0
		}
		q[i] = in
	}
	return q
}

// commandWord reports whether a word after before is in command position
// or the target of `run`/`ensure`.
func commandWord(before string) bool {
	b := strings.TrimRight(before, " \t")
	if b == "" {
		return true
	}
	switch b[len(b)-1] {
	case '|', ';', '&', '(', '`', '{', '!':
		return true
	case '=':
		return len(b) < len(before) // `x = cmd`, not `x=word`
	}
	w := b[strings.LastIndexAny(b, " \t(;|&")+1:]
	switch w {
	case "run", "ensure", "then", "else", "do", "recover", "if", "while", "until":
		return true
	}
	return false
}

// at returns the key and span of the reference or definition name at a
// byte offset of a line.
func (ix *index) at(line, b int) (key, span, bool) {
	for _, r := range ix.refs {
		if r.contains(line, b) {
			return r.key, r.span, true
		}
	}
	for _, d := range ix.defs {
		if d.ns != nsNone && d.name.to > d.name.from && d.name.contains(line, b) {
			return d.key, d.name, true
		}
	}
	return key{}, span{}, false
}

// def returns the definition of k in this module, or nil.
func (ix *index) def(k key) *def {
	for _, d := range ix.defs {
		if d.key == k {
			return d
		}
	}
	return nil
}

// varLine matches a line assigning a variable of a body: a capture
// (`x = run …`, `x = <- ch`), a declaration (`local x=1`) or a plain
// assignment (`x=1`), and `for x in`.
var varLine = lazy.Regexp(`^\s*(?:(?:local|export|readonly|declare)\s+|for\s+)?([A-Za-z_][A-Za-z0-9_]*)(?:\s*=|\s+in\b)`)

// assignsAt reports whether the word tok at byte start of l is the name a
// varLine assigns.
func assignsAt(l string, start int, tok string) bool {
	m := varLine().FindStringSubmatchIndex(l)
	return m != nil && m[2] == start && l[m[2]:m[3]] == tok
}

// bodyVars returns the variables the body of d assigns, each a definition
// at its first assignment (the references are its `$x`/`${x}` uses and
// other assignments, in this body only: bash variables of a step do not
// reach another workflow).
func (ix *index) bodyVars(d *def) map[string]*def {
	vars := map[string]*def{}
	for l := d.first + 1; l < d.last; l++ {
		line := ix.text.line(l)
		m := varLine().FindStringSubmatchIndex(line)
		if m == nil || ix.inConfig(l) || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		name := line[m[2]:m[3]]
		switch name {
		case "local", "export", "readonly", "declare", "for", "if", "while", "until", "run", "ensure", "prompt", "log", "logerr", "return":
			continue
		}
		if vars[name] != nil {
			continue
		}
		v := &def{key: key{ix.path, fmt.Sprintf("%s@%d", name, d.first+1), nsVar}, kind: "variable", name: span{l, m[2], m[3]}, first: l, last: l}
		vars[name] = v
		ix.defs = append(ix.defs, v)
	}
	return vars
}

var mockLine = lazy.Regexp(`^\s*mock\s+(?:workflow|rule|function)\s+([A-Za-z_][A-Za-z0-9_]*)\s*\{\s*$`)

var declLine = lazy.Regexp(`^(?:export\s+)?(workflow|rule|function|test)\s+("(?:[^"\\]|\\.)*"|[A-Za-z_][A-Za-z0-9_]*)`)

// textDecl is a declaration found in the text alone: a buffer being typed
// often does not parse (an unterminated body drops it from the AST), and
// completion still needs to know which body the cursor is in.
type textDecl struct {
	kind, name  string
	first, last int // last: the closing `}`'s line, or len(lines) when unterminated
}

func (ix *index) textDecls() []textDecl {
	var out []textDecl
	lines := ix.text.lines
	for i := 0; i < len(lines); i++ {
		m := declLine().FindStringSubmatch(strings.TrimSpace(lines[i]))
		if m == nil || !strings.HasSuffix(strings.TrimSpace(lines[i]), "{") {
			continue
		}
		d := textDecl{kind: m[1], name: m[2], first: i, last: len(lines)}
		in := indent(lines[i])
		for j := i + 1; j < len(lines); j++ {
			if strings.TrimSpace(lines[j]) == "}" && indent(lines[j]) <= in {
				d.last = j
				break
			}
			if declLine().MatchString(lines[j]) && indent(lines[j]) <= in {
				d.last = j // the next declaration ends an unterminated body
				break
			}
		}
		out = append(out, d)
		if d.last < len(lines) {
			i = d.last
		}
	}
	return out
}
