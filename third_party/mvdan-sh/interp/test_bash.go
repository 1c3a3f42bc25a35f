// jaiph-go patch: bash's own algorithm for the "test" and "[" builtins
// (bash 5.2 test.c): the POSIX rules by argument count, then a recursive
// descent for longer expressions, with bash's error texts and status 2.

package interp

import (
	"context"
	"fmt"
	"strings"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

type classicTestError struct{ msg string }

type classicTest struct {
	ctx  context.Context
	r    *Runner
	args []string
	pos  int
	// bracket: run as `[`, whose "]" bash's error messages still see
	// past the end of the arguments (jaiph-go patch)
	bracket bool
}

func (t *classicTest) fail(format string, a ...any) {
	panic(classicTestError{fmt.Sprintf(format, a...)})
}

// runClassicTest evaluates "test args..." (name is "test" or "[", whose
// closing "]" was already removed) and returns the exit status.
func (r *Runner) runClassicTest(ctx context.Context, name string, args []string) (code uint8) {
	t := &classicTest{ctx: ctx, r: r, args: args, bracket: name == "["}
	defer func() {
		if rec := recover(); rec != nil {
			e, ok := rec.(classicTestError)
			if !ok {
				panic(rec)
			}
			r.errf("%s: %s\n", name, e.msg)
			code = 2
		}
	}()
	if len(args) == 0 {
		return 1
	}
	value := t.posix()
	if t.pos != len(args) {
		if t.pos < len(args) && strings.HasPrefix(args[t.pos], "-") {
			t.fail("syntax error: `%s' unexpected", args[t.pos]) // bash's test_command
		}
		t.fail("too many arguments")
	}
	if value {
		return 0
	}
	return 1
}

func (t *classicTest) posix() bool {
	switch n := len(t.args); n {
	case 1:
		t.pos = 1
		return t.args[0] != ""
	case 2:
		return t.two()
	case 3:
		return t.three()
	case 4:
		if t.args[0] == "!" {
			t.pos++
			return !t.three()
		}
		if t.args[0] == "(" && t.args[3] == ")" {
			t.pos++
			v := t.two()
			t.pos = n
			return v
		}
	}
	return t.expr()
}

func (t *classicTest) two() bool {
	a, b := t.args[t.pos], t.args[t.pos+1]
	switch {
	case a == "!":
		t.pos += 2
		return b == ""
	case len(a) == 2 && a[0] == '-' && testUnaryOp(a) != illegalTok:
		t.pos += 2
		return t.unary(a, b)
	default:
		t.fail("%s: unary operator expected", a)
	}
	return false
}

func (t *classicTest) three() bool {
	a, op, b := t.args[t.pos], t.args[t.pos+1], t.args[t.pos+2]
	switch {
	case isClassicBinop(op):
		t.pos += 3
		return t.binary(a, op, b)
	case op == "-a":
		t.pos += 3
		return a != "" && b != ""
	case op == "-o":
		t.pos += 3
		return a != "" || b != ""
	case a == "!":
		t.pos++
		return !t.two()
	case a == "(" && b == ")":
		t.pos += 3
		return op != ""
	default:
		t.fail("%s: binary operator expected", op)
	}
	return false
}

func (t *classicTest) expr() bool {
	if t.pos >= len(t.args) {
		t.fail("argument expected")
	}
	return t.or()
}

func (t *classicTest) or() bool {
	v := t.and()
	if t.pos < len(t.args) && t.args[t.pos] == "-o" {
		t.pos++
		return t.or() || v
	}
	return v
}

func (t *classicTest) and() bool {
	v := t.term()
	if t.pos < len(t.args) && t.args[t.pos] == "-a" {
		t.pos++
		return t.and() && v
	}
	return v
}

func (t *classicTest) term() bool {
	n := len(t.args)
	if t.pos >= n {
		t.fail("argument expected")
	}
	a := t.args[t.pos]
	switch {
	case a == "!":
		t.pos++
		return !t.term()
	case a == "(":
		t.pos++
		if t.pos >= n {
			t.fail("`)' expected")
		}
		v := t.expr()
		if t.pos >= n && t.bracket {
			t.fail("`)' expected, found ]") // jaiph-go patch: bash's argv[argc]
		}
		if t.pos >= n {
			t.fail("`)' expected")
		}
		if t.args[t.pos] != ")" {
			t.fail("`)' expected, found %s", t.args[t.pos])
		}
		t.pos++
		return v
	case t.pos+3 <= n && isClassicBinop(t.args[t.pos+1]):
		v := t.binary(a, t.args[t.pos+1], t.args[t.pos+2])
		t.pos += 3
		return v
	case len(a) == 2 && a[0] == '-' && testUnaryOp(a) != illegalTok && t.pos+2 <= n:
		// bash's term: a unary operator only with an argument after
		// it; otherwise (and for a word that is no operator) the word
		// is a string test (`[ -a -a -a -a ]` is -a "-a" and "-a").
		if a == "-t" {
			// bash 5.2's unary_operator: -t takes the next word
			// only if it is a number, else it is false and the
			// word is left for what follows.
			t.pos++
			if _, ok := t.integer(t.args[t.pos]); !ok {
				return false
			}
			t.pos++
			return t.unary(a, t.args[t.pos-1])
		}
		v := t.unary(a, t.args[t.pos+1])
		t.pos += 2
		return v
	}
	t.pos++
	return a != ""
}

func isClassicBinop(op string) bool {
	switch op {
	case "=", "==", "!=", "<", ">", "-nt", "-ot", "-ef", "-eq", "-ne", "-lt", "-le", "-gt", "-ge":
		return true
	}
	return false
}

func (t *classicTest) unary(op, x string) bool {
	uop := testUnaryOp(op)
	if op == "-a" {
		uop = syntax.TsExists
	}
	if uop == syntax.TsFdTerm {
		if _, ok := t.integer(x); !ok {
			return false
		}
	}
	return t.r.unTest(t.ctx, uop, x)
}

func (t *classicTest) integer(s string) (int64, bool) {
	return legalNumber(s) // jaiph-go patch: bash's legal_number
}

func (t *classicTest) binary(x, op, y string) bool {
	switch op {
	case "=", "==":
		return x == y
	case "!=":
		return x != y
	case "<":
		return x < y
	case ">":
		return x > y
	case "-nt":
		return t.r.binTest(t.ctx, syntax.TsNewer, x, y)
	case "-ot":
		return t.r.binTest(t.ctx, syntax.TsOlder, x, y)
	case "-ef":
		return t.r.binTest(t.ctx, syntax.TsDevIno, x, y)
	}
	a, ok := t.integer(x)
	if !ok {
		t.fail("%s: integer expression expected", x)
	}
	b, ok := t.integer(y)
	if !ok {
		t.fail("%s: integer expression expected", y)
	}
	switch op {
	case "-eq":
		return a == b
	case "-ne":
		return a != b
	case "-lt":
		return a < b
	case "-le":
		return a <= b
	case "-gt":
		return a > b
	}
	return a >= b // -ge
}
