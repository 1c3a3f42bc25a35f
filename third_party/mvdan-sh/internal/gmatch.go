// jaiph-go patch: bash's own pattern matcher for extended patterns.

package internal

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Gmatch is bash 5.2's strmatch for a pattern with extended groups
// (lib/glob/sm_loop.c: gmatch, extmatch, brackmatch, glob_patscan),
// ported as it is written. Bash's algorithm is not a regular-expression
// match: a `*` tries the rest of the pattern only where characters of the
// string start (never on the empty rest, except for !(…) and ?(…) at the
// string's end), and `**(…)` tries the group where characters start, so
// `*@(|x)` does not match "ab". A translation to a regular expression
// cannot say that; this port does.
//
// Strings and patterns are matched character by character when both are
// valid UTF-8 (bash's wide-character matcher in a UTF-8 locale), byte by
// byte otherwise (bash falls back to its byte matcher when a conversion
// fails).
type Gmatch struct {
	pat   string
	flags sm // the flags alone: a match fills in p and s
}

// NewGmatch returns bash's matcher for pat: ext is FNM_EXTMATCH (groups
// are operators), fold FNM_CASEFOLD (shopt -s nocasematch, nocaseglob),
// pathname FNM_PATHNAME (* ? and brackets do not match a slash). A match
// gives up (no match) once done is closed, as bash's matcher gives up on
// an interrupt; a caller that passes done must look at it afterwards, as
// the result is then meaningless.
func NewGmatch(pat string, ext, fold, pathname bool, done <-chan struct{}) *Gmatch {
	return &Gmatch{pat: pat, flags: sm{ext: ext, fold: fold, pathname: pathname, done: done}}
}

// Match reports whether all of s matches the pattern.
func (g *Gmatch) Match(s string) bool {
	m := g.flags
	m.p, m.s, m.bytes = chars(g.pat, s)
	return m.gmatch(0, len(m.s), 0, len(m.p), nil) == 0
}

// chars are the pattern and the string as characters, or as bytes when
// either is not valid UTF-8 (then bytes is set).
func chars(pat, s string) (p, str []rune, bytes bool) {
	if utf8.ValidString(pat) && utf8.ValidString(s) {
		return []rune(pat), []rune(s), false
	}
	return byteRunes(pat), byteRunes(s), true
}

func byteRunes(s string) []rune {
	r := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		r[i] = rune(s[i])
	}
	return r
}

const noMatch = 1 // FNM_NOMATCH; 0 is a match

type ends struct {
	pattern, string int
	set             bool
}

type sm struct {
	p, s     []rune
	bytes    bool // bash's byte matcher: a byte beyond ASCII is no letter
	ext      bool
	fold     bool
	pathname bool

	// done is closed when the run is cancelled: bash's matcher looks at
	// interrupt_state as it goes, because a match can take minutes (a *
	// before a group is quadratic or worse in the string's length).
	done    <-chan struct{}
	steps   uint32
	stopped bool
}

// interrupted reports whether done was closed, looking at it every 4,096
// steps (a channel receive on each step costs more than the step).
func (m *sm) interrupted() bool {
	if m.stopped {
		return true
	}
	if m.done == nil {
		return false
	}
	if m.steps++; m.steps&0xfff != 0 {
		return false
	}
	select {
	case <-m.done:
		m.stopped = true
	default:
	}
	return m.stopped
}

// pc is the pattern character at i, 0 past its end (C's NUL).
func (m *sm) pc(i int) rune {
	if i < len(m.p) {
		return m.p[i]
	}
	return 0
}

// sc is the string character at i, 0 past its end.
func (m *sm) sc(i int) rune {
	if i < len(m.s) {
		return m.s[i]
	}
	return 0
}

func (m *sm) foldc(c rune) rune {
	if m.fold && (!m.bytes || c < utf8.RuneSelf) {
		return unicode.ToLower(c)
	}
	return c
}

func isExtOp(c rune) bool {
	return c == '+' || c == '*' || c == '?' || c == '@' || c == '!'
}

// gmatch is GMATCH: the string from string to se against the pattern
// from pattern to pe.
func (m *sm) gmatch(str, se, pattern, pe int, e *ends) int {
	if m.interrupted() {
		return noMatch
	}
	p, n := pattern, str
	for p < pe {
		c := m.foldc(m.pc(p))
		p++
		var sc rune
		if n < se {
			sc = m.s[n]
		}
		if m.ext && m.pc(p) == '(' && isExtOp(c) {
			return m.extmatch(c, n, se, p, pe)
		}
		switch c {
		case '?':
			if sc == 0 || m.pathname && sc == '/' {
				return noMatch
			}
		case '\\':
			if p == pe && sc == '\\' && n+1 == se {
				break
			}
			if p == pe {
				return noMatch
			}
			c = m.foldc(m.pc(p))
			p++
			if m.foldc(sc) != c {
				return noMatch
			}
		case '*':
			if e != nil {
				e.pattern, e.string, e.set = p-1, n, true
				return 0
			}
			if p == pe {
				return 0
			}
			// Runs of * and ? are one *, each ? taking a character.
			c = m.pc(p)
			p++
			for c == '?' || c == '*' {
				if m.pathname && sc == '/' {
					return noMatch
				}
				if m.ext && c == '?' && m.pc(p) == '(' {
					if m.extmatch(c, n, se, p, pe) == 0 {
						return 0
					}
					p = m.skipGroup(p, pe)
				} else if c == '?' {
					if sc == 0 {
						return noMatch
					}
					n++
					sc = 0
					if n < se {
						sc = m.s[n]
					}
				}
				if m.ext && c == '*' && m.pc(p) == '(' {
					// bash tries the group where characters start,
					// not at the string's end
					for newn := n; newn < se; newn++ {
						if m.extmatch(c, newn, se, p, pe) == 0 {
							return 0
						}
					}
					p = m.skipGroup(p, pe)
				}
				if p == pe {
					break
				}
				c = m.pc(p)
				p++
			}
			if p == pe && (c == '?' || c == '*') {
				return 0
			}
			if m.ext && n == se && c == '!' && m.pc(p) == '(' {
				// bash hands the group its operator's position, so a
				// group with no ')' after it compares as text.
				if m.extmatch(c, n, se, p-1, pe) == 0 {
					return noMatch
				}
				return 0
			}
			if c == '/' && m.pathname {
				for n < se && m.s[n] != '/' {
					n++
				}
				if n < se && m.s[n] == '/' && m.gmatch(n+1, se, p, pe, nil) == 0 {
					return 0
				}
				return noMatch
			}
			endp := se
			if m.pathname {
				for i := n; i < se; i++ {
					if m.s[i] == '/' {
						endp = i
						break
					}
				}
			}
			c1 := c
			if c == '\\' {
				c1 = m.pc(p)
			}
			c1 = m.foldc(c1)
			// The rest of the pattern is tried where each character
			// starts (never on the empty rest).
			var end ends
			for p--; n < endp; n++ {
				if (!m.ext || m.pc(p+1) != '(' && !isExtOp(m.pc(p))) && c != '[' && m.foldc(m.s[n]) != c1 {
					continue
				}
				if m.gmatch(n, se, p, pe, &end) == 0 {
					if !end.set {
						return 0
					}
					break
				}
			}
			if end.set {
				p, n = end.pattern, end.string
				continue
			}
			return noMatch
		case '[':
			if sc == 0 || n == se {
				return noMatch
			}
			np, ok := m.brackmatch(p, sc)
			if !ok {
				return noMatch
			}
			p = np
		default:
			if c != m.foldc(sc) {
				return noMatch
			}
		}
		n++
	}
	if n == se {
		return 0
	}
	return noMatch
}

// skipGroup is the position after the group whose '(' is at open, or pe
// when it does not close (bash's PATSCAN (p + 1, pe, 0) or pe).
func (m *sm) skipGroup(open, pe int) int {
	if q := m.patscan(open+1, pe, 0); q >= 0 {
		return q
	}
	return pe
}

// patscan is glob_patscan: the position after the ')' that closes the
// group (delim 0) or after the next '|' of the group, keeping track of
// nested groups and bracket expressions; -1 when there is none.
func (m *sm) patscan(str, end int, delim rune) int {
	pnest, bnest := 0, 0
	skip := false
	var cchar rune
	bfirst := -1
	if str == end {
		return -1
	}
	for s := str; m.pc(s) != 0; s++ {
		if s >= end {
			return s
		}
		if skip {
			skip = false
			continue
		}
		switch c := m.pc(s); c {
		case '\\':
			skip = true
		case '[':
			if bnest == 0 {
				bfirst = s + 1
				if m.pc(bfirst) == '!' || m.pc(bfirst) == '^' {
					bfirst++
				}
				bnest++
			} else if n := m.pc(s + 1); n == ':' || n == '.' || n == '=' {
				cchar = n
			}
		case ']':
			if bnest != 0 {
				if cchar != 0 && m.pc(s-1) == cchar {
					cchar = 0
				} else if s != bfirst {
					bnest--
					bfirst = -1
				}
			}
		case '(':
			if bnest == 0 {
				pnest++
			}
		case ')':
			if bnest == 0 {
				if pnest <= 0 {
					return s + 1
				}
				pnest--
			}
		case '|':
			if bnest == 0 && pnest == 0 && delim == '|' {
				return s + 1
			}
		}
	}
	return -1
}

// strcompare is STRCOMPARE: a malformed group's text compared with the
// string as it is.
func (m *sm) strcompare(p, pe, s, se int) int {
	if pe-p != se-s {
		return noMatch
	}
	for i := 0; i < pe-p; i++ {
		if m.p[p+i] != m.s[s+i] {
			return noMatch
		}
	}
	return 0
}

// extmatch is EXTMATCH: xc is the operator, p its '(' and s the string
// position it starts at.
func (m *sm) extmatch(xc rune, s, se, p, pe int) int {
	start := p
	if m.pc(p) == '(' {
		start++
	}
	prest := m.patscan(start, pe, 0)
	if prest < 0 {
		return m.strcompare(p-1, pe, s, se)
	}
	switch xc {
	case '+', '*':
		if xc == '*' && m.gmatch(s, se, prest, pe, nil) == 0 {
			return 0
		}
		for psub := p + 1; ; {
			pnext := m.patscan(psub, pe, '|')
			for srest := s; srest <= se; srest++ {
				if m.gmatch(s, srest, psub, pnext-1, nil) != 0 {
					continue
				}
				if m.gmatch(srest, se, prest, pe, nil) == 0 ||
					s != srest && m.gmatch(srest, se, p-1, pe, nil) == 0 {
					return 0
				}
			}
			if pnext == prest {
				break
			}
			psub = pnext
		}
		return noMatch
	case '?', '@':
		if xc == '?' && m.gmatch(s, se, prest, pe, nil) == 0 {
			return 0
		}
		for psub := p + 1; ; {
			pnext := m.patscan(psub, pe, '|')
			srest := s
			if prest == pe {
				srest = se
			}
			for ; srest <= se; srest++ {
				if m.gmatch(s, srest, psub, pnext-1, nil) == 0 &&
					m.gmatch(srest, se, prest, pe, nil) == 0 {
					return 0
				}
			}
			if pnext == prest {
				break
			}
			psub = pnext
		}
		return noMatch
	case '!':
		for srest := s; srest <= se; srest++ {
			m1 := false
			for psub := p + 1; ; {
				pnext := m.patscan(psub, pe, '|')
				if m1 = m.gmatch(s, srest, psub, pnext-1, nil) == 0; m1 {
					break
				}
				if pnext == prest {
					break
				}
				psub = pnext
			}
			if !m1 && m.gmatch(srest, se, prest, pe, nil) == 0 {
				return 0
			}
		}
		return noMatch
	}
	return noMatch
}

// brackmatch is BRACKMATCH: p is just past the '['; the position after
// the bracket expression and whether test is in it. A '[' that is not
// closed is an ordinary character.
func (m *sm) brackmatch(p int, test rune) (int, bool) {
	origTest := test
	test = m.foldc(test)
	savep := p
	unclosed := func() (int, bool) {
		if test == '[' {
			return savep, true
		}
		return 0, false
	}
	not := m.pc(p) == '!' || m.pc(p) == '^'
	if not {
		p++
	}
	c := m.pc(p)
	p++
	matched := false
	for {
		cstart, cend := c, c
		forcecoll := false
		if c == '[' && m.pc(p) == '=' && m.pc(p+2) == '=' && m.pc(p+3) == ']' {
			pc := m.foldc(m.pc(p + 1))
			p += 4
			if test == pc {
				p++
				matched = true
				break
			}
			c = m.pc(p)
			p++
			if c == 0 {
				return unclosed()
			}
			c = m.foldc(c)
			continue
		}
		if c == '[' && m.pc(p) == ':' {
			pc := false
			close := p + 1
			for m.pc(close) != 0 && !(m.pc(close) == ':' && m.pc(close+1) == ']') {
				close++
			}
			if m.pc(close) != 0 {
				pc = (!m.bytes || origTest < utf8.RuneSelf) && isCClass(origTest, strings.ReplaceAll(string(m.p[p+1:close]), "\\", ""))
				p = close + 2
			}
			if pc {
				p++
				matched = true
				break
			}
			c = m.pc(p)
			p++
			if c == 0 {
				return unclosed()
			} else if c == ']' {
				break
			}
			c = m.foldc(c)
			continue
		}
		if c == '[' && m.pc(p) == '.' {
			var sym rune
			p, sym = m.collsym(p)
			cstart = sym
			if sym < 0 {
				cstart = test + 1
			}
			forcecoll = true
		}
		if c == '\\' {
			if m.pc(p) == 0 {
				return 0, false
			}
			cstart, cend = m.pc(p), m.pc(p)
			p++
		}
		cstart = m.foldc(cstart)
		cend = cstart
		isrange := false
		if c == 0 {
			return unclosed()
		}
		c = m.foldc(m.pc(p))
		p++
		if c == 0 {
			return unclosed()
		}
		if m.pathname && c == '/' {
			return 0, false
		}
		if c == '-' && m.pc(p) != ']' {
			cend = m.pc(p)
			p++
			if cend == '\\' {
				cend = m.pc(p)
				p++
			}
			if cend == 0 {
				return 0, false
			}
			if cend == '[' && m.pc(p) == '.' {
				var sym rune
				p, sym = m.collsym(p)
				cend = sym
				if sym < 0 {
					cend = test - 1
				}
			}
			cend = m.foldc(cend)
			c = m.pc(p)
			p++
			if cstart > cend {
				if c == ']' {
					break
				}
				c = m.foldc(c)
				continue
			}
			isrange = true
		}
		_ = forcecoll // ranges compare code points (globasciiranges, C.UTF-8)
		if !isrange && test == cstart || isrange && test >= cstart && test <= cend {
			matched = true
			break
		}
		if c == ']' {
			break
		}
	}
	if !matched {
		if not {
			return p, true
		}
		return 0, false
	}
	// Skip the rest of the bracket expression that already matched.
	p--
	c = m.pc(p)
	brcnt := 1
	brchrp := -1
	for brcnt > 0 {
		if c == 0 {
			return unclosed()
		}
		oc := c
		c = m.pc(p)
		p++
		if c == '[' && (m.pc(p) == '=' || m.pc(p) == ':' || m.pc(p) == '.') {
			brcnt++
			brchrp = p
			p++
			if c = m.pc(p); c == 0 {
				return unclosed()
			}
		} else if c == ']' && brcnt > 1 && brchrp >= 0 && oc == m.pc(brchrp) {
			brcnt--
			brchrp = -1
		} else if c == ']' && (brchrp < 0 || m.pc(brchrp) != '.') && brcnt >= 1 {
			brcnt = 0
		} else if c == '\\' {
			if m.pc(p) == 0 {
				return 0, false
			}
			p++
		}
	}
	if not {
		return 0, false
	}
	return p, true
}

// collsym is PARSE_COLLSYM: p is at the '.' after '['; the position after
// ".]" and the symbol's character, -1 when it names none.
func (m *sm) collsym(p int) (int, rune) {
	p++
	pc := 0
	for m.pc(p+pc) != 0 && !(m.pc(p+pc) == '.' && m.pc(p+pc+1) == ']') {
		pc++
	}
	if m.pc(p+pc) == 0 {
		return p + pc, -1
	}
	name := string(m.p[p : p+pc])
	sym := rune(-1)
	if utf8.RuneCountInString(name) == 1 {
		sym, _ = utf8.DecodeRuneInString(name)
	} else if r, ok := collName(name); ok {
		sym = r
	}
	return p + pc + 2, sym
}

// collName is the character a collating symbol's POSIX name stands for
// (lib/glob/collsyms.h), the names a pattern is likely to use.
func collName(name string) (rune, bool) {
	switch name {
	case "NUL":
		return 0, true
	case "tab":
		return '\t', true
	case "newline":
		return '\n', true
	case "space":
		return ' ', true
	case "exclamation-mark":
		return '!', true
	case "quotation-mark":
		return '"', true
	case "number-sign":
		return '#', true
	case "dollar-sign":
		return '$', true
	case "percent-sign":
		return '%', true
	case "ampersand":
		return '&', true
	case "apostrophe":
		return '\'', true
	case "left-parenthesis":
		return '(', true
	case "right-parenthesis":
		return ')', true
	case "asterisk":
		return '*', true
	case "plus-sign":
		return '+', true
	case "comma":
		return ',', true
	case "hyphen", "hyphen-minus":
		return '-', true
	case "period", "full-stop":
		return '.', true
	case "slash", "solidus":
		return '/', true
	case "colon":
		return ':', true
	case "semicolon":
		return ';', true
	case "less-than-sign":
		return '<', true
	case "equals-sign":
		return '=', true
	case "greater-than-sign":
		return '>', true
	case "question-mark":
		return '?', true
	case "commercial-at":
		return '@', true
	case "left-square-bracket":
		return '[', true
	case "backslash", "reverse-solidus":
		return '\\', true
	case "right-square-bracket":
		return ']', true
	case "circumflex", "circumflex-accent":
		return '^', true
	case "underscore", "low-line":
		return '_', true
	case "grave-accent":
		return '`', true
	case "left-brace", "left-curly-bracket":
		return '{', true
	case "vertical-line":
		return '|', true
	case "right-brace", "right-curly-bracket":
		return '}', true
	case "tilde":
		return '~', true
	case "DEL":
		return 0x7f, true
	}
	for d, digit := range [...]string{"zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"} {
		if name == digit {
			return rune('0' + d), true
		}
	}
	return 0, false
}
