package parser

import (
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/jaiph-go/jaiph/ast"
)

// The statement grammar: the head of every Jaiph step form, parsed with
// participle over the tokens of stepLexer. A head ends where the form's
// verbatim text (ARGS, SHELL, a prompt's text, route targets) begins; that
// text is the raw substring of the line from the head's EndPos, never
// re-joined tokens. Which head is tried in which order is the table
// stepForms (workflow.go), language §5.1.

// refNode is `name` or `alias.name`.
type refNode struct {
	Pos    lexer.Position
	First  string `parser:"@Ident"`
	Second string `parser:"('.' @Ident)?"`
}

func (r refNode) ref() ast.Ref {
	if r.Second == "" {
		return ast.Ref{Name: r.First}
	}
	return ast.Ref{Alias: r.First, Name: r.Second}
}

// managedIfHead is `if [!] ensure|run ` (§5.1 items 1–2).
type managedIfHead struct {
	Negated bool   `parser:"'if' Space (@'!' Space?)?"`
	Kw      string `parser:"@('ensure' | 'run') Space"`
	EndPos  lexer.Position
}

// shellIfHead is `if ! ` (item 3).
type shellIfHead struct {
	Negated bool `parser:"'if' Space @'!' Space"`
	EndPos  lexer.Position
}

// malformedIfHead is `if [!] ensure` as a word (item 11).
type malformedIfHead struct {
	Head bool `parser:"'if' Space ('!' Space?)? 'ensure'"`
}

// assignHead is `IDENT [WS] = [WS]` (items 4 and 6, §5.3 and the capture
// lines of recover bodies and if branches).
type assignHead struct {
	Name   string `parser:"@Ident"`
	Space  bool   `parser:"@Space? '=' Space?"`
	EndPos lexer.Position
}

// routeHead is `REF WS -> WS` (item 12).
type routeHead struct {
	Channel refNode `parser:"@@ Space '->' Space"`
	EndPos  lexer.Position
}

// sendHead is `REF [WS] <- [WS]` (item 13, §5.10).
type sendHead struct {
	Channel refNode `parser:"@@ Space? '<-' Space?"`
	EndPos  lexer.Position
}

// callHead is the target of run/ensure: a REF that is a whole word.
type callHead struct {
	Target refNode `parser:"@@ (Space | EOF)"`
	EndPos lexer.Position
}

// The keyword heads below capture nothing but their end (the field Head
// only carries the rule): each capture costs participle about four
// allocations, and the caller has already checked the keyword with first().

// promptHead is `prompt WS` (items 4 and 5, §5.6): the prompt's text, which
// may go on over the next lines, starts at EndPos.
type promptHead struct {
	Head   bool `parser:"'prompt' Space"`
	EndPos lexer.Position
}

// returnsHead is the `returns WS` after a prompt's closing quote (§5.6); the
// schema string, which may go on over the next lines, starts at EndPos.
type returnsHead struct {
	Head   bool `parser:"'returns' Space"`
	EndPos lexer.Position
}

// logHead is `log|logerr WS` or the keyword alone (item 9, §5.7); the
// message starts at EndPos.
type logHead struct {
	Head   bool `parser:"('log' | 'logerr') (Space | EOF)"`
	EndPos lexer.Position
}

// returnHead is `return WS` (item 10, §5.11); which arguments make a value
// return is tested on the trimmed rest (isValueReturn).
type returnHead struct {
	Head   bool `parser:"'return' Space"`
	EndPos lexer.Position
}

// configHead is a config entry's `key = ` (§3): the value, which an array
// may continue over the next lines, starts at EndPos.
type configHead struct {
	Key    string `parser:"@(Ident ('.' Ident)*) Space? '=' Space?"`
	EndPos lexer.Position
}

// localHead is the `NAME = ` of a top-level `local NAME = VALUE` (§3): the
// value, which a double-quoted string may continue over the next lines,
// starts at EndPos. `local` and the white space after it are the top-level
// dispatch's test (parseTopLevel), which skips any white space, as the
// reference's `\s+` does, not only Space tokens.
type localHead struct {
	Name   string `parser:"@Ident Space? '=' Space?"`
	EndPos lexer.Position
}

// grammars holds the step grammars, each built on its first use.
var grammars = struct {
	managedIf func() *participle.Parser[managedIfHead]
	shellIf   func() *participle.Parser[shellIfHead]
	malformed func() *participle.Parser[malformedIfHead]
	assign    func() *participle.Parser[assignHead]
	route     func() *participle.Parser[routeHead]
	send      func() *participle.Parser[sendHead]
	call      func() *participle.Parser[callHead]
	prompt    func() *participle.Parser[promptHead]
	returns   func() *participle.Parser[returnsHead]
	log       func() *participle.Parser[logHead]
	ret       func() *participle.Parser[returnHead]
	config    func() *participle.Parser[configHead]
	local     func() *participle.Parser[localHead]
}{
	managedIf: lazyGrammar[managedIfHead](stepLexerOnly),
	shellIf:   lazyGrammar[shellIfHead](stepLexerOnly),
	malformed: lazyGrammar[malformedIfHead](stepLexerOnly),
	assign:    lazyGrammar[assignHead](stepLexerOnly),
	route:     lazyGrammar[routeHead](stepLexerOnly),
	send:      lazyGrammar[sendHead](stepLexerOnly),
	call:      lazyGrammar[callHead](stepLexerOnly),
	prompt:    lazyGrammar[promptHead](stepLexerOnly),
	returns:   lazyGrammar[returnsHead](stepLexerOnly),
	log:       lazyGrammar[logHead](stepLexerOnly),
	ret:       lazyGrammar[returnHead](stepLexerOnly),
	config:    lazyGrammar[configHead](stepLexerOnly),
	local:     lazyGrammar[localHead](stepLexerOnly),
}

func stepLexerOnly() []participle.Option { return []participle.Option{participle.Lexer(stepLexer{})} }

// line is one text (a trimmed step line, a right-hand side, a recover
// statement) and its tokens, shared by every grammar tried on it.
type line struct {
	text  string
	base  int // offset of text in the tokens' positions (a sub-line's start)
	start int // index of toks[0] in the root line's tokens
	toks  []lexer.Token
	// root is the line a sub-line was cut from (nil for a root); peek is
	// the root's tokens as participle reads them (toks is a window of them).
	root *line
	peek *lexer.PeekingLexer
	// assign caches the assignment head (items 4 and 6 both test it) and
	// its right-hand side.
	assign   *assignHead
	assigned bool
	rhs      *line
}

func newLine(text string) *line {
	lx := &lineLexer{s: text}
	pl, _ := lexer.Upgrade(lx)
	return &line{text: text, toks: pl.Range(0, lexer.RawCursor(lx.n)), peek: pl}
}

// from returns the text from the token boundary at offset pos as a line
// of its own that shares this line's tokens (no second lexing).
func (l *line) from(pos lexer.Position) *line {
	k := 0
	for k < len(l.toks)-1 && l.toks[k].Pos.Offset < pos.Offset {
		k++
	}
	root := l.root
	if root == nil {
		root = l
	}
	return &line{text: l.text[pos.Offset-l.base:], base: pos.Offset, start: l.start + k, toks: l.toks[k:], root: root}
}

// atEnd reports whether pos is the end of the line.
func (l *line) atEnd(pos lexer.Position) bool { return pos.Offset == l.base+len(l.text) }

// first is the text of the line's first token ("" for an empty line).
func (l *line) first() string { return l.toks[0].Value }

// has reports whether some token is exactly v (a cheap test before a
// grammar runs).
func (l *line) has(v string) bool {
	for _, t := range l.toks {
		if t.Value == v {
			return true
		}
	}
	return false
}

// rest is the raw text from offset off to the end.
func (l *line) rest(off lexer.Position) string { return l.text[off.Offset-l.base:] }

// cursor returns participle's reader of the tokens, at this line's start;
// each parse reads its own copy.
func (l *line) cursor() lexer.PeekingLexer {
	root := l.root
	if root == nil {
		root = l
	}
	pl := *root.peek
	if l.start > 0 {
		pl.FastForward(lexer.RawCursor(l.start - 1))
	}
	return pl
}

// parseHead runs grammar g on the line's tokens; the head may be followed by
// anything (the verbatim rest).
func parseHead[G any](l *line, g *participle.Parser[G]) (*G, bool) {
	pl := l.cursor()
	v, err := g.ParseFromLexer(&pl, participle.AllowTrailing(true))
	return v, err == nil
}

// keywordLine matches `kw WS rest` (run and ensure) and returns the rest as
// a line.
func (l *line) keywordLine(kw string) (*line, bool) {
	// The head is the keyword token and a Space token: read directly
	// rather than through participle, whose reflective parse cost more than
	// all the rest of a run/ensure line's parsing (the call target after
	// it is a grammar, callHead).
	if l.first() != kw || l.toks[0].Type != tokIdent || l.toks[1].Type != tokSpace {
		return nil, false
	}
	return l.from(l.toks[2].Pos), true
}

// prompt matches `prompt WS text` and returns the text, trimmed.
func (l *line) prompt() (string, bool) {
	if l.first() != "prompt" {
		return "", false
	}
	h, ok := parseHead(l, grammars.prompt())
	if !ok {
		return "", false
	}
	return trim(l.rest(h.EndPos)), true
}

// returnsSchema matches the `returns WS schema` after a prompt's closing
// quote and returns the schema text, trimmed.
func returnsSchema(text string) (string, bool) {
	l := newLine(text)
	h, ok := parseHead(l, grammars.returns())
	if !ok {
		return "", false
	}
	return trim(l.rest(h.EndPos)), true
}

// log matches `log|logerr [WS message]` and returns the message text,
// trimmed.
func (l *line) log() (isErr bool, arg string, ok bool) {
	if f := l.first(); f != "log" && f != "logerr" {
		return false, "", false
	}
	h, ok := parseHead(l, grammars.log())
	if !ok {
		return false, "", false
	}
	return l.first() == "logerr", trim(l.rest(h.EndPos)), true
}

// assignment matches `IDENT\s*=\s*(.+)$` (`\s+=` when spaceBefore) and
// returns the name, the right-hand side and its byte offset.
func (l *line) assignment(spaceBefore bool) (name, rhs string, off int, ok bool) {
	h := l.assignHead()
	if h == nil || spaceBefore && !h.Space || l.atEnd(h.EndPos) {
		return "", "", 0, false
	}
	return h.Name, l.rest(h.EndPos), h.EndPos.Offset - l.base, true
}

// assignHead parses the assignment head once; nil when there is none.
func (l *line) assignHead() *assignHead {
	if l.assigned {
		return l.assign
	}
	l.assigned = true
	if len(l.toks) < 3 || l.toks[0].Type != tokIdent || !(l.toks[1].Value == "=" || l.toks[2].Value == "=") {
		return nil
	}
	if h, ok := parseHead(l, grammars.assign()); ok {
		l.assign = h
	}
	return l.assign
}

// rhsLine is the assignment's right-hand side as a line of its own.
func (l *line) rhsLine() *line {
	if l.rhs == nil {
		l.rhs = l.from(l.assign.EndPos)
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

// callTarget splits the line `REF [args]`; ok is false when the first word
// is not a REF. off is the REF's offset in the root line.
func (l *line) callTarget() (ast.Ref, string, int, bool) {
	h, ok := parseHead(l, grammars.call())
	if !ok {
		return ast.Ref{}, "", 0, false
	}
	return h.Target.ref(), trim(l.rest(h.EndPos)), h.Target.Pos.Offset, true
}

// splitCall splits the text `REF [args]`; off is the REF's offset in it.
func splitCall(rest string) (ast.Ref, string, int, bool) {
	return newLine(trim(rest)).callTarget()
}

// ifHeader matches the managed or shell if header and returns the form and
// the condition text. The tail `; then` is a check on the raw text, not a
// grammar rule, because the reference's `(.+?)\s*;\s*then$` is quote-unaware
// (`if ! echo "a; then` is a header whose condition is `echo "a`).
func (l *line) ifHeader() (kind ast.IfKind, negated bool, body string, bodyOff int, ok bool) {
	if l.first() != "if" {
		return 0, false, "", 0, false
	}
	if h, ok := parseHead(l, grammars.managedIf()); ok {
		if body, ok := ifBody(l.rest(h.EndPos)); ok {
			kind = ast.IfEnsure
			if h.Kw == "run" {
				kind = ast.IfRun
			}
			return kind, h.Negated, body, h.EndPos.Offset, true
		}
	}
	if h, ok := parseHead(l, grammars.shellIf()); ok {
		if body, ok := ifBody(l.rest(h.EndPos)); ok {
			return ast.IfNotShell, true, body, h.EndPos.Offset, true
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
	if l.first() != "if" || !l.has("ensure") {
		return false
	}
	_, ok := parseHead(l, grammars.malformed())
	return ok
}

// route matches `^REF\s+->\s+(.+)$` and returns the channel, the targets
// text and its offset.
func (l *line) route() (ast.Ref, string, int, bool) {
	if l.toks[0].Type != tokIdent || !l.has("->") {
		return ast.Ref{}, "", 0, false
	}
	h, ok := parseHead(l, grammars.route())
	if !ok || l.atEnd(h.EndPos) {
		return ast.Ref{}, "", 0, false
	}
	return h.Channel.ref(), trim(l.rest(h.EndPos)), h.EndPos.Offset, true
}

// send matches the send form `REF <- [command]` (§5.10): a REF, then the
// first `<-` outside quotes.
func (l *line) send() (ast.Ref, string, bool) {
	if l.toks[0].Type != tokIdent || !l.has("<-") {
		return ast.Ref{}, "", false
	}
	h, ok := parseHead(l, grammars.send())
	if !ok {
		return ast.Ref{}, "", false
	}
	return h.Channel.ref(), l.rest(h.EndPos), true
}

// isValueReturn matches `^return\s+(.+)$` whose argument starts with `"`,
// `'` or `$` and is not `$?` (§5.11).
func (l *line) isValueReturn() (string, bool) {
	if l.first() != "return" {
		return "", false
	}
	h, ok := parseHead(l, grammars.ret())
	if !ok {
		return "", false
	}
	// The argument is tested on the trimmed text, not as tokens: `$? # c`
	// is a value return, and the reference's `\s+` also skips spaces that
	// are not Space tokens.
	arg := trim(l.rest(h.EndPos))
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
