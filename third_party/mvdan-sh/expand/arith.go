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

// trimArithBlanks is strings.Trim(s, " \t\n") without building a cutset
// (arithmString runs for every operand).
func trimArithBlanks(s string) string {
	i, j := 0, len(s)
	for i < j && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
		i++
	}
	for j > i && (s[j-1] == ' ' || s[j-1] == '\t' || s[j-1] == '\n') {
		j--
	}
	return s[i:j]
}

// indexCRVTFF is strings.IndexAny(s, "\r\v\f").
func indexCRVTFF(s string) int {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '\r' || c == '\v' || c == '\f' {
			return i
		}
	}
	return -1
}

func (cfg *Config) arithmString(str string, depth int) (int, error) {
	// jaiph-go patch: a variable's value reached from a word inside
	// this text recurses one level deeper (x='-x' is bash's "expression
	// recursion level exceeded", not a stack overflow).
	oldDepth := cfg.arithDepth
	cfg.arithDepth = depth
	defer func() { cfg.arithDepth = oldDepth }()
	// jaiph-go patch: bash's arithmetic blanks are space, tab and
	// newline; a carriage return, vertical tab or form feed is no blank
	// but a character no token starts with.
	s := trimArithBlanks(str)
	if i := indexCRVTFF(s); i >= 0 {
		sl := strings.TrimLeft(str, " \t\n")
		before := strings.TrimRight(s[:i], " \t\n")
		if before != "" {
			if _, err := syntax.NewParser().Arithmetic(strings.NewReader(before)); err == nil {
				return 0, ArithmError{Expr: sl, Msg: "syntax error: invalid arithmetic operator", Token: sl[i:]}
			}
		}
		return 0, ArithmError{Expr: sl, Msg: "syntax error: operand expected", Token: sl[i:]}
	}
	if i := expansionChar(s); i >= 0 {
		// jaiph-go patch: a value (a let argument) is not expanded
		// again: bash's lexer meets `$`, a backquote, a quote or a
		// backslash as a character no token starts with (declare -i v='$x',
		// v='$(cmd)'; $((v)) ran cmd). What comes before is evaluated
		// first (n++ $x increments n).
		sl := strings.TrimLeft(str, " \t\n") // s is its prefix: i is its offset there too
		off := i
		msg := "syntax error: operand expected"
		if before := strings.TrimRight(s[:i], " \t\n"); before != "" {
			if _, err := syntax.NewParser().Arithmetic(strings.NewReader(before)); err == nil {
				msg = "syntax error: invalid arithmetic operator"
			}
			if err := cfg.arithmBefore(sl, off, depth, msg == "syntax error: operand expected"); err != nil {
				return 0, err
			}
		}
		return 0, ArithmError{Expr: sl, Msg: msg, Token: sl[off:]}
	}
	switch {
	case s == "":
		return 0, nil
	case depth >= 1024:
		return 0, ArithmError{Expr: s, Msg: "expression recursion level exceeded", Token: s}
	case s[0] >= '0' && s[0] <= '9' && !strings.ContainsFunc(s, func(r rune) bool {
		return !(r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == '#' || r == '@' || r == '_')
	}):
		n, err := bashNumber(s)
		return int(n), err
	case syntax.ValidName(s):
		if cfg.NoUnset && !cfg.Env.Get(s).IsSet() {
			// set -u applies to names in arithmetic too.
			return 0, UnsetParameterError{
				Node:    &syntax.ParamExp{Param: &syntax.Lit{Value: s}},
				Message: "unbound variable",
			}
		}
		val := cfg.envGet(s)
		if val == "" {
			return 0, nil
		}
		return cfg.arithmString(val, depth+1)
	}
	// Bash quotes the expression and tokens with trailing whitespace.
	sl := strings.TrimLeft(str, " \t\n")
	if t := strings.TrimRight(sl, " \t\n"); len(t) >= 2 && strings.Trim(t, "+-") == "" {
		// jaiph-go patch: a run of + and - (++, ----) wants an operand
		// at its end: bash's token is its last character.
		return 0, ArithmError{Expr: sl, Msg: "syntax error: operand expected", Token: t[len(t)-1:]}
	}
	if len(sl) > 2 && (sl[:2] == "++" || sl[:2] == "--") {
		// jaiph-go patch: a leading ++ or -- wants a name; a character
		// no operand starts with after it (--,) is bash's "operand
		// expected" from that character.
		if rest := strings.TrimLeft(sl[2:], " \t\n"); rest != "" && strings.IndexByte("[]).},{", rest[0]) >= 0 {
			return 0, ArithmError{Expr: sl, Msg: "syntax error: operand expected", Token: rest}
		}
	}
	if strings.IndexByte("[]).},{", sl[0]) >= 0 {
		// jaiph-go patch: no operand starts with these: bash's lexer
		// stops at once (`{a,b}_y` is no comma expression).
		return 0, ArithmError{Expr: sl, Msg: "syntax error: operand expected", Token: sl}
	}
	x, err := syntax.NewParser().Arithmetic(strings.NewReader(s))
	if pe, ok := err.(syntax.ParseError); ok {
		off := min(int(pe.Pos.Offset()), len(sl))
		switch {
		case strings.HasSuffix(pe.Text, "must follow a name") && isAssignOp(sl[off:]):
			// jaiph-go patch: bash's text for `let '5 += 1'`. Bash
			// evaluates as it parses: what comes before the operator
			// is evaluated first, and its error wins.
			if err := cfg.arithmBeforeAssign(sl, off, depth, false); err != nil {
				return 0, err
			}
			return 0, ArithmError{Expr: sl, Msg: "attempted assignment to non-variable", Token: sl[off:]}
		case strings.HasSuffix(pe.Text, "must be followed by an expression"),
			strings.HasSuffix(pe.Text, "must follow an expression"):
			// jaiph-go patch: what comes before is evaluated first.
			if err := cfg.arithmBefore(sl, off, depth, true); err != nil {
				return 0, err
			}
			// jaiph-go patch: bash's token is what follows the operator
			// (`-/x`: "/x"), or the operator itself at the end ("1 +").
			tok := sl[off:]
			if op, ok := strings.CutSuffix(pe.Text, " must be followed by an expression"); ok {
				if op = strings.Trim(op, "`"); strings.HasPrefix(tok, op) {
					if rest := strings.TrimLeft(tok[len(op):], " \t\n"); rest != "" {
						tok = rest
					}
				}
			}
			msg := "syntax error: operand expected"
			if strings.HasPrefix(pe.Text, "`?`") {
				msg = "expression expected" // jaiph-go patch: bash's text after a lone ?
			}
			return 0, ArithmError{Expr: sl, Msg: msg, Token: tok}
		case strings.HasPrefix(pe.Text, "ternary operator missing"):
			// jaiph-go patch: bash evaluates the condition before it
			// finds no `:` (set -u: its unset name; its division by
			// 0), an assignment the `?` continues left undone.
			tok := strings.TrimLeft(sl[min(off+1, len(sl)):], " \t\n")
			if q := strings.LastIndexByte(sl[:min(off+1, len(sl))], '?'); q >= 0 {
				then := strings.TrimRight(sl[q+1:], " \t\n")
				if err := cfg.arithmTernaryBefore(sl, q, then, depth); err != nil {
					return 0, err
				}
				tok = colonToken(then, tok)
			}
			return 0, ArithmError{Expr: sl, Msg: "`:' expected for conditional expression", Token: tok}
		case strings.HasPrefix(pe.Text, "reached EOF without matching `(`"):
			fields := strings.Fields(sl[off:])
			return 0, ArithmError{Expr: sl, Msg: "missing `)'", Token: strings.TrimLeft(fields[len(fields)-1], "(")}
		case strings.HasPrefix(pe.Text, "reached ") && strings.Contains(pe.Text, " without matching `(`"):
			// jaiph-go patch: a token where bash expects the `)`
			// (`(n----n)`: n--, then --): the token runs from it on.
			return 0, ArithmError{Expr: sl, Msg: "missing `)'", Token: missingParenToken(sl, off)}
		}
	}
	if err != nil || x == nil {
		return 0, ArithmError{Expr: sl, Msg: "syntax error in expression", Token: sl}
	}
	if end := int(x.End().Offset()); end < len(s) {
		// The parser stops after a whole expression; bash rejects
		// what follows it, as in "a b" or "1)".
		tok := strings.TrimLeft(sl[end:], " \t\n")
		// jaiph-go patch: bash evaluates as it parses: an error in
		// what comes before (A/B/C.D with B 0) is the one reported.
		if err := cfg.arithmBefore(sl, end, depth, false); err != nil {
			return 0, err
		}
		msg := "syntax error in expression"
		if tok != "" && strings.IndexByte("@#$\\\"'`{}.;", tok[0]) >= 0 {
			msg = "syntax error: invalid arithmetic operator" // jaiph-go patch: bash's text
		}
		return 0, ArithmError{Expr: sl, Msg: msg, Token: tok}
	}
	if i := strings.IndexByte(sl, '#'); i > 0 && syntax.ValidName(sl[:i]) {
		// jaiph-go patch: NAME#digits is not a constant in bash.
		return 0, ArithmError{Expr: sl, Msg: "syntax error: invalid arithmetic operator", Token: sl[i:]}
	}
	if _, ok := x.(*syntax.Word); ok {
		// jaiph-go patch: a quote or backslash after a name or a
		// number is no operator to bash (x\,y: the parser read one
		// word with an escape).
		if i := strings.IndexAny(sl, "\\\"'`"); i > 0 && i < len(s) && (syntax.ValidName(sl[:i]) || strings.Trim(sl[:i], "0123456789") == "") {
			return 0, ArithmError{Expr: sl, Msg: "syntax error: invalid arithmetic operator", Token: sl[i:]}
		}
	}
	if w, ok := x.(*syntax.Word); ok && w.Lit() == s {
		// jaiph-go patch: a name followed by a character that is no
		// operator (a}b, a@b): bash's lexer reads the name, then
		// rejects that character as an operator.
		if c := s[0]; c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			i := 1
			for i < len(s) && (s[i] == '_' || s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z' || s[i] >= '0' && s[i] <= '9') {
				i++
			}
			if i < len(s) && s[i] != '[' {
				return 0, ArithmError{Expr: sl, Msg: "syntax error: invalid arithmetic operator", Token: sl[i:]}
			}
		}
		return 0, ArithmError{Expr: sl, Msg: "syntax error: operand expected", Token: sl}
	}
	return arithmTop(cfg, x, sl[len(s):])
}

// expansionChar is the offset in s of the first `$`, backquote, quote
// or backslash outside a subscript's brackets (bash expands a subscript, a[$i],
// when it evaluates it), or -1 (jaiph-go patch, see arithmString).
func expansionChar(s string) int {
	depth := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '[':
			depth++
		case ']':
			if depth > 0 {
				depth--
			}
		case '$', '`', '"', '\\', '\'':
			if depth == 0 {
				return i
			}
		}
	}
	return -1
}

// arithmTernaryBefore evaluates a ternary with no `:` as far as bash does
// before it finds none (jaiph-go patch): the condition before the `?` at q,
// then the branch then if the condition holds (its whole expression). It
// is evaluated as COND ? THEN : 0, an assignment the `?` continues left
// undone (arithOpen); only an evaluation error is returned, its token
// running to the end of sl.
func (cfg *Config) arithmTernaryBefore(sl string, q int, then string, depth int) error {
	if x, err := syntax.NewParser().Arithmetic(strings.NewReader(then)); err == nil && x != nil {
		then = then[:int(x.End().Offset())]
	} else {
		return cfg.arithmBefore(sl, q, depth, true)
	}
	base := strings.TrimRight(sl[:q], " \t\n") + " ? " + strings.TrimLeft(then, " \t\n")
	text := base + " : 0"
	if open := strings.Count(base, "(") - strings.Count(base, ")"); open > 0 {
		text += strings.Repeat(")", open)
	}
	oldOpen := cfg.arithOpen
	cfg.arithOpen = len(base) + 1
	_, err := cfg.arithmString(text, depth+1)
	cfg.arithOpen = oldOpen
	ae, ok := err.(ArithmError)
	if !ok {
		return err
	}
	if strings.HasPrefix(ae.Msg, "syntax error") || strings.HasPrefix(ae.Msg, "missing") || strings.HasPrefix(ae.Msg, "`") || ae.Msg == "expression expected" || ae.Msg == "attempted assignment to non-variable" {
		return nil
	}
	if ae.Expr != "" && !strings.Contains(text, ae.Expr) {
		return ae // an error in a variable's value evaluated there
	}
	if i := strings.Index(text, ae.Token); i >= 0 && ae.Expr == text && i < len(base) {
		// the same offset in sl: base has sl's text up to the branch
		if i <= q {
			ae.Expr, ae.Token = sl, sl[i:]
			return ae
		}
	}
	ae.Expr = sl
	return ae
}

// colonToken is bash's error token where it expects the `:` of a ternary
// whose branch after `?` is then (jaiph-go patch): the token after the
// branch's whole expression (1 ? 2 3: "3"), or at the end the branch's
// last token (0 ? 1/0: "0"). tok is the one to keep otherwise.
func colonToken(then, tok string) string {
	x, err := syntax.NewParser().Arithmetic(strings.NewReader(then))
	if err != nil || x == nil {
		return tok
	}
	if end := int(x.End().Offset()); end < len(then) {
		return strings.TrimLeft(then[end:], " \t\n")
	}
	i := len(then)
	for i > 0 && (then[i-1] == '_' || then[i-1] >= '0' && then[i-1] <= '9' || then[i-1] >= 'a' && then[i-1] <= 'z' || then[i-1] >= 'A' && then[i-1] <= 'Z') {
		i--
	}
	if i == len(then) && i > 0 {
		i--
		if c := then[i]; (c == '+' || c == '-') && i > 0 && then[i-1] == c {
			i-- // ++ and -- are one token
		}
	}
	return then[i:]
}

// missingParenToken is where bash's error token starts when a `(` at off
// in sl is followed by a whole expression and then a token that is no `)`:
// that token (jaiph-go patch; the parser's error names the `(`).
func missingParenToken(sl string, off int) string {
	for depth := 0; depth < 64 && off < len(sl) && sl[off] == '('; depth++ {
		inner := sl[off+1:]
		x, err := syntax.NewParser().Arithmetic(strings.NewReader(inner))
		if pe, ok := err.(syntax.ParseError); ok && strings.Contains(pe.Text, " without matching `(`") {
			off += 1 + int(pe.Pos.Offset())
			continue
		}
		if err == nil && x != nil {
			if end := int(x.End().Offset()); end < len(inner) {
				return strings.TrimLeft(inner[end:], " \t\n")
			}
		}
		break
	}
	return sl[off:]
}

// arithmBefore is arithmBeforeAssign before a token bash's parser rejects:
// only an evaluation error of what comes before (a division by 0) wins over
// the syntax error there (jaiph-go patch).
func (cfg *Config) arithmBefore(sl string, off, depth int, open bool) error {
	err := cfg.arithmBeforeAssign(sl, off, depth, open)
	if ae, ok := err.(ArithmError); ok && (strings.HasPrefix(ae.Msg, "syntax error") || strings.HasPrefix(ae.Msg, "missing") || strings.HasPrefix(ae.Msg, "`") || ae.Msg == "expression expected") {
		return nil
	}
	return err
}

// arithmBeforeAssign evaluates the text of a let string (or a variable's
// value) before an assignment operator at off whose left side is not a
// variable, or before another token bash's parser rejects (jaiph-go patch): bash evaluates it while parsing, before it
// finds the assignment, so its side effects happen and its error (1/0 in
// "1/0 < 3 && n+=3") is the one reported, with the error token running to
// the end of the whole text. Parentheses left open are closed. open: the
// token at off is an operator left without its right operand (n=3 +): an
// assignment whose value reaches it was still being read, and bash never
// made it.
func (cfg *Config) arithmBeforeAssign(sl string, off, depth int, open bool) error {
	before := strings.TrimRight(sl[:off], " \t\n")
	oldOpen := cfg.arithOpen
	cfg.arithOpen = 0
	if open && !strings.HasPrefix(sl[off:], ",") { // what a comma follows is whole
		cfg.arithOpen = len(before)
	}
	if open := strings.Count(before, "(") - strings.Count(before, ")"); open > 0 {
		before += strings.Repeat(")", open)
	}
	_, err := cfg.arithmString(before, depth+1)
	cfg.arithOpen = oldOpen
	ae, ok := err.(ArithmError)
	if !ok {
		return err
	}
	if ae.Msg != "attempted assignment to non-variable" && ae.Expr != "" && !strings.Contains(sl, ae.Expr) {
		// An error in a variable's value evaluated there (v1 v2 with
		// v1='a/b/c.d': its division by 0) is reported as bash's.
		return ae
	}
	if ae.Msg == "attempted assignment to non-variable" || !strings.HasSuffix(before, ae.Token) {
		return nil
	}
	if start := len(before) - len(ae.Token); start <= off {
		ae.Expr, ae.Token = sl, sl[start:]
		return ae
	}
	return nil
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
		if cfg.arithDepth+1 >= 1024 {
			return 0, ArithmError{Msg: "expression recursion level exceeded", Operand: expr}
		}
		oldOpen := cfg.arithOpen
		cfg.arithOpen = 0                               // a value has its own offsets
		n, err := cfg.arithmString(str, cfg.arithDepth) // its value is one level deeper
		cfg.arithOpen = oldOpen
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
	if cfg.arithOpen > 0 && int(b.End().Offset()) >= cfg.arithOpen {
		// jaiph-go patch: the value was cut short by an operator with
		// no operand (n=3 + $x): bash never assigned it.
		return arg_, nil
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
