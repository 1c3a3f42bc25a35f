package parser

import (
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"
	"github.com/jaiph-go/jaiph/ast"
)

// The oracle: the step and declaration heads as participle grammars over
// the tokens of stepLexer, as they were parsed before the hand-written
// matchers of heads.go. FuzzHeadsAgree checks that both agree. A head ends where the form's
// verbatim text (ARGS, SHELL, a prompt's text, route targets) begins; that
// text is the raw substring of the oLine from the head's EndPos, never
// re-joined tokens. Which head is tried in which order is the table
// stepForms (workflow.go), docs/language.md#steps.

// oRefNode is `name` or `alias.name`.
type oRefNode struct {
	Pos    lexer.Position
	First  string `parser:"@Ident"`
	Second string `parser:"('.' @Ident)?"`
}

func (r oRefNode) ref() ast.Ref {
	if r.Second == "" {
		return ast.Ref{Name: r.First}
	}
	return ast.Ref{Alias: r.First, Name: r.Second}
}

// oManagedIfHead is `if [!] ensure|run ` (docs/language.md#steps, forms 1–2).
type oManagedIfHead struct {
	Negated bool   `parser:"'if' Space (@'!' Space?)?"`
	Kw      string `parser:"@('ensure' | 'run') Space"`
	EndPos  lexer.Position
}

// oShellIfHead is `if ! ` (item 3).
type oShellIfHead struct {
	Negated bool `parser:"'if' Space @'!' Space"`
	EndPos  lexer.Position
}

// oMalformedIfHead is `if [!] ensure` as a word (item 11).
type oMalformedIfHead struct {
	Head bool `parser:"'if' Space ('!' Space?)? 'ensure'"`
}

// oAssignHead is `IDENT [WS] = [WS]` (forms 4 and 6, docs/language.md#captures, and the capture
// lines of recover bodies and if branches).
type oAssignHead struct {
	Name   string `parser:"@Ident"`
	Space  bool   `parser:"@Space? '=' Space?"`
	EndPos lexer.Position
}

// oRouteHead is `REF WS -> WS` (item 12).
type oRouteHead struct {
	Channel oRefNode `parser:"@@ Space '->' Space"`
	EndPos  lexer.Position
}

// oSendHead is `REF [WS] <- [WS]` (form 13, docs/language.md#sends).
type oSendHead struct {
	Channel oRefNode `parser:"@@ Space? '<-' Space?"`
	EndPos  lexer.Position
}

// oReceivePrefix is `<- [WS] REF` (forms 5a/5b, docs/language.md#receives):
// a line that starts so is a receive, well-formed or not.
type oReceivePrefix struct {
	Channel oRefNode `parser:"'<-' Space? @@"`
}

// oReceiveHead is a whole receive: `<- [WS] REF [WS key WS "K"|'K'] [WS
// timeout WS "D"] [WS]`; its quoted parts must be closed.
type oReceiveHead struct {
	Channel oRefNode `parser:"'<-' Space? @@"`
	Key     *string  `parser:"(Space 'key' Space @(DQ | SQ))?"`
	Timeout *string  `parser:"(Space 'timeout' Space @DQ)? Space? EOF"`
}

// oCallHead is the target of run/ensure: a REF that is a whole word.
type oCallHead struct {
	Target oRefNode `parser:"@@ (Space | EOF)"`
	EndPos lexer.Position
}

// The keyword heads below capture nothing but their end (the field Head
// only carries the rule): each capture costs participle about four
// allocations, and the caller has already checked the keyword with first().

// oPromptHead is `prompt WS` (forms 4 and 5, docs/language.md#prompt): the prompt's text, which
// may go on over the next lines, starts at EndPos.
type oPromptHead struct {
	Head   bool `parser:"'prompt' Space"`
	EndPos lexer.Position
}

// oReturnsHead is the `returns WS` after a prompt's closing quote (docs/language.md#prompt); the
// schema string, which may go on over the next lines, starts at EndPos.
type oReturnsHead struct {
	Head   bool `parser:"'returns' Space"`
	EndPos lexer.Position
}

// oLogHead is `log|logerr WS` or the keyword alone (form 9, docs/language.md#log-and-logerr); the
// message starts at EndPos.
type oLogHead struct {
	Head   bool `parser:"('log' | 'logerr') (Space | EOF)"`
	EndPos lexer.Position
}

// oReturnHead is `return WS` (form 10, docs/language.md#return); which arguments make a value
// return is tested on the trimmed rest (isValueReturn).
type oReturnHead struct {
	Head   bool `parser:"'return' Space"`
	EndPos lexer.Position
}

// oGrammars holds the step oGrammars, each built on its first use.
var oGrammars = struct {
	managedIf func() *participle.Parser[oManagedIfHead]
	shellIf   func() *participle.Parser[oShellIfHead]
	malformed func() *participle.Parser[oMalformedIfHead]
	assign    func() *participle.Parser[oAssignHead]
	route     func() *participle.Parser[oRouteHead]
	send      func() *participle.Parser[oSendHead]
	recvStart func() *participle.Parser[oReceivePrefix]
	receive   func() *participle.Parser[oReceiveHead]
	call      func() *participle.Parser[oCallHead]
	prompt    func() *participle.Parser[oPromptHead]
	returns   func() *participle.Parser[oReturnsHead]
	log       func() *participle.Parser[oLogHead]
	ret       func() *participle.Parser[oReturnHead]
}{
	managedIf: lazyGrammar[oManagedIfHead](stepLexerOnly),
	shellIf:   lazyGrammar[oShellIfHead](stepLexerOnly),
	malformed: lazyGrammar[oMalformedIfHead](stepLexerOnly),
	assign:    lazyGrammar[oAssignHead](stepLexerOnly),
	route:     lazyGrammar[oRouteHead](stepLexerOnly),
	send:      lazyGrammar[oSendHead](stepLexerOnly),
	recvStart: lazyGrammar[oReceivePrefix](stepLexerOnly),
	receive:   lazyGrammar[oReceiveHead](func() []participle.Option { return append(stepLexerOnly(), participle.UseLookahead(4)) }),
	call:      lazyGrammar[oCallHead](stepLexerOnly),
	prompt:    lazyGrammar[oPromptHead](stepLexerOnly),
	returns:   lazyGrammar[oReturnsHead](stepLexerOnly),
	log:       lazyGrammar[oLogHead](stepLexerOnly),
	ret:       lazyGrammar[oReturnHead](stepLexerOnly),
}

// oLine is one text (a trimmed step oLine, a right-hand side, a recover
// statement) and its tokens, shared by every grammar tried on it.
type oLine struct {
	text  string
	base  int // offset of text in the tokens' positions (a sub-oLine's start)
	start int // index of toks[0] in the root oLine's tokens
	toks  []lexer.Token
	// root is the oLine a sub-oLine was cut from (nil for a root); peek is
	// the root's tokens as participle reads them (toks is a window of them).
	root *oLine
	peek *lexer.PeekingLexer
	// assign caches the assignment head (items 4 and 6 both test it) and
	// its right-hand side.
	assign   *oAssignHead
	assigned bool
	rhs      *oLine
}

func oNewLine(text string) *oLine {
	lx := &lineLexer{s: text}
	pl, _ := lexer.Upgrade(lx)
	return &oLine{text: text, toks: pl.Range(0, lexer.RawCursor(lx.n)), peek: pl}
}

// from returns the text from the token boundary at offset pos as a oLine
// of its own that shares this oLine's tokens (no second lexing).
func (l *oLine) from(pos lexer.Position) *oLine {
	k := 0
	for k < len(l.toks)-1 && l.toks[k].Pos.Offset < pos.Offset {
		k++
	}
	root := l.root
	if root == nil {
		root = l
	}
	return &oLine{text: l.text[pos.Offset-l.base:], base: pos.Offset, start: l.start + k, toks: l.toks[k:], root: root}
}

// atEnd reports whether pos is the end of the oLine.
func (l *oLine) atEnd(pos lexer.Position) bool { return pos.Offset == l.base+len(l.text) }

// first is the text of the oLine's first token ("" for an empty line).
func (l *oLine) first() string { return l.toks[0].Value }

// has reports whether some token is exactly v (a cheap test before a
// grammar runs).
func (l *oLine) has(v string) bool {
	for _, t := range l.toks {
		if t.Value == v {
			return true
		}
	}
	return false
}

// rest is the raw text from offset off to the end.
func (l *oLine) rest(off lexer.Position) string { return l.text[off.Offset-l.base:] }

// cursor returns participle's reader of the tokens, at this oLine's start;
// each parse reads its own copy.
func (l *oLine) cursor() lexer.PeekingLexer {
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

// oParseHead runs grammar g on the oLine's tokens; the head may be followed by
// anything (the verbatim rest).
func oParseHead[G any](l *oLine, g *participle.Parser[G]) (*G, bool) {
	pl := l.cursor()
	v, err := g.ParseFromLexer(&pl, participle.AllowTrailing(true))
	return v, err == nil
}

// keywordLine matches `kw WS rest` (run and ensure) and returns the rest as
// a oLine.
func (l *oLine) keywordLine(kw string) (*oLine, bool) {
	// The head is the keyword token and a Space token: read directly
	// rather than through participle, whose reflective parse cost more than
	// all the rest of a run/ensure oLine's parsing (the call target after
	// it is a grammar, oCallHead).
	if l.first() != kw || l.toks[0].Type != tokIdent || l.toks[1].Type != tokSpace {
		return nil, false
	}
	return l.from(l.toks[2].Pos), true
}

// prompt matches `prompt WS text` and returns the text, trimmed.
func (l *oLine) prompt() (string, bool) {
	if l.first() != "prompt" {
		return "", false
	}
	h, ok := oParseHead(l, oGrammars.prompt())
	if !ok {
		return "", false
	}
	return trim(l.rest(h.EndPos)), true
}

// oReturnsSchema matches the `returns WS schema` after a prompt's closing
// quote and returns the schema text, trimmed.
func oReturnsSchema(text string) (string, bool) {
	l := oNewLine(text)
	h, ok := oParseHead(l, oGrammars.returns())
	if !ok {
		return "", false
	}
	return trim(l.rest(h.EndPos)), true
}

// log matches `log|logerr [WS message]` and returns the message text,
// trimmed.
func (l *oLine) log() (isErr bool, arg string, ok bool) {
	if f := l.first(); f != "log" && f != "logerr" {
		return false, "", false
	}
	h, ok := oParseHead(l, oGrammars.log())
	if !ok {
		return false, "", false
	}
	return l.first() == "logerr", trim(l.rest(h.EndPos)), true
}

// assignment matches `IDENT\s*=\s*(.+)$` (`\s+=` when spaceBefore) and
// returns the name, the right-hand side and its byte offset.
func (l *oLine) assignment(spaceBefore bool) (name, rhs string, off int, ok bool) {
	h := l.assignHead()
	if h == nil || spaceBefore && !h.Space || l.atEnd(h.EndPos) {
		return "", "", 0, false
	}
	return h.Name, l.rest(h.EndPos), h.EndPos.Offset - l.base, true
}

// oAssignHead parses the assignment head once; nil when there is none.
func (l *oLine) assignHead() *oAssignHead {
	if l.assigned {
		return l.assign
	}
	l.assigned = true
	if len(l.toks) < 3 || l.toks[0].Type != tokIdent || !(l.toks[1].Value == "=" || l.toks[2].Value == "=") {
		return nil
	}
	if h, ok := oParseHead(l, oGrammars.assign()); ok {
		l.assign = h
	}
	return l.assign
}

// rhsLine is the assignment's right-hand side as a oLine of its own.
func (l *oLine) rhsLine() *oLine {
	if l.rhs == nil {
		l.rhs = l.from(l.assign.EndPos)
	}
	return l.rhs
}

// call matches `kw REF [args]` and returns the target, the args, trimmed,
// and the REF's offset in the root oLine.
func (l *oLine) call(kw string) (ast.Ref, string, int, bool) {
	rest, ok := l.keywordLine(kw)
	if !ok {
		return ast.Ref{}, "", 0, false
	}
	return rest.callTarget()
}

// callTarget splits the oLine `REF [args]`; ok is false when the first word
// is not a REF. off is the REF's offset in the root oLine.
func (l *oLine) callTarget() (ast.Ref, string, int, bool) {
	h, ok := oParseHead(l, oGrammars.call())
	if !ok {
		return ast.Ref{}, "", 0, false
	}
	return h.Target.ref(), trim(l.rest(h.EndPos)), h.Target.Pos.Offset, true
}

// oSplitCall splits the text `REF [args]`; off is the REF's offset in it.
func oSplitCall(rest string) (ast.Ref, string, int, bool) {
	return oNewLine(trim(rest)).callTarget()
}

// ifHeader matches the managed or shell if header and returns the form and
// the condition text. The tail `; then` is a check on the raw text, not a
// grammar rule, because the reference's `(.+?)\s*;\s*then$` is quote-unaware
// (`if ! echo "a; then` is a header whose condition is `echo "a`).
func (l *oLine) ifHeader() (kind ast.IfKind, negated bool, body string, bodyOff int, ok bool) {
	if l.first() != "if" {
		return 0, false, "", 0, false
	}
	if h, ok := oParseHead(l, oGrammars.managedIf()); ok {
		if body, ok := ifBody(l.rest(h.EndPos)); ok {
			kind = ast.IfEnsure
			if h.Kw == "run" {
				kind = ast.IfRun
			}
			return kind, h.Negated, body, h.EndPos.Offset, true
		}
	}
	if h, ok := oParseHead(l, oGrammars.shellIf()); ok {
		if body, ok := ifBody(l.rest(h.EndPos)); ok {
			return ast.IfNotShell, true, body, h.EndPos.Offset, true
		}
	}
	return 0, false, "", 0, false
}

// malformedIf matches `^if\s+(!\s*)?ensure\b`.
func (l *oLine) malformedIf() bool {
	if l.first() != "if" || !l.has("ensure") {
		return false
	}
	_, ok := oParseHead(l, oGrammars.malformed())
	return ok
}

// route matches `^REF\s+->\s+(.+)$` and returns the channel, the targets
// text and its offset.
func (l *oLine) route() (ast.Ref, string, int, bool) {
	if l.toks[0].Type != tokIdent || !l.has("->") {
		return ast.Ref{}, "", 0, false
	}
	h, ok := oParseHead(l, oGrammars.route())
	if !ok || l.atEnd(h.EndPos) {
		return ast.Ref{}, "", 0, false
	}
	return h.Channel.ref(), trim(l.rest(h.EndPos)), h.EndPos.Offset, true
}

// send matches the send form `REF <- [command]` (docs/language.md#sends): a REF, then the
// first `<-` outside quotes.
func (l *oLine) send() (ast.Ref, string, bool) {
	if l.toks[0].Type != tokIdent || !l.has("<-") {
		return ast.Ref{}, "", false
	}
	h, ok := oParseHead(l, oGrammars.send())
	if !ok {
		return ast.Ref{}, "", false
	}
	return h.Channel.ref(), l.rest(h.EndPos), true
}

// isValueReturn matches `^return\s+(.+)$` whose argument starts with `"`,
// `'` or `$` and is not `$?` (docs/language.md#return).
func (l *oLine) isValueReturn() (string, bool) {
	if l.first() != "return" {
		return "", false
	}
	h, ok := oParseHead(l, oGrammars.ret())
	if !ok {
		return "", false
	}
	// The argument is tested on the trimmed text, not as tokens: `$? # c`
	// is a value return, and the reference's `\s+` also skips spaces that
	// are not Space tokens.
	arg := trim(l.rest(h.EndPos))
	return arg, arg != "" && arg != "$?" && (arg[0] == '"' || arg[0] == '\'' || arg[0] == '$')
}

// receive matches the receive form (forms 5a/5b).
func (l *oLine) receive() (receiveHead, bool) {
	var h receiveHead
	if l.first() != "<-" {
		return h, false
	}
	p, ok := oParseHead(l, oGrammars.recvStart())
	if !ok {
		return h, false
	}
	h.ch, h.refOff = p.Channel.ref(), p.Channel.Pos.Offset
	w, ok := oParseHead(l, oGrammars.receive())
	if !ok {
		return h, true
	}
	h.whole = true
	if w.Key != nil {
		h.key, h.hasKey = *w.Key, true
		h.whole = closedQuote(*w.Key)
	}
	if w.Timeout != nil {
		t := *w.Timeout
		h.whole = h.whole && closedQuote(t)
		if h.whole {
			h.timeout, h.hasTmo = t[1:len(t)-1], true
		}
	}
	if !h.whole {
		return receiveHead{ch: h.ch, refOff: h.refOff}, true
	}
	return h, true
}

// oIsSend reports whether text has the send form (a finished block, a
// capture's right-hand side).
func oIsSend(text string) (ast.Ref, string, bool) {
	if !strings.Contains(text, "<-") {
		return ast.Ref{}, "", false
	}
	return oNewLine(strings.TrimLeft(text, " \t\r\n\v\f")).send()
}

// The declaration headers as they were parsed with participle (lookahead 2).
type oRuleHeader struct {
	Export bool   `parser:"(@'export' Space)?"`
	Name   string `parser:"'rule' Space @Ident Space? '{'"`
}

type oWorkflowHeader struct {
	Export bool   `parser:"(@'export' Space)?"`
	Name   string `parser:"'workflow' Space @Ident Space? '{'"`
}

type oFuncHeader struct {
	Name string `parser:"'function' Space @Ident ('(' ')')? Space? '{'"`
}

var oHeaders = struct {
	rule     func() *participle.Parser[oRuleHeader]
	workflow func() *participle.Parser[oWorkflowHeader]
	fn       func() *participle.Parser[oFuncHeader]
}{
	rule:     lazyGrammar[oRuleHeader](stepLexerLookahead2),
	workflow: lazyGrammar[oWorkflowHeader](stepLexerLookahead2),
	fn:       lazyGrammar[oFuncHeader](stepLexerLookahead2),
}

func oParseDeclHeader(text, kind string) (string, bool, bool) {
	if kind == "rule" {
		h, ok := parseWhole(text, oHeaders.rule())
		if !ok {
			return "", false, false
		}
		return h.Name, h.Export, true
	}
	h, ok := parseWhole(text, oHeaders.workflow())
	if !ok {
		return "", false, false
	}
	return h.Name, h.Export, true
}

func oParseFuncHeader(text string) (string, bool) {
	h, ok := parseWhole(text, oHeaders.fn())
	if !ok {
		return "", false
	}
	return h.Name, true
}
