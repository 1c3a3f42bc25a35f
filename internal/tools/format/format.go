package format

import (
	"fmt"
	"sort"
	"strings"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/internal/engine"
)

// Error is returned for a file that is not formatted because it does not
// parse. Diags are sorted, as check prints them.
type Error struct{ Diags []*diag.Diagnostic }

func (e *Error) Error() string {
	var b strings.Builder
	diag.WriteText(&b, e.Diags)
	return strings.TrimSuffix(b.String(), "\n")
}

// Source returns the canonical layout of src, the contents of the file at
// path (absolute; it names positions and tells test files from modules).
// Only the text is needed: no file is read, imports are not resolved. A
// file that does not parse is returned as an *Error with its E_PARSE
// diagnostics; other problems (`jaiph check`'s) do not stop formatting.
func Source(path string, src []byte) ([]byte, error) {
	f, ds := engine.ParseSource(path, src)
	if len(ds) > 0 {
		return nil, &Error{Diags: ds}
	}
	return layout(f, src)
}

// kinds of top-level items; the header kinds come first in the output.
const (
	kImport = iota
	kConfig
	kChannel
	kLocal
	kDef // rule, function, workflow, test
)

// item is one top-level declaration: lines [start, end] (0-based) and the
// comment and blank lines before it (lead), which move with it.
type item struct {
	kind       int
	start, end int
	lead       []string
	blankAbove bool // a blank line separated it (with its comments) from what came before
	multiLocal bool // a double-quoted local over several lines
	// jaiph holds the lines (0-based) of a workflow's Jaiph steps: the
	// lowering rewrites them, so the scanner's reading of quotes around
	// them is not bash's.
	jaiph map[int]bool
}

func layout(f *ast.File, src []byte) ([]byte, error) {
	text := strings.ReplaceAll(string(src), "\r\n", "\n")
	lines := strings.Split(text, "\n")
	if len(lines) > 0 && lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	items := collect(f, lines)
	var out []string
	emit := func(s ...string) { out = append(out, s...) }
	first := 0
	if len(lines) > 0 && strings.HasPrefix(lines[0], "#!") {
		emit(strings.TrimRight(lines[0], " \t"))
		first = 1
	}
	// The lines between items must be comments and blank lines only;
	// anything else means the AST and this reading of the file disagree,
	// and the file is left alone rather than mangled.
	prevEnd := first - 1
	for _, it := range items {
		lead, blank, err := trivia(lines[prevEnd+1 : it.start])
		if err != nil {
			return nil, fmt.Errorf("line %d: %v", prevEnd+2, err)
		}
		it.lead, it.blankAbove = lead, blank
		prevEnd = it.end
	}
	tail, tailBlank, err := trivia(lines[prevEnd+1:])
	if err != nil {
		return nil, fmt.Errorf("line %d: %v", prevEnd+2, err)
	}
	if n := len(tail); n > 0 && tail[n-1] == "" {
		tail = tail[:n-1]
	}
	// Comments at the top of the file that a blank line separates from
	// the first item are the file's own: they stay first.
	fileComment := false
	if len(items) > 0 {
		lead := items[0].lead
		for k := len(lead) - 1; k >= 0; k-- {
			if lead[k] == "" {
				if first == 1 && items[0].blankAbove {
					emit("")
				}
				emit(lead[:k]...)
				items[0].lead, items[0].blankAbove = lead[k+1:], true
				fileComment = true
				break
			}
		}
	}
	// Header items first, each group in source order.
	sort.SliceStable(items, func(i, j int) bool { return items[i].kind < kDef && items[j].kind == kDef })
	if fileComment {
		items[0].blankAbove = true
	}
	for n, it := range items {
		if len(out) > 0 && separated(items, n) {
			emit("")
		}
		emit(it.lead...)
		emit(body(it, lines)...)
	}
	if len(tail) > 0 {
		if len(out) > 0 && tailBlank {
			emit("")
		}
		emit(tail...)
	}
	if len(out) == 0 {
		return []byte{}, nil
	}
	return []byte(strings.Join(out, "\n") + "\n"), nil
}

// separated reports whether a blank line goes before items[n]: always
// around definitions, config blocks and multi-line locals and between
// different kinds; otherwise as the source had it.
func separated(items []*item, n int) bool {
	it := items[n]
	if n == 0 {
		return it.blankAbove
	}
	prev := items[n-1]
	switch {
	case it.kind >= kDef, prev.kind >= kDef, it.kind == kConfig, prev.kind == kConfig,
		it.multiLocal, prev.multiLocal, it.kind != prev.kind:
		return true
	}
	return it.blankAbove
}

// trivia returns the comment lines of a run of comment and blank lines
// with inner blank runs collapsed to one and the ends trimmed, and whether
// the run started with a blank line.
func trivia(lines []string) ([]string, bool, error) {
	var out []string
	blankAbove, gap := false, false
	for k, l := range lines {
		t := strings.TrimSpace(l)
		switch {
		case t == "":
			if k == 0 {
				blankAbove = true
			}
			gap = len(out) > 0
		case strings.HasPrefix(t, "#"):
			if gap {
				out = append(out, "")
			}
			gap = false
			out = append(out, t)
		default:
			return nil, false, fmt.Errorf("unexpected top-level text %q", t)
		}
	}
	if gap {
		out = append(out, "") // the blank line between the comments and their item
	}
	return out, blankAbove, nil
}

// collect lists the top-level items of f in source order.
func collect(f *ast.File, lines []string) []*item {
	var items []*item
	add := func(kind, line, end int) *item {
		it := &item{kind: kind, start: line - 1, end: end}
		items = append(items, it)
		return it
	}
	for _, im := range f.Imports {
		add(kImport, im.Line, im.Line-1)
	}
	for _, c := range f.Channels {
		add(kChannel, c.Line, c.Line-1)
	}
	for _, l := range f.Locals {
		n := 0
		if l.Quote == ast.LocalDouble {
			n = strings.Count(l.Value, "\n")
		}
		add(kLocal, l.Line, l.Line-1+n).multiLocal = n > 0
	}
	if f.Config != nil {
		end := f.Config.Line
		for end < len(lines) && strings.TrimSpace(lines[end]) != "}" {
			end++
		}
		add(kConfig, f.Config.Line, end)
	}
	for _, r := range f.Rules {
		add(kDef, r.Line, -1)
	}
	for _, fn := range f.Functions {
		add(kDef, fn.Line, -1)
	}
	for _, w := range f.Workflows {
		add(kDef, w.Line, -1).jaiph = jaiphLines(w.Steps, lines, map[int]bool{})
	}
	for _, t := range f.Tests {
		add(kDef, t.Line, -1)
	}
	sort.SliceStable(items, func(i, j int) bool { return items[i].start < items[j].start })
	// A definition ends at its closing `}`: the last line before the next
	// item that is neither blank nor a comment.
	for n, it := range items {
		if it.end >= 0 {
			continue
		}
		next := len(lines)
		if n+1 < len(items) {
			next = items[n+1].start
		}
		it.end = next - 1
		for it.end > it.start {
			t := strings.TrimSpace(lines[it.end])
			if t != "" && !strings.HasPrefix(t, "#") {
				break
			}
			it.end--
		}
	}
	return items
}

// jaiphLines adds to m the lines of the steps that are not plain shell,
// with the whole of a multi-line recover block (its statements carry the
// ensure's line).
func jaiphLines(steps []ast.Step, lines []string, m map[int]bool) map[int]bool {
	for _, s := range steps {
		switch s := s.(type) {
		case *ast.Shell, *ast.Comment:
			continue
		case *ast.If:
			jaiphLines(s.Then, lines, m)
			jaiphLines(s.Else, lines, m)
		case *ast.Ensure:
			if i := s.Line - 1; s.RecoverBlock && i < len(lines) && strings.HasSuffix(strings.TrimSpace(lines[i]), "{") {
				for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "}"; i++ {
					m[i] = true
				}
			}
		}
		m[s.StepPos().Line-1] = true
	}
	return m
}

// structural are the lines the parser reads as the end of a block whatever
// the quotes before them.
var structural = map[string]bool{"fi": true, "else": true, "}": true}

// body returns the canonical lines of one item.
func body(it *item, lines []string) []string {
	src := lines[it.start : it.end+1]
	switch {
	case it.multiLocal:
		// The value's lines are the string's text; only blanks may follow
		// its closing quote on the last line.
		out := append([]string{strings.TrimLeft(src[0], " \t")}, src[1:]...)
		out[len(out)-1] = strings.TrimRight(out[len(out)-1], " \t")
		return out
	case it.start == it.end:
		return []string{header(it.kind, strings.TrimSpace(src[0]))}
	}
	out := []string{header(it.kind, strings.TrimSpace(src[0]))}
	sc := &scanner{}
	if it.kind == kConfig {
		sc.push("cfg")
	} else {
		sc.push("{")
	}
	inner := src[1 : len(src)-1]
	pendingBlank := false
	for k, raw := range inner {
		info := sc.line(raw)
		if info.inString && (it.kind == kDef && structural[strings.TrimSpace(raw)] || it.jaiph[it.start+1+k]) {
			// A string runs over a line the lowering rewrites: over the
			// end of a managed if or recover block, where it writes its
			// own fi, else or loop end indented like the block's first
			// line, or over a Jaiph step. Bash then reads the lowered
			// text's quotes differently from this scanner, so the
			// definition stays as it is.
			return src
		}
		if info.verbatim {
			if pendingBlank {
				out = append(out, "")
				pendingBlank = false
			}
			out = append(out, trimEnd(raw, info)) // blanks after a closing quote are not text
			continue
		}
		t := strings.TrimSpace(raw)
		if t == "" && !info.cont {
			// Collapsed, and dropped after the opening line and before
			// the closing `}`.
			pendingBlank = len(out) > 1
			continue
		}
		if pendingBlank {
			out = append(out, "")
			pendingBlank = false
		}
		out = append(out, reindent(raw, info))
	}
	return append(out, "}")
}

// reindent puts raw at its nesting level: two spaces a level, a
// continuation line one level deeper than its nesting. Only leading and
// trailing white space changes, and not where it is text: after a glued
// continuation, at the end of a line that ends inside a string, or after a
// backslash that escapes it.
func reindent(raw string, info lineInfo) string {
	body := strings.TrimLeft(raw, " \t")
	unindented := len(body) == len(raw)
	body = trimEnd(body, info)
	switch {
	case body == "":
		return ""
	case info.cont && info.glued && unindented:
		return body // its missing leading blank joins two words
	case info.cont:
		return strings.Repeat("  ", info.indent+1) + body
	}
	return strings.Repeat("  ", info.indent) + body
}

// trimEnd removes the trailing blanks of a line unless they are text: the
// line ends inside a string or here-document, or a backslash escapes the
// last blank.
func trimEnd(s string, info lineInfo) string {
	if t := strings.TrimRight(s, " \t"); !info.openQuote && !oddBackslashes(t) {
		return t
	}
	return s
}

// oddBackslashes reports whether s ends in an odd number of backslashes.
func oddBackslashes(s string) bool {
	n := 0
	for n < len(s) && s[len(s)-1-n] == '\\' {
		n++
	}
	return n%2 == 1
}

// header normalises the inner spacing of a declaration's first line (an
// import, a channel, `config {`, a definition's header): each run of
// blanks becomes one space, outside quotes, up to a definition's opening
// `{`, a local's `=` and before a comment (a local's value is text).
func header(kind int, s string) string {
	var b strings.Builder
	var quote byte
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case quote != 0:
			if c == '\\' && quote == '"' && i+1 < len(s) {
				b.WriteByte(c)
				i++
				c = s[i]
			} else if c == quote {
				quote = 0
			}
		case c == '"' || c == '\'':
			quote = c
		case c == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t'),
			c == '{' && (kind == kDef || kind == kConfig), c == '=' && kind == kLocal:
			return b.String() + s[i:]
		case c == ' ' || c == '\t':
			for i+1 < len(s) && (s[i+1] == ' ' || s[i+1] == '\t') {
				i++
			}
			c = ' '
		}
		b.WriteByte(c)
	}
	return b.String()
}
