package parser

import (
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/jaiph-go/jaiph/ast"
)

// The statement heads: the start of every Jaiph step form, matched over the
// tokens of the step lexer (steplex.go). A head ends where the form's
// verbatim text (ARGS, SHELL, a prompt's text, route targets) begins; that
// text is the raw substring of the line from the head's end, never
// re-joined tokens. Which head is tried in which order is the table
// stepForms (workflow.go), docs/language.md#steps.
//
// Each head is a short fixed sequence of tokens, matched here by hand: the
// participle grammars they were first written as (heads_oracle_test.go)
// cost two thirds of checking a large module (per line: a token slice
// grown one token at a time, reflective struct filling, a parse context
// per optional part) and most of its allocation. The grammars stay as the
// specification: FuzzHeadsAgree runs both on the same lines and fails on
// any difference. Heads used once per file (config entries, `local`, the
// import, channel, test and mock headers) are still participle grammars.

// tok is one token of a line: its type, its text, and its byte offset in
// the root line (the line a sub-line was cut from).
type tok struct {
	typ lexer.TokenType
	val string
	off int
}

// lexTokens lexes a root line; the last token is an EOF at its end.
func lexTokens(text string) []tok {
	var buf [24]tok
	ts := buf[:0]
	for i := 0; i < len(text); {
		j, typ := lexOne(text, i)
		ts = append(ts, tok{typ: typ, val: text[i:j], off: i})
		i = j
	}
	ts = append(ts, tok{typ: lexer.EOF, off: len(text)})
	return append(make([]tok, 0, len(ts)), ts...)
}

// cursor reads a line's tokens; it never moves past the EOF token.
type cursor struct {
	toks []tok
	k    int
}

// lit consumes the token whose text is v (participle's 'v').
func (c *cursor) lit(v string) bool {
	if t := c.toks[c.k]; t.typ != lexer.EOF && t.val == v {
		c.k++
		return true
	}
	return false
}

// of consumes a token of type typ and returns its text.
func (c *cursor) of(typ lexer.TokenType) (string, bool) {
	if t := c.toks[c.k]; t.typ == typ && typ != lexer.EOF {
		c.k++
		return t.val, true
	}
	return "", false
}

func (c *cursor) space() bool { _, ok := c.of(tokSpace); return ok }

func (c *cursor) eof() bool { return c.toks[c.k].typ == lexer.EOF }

// end is the offset of the next token: where a matched head ends.
func (c *cursor) end() int { return c.toks[c.k].off }

// ref consumes a REF, `name` or `alias.name`, and returns it with its
// offset.
func (c *cursor) ref() (ast.Ref, int, bool) {
	off := c.end()
	first, ok := c.of(tokIdent)
	if !ok {
		return ast.Ref{}, 0, false
	}
	if c.toks[c.k].val == "." && c.toks[c.k+1].typ == tokIdent {
		second := c.toks[c.k+1].val
		c.k += 2
		return ast.Ref{Alias: first, Name: second}, off, true
	}
	return ast.Ref{Name: first}, off, true
}

// keywordEnd matches `kw WS` (and `kw` alone at the end when bare) at the
// line's start and returns where the rest begins.
func (l *line) keywordEnd(kw string, bare bool) (int, bool) {
	c := l.cursor()
	if !c.lit(kw) || !c.space() && !(bare && c.eof()) {
		return 0, false
	}
	return c.end(), true
}

// assignHead is `IDENT [WS] = [WS]` (forms 4 and 6, docs/language.md#captures, and the capture
// lines of recover bodies and if branches).
type assignHead struct {
	name  string
	space bool // white space before the `=`
	end   int
}

// configHead is a config entry's `key = ` (docs/language.md#config): the value, which an array
// may continue over the next lines, starts at EndPos.
type configHead struct {
	Key    string `parser:"@(Ident ('.' Ident)*) Space? '=' Space?"`
	EndPos lexer.Position
}

// localHead is the `NAME = ` of a top-level `local NAME = VALUE` (docs/language.md#locals): the
// value, which a double-quoted string may continue over the next lines,
// starts at EndPos. `local` and the white space after it are the top-level
// dispatch's test (parseTopLevel), which skips any white space, as the
// reference's `\s+` does, not only Space tokens.
type localHead struct {
	Name   string `parser:"@Ident Space? '=' Space?"`
	EndPos lexer.Position
}

// grammars holds the participle grammars of the heads used once per file,
// each built on its first use.
var grammars = struct {
	config func() *participle.Parser[configHead]
	local  func() *participle.Parser[localHead]
}{
	config: lazyGrammar[configHead](stepLexerOnly),
	local:  lazyGrammar[localHead](stepLexerOnly),
}

func stepLexerOnly() []participle.Option { return []participle.Option{participle.Lexer(stepLexer{})} }

// parseHead runs grammar g on text; the head may be followed by anything
// (the verbatim rest). Offsets in the result are offsets in text.
func parseHead[G any](text string, g *participle.Parser[G]) (*G, bool) {
	pl, _ := lexer.Upgrade(&lineLexer{s: text})
	v, err := g.ParseFromLexer(pl, participle.AllowTrailing(true))
	return v, err == nil
}

// line is one text (a trimmed step line, a right-hand side, a recover
// statement) and its tokens, shared by every head tried on it.
type line struct {
	text string
	base int // offset of text in the root line (a sub-line's start)
	toks []tok
	// assign caches the assignment head (items 4 and 6 both test it) and
	// its right-hand side.
	assign   *assignHead
	assigned bool
	rhs      *line
}

func newLine(text string) *line {
	return &line{text: text, toks: lexTokens(text)}
}

// from returns the text from the token boundary at offset off of the root
// line as a line of its own that shares this line's tokens (no second
// lexing).
func (l *line) from(off int) *line {
	k := 0
	for k < len(l.toks)-1 && l.toks[k].off < off {
		k++
	}
	return &line{text: l.text[off-l.base:], base: off, toks: l.toks[k:]}
}

func (l *line) cursor() cursor { return cursor{toks: l.toks} }

// atEnd reports whether off is the end of the line.
func (l *line) atEnd(off int) bool { return off == l.base+len(l.text) }

// first is the text of the line's first token ("" for an empty line).
func (l *line) first() string { return l.toks[0].val }

// has reports whether some token is exactly v.
func (l *line) has(v string) bool {
	for _, t := range l.toks {
		if t.val == v && t.typ != lexer.EOF {
			return true
		}
	}
	return false
}

// rest is the raw text from offset off of the root line to the end.
func (l *line) rest(off int) string { return l.text[off-l.base:] }

// keywordLine matches `kw WS rest` (run and ensure) and returns the rest as
// a line.
func (l *line) keywordLine(kw string) (*line, bool) {
	end, ok := l.keywordEnd(kw, false)
	if !ok {
		return nil, false
	}
	return l.from(end), true
}

// prompt matches `prompt WS text` and returns the text, trimmed.
func (l *line) prompt() (string, bool) {
	end, ok := l.keywordEnd("prompt", false)
	if !ok {
		return "", false
	}
	return trim(l.rest(end)), true
}

// returnsSchema matches the `returns WS schema` after a prompt's closing
// quote and returns the schema text, trimmed.
func returnsSchema(text string) (string, bool) {
	l := newLine(text)
	end, ok := l.keywordEnd("returns", false)
	if !ok {
		return "", false
	}
	return trim(l.rest(end)), true
}

// log matches `log|logerr [WS message]` and returns the message text,
// trimmed.
func (l *line) log() (isErr bool, arg string, ok bool) {
	kw := l.first()
	if kw != "log" && kw != "logerr" {
		return false, "", false
	}
	end, ok := l.keywordEnd(kw, true)
	if !ok {
		return false, "", false
	}
	return kw == "logerr", trim(l.rest(end)), true
}

// assignment matches `IDENT\s*=\s*(.+)$` (`\s+=` when spaceBefore) and
// returns the name, the right-hand side and its byte offset.
func (l *line) assignment(spaceBefore bool) (name, rhs string, off int, ok bool) {
	h := l.assignHead()
	if h == nil || spaceBefore && !h.space || l.atEnd(h.end) {
		return "", "", 0, false
	}
	return h.name, l.rest(h.end), h.end - l.base, true
}

// assignHead matches the assignment head once; nil when there is none.
func (l *line) assignHead() *assignHead {
	if l.assigned {
		return l.assign
	}
	l.assigned = true
	c := l.cursor()
	name, ok := c.of(tokIdent)
	if !ok {
		return nil
	}
	space := c.space()
	if !c.lit("=") {
		return nil
	}
	c.space()
	l.assign = &assignHead{name: name, space: space, end: c.end()}
	return l.assign
}

// rhsLine is the assignment's right-hand side as a line of its own.
func (l *line) rhsLine() *line {
	if l.rhs == nil {
		l.rhs = l.from(l.assign.end)
	}
	return l.rhs
}

// call matches `kw REF [args]` and returns the target, the args, trimmed,
// and the REF's offset in the root line.
func (l *line) call(kw string) (ast.Ref, string, int, bool) {
	rest, ok := l.keywordLine(kw)
	if !ok {
		return ast.Ref{}, "", 0, false
	}
	return rest.callTarget()
}

// callTarget splits the line `REF [args]`, the REF a whole word; ok is
// false when the first word is not a REF. off is the REF's offset in the
// root line.
func (l *line) callTarget() (ast.Ref, string, int, bool) {
	c := l.cursor()
	r, off, ok := c.ref()
	if !ok || !c.space() && !c.eof() {
		return ast.Ref{}, "", 0, false
	}
	return r, trim(l.rest(c.end())), off, true
}

// splitCall splits the text `REF [args]`; off is the REF's offset in it.
func splitCall(rest string) (ast.Ref, string, int, bool) {
	return newLine(trim(rest)).callTarget()
}

// ifHeader matches the managed or shell if header and returns the form and
// the condition text. The tail `; then` is a check on the raw text, not a
// token match, because the reference's `(.+?)\s*;\s*then$` is quote-unaware
// (`if ! echo "a; then` is a header whose condition is `echo "a`).
func (l *line) ifHeader() (kind ast.IfKind, negated bool, body string, bodyOff int, ok bool) {
	// `if WS [! [WS]] ensure|run WS`: a managed header.
	c := l.cursor()
	if !c.lit("if") || !c.space() {
		return 0, false, "", 0, false
	}
	afterIf := c
	negated = c.lit("!")
	if negated {
		c.space()
	}
	if c.lit("ensure") || c.lit("run") {
		kw := c.toks[c.k-1].val
		if c.space() {
			if body, ok := ifBody(l.rest(c.end())); ok {
				kind = ast.IfEnsure
				if kw == "run" {
					kind = ast.IfRun
				}
				return kind, negated, body, c.end(), true
			}
		}
	}
	// `if WS ! WS`: a shell header.
	c = afterIf
	if c.lit("!") && c.space() {
		if body, ok := ifBody(l.rest(c.end())); ok {
			return ast.IfNotShell, true, body, c.end(), true
		}
	}
	return 0, false, "", 0, false
}

// ifBody strips `\s*;\s*then` from the end of rest; the body must not be
// empty.
func ifBody(rest string) (string, bool) {
	if !strings.HasSuffix(rest, "then") {
		return "", false
	}
	body := strings.TrimRight(rest[:len(rest)-4], " \t")
	if !strings.HasSuffix(body, ";") {
		return "", false
	}
	body = strings.TrimRight(body[:len(body)-1], " \t")
	return body, body != ""
}

// malformedIf matches `^if\s+(!\s*)?ensure\b`.
func (l *line) malformedIf() bool {
	c := l.cursor()
	if !c.lit("if") || !c.space() {
		return false
	}
	if c.lit("!") {
		c.space()
	}
	return c.lit("ensure")
}

// route matches `^REF\s+->\s+(.+)$` and returns the channel, the targets
// text and its offset.
func (l *line) route() (ast.Ref, string, int, bool) {
	c := l.cursor()
	ch, _, ok := c.ref()
	if !ok || !c.space() || !c.lit("->") || !c.space() || c.eof() {
		return ast.Ref{}, "", 0, false
	}
	return ch, trim(l.rest(c.end())), c.end(), true
}

// send matches the send form `REF <- [command]` (docs/language.md#sends): a REF, then the
// first `<-` outside quotes.
func (l *line) send() (ast.Ref, string, bool) {
	c := l.cursor()
	ch, _, ok := c.ref()
	if !ok {
		return ast.Ref{}, "", false
	}
	c.space()
	if !c.lit("<-") {
		return ast.Ref{}, "", false
	}
	c.space()
	return ch, l.rest(c.end()), true
}

// isValueReturn matches `^return\s+(.+)$` whose argument starts with `"`,
// `'` or `$` and is not `$?` (docs/language.md#return).
func (l *line) isValueReturn() (string, bool) {
	end, ok := l.keywordEnd("return", false)
	if !ok {
		return "", false
	}
	// The argument is tested on the trimmed text, not as tokens: `$? # c`
	// is a value return, and the reference's `\s+` also skips spaces that
	// are not Space tokens.
	arg := trim(l.rest(end))
	return arg, arg != "" && arg != "$?" && (arg[0] == '"' || arg[0] == '\'' || arg[0] == '$')
}

// isSend reports whether text has the send form (a finished block, a
// capture's right-hand side).
func isSend(text string) (ast.Ref, string, bool) {
	if !strings.Contains(text, "<-") {
		return ast.Ref{}, "", false
	}
	return newLine(strings.TrimLeft(text, " \t\r\n\v\f")).send()
}

// receiveHead is a receive (docs/language.md#receives): `<- [WS] REF`,
// then optionally `WS key WS "VALUE"` (or '…'), then optionally `WS timeout
// WS "DURATION"`, then optional white space to the end. ok: the line
// starts with `<- REF`; whole: the rest has that form too (else it is a
// malformed receive).
type receiveHead struct {
	ch             ast.Ref
	refOff         int
	key, timeout   string // key with its quotes; timeout without
	hasKey, hasTmo bool
	whole          bool
}

// receive matches the receive form on l; a malformed one keeps only its
// channel.
func (l *line) receive() (receiveHead, bool) {
	h, ok := l.receiveParts()
	if !h.whole {
		h = receiveHead{ch: h.ch, refOff: h.refOff}
	}
	return h, ok
}

func (l *line) receiveParts() (receiveHead, bool) {
	var h receiveHead
	c := l.cursor()
	if !c.lit("<-") {
		return h, false
	}
	c.space()
	ch, off, ok := c.ref()
	if !ok {
		return h, false
	}
	h.ch, h.refOff = ch, off
	if c.eof() {
		h.whole = true
		return h, true
	}
	if !c.space() {
		return h, true
	}
	if c.lit("key") {
		if !c.space() {
			return h, true
		}
		v, ok := c.of(tokDQ)
		if !ok {
			if v, ok = c.of(tokSQ); !ok {
				return h, true
			}
		}
		if !closedQuote(v) {
			return h, true
		}
		h.key, h.hasKey = v, true
		if c.eof() {
			h.whole = true
			return h, true
		}
		if !c.space() {
			return h, true
		}
	}
	if c.lit("timeout") {
		if !c.space() {
			return h, true
		}
		v, ok := c.of(tokDQ)
		if !ok || !closedQuote(v) {
			return h, true
		}
		h.timeout, h.hasTmo = v[1:len(v)-1], true
		c.space()
	}
	h.whole = c.eof()
	return h, true
}

// closedQuote reports whether the quoted token v ("…" with backslash
// escapes, or '…') is closed.
func closedQuote(v string) bool {
	if len(v) < 2 {
		return false
	}
	for i := 1; i < len(v); i++ {
		switch {
		case v[0] == '"' && v[i] == '\\':
			i++
		case v[i] == v[0]:
			return i == len(v)-1
		}
	}
	return false
}
