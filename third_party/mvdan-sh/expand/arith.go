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

	// Operand is where the error token starts when Expr and Token are
	// still to be filled in from the whole expression's source spacing.
	Operand syntax.ArithmExpr
	// AtOp: the token starts at Operand's operator, not at Operand
	// (jaiph-go patch: bash's "attempted assignment to non-variable").
	AtOp bool
	// After: the token is the one after Operand, or Operand's last when
	// nothing follows (jaiph-go patch: bash's "exponent less than 0",
	// read with one token of lookahead).
	After bool
	// Skip: the token starts this many bytes into Operand (jaiph-go
	// patch: the "[" of 1[2]).
	Skip int
	// Subscript: the error is an array subscript's, fatal wherever the
	// subscript was, and named after no command (jaiph-go patch, see
	// subscriptArithm).
	Subscript bool
}

// firstNonVarAssign is the first assignment, in the order bash parses
// the expression, whose target is surely no variable: an expression
// ((a && b) += 3) or a constant (1 = 2). Words that expand ($x = 3) are
// left to the evaluation (jaiph-go patch, see ArithmTop).
func firstNonVarAssign(x syntax.ArithmExpr) *syntax.BinaryArithm {
	switch x := x.(type) {
	case *syntax.BinaryArithm:
		if b := firstNonVarAssign(x.X); b != nil {
			return b
		}
		switch x.Op {
		case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn,
			syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
			syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn,
			syntax.ShlAssgn, syntax.ShrAssgn:
			w, ok := x.X.(*syntax.Word)
			if !ok {
				return x
			}
			if lit := w.Lit(); lit != "" && !syntax.ValidName(lit) {
				if _, digit := digitIndexed(w); !digit {
					return x
				}
			}
		}
		return firstNonVarAssign(x.Y)
	case *syntax.UnaryArithm:
		return firstNonVarAssign(x.X)
	case *syntax.ParenArithm:
		return firstNonVarAssign(x.X)
	}
	return nil
}

// digitIndexed reports a word like 1[2], which bash reads as the number 1
// followed by an invalid operator (jaiph-go patch: the parser makes it an
// element of the positional parameter 1).
func digitIndexed(w *syntax.Word) (int, bool) {
	if len(w.Parts) != 1 {
		return 0, false
	}
	pe, ok := w.Parts[0].(*syntax.ParamExp)
	if !ok || !pe.Short || pe.Param == nil || pe.Index == nil || pe.Param.Value == "" || pe.Param.Value[0] < '0' || pe.Param.Value[0] > '9' {
		return 0, false
	}
	return len(pe.Param.Value), true
}

func (e ArithmError) Error() string {
	return fmt.Sprintf("%s: %s (error token is \"%s\")", e.Expr, e.Msg, e.Token)
}

// ArithmString evaluates str as bash evaluates a variable's value or a let
// argument inside arithmetic: a number in bash's notation, a variable name
// (evaluated in turn), or a whole expression. jaiph-go patch: upstream
// read only numbers, so x="1+2"; $((x*2)) gave 0 and let "n = 6 * 7" failed.
func ArithmString(cfg *Config, str string) (int, error) {
	return cfg.arithmString(str, 0)
}

func (cfg *Config) arithmString(str string, depth int) (int, error) {
	// jaiph-go patch: evaluated as bash's expr.c evaluates text (see
	// bashexpr.go); depth is how many texts enclose this one (a variable's
	// value read there is one deeper), for bash's "expression recursion
	// level exceeded".
	return cfg.evalArithText(str, depth)
}

// ArithmTop evaluates a whole arithmetic expression, as in $((…)), ((…)) or
// a let argument; trailing is the whitespace between its end and the
// closing parentheses. An error from an operator is worded as bash's,
// quoting the expression with its source spacing and the error token from
// the failing operand to the end.
func ArithmTop(cfg *Config, expr syntax.ArithmExpr, trailing string) (int, error) {
	words := expandingWords(expr, nil, false)
	if len(words) == 0 {
		return arithmTop(cfg, expr, trailing)
	}
	// jaiph-go patch: bash expands the words of an arithmetic expression
	// (parameters, substitutions, double quotes) before it parses and
	// evaluates the text they make: x='2 + 3'; $(( $x * 4 )) is 14, not
	// 20; $(( x = 5, $x )) sees x's old value; a substitution behind a
	// short-circuit operator still runs. When every value is one operand
	// (a number or a name), the parsed expression is evaluated with them;
	// otherwise the expanded text is parsed and evaluated, as bash does.
	old := cfg.arithWords
	defer func() { cfg.arithWords = old }()
	vals := make(map[*syntax.Word]string, len(old)+len(words))
	for w, v := range old {
		vals[w] = v
	}
	simple := true
	for _, w := range words {
		str, err := Literal(cfg, w)
		if err != nil {
			return 0, err
		}
		vals[w] = str
		if !arithOperandText(str) {
			simple = false
		}
	}
	cfg.arithWords = vals
	if simple {
		return arithmTop(cfg, expr, trailing)
	}
	r := arithRender{cfg: cfg}
	r.node(expr)
	if r.err != nil {
		return 0, r.err
	}
	cfg.arithWords = old
	return cfg.arithmString(r.sb.String()+trailing, 0)
}

// arithOperandText reports whether an expanded word is one operand, a
// number or a name, maybe signed, so that evaluating it in place is
// evaluating the text it makes (jaiph-go patch, see ArithmTop).
func arithOperandText(s string) bool {
	if s == "" || strings.Trim(s, " \t\n") != s {
		return false
	}
	if s[0] == '-' || s[0] == '+' {
		// a sign binds tighter than any binary operator: 2-$n with
		// n=-3 is 2 - -3 either way.
		s = s[1:]
		if s == "" {
			return false
		}
	}
	if syntax.ValidName(s) {
		return true
	}
	return s[0] >= '0' && s[0] <= '9' && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '#' || r == '@' || r == '_')
	})
}

// expandingWords appends, in source order, the words of x that bash
// expands before evaluating it: those holding a parameter expansion, a
// substitution or double quotes, outside the targets of assignments and
// of ++/-- (jaiph-go patch, see ArithmTop). A word holding single quotes
// leaves the whole expression to the evaluation (nil).
func expandingWords(x syntax.ArithmExpr, words []*syntax.Word, target bool) []*syntax.Word {
	switch x := x.(type) {
	case *syntax.BinaryArithm:
		lhs := false
		switch x.Op {
		case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn,
			syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
			syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn,
			syntax.ShlAssgn, syntax.ShrAssgn:
			lhs = true
		}
		words = expandingWords(x.X, words, lhs)
		if words == nil {
			return nil
		}
		return expandingWords(x.Y, words, false)
	case *syntax.UnaryArithm:
		return expandingWords(x.X, words, x.Op == syntax.Inc || x.Op == syntax.Dec)
	case *syntax.ParenArithm:
		return expandingWords(x.X, words, false)
	case *syntax.Word:
		expands := false
		for _, part := range x.Parts {
			switch part := part.(type) {
			case *syntax.SglQuoted:
				return nil
			case *syntax.DblQuoted, *syntax.CmdSubst, *syntax.ArithmExp:
				expands = true
			case *syntax.ParamExp:
				if part.Dollar.IsValid() {
					expands = true
				}
			}
		}
		if _, digit := digitIndexed(x); expands && !target && !digit {
			words = append(words, x)
		}
	}
	if words == nil {
		words = []*syntax.Word{}
	}
	return words
}

func arithmTop(cfg *Config, expr syntax.ArithmExpr, trailing string) (int, error) {
	// jaiph-go patch: bash finds an assignment to a non-variable when its
	// parser reaches it, even in a branch it does not evaluate ((( n ||
	// 1 = 2 )) fails), and evaluates nothing after it. The evaluation
	// stops there (Arithm), or fails there at its end.
	oldStop := cfg.arithStop
	cfg.arithStop = firstNonVarAssign(expr)
	n, err := Arithm(cfg, expr)
	if err == nil && cfg.arithStop != nil {
		n, err = 0, ArithmError{Msg: "attempted assignment to non-variable", Operand: cfg.arithStop, AtOp: true}
	}
	cfg.arithStop = oldStop
	if ae, ok := err.(ArithmError); ok && ae.Operand == nil && (ae.Msg == "value too great for base" || ae.Msg == "invalid arithmetic base" || ae.Msg == "invalid number") {
		// jaiph-go patch: as bash, a bad constant names the expression
		// up to the end of that constant ("y = 1 + 08", "2#102").
		var r arithRender
		r.node(expr)
		if text := strings.TrimLeft(r.sb.String(), "'\""); strings.Contains(text, ae.Token) {
			ae.Expr = text[:strings.Index(text, ae.Token)+len(ae.Token)]
			return 0, ae
		}
	}
	if ae, ok := err.(ArithmError); ok && ae.Operand == nil && trailing != "" {
		// jaiph-go patch: an error about the whole expression quotes it
		// with the spacing before the closing parentheses, as bash.
		var r arithRender
		r.node(expr)
		if text := r.sb.String(); ae.Expr == text {
			if strings.HasSuffix(text, ae.Token) {
				ae.Token += trailing
			}
			ae.Expr += trailing
			return 0, ae
		}
	}
	if ae, ok := err.(ArithmError); ok && ae.Operand != nil {
		return 0, renderOperandError(expr, ae, trailing)
	}
	return n, err
}

// renderOperandError fills the expression and token of ae, an error found
// at an operand of expr (jaiph-go patch).
func renderOperandError(expr syntax.ArithmExpr, ae ArithmError, trailing string) ArithmError {
	{
		var r arithRender
		r.node(expr)
		text := r.sb.String()
		ae.Expr = text + trailing
		ae.Token = ae.Expr
		if start, ok := r.starts[ae.Operand]; ok && ae.Skip > 0 {
			ae.Token = text[start+ae.Skip:] + trailing
		} else if end, ok := r.ends[ae.Operand]; ok && ae.After {
			if rest := strings.TrimLeft(text[end:], " "); rest != "" {
				ae.Token = rest + trailing
			} else {
				ae.Token = text[r.lastToken(ae.Operand):] + trailing
			}
		} else if start, ok := r.starts[ae.Operand]; ok && !ae.AtOp {
			ae.Token = text[start:] + trailing
		} else if start, ok := r.opStarts[ae.Operand]; ok && ae.AtOp {
			ae.Token = text[start:] + trailing
		}
		ae.Operand, ae.AtOp, ae.After, ae.Skip = nil, false, false, 0
		return ae
	}
}

// arithRender renders an arithmetic expression with its source spacing,
// from the nodes' positions, recording where each node starts.
type arithRender struct {
	sb       strings.Builder
	starts   map[syntax.ArithmExpr]int
	opStarts map[syntax.ArithmExpr]int // where a binary node's operator is
	ends     map[syntax.ArithmExpr]int
	// cfg, when set, expands the words (ArithmText); err is the first
	// error doing so.
	cfg *Config
	err error
}

// lastToken is where the last token of a rendered node starts.
func (r *arithRender) lastToken(x syntax.ArithmExpr) int {
	switch x := x.(type) {
	case *syntax.BinaryArithm:
		return r.lastToken(x.Y)
	case *syntax.UnaryArithm:
		if x.Post {
			return r.ends[x] - len(x.Op.String())
		}
		return r.lastToken(x.X)
	case *syntax.ParenArithm:
		return r.ends[x] - 1
	}
	return r.starts[x]
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
	if r.starts == nil {
		r.starts = make(map[syntax.ArithmExpr]int)
	}
	r.starts[x] = r.sb.Len()
	if r.ends == nil {
		r.ends = make(map[syntax.ArithmExpr]int)
	}
	defer func() { r.ends[x] = r.sb.Len() }()
	switch x := x.(type) {
	case *syntax.BinaryArithm:
		r.node(x.X)
		op := x.Op.String()
		r.gap(x.X.End().Line(), x.X.End().Col(), x.OpPos)
		if r.opStarts == nil {
			r.opStarts = make(map[syntax.ArithmExpr]int)
		}
		r.opStarts[x] = r.sb.Len()
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
			// (`b[0]`, no `$`) is text the evaluation reads, not an
			// expansion: b=([0]=6 [b[0]]=x) reads b[0] as the list
			// has set it.
			r.sb.WriteString(pe.Param.Value)
			r.sb.WriteByte('[')
			r.node(pe.Index)
			r.sb.WriteByte(']')
			return
		}
		if r.cfg != nil {
			if str, ok := r.cfg.arithWords[x]; ok {
				r.sb.WriteString(str)
				return
			}
			str, err := Literal(r.cfg, x)
			if err != nil && r.err == nil {
				r.err = err
			}
			r.sb.WriteString(str)
			return
		}
		var b strings.Builder
		syntax.NewPrinter(syntax.Minify(true)).Print(&b, x)
		r.sb.WriteString(strings.ReplaceAll(b.String(), "\\\n", ""))
	}
}

// singleBareElem is the array element a word of an arithmetic expression
// names without a `$` (`b[0]`), if it is one (jaiph-go patch).
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

// isAssignOp reports whether s starts with an arithmetic assignment
// operator (=, +=, <<=, …, but not ==).
func isAssignOp(s string) bool {
	for _, op := range []string{"<<=", ">>=", "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|="} {
		if strings.HasPrefix(s, op) {
			return true
		}
	}
	return strings.HasPrefix(s, "=") && !strings.HasPrefix(s, "==")
}

// bashNumber parses an integer constant as bash does: 0x hex, 0 octal,
// BASE#DIGITS with bases 2 to 64, wrapping on overflow, and failing with
// bash's "value too great for base" on a bad digit.
func bashNumber(s string) (int64, error) {
	base := int64(10)
	digits := s
	switch {
	case len(s) > 1 && s[0] == '0' && strings.Contains(s, "#"):
		// jaiph-go patch: bash reads a leading 0 as octal (or 0x as
		// hex), where # is no digit: 02#1 and 0x2#1 are invalid.
		return 0, ArithmError{Expr: s, Msg: "invalid number", Token: s}
	case strings.HasPrefix(s, "0x") || strings.HasPrefix(s, "0X"):
		base, digits = 16, s[2:]
	case strings.Contains(s, "#"):
		b, d, _ := strings.Cut(s, "#")
		n, err := strconv.ParseInt(b, 10, 64)
		if err != nil || n < 2 || n > 64 {
			return 0, ArithmError{Expr: s, Msg: "invalid arithmetic base", Token: s}
		}
		base, digits = n, d
	case len(s) > 1 && s[0] == '0':
		base, digits = 8, s[1:]
	}
	var n int64
	for i := range len(digits) {
		var d int64
		switch c := digits[i]; {
		case c >= '0' && c <= '9':
			d = int64(c - '0')
		case c >= 'a' && c <= 'z':
			d = int64(c-'a') + 10
		case c >= 'A' && c <= 'Z':
			d = int64(c - 'A')
			if base > 36 {
				d += 36
			} else {
				d += 10
			}
		case c == '@':
			d = 62
		case c == '_':
			d = 63
		default:
			d = 64
		}
		if d >= base {
			return 0, ArithmError{Expr: s, Msg: "value too great for base", Token: s}
		}
		n = n*base + d
	}
	return n, nil
}

// stopWithin is the error of an assignment to a non-variable (arithStop)
// inside operand x, which its evaluation skipped (a branch not taken):
// bash's parser meets it while it reads x, before the operator x belongs
// to is applied, so its error wins over that operator's (5 % (0 && (1 %
// x=4)) is no division by 0) and the operator's assignment never happens
// (jaiph-go patch).
func (cfg *Config) stopWithin(x syntax.ArithmExpr) error {
	if b := cfg.arithStop; b != nil && x.End().After(b.OpPos) {
		return ArithmError{Msg: "attempted assignment to non-variable", Operand: b, AtOp: true}
	}
	return nil
}

func Arithm(cfg *Config, expr syntax.ArithmExpr) (int, error) {
	if b := cfg.arithStop; b != nil && expr.Pos().After(b.OpPos) {
		return 0, ArithmError{Msg: "attempted assignment to non-variable", Operand: b, AtOp: true}
	}
	switch expr := expr.(type) {
	case *syntax.Word:
		if n, ok := digitIndexed(expr); ok {
			return 0, ArithmError{Msg: "syntax error: invalid arithmetic operator", Operand: expr, Skip: n}
		}
		if _, ok := expr.Parts[0].(*syntax.SglQuoted); ok && !cfg.LetArith {
			// jaiph-go patch: bash keeps single quotes in arithmetic,
			// where they are no operand ($(('3' + 2)) is its error);
			// a $'…' string becomes one ('…' with its escapes decoded).
			return 0, ArithmError{Msg: "syntax error: operand expected", Operand: expr}
		}
		if expr.Lit() == "LINENO" && !cfg.Env.Get("LINENO").IsSet() {
			// jaiph-go patch: LINENO in arithmetic is the line, as
			// $LINENO is (paramExp); the environment has no LINENO.
			return int(expr.Pos().Line()), nil
		}
		str, ok := cfg.arithWords[expr]
		if !ok {
			var err error
			if str, err = Literal(cfg, expr); err != nil {
				return 0, err
			}
		}
		// the word's text (a name, a number, an expanded value) is
		// evaluated as the expression's own text: a name's value is
		// one level deeper
		n, err := cfg.arithmString(str, cfg.arithDepth)
		return n, err
	case *syntax.ParenArithm:
		return Arithm(cfg, expr.X)
	case *syntax.UnaryArithm:
		switch expr.Op {
		case syntax.Inc, syntax.Dec:
			if w, ok := expr.X.(*syntax.Word); ok {
				if n, ok := digitIndexed(w); ok {
					return 0, ArithmError{Msg: "syntax error: invalid arithmetic operator", Operand: expr.X, Skip: n}
				}
			}
			if err := cfg.unsetOperand(expr.X); err != nil {
				return 0, err
			}
			cur, set, err := cfg.arithmLvalue(expr.X)
			if err != nil {
				return 0, err
			}
			old_, err := cfg.arithmString(cur, 0)
			if err != nil {
				return 0, err
			}
			old := int64(old_)
			val := old
			if expr.Op == syntax.Inc {
				val++
			} else {
				val--
			}
			if err := set(strconv.FormatInt(val, 10)); err != nil {
				return 0, err
			}
			if expr.Post {
				return int(old), nil
			}
			return int(val), nil
		}
		val, err := Arithm(cfg, expr.X)
		if err != nil {
			return 0, err
		}
		switch expr.Op {
		case syntax.Not:
			return oneIf(val == 0), nil
		case syntax.BitNegation:
			return ^val, nil
		case syntax.Plus:
			return val, nil
		case syntax.Minus:
			return -val, nil
		default:
			return 0, fmt.Errorf("unsupported unary arithmetic operator: %q", expr.Op)
		}
	case *syntax.BinaryArithm:
		switch expr.Op {
		case syntax.Assgn, syntax.AddAssgn, syntax.SubAssgn,
			syntax.MulAssgn, syntax.QuoAssgn, syntax.RemAssgn,
			syntax.AndAssgn, syntax.OrAssgn, syntax.XorAssgn,
			syntax.ShlAssgn, syntax.ShrAssgn:
			return cfg.assgnArit(expr)
		case syntax.TernQuest: // TernColon can't happen here
			cond, err := Arithm(cfg, expr.X)
			if err != nil {
				return 0, err
			}
			b2 := expr.Y.(*syntax.BinaryArithm) // must have Op==TernColon
			if cond != 0 {
				return Arithm(cfg, b2.X)
			}
			return Arithm(cfg, b2.Y)
		case syntax.AndArit, syntax.OrArit:
			// Like Bash, short-circuit the right operand.
			left, err := Arithm(cfg, expr.X)
			if err != nil {
				return 0, err
			}
			if expr.Op == syntax.AndArit && left == 0 {
				return 0, nil
			}
			if expr.Op == syntax.OrArit && left != 0 {
				return 1, nil
			}
			right, err := Arithm(cfg, expr.Y)
			if err != nil {
				return 0, err
			}
			return oneIf(right != 0), nil
		}
		left, err := Arithm(cfg, expr.X)
		if err != nil {
			return 0, err
		}
		right, err := Arithm(cfg, expr.Y)
		if err != nil {
			return 0, err
		}
		if err := cfg.stopWithin(expr.Y); err != nil {
			return 0, err
		}
		n, err := binArit(expr.Op, left, right)
		if err != nil {
			// jaiph-go patch: bash's wording and error token.
			return 0, ArithmError{Msg: err.Error(), Operand: expr.Y, After: expr.Op == syntax.Pow}
		}
		return n, nil
	case *syntax.FlagsArithm: // e.g. zsh's ${a[(r)b]}
		return 0, fmt.Errorf("unsupported")
	default:
		panic(fmt.Sprintf("unexpected arithm expr: %T", expr))
	}
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

// unsetOperand is bash's nounset error for a name an arithmetic operator
// reads before it writes (jaiph-go patch: `set -u; (( n++ ))` and
// `(( n += 1 ))` of an unset n went on).
func (cfg *Config) unsetOperand(x syntax.ArithmExpr) error {
	if !cfg.NoUnset {
		return nil
	}
	if w, ok := x.(*syntax.Word); ok {
		if name := w.Lit(); syntax.ValidName(name) && !cfg.Env.Get(name).IsSet() {
			return UnsetParameterError{Node: &syntax.ParamExp{Param: &syntax.Lit{Value: name}}, Message: "unbound variable"}
		}
	}
	return nil
}

func (cfg *Config) assgnArit(b *syntax.BinaryArithm) (int, error) {
	w, isWord := b.X.(*syntax.Word)
	if !isWord {
		// jaiph-go patch: an expression on the left ((( 1/0 && n += 3 )))
		// is evaluated first, as bash does while parsing; then the
		// assignment fails.
		if _, err := Arithm(cfg, b.X); err != nil {
			return 0, err
		}
		if stop := cfg.arithStop; stop != nil {
			// bash parses as it evaluates: the first assignment to a
			// non-variable in the text fails, even one in a branch not
			// evaluated ((n - n+=3) before this one).
			b = stop
		}
		return 0, ArithmError{Msg: "attempted assignment to non-variable", Operand: b, AtOp: true}
	}
	if n, ok := digitIndexed(w); ok {
		return 0, ArithmError{Msg: "syntax error: invalid arithmetic operator", Operand: b, Skip: n}
	}
	if b.Op != syntax.Assgn {
		if err := cfg.unsetOperand(b.X); err != nil {
			return 0, err
		}
	}
	cur, set, err := cfg.arithmLvalue(b.X)
	if ae, ok := err.(ArithmError); ok && ae.Msg == "attempted assignment to non-variable" && ae.Operand == nil {
		// jaiph-go patch: bash quotes the whole expression and the text
		// from the operator on.
		return 0, ArithmError{Msg: ae.Msg, Operand: b, AtOp: true}
	}
	if err != nil {
		return 0, err
	}
	val_ := 0
	if b.Op != syntax.Assgn {
		if val_, err = cfg.arithmString(cur, 0); err != nil {
			return 0, err
		}
	}
	val := int64(val_)
	arg_, err := Arithm(cfg, b.Y)
	if err != nil {
		return 0, err
	}
	if err := cfg.stopWithin(b.Y); err != nil {
		return 0, err
	}
	arg := int64(arg_)
	switch b.Op {
	case syntax.Assgn:
		val = arg
	case syntax.AddAssgn:
		val += arg
	case syntax.SubAssgn:
		val -= arg
	case syntax.MulAssgn:
		val *= arg
	case syntax.QuoAssgn:
		if arg == 0 {
			return 0, ArithmError{Msg: "division by 0", Operand: b.Y}
		}
		val /= arg
	case syntax.RemAssgn:
		if arg == 0 {
			return 0, ArithmError{Msg: "division by 0", Operand: b.Y}
		}
		val %= arg
	case syntax.AndAssgn:
		val &= arg
	case syntax.OrAssgn:
		val |= arg
	case syntax.XorAssgn:
		val ^= arg
	case syntax.ShlAssgn:
		val <<= uint(arg) & 63
	case syntax.ShrAssgn:
		val >>= uint(arg) & 63
	}
	if err := set(strconv.FormatInt(val, 10)); err != nil {
		return 0, err
	}
	return int(val), nil
}

func intPow(a, b int) int {
	p := 1
	for b > 0 {
		if b&1 != 0 {
			p *= a
		}
		b >>= 1
		a *= a
	}
	return p
}

func binArit(op syntax.BinAritOperator, x, y int) (int, error) {
	switch op {
	case syntax.Add:
		return x + y, nil
	case syntax.Sub:
		return x - y, nil
	case syntax.Mul:
		return x * y, nil
	case syntax.Quo:
		if y == 0 {
			return 0, fmt.Errorf("division by 0")
		}
		return x / y, nil
	case syntax.Rem:
		if y == 0 {
			return 0, fmt.Errorf("division by 0")
		}
		return x % y, nil
	case syntax.Pow:
		if y < 0 {
			return 0, fmt.Errorf("exponent less than 0")
		}
		return intPow(x, y), nil
	case syntax.Eql:
		return oneIf(x == y), nil
	case syntax.Gtr:
		return oneIf(x > y), nil
	case syntax.Lss:
		return oneIf(x < y), nil
	case syntax.Neq:
		return oneIf(x != y), nil
	case syntax.Leq:
		return oneIf(x <= y), nil
	case syntax.Geq:
		return oneIf(x >= y), nil
	case syntax.And:
		return x & y, nil
	case syntax.Or:
		return x | y, nil
	case syntax.Xor:
		return x ^ y, nil
	case syntax.Shr:
		return x >> (uint(y) & 63), nil // jaiph-go patch: as x86-64 C, like bash
	case syntax.Shl:
		return x << (uint(y) & 63), nil
	case syntax.Comma:
		// x is executed but its result discarded
		return y, nil
	default:
		return 0, fmt.Errorf("unsupported binary arithmetic operator: %q", op)
	}
}

// arithmLvalue returns the value of an assignable arithmetic operand, a
// name or an array element like a[i], and a function that sets it. jaiph-go
// patch: upstream only knew plain names (((a[0]++)) panicked) and replaced
// the whole variable, dropping attributes such as export.
func (cfg *Config) arithmLvalue(x syntax.ArithmExpr) (string, func(string) error, error) {
	w, ok := x.(*syntax.Word)
	if !ok {
		return "", nil, fmt.Errorf("attempted assignment to non-variable")
	}
	wenv, ok := cfg.Env.(WriteEnviron)
	if !ok {
		return "", nil, fmt.Errorf("environment is read-only")
	}
	if name := w.Lit(); syntax.ValidName(name) {
		vr := cfg.Env.Get(name)
		if n, v := vr.Resolve(cfg.Env); n != "" {
			name, vr = n, v
		}
		set := func(val string) error {
			if vr.Kind == Indexed || vr.Kind == Associative {
				return cfg.assignElem(name, vr, nil, val)
			}
			nv := vr
			nv.Set, nv.Kind, nv.Str = true, String, val
			return wenv.Set(name, nv)
		}
		cur, _, _ := cfg.varInd(vr, nil)
		return cur, set, nil
	}
	if len(w.Parts) == 1 {
		if pe, ok := w.Parts[0].(*syntax.ParamExp); ok && pe.Param != nil && pe.Index != nil && !pe.Length && !pe.Excl && pe.Exp == nil {
			name := pe.Param.Value
			cur, err := Literal(cfg, w)
			if err != nil {
				return "", nil, err
			}
			set := func(val string) error {
				vr := cfg.Env.Get(name)
				if n, v := vr.Resolve(cfg.Env); n != "" {
					name, vr = n, v
				}
				return cfg.assignElem(name, vr, pe.Index, val)
			}
			return cur, set, nil
		}
	}
	str, _ := Literal(cfg, w)
	return "", nil, ArithmError{Expr: str, Msg: "attempted assignment to non-variable", Token: str}
}

// ArithmText is an arithmetic expression's text with its words expanded,
// as bash expands an array subscript before evaluating it (jaiph-go patch:
// `[$((i++))]=$i [i++]=$i` expands each word in turn, then evaluates the
// subscripts).
func ArithmText(cfg *Config, x syntax.ArithmExpr) (string, error) {
	r := arithRender{cfg: cfg}
	r.node(x)
	return r.sb.String(), r.err
}

// ArithmSource renders an arithmetic expression with its source spacing
// (jaiph-go patch, for xtrace).
func ArithmSource(x syntax.ArithmExpr) string {
	var r arithRender
	r.node(x)
	return r.sb.String()
}
