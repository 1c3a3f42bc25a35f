package parser

import (
	"io"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/jaiph-go/jaiph/internal/shellscan"
)

// stepLexer tokenizes one trimmed workflow line for the step grammar
// (stepgrammar.go). It is stateful: quoted text ("…" with backslash escapes,
// '…', $'…'), command substitutions $(…) (nested, with quotes inside),
// backticks and # comments are single tokens, so a `<-`, `->`, `=`, `{` or
// `}` inside them is text. An unclosed one runs to the end of the line (a
// prompt's text may go on over the next lines; the grammar decides).
//
// It is written by hand rather than with lexer.MustStateful: the reflective
// lexer tries every rule's regexp at every token (about 15 µs a line, which
// alone would take the 4,500-line check past its 15 ms target), and
// participle's lexer code generator is not reachable from here.
// TestStepLexerTokens pins the token stream.
type stepLexer struct{}

// The token types. EOF is participle's.
const (
	tokSpace lexer.TokenType = -(iota + 2)
	tokIdent
	tokOp       // `<-` or `->`
	tokPunct    // one of = ; ! , { } ( ) . \
	tokDQ       // "…"
	tokSQ       // '…'
	tokANSI     // $'…'
	tokSubst    // $(…)
	tokBacktick // `…`
	tokComment  // # … to the end of the line
	tokOther    // any other run of bytes
)

var stepSymbols = map[string]lexer.TokenType{
	"EOF": lexer.EOF, "Space": tokSpace, "Ident": tokIdent, "Op": tokOp, "Punct": tokPunct,
	"DQ": tokDQ, "SQ": tokSQ, "ANSI": tokANSI, "Subst": tokSubst, "Backtick": tokBacktick,
	"Comment": tokComment, "Other": tokOther,
}

func (stepLexer) Symbols() map[string]lexer.TokenType { return stepSymbols }

// Lex is for participle's own use; the parser tokenizes each line once with
// lexLine and each grammar reads the slice (tokenLexer).
func (stepLexer) Lex(_ string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	return &tokenLexer{toks: lexLine(string(b))}, err
}

// lexLine returns the tokens of s, ending with EOF. Offsets are byte
// offsets in s, so a grammar node's raw text is s[Pos.Offset:EndPos.Offset].
func lexLine(s string) []lexer.Token {
	toks := make([]lexer.Token, 0, 2+len(s)/4)
	for i := 0; i < len(s); {
		j, typ := lexOne(s, i)
		toks = append(toks, lexer.Token{Type: typ, Value: s[i:j], Pos: lexer.Position{Offset: i, Line: 1, Column: i + 1}})
		i = j
	}
	return append(toks, lexer.EOFToken(lexer.Position{Offset: len(s), Line: 1, Column: len(s) + 1}))
}

// lexOne returns the end and type of the token starting at s[i].
func lexOne(s string, i int) (int, lexer.TokenType) {
	c := s[i]
	next := byte(0)
	if i+1 < len(s) {
		next = s[i+1]
	}
	switch {
	case c == ' ' || c == '\t':
		j := i + 1
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		return j, tokSpace
	case shellscan.IsIdentStart(c):
		j := i + 1
		for j < len(s) && shellscan.IsIdentChar(s[j]) {
			j++
		}
		return j, tokIdent
	case c == '"':
		return closeAt(s, i+1, '"', true), tokDQ
	case c == '\'':
		return closeAt(s, i+1, '\'', false), tokSQ
	case c == '`':
		return closeAt(s, i+1, '`', true), tokBacktick
	case c == '$' && next == '\'':
		return closeAt(s, i+2, '\'', true), tokANSI
	case c == '$' && next == '(':
		return closeSubst(s, i+2), tokSubst
	case c == '#' && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t' || s[i-1] == ';'):
		return len(s), tokComment
	case c == '<' && next == '-', c == '-' && next == '>':
		return i + 2, tokOp
	case c == '\\' && next != 0:
		return i + 2, tokOther // an escaped byte is text
	case isPunct(c):
		return i + 1, tokPunct
	}
	j := i + 1
	for j < len(s) && !startsToken(s[j]) {
		j++
	}
	return j, tokOther
}

func isPunct(c byte) bool {
	switch c {
	case '=', ';', '!', ',', '{', '}', '.', '\\', '(', ')':
		return true
	}
	return false
}

// startsToken reports whether c may start a token other than Other.
func startsToken(c byte) bool {
	return c == ' ' || c == '\t' || shellscan.IsIdentStart(c) || isPunct(c) ||
		c == '"' || c == '\'' || c == '`' || c == '$' || c == '#' || c == '<' || c == '-'
}

// closeAt returns the index after the q closing a quoted text that starts
// at i (a backslash escapes the next byte when esc), or len(s).
func closeAt(s string, i int, q byte, esc bool) int {
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			if esc {
				i++
			}
		case q:
			return i + 1
		}
	}
	return len(s)
}

// closeSubst returns the index after the `)` closing a $( whose text starts
// at i, counting nested parentheses outside quotes, or len(s).
func closeSubst(s string, i int) int {
	depth := 1
	for i < len(s) {
		switch c := s[i]; c {
		case '"', '`':
			i = closeAt(s, i+1, c, true)
			continue
		case '\'':
			i = closeAt(s, i+1, '\'', false)
			continue
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i + 1
			}
		}
		i++
	}
	return len(s)
}

// tokenLexer replays a token slice to a participle parser, so that the
// table's grammars share one tokenization of the line.
type tokenLexer struct {
	toks []lexer.Token
	i    int
}

func (l *tokenLexer) Next() (lexer.Token, error) {
	t := l.toks[l.i]
	if l.i < len(l.toks)-1 {
		l.i++
	}
	return t, nil
}
