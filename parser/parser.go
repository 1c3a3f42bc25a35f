package parser

import (
	"bytes"
	"path/filepath"
	"strings"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/internal/shellscan"
)

// Parse parses one module or test file. path must be absolute; it is used in
// positions and to resolve imports. Parsing recovers after an error and goes on
// with the next declaration, so every parse error of the file is returned, in
// source order; the first one is what the reference reports.
func Parse(path string, src []byte) (*ast.File, []*diag.Diagnostic) {
	return parse(path, src, splitLine)
}

// parse is Parse with the choice of the line a large file is split at
// (parseHalves); 0 for none.
func parse(path string, src []byte, split func(lines []string) int) (*ast.File, []*diag.Diagnostic) {
	// Editors on some systems save UTF-8 with a byte order mark; it is not
	// part of the first line (the reference runs such files).
	src = bytes.TrimPrefix(src, []byte("\xef\xbb\xbf"))
	p := &parser{
		path:  path,
		lines: splitLines(string(src)),
		file:  &ast.File{Path: path, IsTest: IsTestFile(path)},
	}
	p.file.Lines = p.lines
	p.parseTopLevel(split(p.lines))
	if p.failed {
		p.file.EntryErrorsOnly = false
	}
	if !p.failed {
		p.checkNamespace()
	}
	if p.file.IsTest && len(p.file.Tests) == 0 && !p.failed {
		p.errorAt(1, 1, "test file must contain at least one test block")
	}
	return p.file, p.diags
}

// IsTestFile reports whether path names a test file (*.test.jh, *.test.jph).
func IsTestFile(path string) bool {
	return strings.HasSuffix(path, ".test.jh") || strings.HasSuffix(path, ".test.jph")
}

// IsSourceFile reports whether path has a Jaiph extension (.jh, .jph).
func IsSourceFile(path string) bool {
	return strings.HasSuffix(path, ".jh") || strings.HasSuffix(path, ".jph")
}

// ResolveImport applies the reference's import resolution: relative to the
// importing file's directory; a path ending in .jh/.jph is used as is,
// otherwise `<p>.jh` then `<p>.jph`; when neither exists the `.jph` candidate.
func ResolveImport(importer, path string, exists func(string) bool) string {
	p := path
	if !filepath.IsAbs(p) {
		p = filepath.Join(filepath.Dir(importer), p)
	}
	if IsSourceFile(p) {
		return p
	}
	if exists(p + ".jh") {
		return p + ".jh"
	}
	return p + ".jph"
}

type parser struct {
	path   string
	lines  []string
	file   *ast.File
	diags  []*diag.Diagnostic
	failed bool // a parse error was reported
	// sawConfig is set by a module config block (parseHalves).
	sawConfig bool
	// eof is set when a construct ran to the end of the file with an
	// error, so the enclosing bodies do not add "unterminated" noise.
	eof bool
}

func (p *parser) errorAt(line, col int, msg string) {
	p.diags = append(p.diags, diag.New(p.path, line, col, diag.Parse, msg))
	p.failed = true
}

// entryError reports a config entry's error (an unknown key, a value of
// the wrong type): an E_PARSE like the reference's, but the file's
// structure is whole, so the rest of it is still checked and validated
// (every diagnostic in one pass); the block is dropped.
func (p *parser) entryError(line, col int, msg string) {
	p.diags = append(p.diags, diag.New(p.path, line, col, diag.Parse, msg))
	p.file.EntryErrorsOnly = !p.failed
}

// errorAtEOF reports an error of a construct that consumed the rest of the
// file.
func (p *parser) errorAtEOF(line, col int, msg string) {
	p.errorAt(line, col, msg)
	p.eof = true
}

// unterminated reports an unterminated body unless an inner construct
// already ran to the end of the file with an error.
func (p *parser) unterminated(line int, msg string) {
	if !p.eof {
		p.errorAtEOF(line, 1, msg)
	}
}

func (p *parser) pos(i, col int) ast.Pos { return ast.Pos{File: p.path, Line: i + 1, Col: col} }

// endOf is the position just after the last non-blank character of line i
// (the end of the file for an index past the last line).
func (p *parser) endOf(i int) ast.Pos {
	if i >= len(p.lines) {
		i = len(p.lines) - 1
	}
	return p.pos(i, len(strings.TrimRight(p.lines[i], " \t"))+1)
}

// item adds a top-level node to File.Items.
func (p *parser) item(it ast.Item) { p.file.Items = append(p.file.Items, it) }

// trivia keeps a top-level comment or blank line i in File.Items; a blank
// line right after a blank run extends it.
func (p *parser) trivia(i int, t string) {
	if t != "" {
		p.item(&ast.Comment{Pos: p.pos(i, indentCol(p.lines[i])), End: p.endOf(i), Text: t})
		return
	}
	if n := len(p.file.Items); n > 0 {
		if b, ok := p.file.Items[n-1].(*ast.Blank); ok && b.End.Line == i {
			b.End, b.Lines = p.pos(i, 1), b.Lines+1
			return
		}
	}
	p.item(&ast.Blank{Pos: p.pos(i, 1), End: p.pos(i, 1), Lines: 1})
}

// parseTopLevel parses the whole file: in two halves at once when k > 0
// (parseHalves), else line after line.
func (p *parser) parseTopLevel(k int) {
	if k > 0 {
		p.parseHalves(k)
		return
	}
	p.parseTopLevelRange(0, len(p.lines))
}

// halvesFrom is the least number of lines parsed in two halves.
const halvesFrom = 1000

// splitLine returns the index of a line in the second half of a large
// file's lines that starts a declaration after one ended (`}` on the line
// before), or 0.
func splitLine(lines []string) int {
	if len(lines) < halvesFrom {
		return 0
	}
	for k := len(lines) / 2; k < len(lines); k++ {
		if isSplitLine(lines, k) {
			return k
		}
	}
	return 0
}

// isSplitLine reports whether parsing may be split at line k: it starts a
// declaration, after a line that closed one.
func isSplitLine(lines []string, k int) bool {
	return k > 0 && lines[k-1] == "}" && startsWithAny(lines[k], "rule ", "workflow ", "function ", "export ")
}

// parseHalves parses lines [0, k) here and [k, end) on another goroutine,
// then joins the two when the first half ended exactly at line k, which
// is what parsing line after line would have done. Otherwise (a construct
// of the first half ran on past k: an unclosed string or body) the second
// half is dropped and the parse goes on from where the first half ended.
// Checking the 4,500-line benchmark module spends a fifth of its time in
// the parser, on one CPU while the other has nothing to do yet.
func (p *parser) parseHalves(k int) {
	q := &parser{path: p.path, lines: p.lines, file: &ast.File{Path: p.path, IsTest: p.file.IsTest}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		q.parseTopLevelRange(k, len(q.lines))
	}()
	end := p.parseTopLevelRange(0, k)
	<-done
	// A config block in each half is the duplicate that only parsing in
	// order reports.
	if end != k || p.file.Config != nil && q.sawConfig {
		p.parseTopLevelRange(end, len(p.lines))
		return
	}
	f, g := p.file, q.file
	f.Items = append(f.Items, g.Items...)
	if g.Config != nil {
		f.Config = g.Config
	}
	f.Imports = append(f.Imports, g.Imports...)
	f.Channels = append(f.Channels, g.Channels...)
	f.Locals = append(f.Locals, g.Locals...)
	f.Rules = append(f.Rules, g.Rules...)
	f.Functions = append(f.Functions, g.Functions...)
	f.Workflows = append(f.Workflows, g.Workflows...)
	f.Tests = append(f.Tests, g.Tests...)
	// Parsing in order leaves it set when an entry error came before any
	// other error; Parse clears it when there was one.
	f.EntryErrorsOnly = f.EntryErrorsOnly || g.EntryErrorsOnly
	p.diags = append(p.diags, q.diags...)
	p.failed = p.failed || q.failed
	p.eof = p.eof || q.eof
}

// parseTopLevelRange classifies each top-level line from i on in the
// reference's order (docs/language.md#top-level) until a construct ends at or past end,
// and returns the index of the line after it.
func (p *parser) parseTopLevelRange(i, end int) int {
	for i < end {
		raw := p.lines[i]
		t := trim(raw)
		switch {
		case t == "" || i == 0 && strings.HasPrefix(raw, "#!") || strings.HasPrefix(t, "#"):
			if i < len(p.lines)-1 || raw != "" { // not the empty text after the final newline
				p.trivia(i, t)
			}
			i++
		case strings.HasPrefix(t, "config") && strings.HasPrefix(trim(t[6:]), "{"):
			i = p.parseModuleConfig(i)
		case strings.HasPrefix(t, "import "):
			p.parseImport(i, t)
			i++
		case strings.HasPrefix(t, "channel "):
			if h, ok := parseChannelHeader(t); ok {
				c := &ast.Channel{Pos: p.pos(i, 1), End: p.endOf(i), Name: h.Name}
				p.file.Channels = append(p.file.Channels, c)
				p.item(c)
			} else {
				p.errorAt(i+1, 1, "invalid channel declaration; expected exactly: channel <name>")
			}
			i++
		case p.file.IsTest && strings.HasPrefix(t, "test "):
			i = p.parseTest(i, t)
		case strings.HasPrefix(t, "local") && len(t) > 5 && isSpace(t[5]) && shellscan.IsIdentStart(trim(t[5:])[0]):
			i = p.parseLocal(i, t)
		case strings.Contains(t, "rule "):
			i = p.parseRuleOrWorkflow(i, t, "rule")
		case strings.Contains(t, "function "):
			i = p.parseFunction(i, t)
		case strings.Contains(t, "workflow "):
			i = p.parseRuleOrWorkflow(i, t, "workflow")
		default:
			p.errorAt(i+1, 1, "unsupported top-level statement: "+t)
			i = p.skipToNextDecl(i + 1)
		}
	}
	return i
}

// skipToNextDecl is error recovery: it returns the index of the next line that
// starts a top-level declaration in column 1, so one bad line does not turn the
// rest of the file into noise.
func (p *parser) skipToNextDecl(i int) int {
	for ; i < len(p.lines); i++ {
		l := p.lines[i]
		if l == "" || isSpace(l[0]) {
			continue
		}
		w, _ := firstWord(l)
		switch w {
		case "rule", "workflow", "function", "export", "import", "channel", "local", "config", "test", "config{":
			return i
		}
		if strings.HasPrefix(w, "config") {
			return i
		}
	}
	return i
}

func (p *parser) parseImport(i int, t string) {
	h, ok := parseImportHeader(t)
	if !ok {
		p.errorAt(i+1, 1, `import must match: import "<path>" as <alias>`)
		return
	}
	im := &ast.Import{Pos: p.pos(i, colOf(p.lines[i], "import", 1)), End: p.endOf(i), Path: h.Path, Alias: h.Alias}
	p.file.Imports = append(p.file.Imports, im)
	p.item(im)
}

// parseLocal parses `local NAME = VALUE` whose value may be a multi-line
// double-quoted string (docs/language.md#locals). It returns the next line index.
func (p *parser) parseLocal(i int, t string) int {
	text := trim(t[5:])
	h, ok := parseHead(text, grammars.local())
	var value string
	if ok {
		value = trim(text[h.EndPos.Offset:])
	}
	if value == "" {
		p.errorAt(i+1, 1, "invalid local declaration — expected: local NAME = VALUE")
		return i + 1
	}
	loc := &ast.Local{Pos: p.pos(i, 1), Name: h.Name}
	next := i + 1
	switch value[0] {
	case '"':
		text, end, after := quotedUntilClose(value[1:], p.lines, next, '"')
		next = after
		if end < 0 {
			p.errorAt(i+1, 1, "unterminated string in local declaration")
			return next
		}
		if trim(text[end+1:]) != "" {
			p.errorAt(i+1, 1, "unexpected content after closing quote in local declaration")
			return next
		}
		loc.Value, loc.Quote = text[:end], ast.LocalDouble
	case '\'':
		end := strings.IndexByte(value[1:], '\'')
		if end < 0 {
			p.errorAt(i+1, 1, "unterminated string in local declaration")
			return next
		}
		if trim(value[end+2:]) != "" {
			p.errorAt(i+1, 1, "unexpected content after closing quote in local declaration")
			return next
		}
		loc.Value, loc.Quote = value[1:end+1], ast.LocalSingle
	default:
		loc.Value = value
	}
	loc.End = p.endOf(next - 1)
	p.file.Locals = append(p.file.Locals, loc)
	p.item(loc)
	return next
}

// parseModuleConfig parses the module-level config block starting at line i.
func (p *parser) parseModuleConfig(i int) int {
	p.sawConfig = true
	if p.file.Config != nil {
		p.errorAt(i+1, 1, "duplicate config block (only one allowed per file)")
		_, next := p.parseConfigBlock(i, false)
		return next
	}
	cfg, next := p.parseConfigBlock(i, false)
	p.file.Config = cfg
	if cfg != nil {
		p.item(cfg)
	}
	return next
}

// parseRuleOrWorkflow parses a rule or workflow declaration and its body.
func (p *parser) parseRuleOrWorkflow(i int, t, kind string) int {
	name, export, ok := parseDeclHeader(t, kind)
	if !ok {
		p.errorAt(i+1, 1, "invalid "+kind+" declaration")
		return p.skipToNextDecl(i + 1)
	}
	if kind == "rule" {
		r := &ast.Rule{Pos: p.pos(i, 1), Name: name, Exported: export}
		body, next := p.parseBody(i, "rule", name)
		r.Body, r.End = body, p.endOf(next-1)
		p.file.Rules = append(p.file.Rules, r)
		p.item(r)
		return next
	}
	w := &ast.Workflow{Pos: p.pos(i, 1), Name: name, Exported: export}
	next := p.parseWorkflowBody(w, i)
	w.End = p.endOf(next - 1)
	p.file.Workflows = append(p.file.Workflows, w)
	p.item(w)
	return next
}

func (p *parser) parseFunction(i int, t string) int {
	name, ok := parseFuncHeader(t)
	if !ok {
		p.errorAt(i+1, 1, "invalid function declaration")
		return p.skipToNextDecl(i + 1)
	}
	fn := &ast.Function{Pos: p.pos(i, 1), Name: name}
	body, next := p.parseBody(i, "function", name)
	fn.Body, fn.End = body, p.endOf(next-1)
	p.file.Functions = append(p.file.Functions, fn)
	p.item(fn)
	return next
}

// parseBody parses a rule or function body (docs/language.md#rules, #functions): raw shell lines,
// brace-accumulated multi-line commands, comments, `ensure` calls (rules),
// value returns. decl is the declaration line index.
func (p *parser) parseBody(decl int, kind, name string) ([]*ast.BodyCmd, int) {
	var cmds []*ast.BodyCmd
	var block []string
	depth, blockLine := 0, 0
	flush := func(text string, line int) {
		cmds = append(cmds, &ast.BodyCmd{Pos: p.pos(line, 1), Kind: ast.BodyShell, Text: stripQuotePair(text)})
	}
	// Every command ends on the line the loop is at when it is added.
	ended := 0
	endAt := func(i int) {
		for ; ended < len(cmds); ended++ {
			cmds[ended].End = p.endOf(i)
		}
	}
	for i := decl + 1; i < len(p.lines); i++ {
		raw := p.lines[i]
		t := trim(raw)
		line := i
		// Here-document bodies stay verbatim, within their command.
		if !strings.HasPrefix(t, "#") {
			if head, body, last := p.verbatimLines(i); len(body) > 0 {
				t = head + "\n" + strings.Join(body, "\n")
				i = last
			}
		}
		if depth > 0 {
			block = append(block, t) // the reference trims every line of a block
			depth += shellscan.BraceDelta(raw)
			if depth <= 0 {
				depth = 0
				flush(strings.Join(block, "\n"), blockLine)
				endAt(i)
				block = nil
			}
			continue
		}
		switch {
		case t == "":
		case t == "}":
			return cmds, i + 1
		case strings.HasPrefix(t, "#"):
			cmds = append(cmds, &ast.BodyCmd{Pos: p.pos(line, 1), Kind: ast.BodyComment, Text: t})
		case kind == "rule" && strings.HasPrefix(t, "run "):
			cmds = append(cmds, &ast.BodyCmd{Pos: p.pos(line, colOf(raw, "run", 1)), Kind: ast.BodyRun, Text: t})
		case kind == "function" && shellscan.BraceDelta(raw) > 0:
			// A function line that opens braces starts a block before the
			// run/ensure test, so `run x {` reaches the validator's
			// function-body checks (docs/language.md#functions).
			depth, blockLine, block = shellscan.BraceDelta(raw), line, []string{t}
		case kind == "function" && (startsWithKeyword(t, "run") || startsWithKeyword(t, "ensure")):
			p.errorAt(line+1, 1, "function body cannot use run or ensure (move orchestration to a workflow)")
		case kind == "rule" && strings.HasPrefix(t, "ensure ") && isCall(t, "ensure"):
			// `ensure REF [args]` is a managed call; with a target that is
			// not a REF the line stays raw shell, as in the reference.
			r, args, off, _ := newLine(t).call("ensure")
			cmds = append(cmds, &ast.BodyCmd{Pos: p.pos(line, colOf(raw, "ensure", 1)), End: p.endOf(i), Kind: ast.BodyEnsure, Text: t, Ref: r, RefPos: p.pos(line, indentCol(raw)+off), Args: args})
		case strings.HasPrefix(t, "return") && isValueReturn(t):
			cmds = append(cmds, &ast.BodyCmd{Pos: p.pos(line, indentCol(raw)), Kind: ast.BodyReturn, Text: t, Value: trim(t[6:])})
		default:
			if d := shellscan.BraceDelta(raw); d > 0 {
				depth, blockLine, block = d, line, []string{t}
				continue
			}
			flush(t, line)
		}
		endAt(i)
	}
	p.unterminated(decl+1, "unterminated "+kind+" block: "+name)
	return cmds, len(p.lines)
}

// isCall reports whether t is `kw REF [args]`.
func isCall(t, kw string) bool {
	_, _, _, ok := newLine(t).call(kw)
	return ok
}

// isValueReturn reports whether t is a value return (docs/language.md#return).
func isValueReturn(t string) bool {
	_, ok := newLine(t).isValueReturn()
	return ok
}

// startsWithKeyword matches `^kw\s`.
func startsWithKeyword(t, kw string) bool { return shellscan.HasWordPrefix(t, kw) }

// stripQuotePair drops a quote pair around a whole command (quirk, docs/language.md#rules).
func stripQuotePair(text string) string {
	t := trim(text)
	if len(t) >= 2 && (t[0] == '"' || t[0] == '\'') && t[len(t)-1] == t[0] {
		return t[1 : len(t)-1]
	}
	return text
}
