// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package expand

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/internal"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// jaiph-go patch: arithmetic text (a variable's value, a let argument, a
// declare -i value, the expanded text of $((…))) is evaluated as bash
// 5.2's expr.c evaluates it: a recursive-descent parser that evaluates as
// it reads, whose lexer evaluates a name when it reads it and peeks one
// token past it (with evaluation off) to tell an assignment from a read.
// Which error is reported, and which token it names, follows from that
// order (`n='A B C.D'; $((7/n))` is bash's "invalid arithmetic operator"
// at ".D", met while peeking past B), as do the errors bash raises in a
// branch it does not evaluate ("exponent less than 0"). The functions
// below keep expr.c's names and structure so that the two can be read
// side by side.

// Tokens other than single-character operators, numbered as expr.c's.
const (
	tokEQEQ     = 1 + iota // ==
	tokNEQ                 // !=
	tokLEQ                 // <=
	tokGEQ                 // >=
	tokSTR                 // a name or an array element
	tokNUM                 // a number
	tokLAND                // &&
	tokLOR                 // ||
	tokLSH                 // <<
	tokRSH                 // >>
	tokOPASSIGN            // op=
	tokCOND                // a ternary
	tokPOWER               // **
	tokPREINC              // ++name
	tokPREDEC              // --name
	tokPOSTINC             // name++
	tokPOSTDEC             // name--
)

// exprRecursionLimit is expr.c's MAX_EXPR_RECURSION_LEVEL: how many
// texts (a variable's value in a variable's value …) may be evaluated
// inside one another.
const exprRecursionLimit = 1024

// exprTok is a name token's text; id tells two tokens with the same text
// apart, as expr.c compares the pointers of its token strings (0: none).
type exprTok struct {
	s  string
	id int
}

// exprLvalue is the variable a name token read, and the element's index
// when it is an indexed array's (-1 otherwise), so that an assignment to
// a[i++] evaluates its subscript once.
type exprLvalue struct {
	tok exprTok
	ind int64
}

var noLvalue = exprLvalue{ind: -1}

// exprState is expr.c's token state, saved while the lexer peeks.
type exprState struct {
	curtok, lasttok int
	tp, lasttp      int
	tokval          int64
	tokstr          exprTok
	noeval          int
	curlval         exprLvalue
}

// bashExpr evaluates one text (expr.c's subexpr with its context).
type bashExpr struct {
	cfg        *Config
	expression string
	depth      int // texts being evaluated, this one included
	assigntok  int
	ids        *int
	// numEnd: while a number is converted, the end of its token, where
	// bash cuts the text its error shows
	numEnd int
	exprState
}

// exprAbort carries an error out of the evaluation, as expr.c's longjmp.
type exprAbort struct{ err error }

// evalArithText evaluates str as bash's evalexp: depth is how many texts
// enclose it (0 for a let argument; a variable's value read in it is one
// deeper), for bash's "expression recursion level exceeded".
func (cfg *Config) evalArithText(str string, depth int) (n int, err error) {
	defer func() {
		if r := recover(); r != nil {
			a, ok := r.(exprAbort)
			if !ok {
				panic(r)
			}
			n, err = 0, a.err
		}
	}()
	var ids int
	e := &bashExpr{cfg: cfg, ids: &ids, depth: depth}
	return int(e.subexpr(str)), nil
}

func crWhitespace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' }

func varStarter(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '_'
}

func varChar(c byte) bool { return varStarter(c) || c >= '0' && c <= '9' }

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// subexpr evaluates text in a new context one level deeper than e's;
// the recursion limit is checked against e's text, as pushexp does.
func (e *bashExpr) subexpr(text string) int64 {
	p := 0
	for p < len(text) && crWhitespace(text[p]) {
		p++
	}
	if p == len(text) || text[p] == 0 {
		return 0
	}
	if e.depth >= exprRecursionLimit {
		e.evalerror("expression recursion level exceeded")
	}
	in := &bashExpr{cfg: e.cfg, expression: text, depth: e.depth + 1, ids: e.ids}
	in.curlval = noLvalue
	in.readtok()
	val := in.expcomma()
	if in.curtok != 0 {
		in.evalerror("syntax error in expression")
	}
	return val
}

func (e *bashExpr) evalerror(msg string) {
	text := e.expression
	if e.numEnd > 0 {
		text = text[:e.numEnd]
	}
	expr := strings.TrimLeft(text, " \t")
	tok := ""
	if e.lasttp < len(text) {
		tok = text[e.lasttp:]
	}
	if i := strings.IndexByte(tok, 0); i >= 0 {
		tok = tok[:i]
	}
	panic(exprAbort{ArithmError{Expr: expr, Msg: msg, Token: tok}})
}

func (e *bashExpr) fail(err error) { panic(exprAbort{err}) }

func (e *bashExpr) expcomma() int64 {
	value := e.expassign()
	for e.curtok == ',' {
		e.readtok()
		value = e.expassign()
	}
	return value
}

func (e *bashExpr) expassign() int64 {
	value := e.expcond()
	if e.curtok != '=' && e.curtok != tokOPASSIGN {
		return value
	}
	special := e.curtok == tokOPASSIGN
	if e.lasttok != tokSTR {
		e.evalerror("attempted assignment to non-variable")
	}
	var op int
	var lvalue int64
	if special {
		op, lvalue = e.assigntok, value
	}
	if e.tokstr.id == 0 {
		e.evalerror("syntax error in variable assignment")
	}
	lhs := e.tokstr.s
	lind := e.curlval.ind
	e.readtok()
	value = e.expassign()
	if special {
		if (op == '/' || op == '%') && value == 0 {
			if e.noeval == 0 {
				e.evalerror("division by 0")
			}
			value = 1
		}
		switch op {
		case '*':
			lvalue *= value
		case '/', '%':
			lvalue = divmod(op, lvalue, value)
		case '+':
			lvalue += value
		case '-':
			lvalue -= value
		case tokLSH:
			lvalue <<= uint64(value) & 63
		case tokRSH:
			lvalue >>= uint64(value) & 63
		case '&':
			lvalue &= value
		case '|':
			lvalue |= value
		case '^':
			lvalue ^= value
		}
		value = lvalue
	}
	if e.noeval == 0 {
		e.bind(lhs, lind, value)
	}
	if e.curlval.tok.id != 0 && e.curlval.tok.id == e.tokstr.id {
		e.curlval = noLvalue
	}
	e.tokstr = exprTok{}
	return value
}

// divmod is x/y or x%y (op) as bash computes them, with y != 0.
func divmod(op int, x, y int64) int64 {
	if x == -1<<63 && y == -1 {
		if op == '/' {
			return x
		}
		return 0
	}
	if op == '/' {
		return x / y
	}
	return x % y
}

func (e *bashExpr) expcond() int64 {
	cval := e.explor()
	rval := cval
	if e.curtok != '?' {
		return rval
	}
	setNoeval := false
	if cval == 0 {
		setNoeval = true
		e.noeval++
	}
	e.readtok()
	if e.curtok == 0 || e.curtok == ':' {
		e.evalerror("expression expected")
	}
	val1 := e.expcomma()
	if setNoeval {
		e.noeval--
	}
	if e.curtok != ':' {
		e.evalerror("`:' expected for conditional expression")
	}
	setNoeval = false
	if cval != 0 {
		setNoeval = true
		e.noeval++
	}
	e.readtok()
	if e.curtok == 0 {
		e.evalerror("expression expected")
	}
	val2 := e.expcond()
	if setNoeval {
		e.noeval--
	}
	rval = val2
	if cval != 0 {
		rval = val1
	}
	e.lasttok = tokCOND
	return rval
}

func (e *bashExpr) explor() int64 {
	val1 := e.expland()
	for e.curtok == tokLOR {
		setNoeval := val1 != 0
		if setNoeval {
			e.noeval++
		}
		e.readtok()
		val2 := e.expland()
		if setNoeval {
			e.noeval--
		}
		val1 = int64(oneIf(val1 != 0 || val2 != 0))
		e.lasttok = tokLOR
	}
	return val1
}

func (e *bashExpr) expland() int64 {
	val1 := e.expbor()
	for e.curtok == tokLAND {
		setNoeval := val1 == 0
		if setNoeval {
			e.noeval++
		}
		e.readtok()
		val2 := e.expbor()
		if setNoeval {
			e.noeval--
		}
		val1 = int64(oneIf(val1 != 0 && val2 != 0))
		e.lasttok = tokLAND
	}
	return val1
}

func (e *bashExpr) expbor() int64 {
	val1 := e.expbxor()
	for e.curtok == '|' {
		e.readtok()
		val1 |= e.expbxor()
		e.lasttok = tokNUM
	}
	return val1
}

func (e *bashExpr) expbxor() int64 {
	val1 := e.expband()
	for e.curtok == '^' {
		e.readtok()
		val1 ^= e.expband()
		e.lasttok = tokNUM
	}
	return val1
}

func (e *bashExpr) expband() int64 {
	val1 := e.exp5()
	for e.curtok == '&' {
		e.readtok()
		val1 &= e.exp5()
		e.lasttok = tokNUM
	}
	return val1
}

func (e *bashExpr) exp5() int64 {
	val1 := e.exp4()
	for e.curtok == tokEQEQ || e.curtok == tokNEQ {
		op := e.curtok
		e.readtok()
		val2 := e.exp4()
		val1 = int64(oneIf((val1 == val2) == (op == tokEQEQ)))
		e.lasttok = tokNUM
	}
	return val1
}

func (e *bashExpr) exp4() int64 {
	val1 := e.expshift()
	for e.curtok == tokLEQ || e.curtok == tokGEQ || e.curtok == '<' || e.curtok == '>' {
		op := e.curtok
		e.readtok()
		val2 := e.expshift()
		switch op {
		case tokLEQ:
			val1 = int64(oneIf(val1 <= val2))
		case tokGEQ:
			val1 = int64(oneIf(val1 >= val2))
		case '<':
			val1 = int64(oneIf(val1 < val2))
		default:
			val1 = int64(oneIf(val1 > val2))
		}
		e.lasttok = tokNUM
	}
	return val1
}

func (e *bashExpr) expshift() int64 {
	val1 := e.exp3()
	for e.curtok == tokLSH || e.curtok == tokRSH {
		op := e.curtok
		e.readtok()
		val2 := e.exp3()
		// x86-64 shifts by the count's low six bits, as bash's C does.
		if op == tokLSH {
			val1 <<= uint64(val2) & 63
		} else {
			val1 >>= uint64(val2) & 63
		}
		e.lasttok = tokNUM
	}
	return val1
}

func (e *bashExpr) exp3() int64 {
	val1 := e.expmuldiv()
	for e.curtok == '+' || e.curtok == '-' {
		op := e.curtok
		e.readtok()
		val2 := e.expmuldiv()
		if op == '+' {
			val1 += val2
		} else {
			val1 -= val2
		}
		e.lasttok = tokNUM
	}
	return val1
}

func (e *bashExpr) expmuldiv() int64 {
	val1 := e.exppower()
	for e.curtok == '*' || e.curtok == '/' || e.curtok == '%' {
		op := e.curtok
		stp := e.tp
		e.readtok()
		val2 := e.exppower()
		if (op == '/' || op == '%') && val2 == 0 {
			if e.noeval == 0 {
				// the token is the divisor, from after the operator
				for stp < len(e.expression) && (e.expression[stp] == ' ' || e.expression[stp] == '\t') {
					stp++
				}
				e.lasttp = stp
				e.evalerror("division by 0")
			}
			val2 = 1
		}
		if op == '*' {
			val1 *= val2
		} else {
			val1 = divmod(op, val1, val2)
		}
		e.lasttok = tokNUM
	}
	return val1
}

func ipow(base, exp int64) int64 {
	result := int64(1)
	for exp != 0 {
		if exp&1 != 0 {
			result *= base
		}
		exp >>= 1
		base *= base
	}
	return result
}

func (e *bashExpr) exppower() int64 {
	val1 := e.exp1()
	for e.curtok == tokPOWER {
		e.readtok()
		val2 := e.exppower() // right-associative
		e.lasttok = tokNUM
		if val2 == 0 {
			return 1
		}
		if val2 < 0 {
			// raised even where nothing is evaluated, as bash does
			e.evalerror("exponent less than 0")
		}
		val1 = ipow(val1, val2)
	}
	return val1
}

func (e *bashExpr) exp1() int64 {
	switch e.curtok {
	case '!':
		e.readtok()
		val := int64(oneIf(e.exp1() == 0))
		e.lasttok = tokNUM
		return val
	case '~':
		e.readtok()
		val := ^e.exp1()
		e.lasttok = tokNUM
		return val
	case '-':
		e.readtok()
		val := -e.exp1()
		e.lasttok = tokNUM
		return val
	case '+':
		e.readtok()
		val := e.exp1()
		e.lasttok = tokNUM
		return val
	}
	return e.exp0()
}

func (e *bashExpr) exp0() int64 {
	var val int64
	switch {
	case e.curtok == tokPREINC || e.curtok == tokPREDEC:
		stok := e.curtok
		e.lasttok = stok
		e.readtok()
		if e.curtok != tokSTR {
			e.evalerror("identifier expected after pre-increment or pre-decrement")
		}
		v2 := e.tokval + 1
		if stok == tokPREDEC {
			v2 = e.tokval - 1
		}
		if e.noeval == 0 {
			if e.curlval.ind != -1 {
				e.bind(e.curlval.tok.s, e.curlval.ind, v2)
			} else if e.tokstr.id != 0 {
				e.bind(e.tokstr.s, -1, v2)
			}
		}
		val = v2
		e.curtok = tokNUM // --x=7 is an error
		e.readtok()
	case e.curtok == '(':
		e.readtok()
		val = e.expcomma()
		if e.curtok != ')' {
			e.evalerror("missing `)'")
		}
		e.readtok()
	case e.curtok == tokNUM || e.curtok == tokSTR:
		val = e.tokval
		if e.curtok == tokSTR {
			ec := e.exprState
			e.tokstr = exprTok{}
			e.noeval = 1
			e.readtok()
			stok := e.curtok
			if stok == tokPOSTINC || stok == tokPOSTDEC {
				e.tokstr, e.noeval, e.curlval = ec.tokstr, ec.noeval, ec.curlval
				e.lasttok = tokSTR
				v2 := val + 1
				if stok == tokPOSTDEC {
					v2 = val - 1
				}
				if e.noeval == 0 {
					if e.curlval.ind != -1 {
						e.bind(e.curlval.tok.s, e.curlval.ind, v2)
					} else {
						e.bind(e.tokstr.s, -1, v2)
					}
				}
				e.curtok = tokNUM // x++=7 is an error
			} else {
				e.exprState = ec
			}
		}
		e.readtok()
	default:
		e.evalerror("syntax error: operand expected")
	}
	return val
}

func isMultiop(c int) bool {
	switch c {
	case tokEQEQ, tokNEQ, tokLEQ, tokGEQ, tokLAND, tokLOR, tokLSH, tokRSH,
		tokOPASSIGN, tokCOND, tokPOWER, tokPREINC, tokPREDEC, tokPOSTINC, tokPOSTDEC:
		return true
	}
	return false
}

func isArithop(c int) bool {
	switch c {
	case '=', '>', '<', '+', '-', '*', '/', '%', '!', '(', ')', '&', '|', '^', '~', '?', ':', ',':
		return true
	}
	return false
}

// byteAt is expression[i], or 0 past its end (C's terminating NUL).
func (e *bashExpr) byteAt(i int) byte {
	if i < len(e.expression) {
		return e.expression[i]
	}
	return 0
}

// readtok reads the next token into curtok (expr.c's lexer).
func (e *bashExpr) readtok() {
	cp := e.tp
	for crWhitespace(e.byteAt(cp)) {
		cp++
	}
	c := e.byteAt(cp)
	if c == 0 {
		e.lasttok = e.curtok
		e.curtok = 0
		e.tp = cp
		return
	}
	cp++
	e.tp = cp - 1
	e.lasttp = e.tp
	start := e.tp

	switch {
	case varStarter(c):
		for varChar(e.byteAt(cp)) {
			cp++
		}
		elem := false
		if e.byteAt(cp) == '[' {
			n, ok := skipSubscript(e.expression, cp)
			if !ok {
				e.evalerror("bad array subscript")
			}
			cp = n + 1
			elem = true
		}
		if e.curlval.tok.id != 0 && e.curlval.tok.id == e.tokstr.id {
			e.curlval = noLvalue
		}
		*e.ids++
		e.tokstr = exprTok{s: e.expression[start:cp], id: *e.ids}

		ec := e.exprState
		e.tokstr = exprTok{}
		e.tp = cp
		e.noeval = 1
		e.curtok = tokSTR
		e.readtok()
		peektok := e.curtok
		e.exprState = ec

		if e.lasttok == tokPREINC || e.lasttok == tokPREDEC || peektok != '=' {
			e.tokval = e.streval(e.tokstr, elem)
		} else {
			e.tokval = 0
		}
		e.lasttok = e.curtok
		e.curtok = tokSTR
	case c >= '0' && c <= '9':
		for c := e.byteAt(cp); isAlnum(c) || c == '#' || c == '@' || c == '_'; c = e.byteAt(cp) {
			cp++
		}
		e.numEnd = cp
		e.tokval = e.strlong(e.expression[start:cp])
		e.numEnd = 0
		e.lasttok = e.curtok
		e.curtok = tokNUM
	default:
		c1 := e.byteAt(cp)
		cp++
		tok := int(c)
		switch {
		case c == '=' && c1 == '=':
			tok = tokEQEQ
		case c == '!' && c1 == '=':
			tok = tokNEQ
		case c == '>' && c1 == '=':
			tok = tokGEQ
		case c == '<' && c1 == '=':
			tok = tokLEQ
		case c == '<' && c1 == '<':
			tok = tokLSH
			if e.byteAt(cp) == '=' {
				e.assigntok, tok = tokLSH, tokOPASSIGN
				cp++
			}
		case c == '>' && c1 == '>':
			tok = tokRSH
			if e.byteAt(cp) == '=' {
				e.assigntok, tok = tokRSH, tokOPASSIGN
				cp++
			}
		case c == '&' && c1 == '&':
			tok = tokLAND
		case c == '|' && c1 == '|':
			tok = tokLOR
		case c == '*' && c1 == '*':
			tok = tokPOWER
		case (c == '-' || c == '+') && c1 == c && e.curtok == tokSTR:
			tok = tokPOSTINC
			if c == '-' {
				tok = tokPOSTDEC
			}
		case (c == '-' || c == '+') && c1 == c && e.curtok == tokNUM && (e.lasttok == tokPREINC || e.lasttok == tokPREDEC):
			e.evalerror(string([]byte{c, c}) + ": assignment requires lvalue")
		case (c == '-' || c == '+') && c1 == c:
			xp := cp
			for crWhitespace(e.byteAt(xp)) {
				xp++
			}
			if varStarter(e.byteAt(xp)) {
				tok = tokPREINC
				if c == '-' {
					tok = tokPREDEC
				}
			} else {
				cp-- // no ++name: unget the second character
			}
		case c1 == '=' && strings.IndexByte("*/%+-&^|", c) >= 0:
			e.assigntok, tok = int(c), tokOPASSIGN
		case !isArithop(int(c)):
			if e.curtok == 0 || isArithop(e.curtok) || isMultiop(e.curtok) {
				e.evalerror("syntax error: operand expected")
			}
			e.evalerror("syntax error: invalid arithmetic operator")
		default:
			cp-- // a one-character operator: unget the next
		}
		e.lasttok = e.curtok
		e.curtok = tok
	}
	e.tp = cp
}

// skipSubscript is the offset of the `]` closing the subscript whose `[`
// is at open in s, skipping nested brackets and quoted text as bash's
// skipsubscript does; ok is false when nothing closes it.
func skipSubscript(s string, open int) (int, bool) {
	depth := 0
	for i := open; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return 0, false
			}
			i += j + 1
		case '"':
			for i++; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' {
					i++
				}
			}
			if i >= len(s) {
				return 0, false
			}
		case '[':
			depth++
		case ']':
			if depth--; depth == 0 {
				return i, true
			}
		case 0:
			return 0, false
		}
	}
	return 0, false
}

// strlong is the value of a numeric constant in bash's notation: 0nnn
// octal, 0xnn hexadecimal, base#digits with bases 2 to 64.
func (e *bashExpr) strlong(num string) int64 {
	s := num
	base, foundbase := int64(10), false
	if s[0] == '0' {
		s = s[1:]
		if s == "" {
			return 0
		}
		if s[0] == 'x' || s[0] == 'X' {
			base = 16
			s = s[1:]
		} else {
			base = 8
		}
		foundbase = true
	}
	var val int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '#':
			if foundbase {
				e.evalerror("invalid number")
			}
			if val < 2 || val > 64 {
				e.evalerror("invalid arithmetic base")
			}
			base, val, foundbase = val, 0, true
			if n := byte(0); i+1 < len(s) {
				n = s[i+1]
				if !isAlnum(n) && n != '_' && n != '@' {
					e.evalerror("invalid integer constant")
				}
			} else {
				e.evalerror("invalid integer constant")
			}
		case isAlnum(c) || c == '_' || c == '@':
			var d int64
			switch {
			case c >= '0' && c <= '9':
				d = int64(c - '0')
			case c >= 'a' && c <= 'z':
				d = int64(c-'a') + 10
			case c >= 'A' && c <= 'Z':
				d = int64(c - 'A')
				if base <= 36 {
					d += 10
				} else {
					d += 36
				}
			case c == '@':
				d = 62
			default:
				d = 63
			}
			if d >= base {
				e.evalerror("value too great for base")
			}
			val = val*base + d
		default:
			return val
		}
	}
	return val
}

// streval is a name token's value (expr.c's expr_streval): the variable's
// value, or the element's, evaluated as arithmetic in turn; 0 where
// nothing is evaluated. It records the token as the lvalue an assignment
// or ++/-- after it writes.
func (e *bashExpr) streval(tok exprTok, elem bool) int64 {
	if e.noeval != 0 {
		return 0
	}
	cfg := e.cfg
	name, ind := tok.s, int64(-1)
	var value string
	if !elem {
		// jaiph-go patch: a nameref reads the variable, or the element,
		// it names, as bash's find_variable follows it.
		if n, v := cfg.peek(name).Resolve(cfg.Env); n != "" {
			name = n
			// (unless a variable has that name: a declaration through
			// the nameref in a function makes one)
			elem = strings.HasSuffix(n, "]") && strings.Contains(n, "[") && !v.Declared()
		}
	}
	if !elem {
		if cfg.NoUnset && !cfg.peek(name).IsSet() {
			e.fail(UnsetParameterError{
				Node:    &syntax.ParamExp{Param: &syntax.Lit{Value: name}},
				Message: "unbound variable",
			})
		}
		if name == "LINENO" && cfg.arithLine > 0 && !cfg.LinenoPlain && !cfg.Env.Get(name).IsSet() {
			// the environment has no LINENO: it is the line
			value = strconv.FormatUint(uint64(cfg.arithLine), 10)
		} else {
			value = cfg.envGet(name)
		}
	} else {
		value, ind = e.elemValue(name)
	}
	tval := e.subexpr(value)
	e.curlval = exprLvalue{tok: tok, ind: ind}
	return tval
}

// elemValue reads the array element tok (name[subscript]) as bash's
// get_array_value: the subscript of anything but an associative array is
// evaluated, once, and its index returned for an assignment to reuse.
func (e *bashExpr) elemValue(tok string) (string, int64) {
	cfg := e.cfg
	open := strings.IndexByte(tok, '[')
	name, sub := tok[:open], tok[open+1:len(tok)-1]
	if sub == "" {
		// bash's array_variable_part refuses an empty subscript, and
		// expr_streval asks it twice (for the variable, then for its
		// value, or for the name nounset reports, which it has none of)
		e.badSubscript(tok)
		e.badSubscript(tok)
		if cfg.NoUnset {
			e.fail(UnsetParameterError{
				Node:    &syntax.ParamExp{Param: &syntax.Lit{Value: "(null)"}},
				Message: "unbound variable",
			})
		}
		return "", -1
	}
	vr := cfg.Env.Get(name)
	if n, v := vr.Resolve(cfg.Env); n != "" {
		name, vr = n, v
	}
	if cfg.NoUnset && !vr.IsSet() {
		e.fail(UnsetParameterError{
			Node:    &syntax.ParamExp{Param: &syntax.Lit{Value: name}},
			Message: "unbound variable",
		})
	}
	if sub == "@" || sub == "*" {
		e.badSubscript(tok)
		return "", -1
	}
	idx, err := syntax.NewParser().Arithmetic(strings.NewReader(sub))
	if err != nil || idx == nil {
		// an index the parser does not read is an arithmetic text,
		// evaluated as one
		idx = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: sub}}}
	}
	if vr.Kind == Associative {
		var key string
		var err error
		e.inSubscript(func() { key, err = AssocKeyRaw(cfg, idx, sub) })
		if err != nil {
			e.fail(err)
		}
		if key == "" {
			// jaiph-go patch: an empty key is bash's bad array
			// subscript, named by the array; the element reads as 0
			e.badSubscript(name)
			return "", -1
		}
		return vr.Map[key], -1
	}
	var ind int64
	e.inSubscript(func() { ind = e.elemIndex(vr, idx, sub) })
	if ind < 0 {
		e.badSubscript(name)
		return "", -1
	}
	switch vr.Kind {
	case Indexed:
		str, _ := vr.IndexedValue(int(ind))
		return str, ind
	case String:
		if ind == 0 {
			return vr.Str, ind
		}
	}
	return "", ind
}

// inSubscript runs f, which evaluates a subscript: a text of its own,
// inside this one, whose quotes are no let argument's.
func (e *bashExpr) inSubscript(f func()) {
	cfg := e.cfg
	oldDepth, oldLet := cfg.arithDepth, cfg.LetArith
	cfg.arithDepth, cfg.LetArith = e.depth, false
	defer func() { cfg.arithDepth, cfg.LetArith = oldDepth, oldLet }()
	f()
}

// elemIndex is the index the subscript idx of an indexed array (or a
// scalar, or nothing) names: negative counts back from the end; still
// negative, it is no index.
func (e *bashExpr) elemIndex(vr Variable, idx syntax.ArithmExpr, sub string) int64 {
	i, err := subscriptArithm(e.cfg, idx, sub)
	if err != nil {
		e.fail(err)
	}
	ind := int64(i)
	if ind < 0 && vr.Kind == Indexed {
		ind += int64(internal.IndexedMax(vr.List, vr.Indexes)) + 1
	}
	return ind
}

// badSubscript reports bash's "bad array subscript" of what and goes on
// (the element reads as empty), unless errexit ends the shell there.
func (e *bashExpr) badSubscript(what string) {
	if e.cfg.ReportError == nil {
		return
	}
	if err := e.cfg.ReportError(fmt.Errorf("%s: %w", what, ErrBadSubscript)); err != nil {
		e.fail(err)
	}
}

// bind assigns value to the variable or element lhs (expr.c's
// expr_bind_variable), or to element ind of lhs's array when ind is not -1
// (expr_bind_array_element).
func (e *bashExpr) bind(lhs string, ind int64, value int64) {
	cfg := e.cfg
	val := strconv.FormatInt(value, 10)
	name, idx := lhs, syntax.ArithmExpr(nil)
	rawSub := "" // the subscript's text, a key as written (AssocKeyRaw)
	if open := strings.IndexByte(lhs, '['); open >= 0 {
		name = lhs[:open]
		sub := lhs[open+1 : len(lhs)-1]
		rawSub = sub
		if sub == "" {
			// bash's bind_int_variable: no array reference, and no
			// identifier either; said, and nothing is assigned
			if cfg.Warn != nil {
				prefix := ""
				if cfg.ArithCommand != "" {
					prefix = cfg.ArithCommand + ": "
				}
				cfg.Warn(fmt.Sprintf("%s`%s': not a valid identifier", prefix, lhs))
			}
			return
		}
		if sub == "@" || sub == "*" {
			// jaiph-go patch: a nameref to a[@] assigned in arithmetic
			// ((( r = 5 )), let r=3): bash's bad array subscript,
			// nothing assigned (its subscript was evaluated: a syntax
			// error that ended the shell)
			e.badSubscript(lhs)
			return
		}
		x, err := syntax.NewParser().Arithmetic(strings.NewReader(sub))
		if err != nil || x == nil {
			x = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: sub}}}
		}
		idx = x
	}
	vr := cfg.Env.Get(name)
	written := "" // see below
	if n, v := vr.Resolve(cfg.Env); n != "" {
		if idx == nil && strings.HasSuffix(n, "]") && strings.Contains(n, "[") && !v.Declared() {
			e.bind(n, ind, value) // jaiph-go patch: the element a nameref names
			return
		}
		if idx != nil || v.Kind == Indexed {
			// jaiph-go patch: bash's bind_int_variable assigns an
			// element (assign_array_element), or element 0 of an
			// indexed array (bind_array_variable), by the name
			// written: a readonly array's error names the nameref
			written = name
		}
		name, vr = n, v
	}
	wenv, ok := cfg.Env.(WriteEnviron)
	if !ok {
		e.fail(fmt.Errorf("environment is read-only"))
	}
	var err error
	switch {
	case idx != nil && vr.Kind == Associative:
		// the key is the subscript's text (AssocKey), whatever the
		// parser made of it
		var key string
		e.inSubscript(func() { key, err = AssocKeyRaw(cfg, idx, rawSub) })
		if err == nil && key == "" {
			// jaiph-go patch: an empty key is bash's bad array
			// subscript, named as written; nothing is assigned
			e.badSubscript(lhs)
			return
		}
		if err == nil {
			val, err = elemValue(cfg.Env, name, vr, val)
		}
		if err == nil {
			vr.SetAssoc(key, val)
			vr.Set, vr.Local = true, false
			err = wenv.Set(name, vr)
		}
	case idx != nil:
		// an element of an indexed array, of a scalar or of nothing:
		// its subscript evaluated now unless it was when it was read
		if ind == -1 {
			e.inSubscript(func() { ind = e.elemIndex(vr, idx, rawSub) })
			if ind < 0 {
				e.badSubscript(lhs)
				return
			}
		}
		lit := &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: strconv.FormatInt(ind, 10)}}}
		err = cfg.assignElem(name, vr, lit, val)
	case vr.Kind == Indexed || vr.Kind == Associative:
		err = cfg.assignElem(name, vr, nil, val) // a whole array's element 0
	default:
		nv := vr
		nv.Set, nv.Kind, nv.Str = true, String, val
		// an assignment, not a new local: a calling function's
		// local (readonly or not) is the one written
		nv.Local = false
		err = wenv.Set(name, nv)
	}
	if err != nil && written != "" && vr.ReadOnly && strings.HasPrefix(err.Error(), name+": ") {
		if inner := errors.Unwrap(err); inner != nil {
			err = fmt.Errorf("%s: %w", written, inner)
		}
	}
	if err != nil {
		e.fail(err)
	}
}
