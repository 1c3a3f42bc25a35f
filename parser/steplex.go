package parser

import (
	"io"

	"github.com/alecthomas/participle/v2/lexer"
	"github.com/jaiph-go/jaiph/internal/shellscan"
)

// stepLexer tokenizes one trimmed workflow line for the step heads
// (heads.go, lexOne) and for the participle grammars of the other headers
// (Lex). It is stateful: quoted text ("…" with backslash escapes,
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

// Lex is for participle's own use; the parser lexes each line once
// (newLine) and every grammar tried on it reads those tokens.
func (stepLexer) Lex(_ string, r io.Reader) (lexer.Lexer, error) {
	b, err := io.ReadAll(r)
	return &lineLexer{s: string(b)}, err
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

// lineLexer lexes a line for lexer.Upgrade, counting its tokens (EOF
// included). Offsets are byte offsets in the line, so a grammar node's raw
// text is line[Pos.Offset:EndPos.Offset].
type lineLexer struct {
	s    string
	i, n int
}

func (l *lineLexer) Next() (lexer.Token, error) {
	l.n++ // EOF included
	if l.i >= len(l.s) {
		return lexer.EOFToken(lexer.Position{Offset: len(l.s), Line: 1, Column: len(l.s) + 1}), nil
	}
	j, typ := lexOne(l.s, l.i)
	t := lexer.Token{Type: typ, Value: l.s[l.i:j], Pos: lexer.Position{Offset: l.i, Line: 1, Column: l.i + 1}}
	l.i = j
	return t, nil
}
