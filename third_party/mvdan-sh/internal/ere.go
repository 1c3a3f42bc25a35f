// jaiph-go patch: bash's [[ =~ ]] regular expressions, read as glibc's
// regcomp reads them.

package internal

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrBadERE is a regular expression glibc's regcomp refuses (bash's
// [[ =~ ]] then has status 2).
var ErrBadERE = errors.New("invalid regular expression")

// UnsupportedEREError is a regular expression glibc accepts that Go's
// regexp cannot say: a back-reference, a word-start or word-end anchor,
// a repetition count past Go's 1,000.
type UnsupportedEREError struct{ What string }

func (e *UnsupportedEREError) Error() string {
	return "regular expression: " + e.What + " is not supported"
}

// ERE translates re, a POSIX extended regular expression as glibc's
// regcomp reads it for bash (REG_EXTENDED, REG_ICASE when icase: syntax
// RE_SYNTAX_POSIX_EXTENDED with GNU's operators), into Go's syntax, to be
// compiled and searched with Longest (POSIX's leftmost-longest). Where
// the two read the same text differently, the translation says glibc's
// meaning: `.` and `[^a]` match a newline; `\d`, `\n` or `\t` are the
// letter; `\w`, `\s`, `\b`, “ \` “ and `\'` are GNU's; `a**` and `a+?`
// repeat a repetition (never lazily); an unmatched `)`, a `}` and a `{`
// after a backslash are characters; `{,3}` is `{0,3}`; a backslash in a
// bracket expression is itself; `*` at the start of an expression, after
// `(`, `|` or an anchor is an error, as `a{x` is. unicode makes the
// classes hold characters beyond ASCII (bash's do in a UTF-8 locale; set
// it when the string matched has such characters).
func ERE(re string, icase, unicode bool) (string, error) {
	p := &ereParser{s: []rune(re), unicode: unicode, icase: icase}
	var sb strings.Builder
	sb.WriteString("(?s)")
	if icase {
		sb.WriteString("(?i)")
	}
	if err := p.regExp(&sb, 0); err != nil {
		return "", err
	}
	if p.i < len(p.s) {
		return "", ErrBadERE // not reached: a ')' at the top is a character
	}
	return sb.String(), nil
}

type ereParser struct {
	s              []rune
	i              int
	unicode, icase bool
	nsub           int
	completed      map[int]bool // groups closed so far (a back-reference needs one)
}

func (p *ereParser) peek(k int) rune {
	if p.i+k < len(p.s) {
		return p.s[p.i+k]
	}
	return -1
}

// regExp is parse_reg_exp: branches separated by '|', each of which may
// be empty. Where several ways to the longest match exist, glibc takes
// the one its nodes' order prefers (BASH_REMATCH's groups show which),
// and that is Go's order of the branches, except that an empty first
// branch comes after the second: glibc's first alternation node then
// has no left side, and its way on, the node after the alternation, is
// numbered after the second branch's nodes.
func (p *ereParser) regExp(sb *strings.Builder, nest int) error {
	var branches []string
	firstEmpty := false
	for {
		var b strings.Builder
		empty, err := p.branch(&b, nest)
		if err != nil {
			return err
		}
		text := b.String()
		if len(branches) == 1 && firstEmpty && !empty {
			branches = []string{text, branches[0]}
		} else {
			branches = append(branches, text)
		}
		if len(branches) == 1 {
			firstEmpty = empty
		}
		if p.peek(0) != '|' {
			break
		}
		p.i++
	}
	sb.WriteString(strings.Join(branches, "|"))
	return nil
}

// branch is parse_branch: expressions up to a '|', the end, or (in a
// group) its ')'; empty reports that glibc's tree of it is empty (no
// expression, or only ones repeated {0} times).
func (p *ereParser) branch(sb *strings.Builder, nest int) (empty bool, err error) {
	empty = true
	for {
		c := p.peek(0)
		if c == -1 || c == '|' || nest > 0 && c == ')' {
			return empty, nil
		}
		dropped, err := p.expression(sb, nest)
		if err != nil {
			return false, err
		}
		empty = empty && dropped
	}
}

// expression is parse_expression: one atom and the repetitions after it;
// dropped reports that glibc dropped it (repeated {0} times).
func (p *ereParser) expression(sb *strings.Builder, nest int) (dropped bool, err error) {
	var atom strings.Builder
	c := p.peek(0)
	p.i++
	switch c {
	case '(':
		p.nsub++
		n := p.nsub
		atom.WriteByte('(')
		if p.peek(0) != ')' {
			if err := p.regExp(&atom, nest+1); err != nil {
				return false, err
			}
			if p.peek(0) != ')' {
				return false, ErrBadERE // REG_EPAREN
			}
		}
		p.i++
		atom.WriteByte(')')
		if p.completed == nil {
			p.completed = map[int]bool{}
		}
		p.completed[n] = true
	case '[':
		if err := p.bracket(&atom); err != nil {
			return false, err
		}
	case '*', '+', '?', '{':
		return false, ErrBadERE // REG_BADRPT: nothing to repeat
	case '^', '$':
		// an anchor takes no repetition: a '*' after it starts the next
		// expression, an error
		sb.WriteRune(c)
		return false, nil
	case '.':
		atom.WriteByte('.')
	case '\\':
		c2 := p.peek(0)
		if c2 == -1 {
			return false, ErrBadERE // REG_EESCAPE: a backslash at the end
		}
		p.i++
		switch c2 {
		case '1', '2', '3', '4', '5', '6', '7', '8', '9':
			if !p.completed[int(c2-'0')] {
				return false, ErrBadERE // REG_ESUBREG
			}
			return false, &UnsupportedEREError{What: "the back-reference \\" + string(c2)}
		case '<', '>':
			return false, &UnsupportedEREError{What: "the word anchor \\" + string(c2)}
		case 'b', 'B':
			if p.unicode {
				// Go's \b knows ASCII words only
				return false, &UnsupportedEREError{What: "\\" + string(c2) + " on a string with characters beyond ASCII"}
			}
			sb.WriteString(`\` + string(c2))
			return false, nil
		case '`':
			sb.WriteString(`\A`)
			return false, nil
		case '\'':
			sb.WriteString(`\z`)
			return false, nil
		case 'w', 'W':
			atom.WriteString(p.classBracket(c2 == 'W', "_", "alnum"))
		case 's', 'S':
			atom.WriteString(p.classBracket(c2 == 'S', "", "space"))
		default:
			atom.WriteString(regexp.QuoteMeta(string(c2)))
		}
	default:
		// a character, ')' at the top level and '}' among them
		atom.WriteString(regexp.QuoteMeta(string(c)))
	}
	text := atom.String()
	for {
		var op string
		switch p.peek(0) {
		case '*', '+', '?':
			op = string(p.peek(0))
			p.i++
		case '{':
			p.i++
			var err error
			if op, err = p.interval(); err != nil {
				return false, err
			}
			dropped = dropped || op == "{0}"
		default:
			sb.WriteString(text)
			return dropped, nil
		}
		text = "(?:" + text + ")" + op
	}
}

// interval reads what follows '{' as parse_dup_op and fetch_number do:
// {n}, {n,}, {n,m} and {,m}; anything else is an error (bash's syntax has
// no RE_INVALID_INTERVAL_ORD).
func (p *ereParser) interval() (string, error) {
	number := func() (int, rune) { // fetch_number: -1 none, -2 invalid
		num := -1
		for {
			c := p.peek(0)
			if c == -1 {
				return -2, c
			}
			p.i++
			if c == '}' || c == ',' {
				return num, c
			}
			switch {
			case c < '0' || c > '9' || num == -2:
				num = -2
			case num == -1:
				num = int(c - '0')
			default:
				num = min(reDupMax+1, num*10+int(c-'0'))
			}
		}
	}
	start, delim := number()
	if start == -1 {
		if delim != ',' {
			return "", ErrBadERE // REG_BADBR: {} or {x}
		}
		start = 0
	}
	end := -2
	if start != -2 {
		switch delim {
		case '}':
			end = start
		case ',':
			end, delim = number()
		}
	}
	if start == -2 || end == -2 || end != -1 && start > end || delim != '}' {
		return "", ErrBadERE // REG_EBRACE, REG_BADBR
	}
	top := end
	if end == -1 {
		top = start
	}
	if top > reDupMax {
		return "", ErrBadERE // REG_ESIZE
	}
	if top > 1000 {
		return "", &UnsupportedEREError{What: "a repetition count above 1000 ({" + strconv.Itoa(top) + "})"}
	}
	switch end {
	case start:
		return fmt.Sprintf("{%d}", start), nil
	case -1:
		return fmt.Sprintf("{%d,}", start), nil
	}
	return fmt.Sprintf("{%d,%d}", start, end), nil
}

const reDupMax = 0x7fff // glibc's RE_DUP_MAX

// classBracket is a bracket expression of one class (and extra
// characters), negated or not: GNU's \w \W \s \S.
func (p *ereParser) classBracket(negate bool, extra, class string) string {
	s := "["
	if negate {
		s += "^"
	}
	return s + extra + p.class(class) + "]"
}

// class is a class inside a Go bracket expression.
func (p *ereParser) class(name string) string {
	s := "[:" + name + ":]"
	if p.unicode {
		s += nonASCIIRanges(name)
	}
	return s
}

var ereClasses = map[string]bool{
	"alpha": true, "upper": true, "lower": true, "digit": true, "xdigit": true, "space": true,
	"print": true, "punct": true, "graph": true, "cntrl": true, "blank": true, "alnum": true,
}

// bracket is parse_bracket_exp, just past the '[': a backslash is
// itself; the first ']' (after a '^') is a character; a '-' is a range
// unless first or last; [:class:], [=c=] and [.c.] (one character in
// bash's locale); a range's start may not pass its end.
func (p *ereParser) bracket(sb *strings.Builder) error {
	if p.peek(0) == -1 {
		return ErrBadERE // REG_BADPAT
	}
	sb.WriteByte('[')
	if p.peek(0) == '^' {
		p.i++
		sb.WriteByte('^')
		if p.peek(0) == -1 {
			return ErrBadERE
		}
	}
	first := true
	for {
		start, err := p.bracketElem(first)
		if err != nil {
			return err
		}
		first = false
		if p.peek(0) == -1 {
			return ErrBadERE // REG_EBRACK
		}
		if start.class == "" && p.peek(0) == '-' {
			if p.peek(1) == -1 {
				return ErrBadERE
			}
			if p.peek(1) != ']' {
				p.i++
				end, err := p.bracketElem(true)
				if err != nil {
					return err
				}
				if end.class != "" || start.equiv || end.equiv {
					return ErrBadERE // REG_ERANGE: a class ends no range
				}
				if start.c >= utf8.RuneSelf || end.c >= utf8.RuneSelf {
					// C.UTF-8 has no collation rules: glibc finds no
					// collation sequence value for a multibyte
					// character
					return ErrBadERE // REG_ECOLLATE
				}
				if start.c > end.c {
					return ErrBadERE // REG_ERANGE
				}
				sb.WriteString(bracketChar(start.c) + "-" + bracketChar(end.c))
				if p.peek(0) == -1 {
					return ErrBadERE
				}
				if p.peek(0) == ']' {
					p.i++
					sb.WriteByte(']')
					return nil
				}
				continue
			}
		}
		if start.class != "" {
			sb.WriteString(p.class(start.class))
		} else {
			sb.WriteString(bracketChar(start.c))
		}
		if p.peek(0) == ']' {
			p.i++
			sb.WriteByte(']')
			return nil
		}
	}
}

type bracketElem struct {
	c     rune
	class string // [:class:]
	equiv bool   // [=c=]
}

// bracketElem is parse_bracket_element: a character (the first one may
// be ']' or '-'), or a [:class:], [=c=] or [.c.].
func (p *ereParser) bracketElem(first bool) (bracketElem, error) {
	c := p.peek(0)
	if c == '[' {
		if d := p.peek(1); d == ':' || d == '=' || d == '.' {
			return p.bracketSymbol(d)
		}
	}
	p.i++
	if c == '-' && !first && p.peek(0) != ']' {
		return bracketElem{}, ErrBadERE // REG_ERANGE: a '-' within the list
	}
	return bracketElem{c: c}, nil
}

// bracketSymbol is parse_bracket_symbol at "[:", "[=" or "[.": the name
// up to the same delimiter and ']' (at most 31 bytes).
func (p *ereParser) bracketSymbol(delim rune) (bracketElem, error) {
	p.i += 2
	var name []rune
	for {
		if p.i+1 >= len(p.s) {
			return bracketElem{}, ErrBadERE // REG_EBRACK
		}
		c := p.s[p.i]
		p.i++
		if c == delim && p.s[p.i] == ']' {
			p.i++
			break
		}
		name = append(name, c)
		if len(string(name)) >= 32 {
			return bracketElem{}, ErrBadERE
		}
	}
	text := string(name)
	switch delim {
	case ':':
		if p.icase && (text == "upper" || text == "lower") {
			text = "alpha"
		}
		if !ereClasses[text] {
			return bracketElem{}, ErrBadERE // REG_ECTYPE
		}
		return bracketElem{class: text}, nil
	default:
		// C.UTF-8 has no collation rules: a collating symbol or an
		// equivalence class is one single-byte character.
		if len(text) != 1 {
			return bracketElem{}, ErrBadERE // REG_ECOLLATE
		}
		return bracketElem{c: rune(text[0]), equiv: delim == '='}, nil
	}
}

// bracketChar is c as a character of a Go bracket expression.
func bracketChar(c rune) string {
	if c < utf8.RuneSelf && (c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
		return string(c)
	}
	return fmt.Sprintf(`\x{%x}`, c)
}
