// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

import (
	"context"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/term"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/internal"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// non-empty string is true, empty string is false
func (r *Runner) bashTest(ctx context.Context, expr syntax.TestExpr, classic bool) string {
	switch x := expr.(type) {
	case *syntax.Word:
		if classic {
			// In the classic "test" mode, we already expanded and
			// split the list of words, so don't redo that work.
			return r.document(x)
		}
		return r.literal(x)
	case *syntax.ParenTest:
		return r.bashTest(ctx, x.X, classic)
	case *syntax.BinaryTest:
		switch x.Op {
		case syntax.TsMatchShort, syntax.TsMatch, syntax.TsNoMatch:
			str := r.literal(x.X.(*syntax.Word))
			yw := x.Y.(*syntax.Word)
			if classic { // test, [
				lit := r.literal(yw)
				if (str == lit) == (x.Op != syntax.TsNoMatch) {
					return "1"
				}
			} else { // [[
				pattern := r.pattern(yw)
				r.traceTest(traceQuote(str), x.Op.String(), pattern)
				if r.match(pattern, str, true) == (x.Op != syntax.TsNoMatch) {
					return "1"
				}
			}
			return ""
		case syntax.TsEql, syntax.TsNeq, syntax.TsLeq, syntax.TsGeq, syntax.TsLss, syntax.TsGtr:
			if classic {
				break
			}
			// jaiph-go patch: in [[ ]], both operands of a numeric
			// comparison are arithmetic expressions, as in bash.
			var nums [2]int
			sides := [2]string{r.bashTest(ctx, x.X, classic), r.bashTest(ctx, x.Y, classic)}
			r.traceTest(traceQuote(sides[0]), x.Op.String(), traceQuote(sides[1]))
			for i, side := range sides {
				r.ecfg.ArithCommand = "[["
				n, err := expand.ArithmString(r.ecfg, side)
				r.ecfg.ArithCommand = ""
				if ae, ok := errors.AsType[expand.ArithmError](err); ok && ae.Subscript {
					// jaiph-go patch: a subscript's error is fatal
					// (see expand.ArithmError.Subscript).
					r.expandErr(err)
					return ""
				}
				if r.readonlyInCommand(err) {
					// jaiph-go patch: as in (( )), named without
					// [[, and the end of the shell under errexit
					return ""
				}
				if err != nil {
					r.errf("[[: %v\n", err)
					r.exit.code = 1
					return ""
				}
				nums[i] = n
			}
			if r.binTest(ctx, x.Op, strconv.Itoa(nums[0]), strconv.Itoa(nums[1])) {
				return "1"
			}
			return ""
		case syntax.TsReMatch:
			if yw, ok := x.Y.(*syntax.Word); ok && !classic {
				// jaiph-go patch: quoted parts of the regex match
				// literally, as in bash. As bash, the left operand is
				// expanded first, and a fatal error in either operand
				// (`$((1/0))`) ends the test before the regex is
				// compiled (whose error would make the status 2).
				lhs := r.bashTest(ctx, x.X, classic)
				if r.exit.exiting {
					return ""
				}
				re, err := expand.Regexp(r.ecfg, yw)
				r.expandErr(err)
				if r.exit.exiting {
					return ""
				}
				r.traceTest(traceQuote(lhs), x.Op.String(), re)
				if r.binTest(ctx, x.Op, lhs, re) {
					return "1"
				}
				return ""
			}
		}
		if x.Op == syntax.AndTest || x.Op == syntax.OrTest {
			// jaiph-go patch: the right side is expanded only when
			// the left does not decide, as bash's && and || in [[ ]]
			// ([[ $((x++)) || $((x++)) ]] adds one).
			left := r.bashTest(ctx, x.X, classic) != ""
			if left == (x.Op == syntax.OrTest) || r.exit.exiting {
				if left {
					return "1"
				}
				return ""
			}
			if r.bashTest(ctx, x.Y, classic) != "" {
				return "1"
			}
			return ""
		}
		lhs, rhs := r.bashTest(ctx, x.X, classic), r.bashTest(ctx, x.Y, classic)
		if !classic {
			r.traceTest(traceQuote(lhs), x.Op.String(), traceQuote(rhs))
		}
		if r.binTest(ctx, x.Op, lhs, rhs) {
			return "1"
		}
		return ""
	case *syntax.UnaryTest:
		operand := r.bashTest(ctx, x.X, classic)
		if !classic && x.Op != syntax.TsNot {
			r.traceTest(x.Op.String(), traceQuote(operand))
		}
		if r.unTest(ctx, x.Op, operand) {
			return "1"
		}
		return ""
	}
	return ""
}

func (r *Runner) binTest(ctx context.Context, op syntax.BinTestOperator, x, y string) bool {
	switch op {
	case syntax.TsReMatch:
		// jaiph-go patch: y is read as glibc's regcomp reads it (bash's
		// POSIX extended syntax, "shopt -s nocasematch", classes beyond
		// ASCII for a string that has such characters), and searched
		// leftmost-longest, as POSIX's regexec.
		ere := internal.ERE
		orig, offs := x, []int(nil)
		if !utf8.ValidString(x) || !utf8.ValidString(y) {
			// jaiph-go patch: a byte that is no UTF-8 is a character
			// of its own, which '.' and [^…] do not match and the
			// same byte of y does (Go's regexp read it as U+FFFD,
			// which '.' matched: found probing beside the soak's
			// seed 224)
			ere = internal.EREBytes
			x, offs = invalidBytesAsChars(x)
			y, _ = invalidBytesAsChars(y)
		}
		expr, err := ere(y, r.opts[optNoCaseMatch], !isASCII(x))
		var re *regexp.Regexp
		if err == nil {
			re, err = regexp.Compile(expr)
		}
		if err != nil {
			if _, ok := err.(*internal.UnsupportedEREError); ok {
				r.errf("[[: %v\n", err) // it would run differently: say so
			} else if err != internal.ErrBadERE {
				r.errf("[[: regular expression: %v\n", err)
			}
			r.exit.code = 2 // bash's status for a regcomp error
			return false
		}
		re.Longest()
		m := re.FindStringSubmatch(x)
		if m != nil && offs != nil {
			// the submatches as the bytes of the string matched
			idx := re.FindStringSubmatchIndex(x)
			for i := range m {
				if idx[2*i] >= 0 {
					m[i] = orig[offs[idx[2*i]]:offs[idx[2*i+1]]]
				}
			}
		}
		if m == nil {
			// jaiph-go patch: bash empties BASH_REMATCH on no match.
			r.setVar("BASH_REMATCH", expand.Variable{Set: true, Kind: expand.Indexed, List: []string{}})
			return false
		}
		vr := expand.Variable{
			Set:  true,
			Kind: expand.Indexed,
			List: m,
		}
		r.setVar("BASH_REMATCH", vr)
		return true
	case syntax.TsNewer, syntax.TsOlder:
		info1, err1 := r.stat(ctx, x)
		info2, err2 := r.stat(ctx, y)
		// -ot is the mirror of -nt, so swap the operands and share the logic.
		if op == syntax.TsOlder {
			info1, info2, err1, err2 = info2, info1, err2, err1
		}
		// True if the first operand exists and the second does not,
		// or if both exist and the first is newer.
		if err1 != nil {
			return false
		}
		if err2 != nil {
			return true
		}
		return info1.ModTime().After(info2.ModTime())
	case syntax.TsDevIno:
		info1, err1 := r.stat(ctx, x)
		info2, err2 := r.stat(ctx, y)
		if err1 != nil || err2 != nil {
			return false
		}
		return os.SameFile(info1, info2)
	case syntax.TsEql:
		return atoi(x) == atoi(y)
	case syntax.TsNeq:
		return atoi(x) != atoi(y)
	case syntax.TsLeq:
		return atoi(x) <= atoi(y)
	case syntax.TsGeq:
		return atoi(x) >= atoi(y)
	case syntax.TsLss:
		return atoi(x) < atoi(y)
	case syntax.TsGtr:
		return atoi(x) > atoi(y)
	case syntax.AndTest:
		return x != "" && y != ""
	case syntax.OrTest:
		return x != "" || y != ""
	case syntax.TsBefore:
		return x < y
	case syntax.TsAfter:
		return x > y
	default:
		// Should only happen if we forgot a case above.
		panic(fmt.Sprintf("unexpected binary test operator: %q", op))
	}
}

func (r *Runner) statMode(ctx context.Context, name string, mode os.FileMode) bool {
	info, err := r.stat(ctx, name)
	return err == nil && info.Mode()&mode != 0
}

func (r *Runner) unTest(ctx context.Context, op syntax.UnTestOperator, x string) bool {
	switch op {
	case syntax.TsExists:
		_, err := r.stat(ctx, x)
		return err == nil
	case syntax.TsRegFile:
		info, err := r.stat(ctx, x)
		return err == nil && info.Mode().IsRegular()
	case syntax.TsDirect:
		return r.statMode(ctx, x, os.ModeDir)
	case syntax.TsCharSp:
		return r.statMode(ctx, x, os.ModeCharDevice)
	case syntax.TsBlckSp:
		info, err := r.stat(ctx, x)
		return err == nil && info.Mode()&os.ModeDevice != 0 &&
			info.Mode()&os.ModeCharDevice == 0
	case syntax.TsNmPipe:
		return r.statMode(ctx, x, os.ModeNamedPipe)
	case syntax.TsSocket:
		return r.statMode(ctx, x, os.ModeSocket)
	case syntax.TsSmbLink:
		info, err := r.lstat(ctx, x)
		return err == nil && info.Mode()&os.ModeSymlink != 0
	case syntax.TsSticky:
		return r.statMode(ctx, x, os.ModeSticky)
	case syntax.TsUIDSet:
		return r.statMode(ctx, x, os.ModeSetuid)
	case syntax.TsGIDSet:
		return r.statMode(ctx, x, os.ModeSetgid)
	case syntax.TsModif:
		info, err := r.stat(ctx, x)
		if err != nil {
			return false
		}
		return info.ModTime().After(getAtime(info))
	case syntax.TsRead:
		return r.access(ctx, x, AccessRead) == nil
	case syntax.TsWrite:
		return r.access(ctx, x, AccessWrite) == nil
	case syntax.TsExec:
		return r.access(ctx, x, AccessExec) == nil
	case syntax.TsNoEmpty:
		info, err := r.stat(ctx, x)
		return err == nil && info.Size() > 0
	case syntax.TsFdTerm:
		fd := atoi(x)
		var f any
		switch fd {
		case 0:
			f = r.stdin
		case 1:
			f = r.stdout
		case 2:
			f = r.stderr
		}
		if f, ok := f.(interface{ Fd() uintptr }); ok {
			// Support [os.File.Fd] methods such as the one on [*os.File].
			return term.IsTerminal(int(f.Fd()))
		}
		// TODO: allow term.IsTerminal here too if running in the
		// "single process" mode.
		return false
	case syntax.TsEmpStr:
		return x == ""
	case syntax.TsNempStr:
		return x != ""
	case syntax.TsOptSet:
		if opt := r.posixOptByName(x); opt != nil {
			return *opt
		}
		return false
	case syntax.TsVarSet:
		if _, _, ok := cutElemSubscript(x); ok {
			// jaiph-go patch: -v a[i] tests an array element.
			w, err := syntax.NewParser().Document(strings.NewReader("${" + x + "+1}"))
			if err != nil {
				return false
			}
			return r.literal(w) == "1"
		}
		if n, ok := legalNumber(x); ok {
			// jaiph-go patch: bash's -v of a number tests the
			// positional parameter it names ([[ -v 000 ]] is $0's,
			// [[ -v 01 ]] $1's).
			return n >= 0 && n <= int64(len(r.Params))
		}
		// jaiph-go patch: -v/-R of an empty word is false, as bash (it
		// reached lookupVar's panic: a Go stack trace).
		if len(x) == 1 && strings.Contains("*@#?-$!", x) {
			// jaiph-go patch: bash's -v looks for a variable, and the
			// special parameters are none ([[ -v '*' ]] is false).
			return false
		}
		if x == "" {
			return false
		}
		if vr := r.peekVar(x); vr.Kind == expand.NameRef {
			// jaiph-go patch: -v of a nameref tests the variable it
			// names (false for none, or for an element, as bash).
			n, v := vr.Resolve(r.writeEnv)
			if !syntax.ValidName(n) {
				// a variable named as the element, see the
				// declaration; an array's element (key) 0
				switch v.Kind {
				case expand.Indexed:
					_, ok := v.IndexedValue(0)
					return ok
				case expand.Associative:
					_, ok := v.Map["0"]
					return ok
				}
				return v.IsSet()
			}
			x = n
		}
		if vr := r.peekVar(x); vr.Kind == expand.Indexed || vr.Kind == expand.Associative {
			// jaiph-go patch: -v of an array tests its element (key) 0,
			// as bash ([[ -v a ]] of a=([2]=x) is false).
			if !syntax.ValidName(x) {
				return vr.IsSet()
			}
			w, err := syntax.NewParser().Document(strings.NewReader("${" + x + "[0]+1}"))
			if err != nil {
				return false
			}
			return r.literal(w) == "1"
		}
		return r.lookupVar(x).IsSet()
	case syntax.TsRefVar:
		return x != "" && r.lookupVar(x).Kind == expand.NameRef
	case syntax.TsNot:
		return x == ""
	case syntax.TsUsrOwn, syntax.TsGrpOwn:
		return r.unTestOwnOrGrp(ctx, op, x)
	default:
		// Should only happen if we forgot a case above.
		panic(fmt.Sprintf("unexpected unary test op: %v", op))
	}
}

// traceTest prints one test of [[ ]] under xtrace, as bash does with the
// operands expanded (jaiph-go patch).
func (r *Runner) traceTest(parts ...string) {
	if t := r.tracer(); t != nil {
		t.string("[[ " + strings.Join(parts, " ") + " ]]")
		t.newLineFlush()
	}
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// invalidBytesAsChars writes each byte of s that is no UTF-8 as the
// character internal.InvalidByteBase+b (see internal.EREBytes), and gives
// for each byte offset of the result the offset of s it comes from
// (jaiph-go patch).
func invalidBytesAsChars(s string) (string, []int) {
	var b strings.Builder
	offs := make([]int, 0, len(s)+1)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			r = internal.InvalidByteBase + rune(s[i])
		}
		n := b.Len()
		if r == utf8.RuneError {
			b.WriteString(s[i : i+size]) // a real U+FFFD
		} else {
			b.WriteRune(r)
		}
		for range b.Len() - n {
			offs = append(offs, i)
		}
		i += size
	}
	offs = append(offs, len(s))
	return b.String(), offs
}
