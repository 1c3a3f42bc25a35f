// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package expand

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// TODO(v4): the arithmetic APIs should return int64 for portability with 32-bit systems,
// even if Bash only supports native int sizes.

// ArithmError is an arithmetic evaluation error, worded like bash's
// "EXPR: MESSAGE (error token is "TOKEN")". jaiph-go patch: bash treats
// these as fatal in $((…)) and as status 1 in ((…)) and let; upstream
// printed a bare message and went on with 0.
type ArithmError struct {
	Expr, Msg, Token string

	// Subscript: the error is an array subscript's, fatal wherever the
	// subscript was, and named after no command (jaiph-go patch, see
	// subscriptArithm).
	Subscript bool
}

func (e ArithmError) Error() string {
	return fmt.Sprintf("%s: %s (error token is \"%s\")", e.Expr, e.Msg, e.Token)
}

// ArithmString evaluates str as bash evaluates a variable's value or a let
// argument inside arithmetic: a number in bash's notation, a variable name
// (evaluated in turn), or a whole expression. jaiph-go patch: upstream
// read only numbers, so x="1+2"; $((x*2)) gave 0 and let "n = 6 * 7" failed.
func ArithmString(cfg *Config, str string) (int, error) {
	return cfg.evalArithText(str, 0) // jaiph-go patch: bash's expr.c (bashexpr.go)
}

// ArithmTop evaluates a whole arithmetic expression, as in $((…)), ((…)) or
// a let argument; trailing is the whitespace between its end and the
// closing parentheses. jaiph-go patch: as bash, the expression's text is
// expanded first (parameters, substitutions, double quotes, in source
// order: $(( x = 5, $x )) sees x's old value, a substitution behind a
// short-circuit operator still runs), then the text is evaluated by the
// port of bash's expr.c (bashexpr.go), which reports bash's errors with
// the text's own spacing.
func ArithmTop(cfg *Config, expr syntax.ArithmExpr, trailing string) (int, error) {
	r := arithRender{cfg: cfg}
	r.node(expr)
	if r.err != nil {
		return 0, r.err
	}
	oldLine := cfg.arithLine
	cfg.arithLine = expr.Pos().Line()
	defer func() { cfg.arithLine = oldLine }()
	return cfg.evalArithText(r.sb.String()+trailing, cfg.arithDepth)
}

// Arithm is [ArithmTop] with no trailing whitespace.
func Arithm(cfg *Config, expr syntax.ArithmExpr) (int, error) {
	return ArithmTop(cfg, expr, "")
}

// arithRender renders an arithmetic expression with its source spacing,
// from the nodes' positions.
type arithRender struct {
	sb strings.Builder
	// cfg, when set, expands the words that expand (ArithmText,
	// ArithmTop); err is the first error doing so.
	cfg *Config
	err error
	// allWords: every word is expanded, its quotes removed (an
	// assignment's subscript, ArithmText).
	allWords bool
}

func (r *arithRender) gap(line, col uint, to syntax.Pos) {
	switch {
	case to.Line() != line:
		r.sb.WriteByte(' ')
	case to.Col() > col:
		r.sb.WriteString(strings.Repeat(" ", int(to.Col()-col)))
	}
}

func (r *arithRender) node(x syntax.ArithmExpr) {
	switch x := x.(type) {
	case *syntax.BinaryArithm:
		r.node(x.X)
		op := x.Op.String()
		r.gap(x.X.End().Line(), x.X.End().Col(), x.OpPos)
		r.sb.WriteString(op)
		r.gap(x.OpPos.Line(), x.OpPos.Col()+uint(len(op)), x.Y.Pos())
		r.node(x.Y)
	case *syntax.UnaryArithm:
		op := x.Op.String()
		if x.Post {
			r.node(x.X)
			r.gap(x.X.End().Line(), x.X.End().Col(), x.OpPos)
			r.sb.WriteString(op)
			return
		}
		r.sb.WriteString(op)
		r.gap(x.OpPos.Line(), x.OpPos.Col()+uint(len(op)), x.X.Pos())
		r.node(x.X)
	case *syntax.ParenArithm:
		r.sb.WriteByte('(')
		r.gap(x.Lparen.Line(), x.Lparen.Col()+1, x.X.Pos())
		r.node(x.X)
		r.gap(x.X.End().Line(), x.X.End().Col(), x.Rparen)
		r.sb.WriteByte(')')
	case *syntax.Word:
		if sq, ok := x.Parts[0].(*syntax.SglQuoted); ok && sq.Dollar && len(x.Parts) == 1 {
			// bash shows a $'…' operand as the '…' it became.
			str, _ := Literal(&Config{}, x)
			r.sb.WriteString("'" + str + "'")
			return
		}
		if pe, ok := singleBareElem(x); ok && r.cfg != nil {
			// jaiph-go patch: an element named in the arithmetic
			// (`b[0]`, `H["$k"]`, no `$`) is text the evaluation
			// reads, its subscript expanded when it is evaluated
			// (bashexpr.go's elemValue): b=([0]=6 [b[0]]=x) reads
			// b[0] as the list has set it, and a key holding a
			// backslash stays one.
			r.sb.WriteString(pe.Param.Value)
			r.sb.WriteByte('[')
			if EmptyParamsIndex(r.cfg, pe.Index) {
				// bash expands the text before it evaluates it: a
				// subscript of parameters that are empty is a[],
				// which the evaluation reports
			} else if pe.IndexRaw != "" {
				r.sb.WriteString(pe.IndexRaw) // as written, blanks too
			} else {
				var sub arithRender
				sub.node(pe.Index)
				r.sb.WriteString(sub.sb.String())
			}
			r.sb.WriteByte(']')
			return
		}
		if r.cfg != nil && (r.allWords || expandsInArith(r.cfg, x)) {
			str, err := Literal(r.cfg, x)
			if err != nil && r.err == nil {
				r.err = err
			}
			r.sb.WriteString(str)
			return
		}
		if lit, ok := x.Parts[0].(*syntax.Lit); ok && len(x.Parts) == 1 && !strings.Contains(lit.Value, "\\") {
			r.sb.WriteString(lit.Value) // a name or a number, most often
			return
		}
		if s, ok := r.sglQuotedText(x); ok {
			r.sb.WriteString(s)
			return
		}
		var b strings.Builder
		p := syntax.NewPrinter(syntax.Minify(true))
		if SubstText != nil {
			// jaiph-go patch: a substitution's commands as bash
			// reprints them, marked: unescape leaves them be
			p.BashSubstText(func(n syntax.Node) (string, bool) {
				text, ok := SubstText(n)
				return substStart + text + substEnd, ok
			})
		}
		p.Print(&b, x)
		r.sb.WriteString(r.unescape(strings.ReplaceAll(b.String(), "\\\n", "")))
	}
}

// sglQuotedText is the text bash's expansion of arithmetic makes of w, a
// word of literal text and single quotes (jaiph-go patch): the expression
// is expanded as in double quotes, so the quotes stay — no operand, an
// error — and the $ expansions inside them are made (`(( 'a[$k]++' ))`
// fails on 'a[key]++'). ok is false for another word, or when nothing is
// to be evaluated.
func (r *arithRender) sglQuotedText(w *syntax.Word) (string, bool) {
	if r.cfg == nil || r.cfg.LetArith {
		return "", false
	}
	var sb strings.Builder
	quoted := false
	for _, part := range w.Parts {
		switch part := part.(type) {
		case *syntax.Lit:
			sb.WriteString(r.unescape(part.Value))
		case *syntax.SglQuoted:
			if part.Dollar || !strings.ContainsAny(part.Value, "$`") {
				return "", false
			}
			doc, err := syntax.NewParser().Document(strings.NewReader(part.Value))
			if err != nil {
				return "", false
			}
			s, err := Literal(r.cfg, doc)
			if err != nil {
				if r.err == nil {
					r.err = err
				}
				return "", true
			}
			sb.WriteString("'" + s + "'")
			quoted = true
		default:
			return "", false
		}
	}
	return sb.String(), quoted
}

// unescape removes the backslashes bash's expansion of arithmetic text
// removes (jaiph-go patch): as in double quotes, before $, `, " and \ (a
// let argument is a plain word: before any character). Elsewhere the
// backslash stays, so $(( 1 + \$x )) is bash's error on "1 + $x".
//
// A command substitution's text, between substStart and substEnd, is bash's
// reprint of its commands, which the expansion does not unescape.
func (r *arithRender) unescape(s string) string {
	if !strings.Contains(s, "\\") && !strings.Contains(s, substStart) {
		return s
	}
	let := r.cfg != nil && r.cfg.LetArith
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == substStart[0] {
			end := strings.Index(s[i:], substEnd)
			if end < 0 {
				end = len(s) - i
			}
			b.WriteString(s[i+1 : i+end])
			i += end
			continue
		}
		if s[i] == '\\' && i+1 < len(s) && (let || strings.IndexByte("$`\"\\", s[i+1]) >= 0) {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// substStart and substEnd mark a command substitution's text for unescape.
const substStart, substEnd = "\x00", "\x01"

// expandsInArith reports whether bash's expansion of arithmetic text
// changes the word w (jaiph-go patch): a parameter expansion, a
// substitution, double quotes, or single quotes in a let argument (which
// the word's expansion removed; in $((…)) and ((…)) bash keeps them,
// and they are no operand). Other words (a name, a number, 1[2]) are
// their source text.
func expandsInArith(cfg *Config, w *syntax.Word) bool {
	for _, part := range w.Parts {
		switch part := part.(type) {
		case *syntax.DblQuoted, *syntax.CmdSubst, *syntax.ArithmExp, *syntax.ProcSubst:
			return true
		case *syntax.SglQuoted:
			if cfg.LetArith {
				return true
			}
		case *syntax.ParamExp:
			if part.Dollar.IsValid() {
				return true
			}
		}
	}
	return false
}

// singleBareElem is the array element a word of an arithmetic expression
// names without a `$` (`b[0]`), if it is one (jaiph-go patch).
// EmptyParamsIndex reports whether the subscript idx is made only of
// parameter expansions without operators (quoted or not) and they expand
// to nothing: bash, which expands an arithmetic text before it evaluates
// it, then reads an empty subscript (a[$k] with k unset is a[]). Other
// subscripts are not expanded here, so nothing runs twice (jaiph-go
// patch).
func EmptyParamsIndex(cfg *Config, idx syntax.ArithmExpr) bool {
	w, ok := idx.(*syntax.Word)
	if !ok || len(w.Parts) == 0 {
		return false
	}
	simple := func(p syntax.WordPart) bool {
		pe, ok := p.(*syntax.ParamExp)
		return ok && pe.Exp == nil && pe.Repl == nil && pe.Slice == nil && !pe.Excl && !pe.Length && pe.Index == nil && pe.Param != nil
	}
	for _, p := range w.Parts {
		if dq, ok := p.(*syntax.DblQuoted); ok {
			if len(dq.Parts) == 0 {
				continue // jaiph-go patch: "" is removed too (m[""] is m[])
			}
			if !simple(dq.Parts[0]) || len(dq.Parts) > 1 {
				return false
			}
			continue
		}
		if !simple(p) {
			return false
		}
	}
	str, err := Literal(cfg, w)
	return err == nil && str == ""
}

func singleBareElem(w *syntax.Word) (*syntax.ParamExp, bool) {
	if len(w.Parts) != 1 {
		return nil, false
	}
	pe, ok := w.Parts[0].(*syntax.ParamExp)
	if !ok || !pe.Short || pe.Dollar.IsValid() || pe.Index == nil || pe.Param == nil {
		return nil, false
	}
	return pe, true
}

func oneIf(b bool) int {
	if b {
		return 1
	}
	return 0
}

// atoi is like [strconv.ParseInt](s, BASE, 64), but it handles integer
// base prefixes according to bash-shell's rules, ignores errors, and
// trims whitespace.
//
// For more information about bash's integer base handling syntax,
// refer to the bash manual:
// https://www.man7.org/linux/man-pages/man1/bash.1.html
func atoi(s string) int64 {
	s = strings.TrimSpace(s)
	neg := false
	switch {
	case strings.HasPrefix(s, "+"):
		s = s[1:]
	case strings.HasPrefix(s, "-"):
		neg = true
		s = s[1:]
	}
	base := int64(10)
	switch {
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		base = 16
		s = s[2:]
	case strings.HasPrefix(s, "0"):
		base = 8
		s = s[1:]
	default:
		baseStr, intStr, hasSep := strings.Cut(s, "#")
		if hasSep {
			var err error
			base, err = strconv.ParseInt(baseStr, 10, 8)
			if err != nil || base < 2 || base > 64 {
				return 0
			}
			s = intStr
		}
	}
	var n int64
	if base > 36 {
		n = atoiLargeBase(s, base)
	} else {
		n, _ = strconv.ParseInt(s, int(base), 64)
	}
	if neg {
		n = -n
	}
	return n
}

// atoiLargeBase parses bases 37 to 64, which [strconv.ParseInt] does not
// support, using bash's digit set: 0-9, a-z, A-Z, "@", and "_".
func atoiLargeBase(s string, base int64) int64 {
	var n int64
	for i := range len(s) {
		var d int64
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			d = int64(c - '0')
		case c >= 'a' && c <= 'z':
			d = int64(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			d = int64(c-'A') + 36
		case c == '@':
			d = 62
		case c == '_':
			d = 63
		default:
			return 0
		}
		if d >= base {
			return 0
		}
		n = n*base + d
	}
	return n
}

// ArithmText is an arithmetic expression's text with its words expanded,
// as bash expands an array subscript before evaluating it (jaiph-go patch:
// `[$((i++))]=$i [i++]=$i` expands each word in turn, then evaluates the
// subscripts).
func ArithmText(cfg *Config, x syntax.ArithmExpr) (string, error) {
	r := arithRender{cfg: cfg, allWords: true}
	r.node(x)
	return r.sb.String(), r.err
}

// ArithmSource renders an arithmetic expression with its source spacing
// (jaiph-go patch, for xtrace).
// SubstText is bash's reprint of the commands of a command substitution,
// for the words ArithmSource names (jaiph-go patch: set by the
// interpreter, which knows bash's layout; see syntax.Printer.BashSubstText).
var SubstText func(syntax.Node) (string, bool)

func ArithmSource(x syntax.ArithmExpr) string {
	var r arithRender
	r.node(x)
	return r.sb.String()
}
