// jaiph-go patch: bash's [[ =~ ]] regular expressions, read as glibc's
// regcomp reads them.

package internal

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ErrBadERE is a regular expression glibc's regcomp refuses (bash's
// [[ =~ ]] then has status 2).
var ErrBadERE = errors.New("invalid regular expression")

// UnsupportedEREError is a regular expression glibc accepts that Go's
// regexp cannot say as glibc reads it: a back-reference, a word-start or
// word-end anchor, a repetition count past Go's 1,000, \b on text beyond
// ASCII, and the anchors and repeated groups emit names.
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
// letter; `\w`, `\s` and `\b` are GNU's, as is a backslash before a
// backquote or a quote (the string's start, its end); `a**` and `a+?`
// repeat a repetition (never lazily); an unmatched `)`, a `}` and a `{`
// after a backslash are characters; `{,3}` is `{0,3}`; a backslash in a
// bracket expression is itself; `*` at the start of an expression, after
// `(`, `|` or an anchor is an error, as `a{x` is. unicode makes the
// classes hold characters beyond ASCII (bash's do in a UTF-8 locale; set
// it when the string matched has such characters).
func ERE(re string, icase, unicode bool) (string, error) {
	return ereTranslate(re, icase, unicode, false)
}

// InvalidByteBase is where EREBytes puts the bytes that are no UTF-8: a
// byte b of the string matched (and of the expression) is the character
// InvalidByteBase+b, in plane 4, where Unicode assigns nothing and no
// class of glibc has a character (jaiph-go patch).
const InvalidByteBase = 0x40000

// EREBytes is ERE for a string matched (or an expression) that is no valid
// UTF-8, whose bytes that are no UTF-8 the caller writes as the characters
// InvalidByteBase+b: glibc's regexec in a UTF-8 locale takes such a byte as
// a character of its own, which '.', a negated bracket expression, \W and
// \S do not match, and which an expression's same byte matches (jaiph-go
// patch).
func EREBytes(re string, icase, unicode bool) (string, error) {
	return ereTranslate(re, icase, unicode, true)
}

// invalidBytes is the bracket range of the characters EREBytes reads as
// bytes that are no UTF-8.
var invalidBytes = bracketChar(InvalidByteBase+0x80) + "-" + bracketChar(InvalidByteBase+0xff)

func ereTranslate(re string, icase, unicode, bytes bool) (string, error) {
	p := &ereParser{s: []rune(re), unicode: unicode, icase: icase, bytes: bytes}
	branches, err := p.regExp(0)
	if err != nil {
		return "", err
	}
	if p.i < len(p.s) {
		return "", ErrBadERE // not reached: a ')' at the top is a character
	}
	if p.cannot != nil {
		// told after the whole expression is read: glibc's error
		// in a later part is bash's status 2 without a word
		return "", p.cannot
	}
	top := &ereNode{branches: branches}
	top.forward(reach{empty: true})
	top.backward(reach{empty: true})
	var sb strings.Builder
	sb.WriteString("(?s)")
	if icase {
		sb.WriteString("(?i)")
	}
	if err := p.emitBranches(&sb, branches, top.matchesNewline()); err != nil {
		return "", err
	}
	return sb.String(), nil
}

type ereParser struct {
	s              []rune
	i              int
	unicode, icase bool
	bytes          bool // see EREBytes
	nsub           int
	completed      map[int]bool // groups closed so far (a back-reference needs one)
	cannot         error        // the first part Go cannot say
}

func (p *ereParser) unsupported(what string) {
	if p.cannot == nil {
		p.cannot = &UnsupportedEREError{What: what}
	}
}

func (p *ereParser) peek(k int) rune {
	if p.i+k < len(p.s) {
		return p.s[p.i+k]
	}
	return -1
}

// An ereNode is an expression: an atom (text: a character, '.', a
// bracket expression), a zero-width assertion, glibc's line anchor '^' or
// '$', or a group (branches), with the repetitions after it.
type ereNode struct {
	text      string
	zeroWidth bool         // \b \B \A \z
	anchor    rune         // '^' or '$'
	newline   bool         // an atom that can match a newline
	branches  [][]*ereNode // a group's, or the whole expression's
	group     bool
	reps      []string // innermost first: "*", "{2,3}"
	dropped   bool     // repeated {0} times: glibc drops it

	// before and after are how an anchor may be reached: with nothing
	// or with something matched before it (after: still to match).
	before, after reach
}

type reach struct{ empty, consumed bool }

func (r reach) union(o reach) reach { return reach{r.empty || o.empty, r.consumed || o.consumed} }

// canEmpty: the node can match no character.
func (n *ereNode) canEmpty() bool {
	if n.dropped || n.anchor != 0 || n.zeroWidth {
		return true
	}
	for _, op := range n.reps {
		if lo, _ := repBounds(op); lo == 0 {
			return true
		}
	}
	if !n.group {
		return false
	}
	for _, b := range n.branches {
		if !slices.ContainsFunc(b, func(e *ereNode) bool { return !e.canEmpty() }) {
			return true
		}
	}
	return false
}

// canConsume: the node can match a character.
func (n *ereNode) canConsume() bool {
	if n.dropped || n.anchor != 0 || n.zeroWidth {
		return false
	}
	if !n.group {
		return true
	}
	for _, b := range n.branches {
		if slices.ContainsFunc(b, (*ereNode).canConsume) {
			return true
		}
	}
	return false
}

// emptyGroupInside: the node is or holds a group that can match no
// character.
func (n *ereNode) emptyGroupInside() bool {
	for _, b := range n.branches {
		if n.group && !slices.ContainsFunc(b, func(e *ereNode) bool { return !e.canEmpty() }) {
			return true
		}
		if slices.ContainsFunc(b, (*ereNode).emptyGroupInside) {
			return true
		}
	}
	return false
}

// assertionInside: the node holds an anchor or another zero-width
// assertion.
func (n *ereNode) assertionInside() bool {
	if n.anchor != 0 || n.zeroWidth {
		return true
	}
	for _, b := range n.branches {
		if slices.ContainsFunc(b, (*ereNode).assertionInside) {
			return true
		}
	}
	return false
}

// repeats: the node may match more than once.
func (n *ereNode) repeats() bool {
	for _, op := range n.reps {
		if _, hi := repBounds(op); hi != 1 {
			return true
		}
	}
	return false
}

func (n *ereNode) matchesNewline() bool {
	if n.dropped {
		return false
	}
	if n.newline {
		return true
	}
	for _, b := range n.branches {
		if slices.ContainsFunc(b, (*ereNode).matchesNewline) {
			return true
		}
	}
	return false
}

// forward records, in each anchor, how it may be reached from the left;
// in is how the node is reached, the result how what follows it is.
func (n *ereNode) forward(in reach) reach {
	if n.anchor != 0 {
		n.before = n.before.union(in)
		return in
	}
	inner := in
	if n.repeats() && n.canConsume() {
		inner.consumed = true // a later round follows an earlier one
	}
	for _, b := range n.branches {
		st := inner
		for _, e := range b {
			st = e.forward(st)
		}
	}
	return reach{empty: in.empty && n.canEmpty(), consumed: in.consumed || n.canConsume()}
}

// backward is forward from the right: what may still be matched after
// each anchor.
func (n *ereNode) backward(in reach) reach {
	if n.anchor != 0 {
		n.after = n.after.union(in)
		return in
	}
	inner := in
	if n.repeats() && n.canConsume() {
		inner.consumed = true
	}
	for _, b := range n.branches {
		st := inner
		for i := len(b) - 1; i >= 0; i-- {
			st = b[i].backward(st)
		}
	}
	return reach{empty: in.empty && n.canEmpty(), consumed: in.consumed || n.canConsume()}
}

// repBounds are a repetition's least and most counts (-1: no most).
func repBounds(op string) (lo, hi int) {
	switch op {
	case "*":
		return 0, -1
	case "+":
		return 1, -1
	case "?":
		return 0, 1
	}
	inner := op[1 : len(op)-1]
	a, b, comma := strings.Cut(inner, ",")
	lo, _ = strconv.Atoi(a)
	switch {
	case !comma:
		hi = lo
	case b == "":
		hi = -1
	default:
		hi, _ = strconv.Atoi(b)
	}
	return lo, hi
}

// regExp is parse_reg_exp: branches separated by '|', each of which may
// be empty.
func (p *ereParser) regExp(nest int) ([][]*ereNode, error) {
	var branches [][]*ereNode
	for {
		b, err := p.branch(nest)
		if err != nil {
			return nil, err
		}
		branches = append(branches, b)
		if p.peek(0) != '|' {
			return branches, nil
		}
		p.i++
	}
}

// branch is parse_branch: expressions up to a '|', the end, or (in a
// group) its ')'.
func (p *ereParser) branch(nest int) ([]*ereNode, error) {
	var b []*ereNode
	for {
		c := p.peek(0)
		if c == -1 || c == '|' || nest > 0 && c == ')' {
			return b, nil
		}
		n, err := p.expression(nest)
		if err != nil {
			return nil, err
		}
		b = append(b, n)
	}
}

// emptyBranch: glibc's tree of the branch is empty (no expression, or
// only ones repeated {0} times).
func emptyBranch(b []*ereNode) bool {
	return !slices.ContainsFunc(b, func(e *ereNode) bool { return !e.dropped })
}

// emitBranches writes branches as Go's alternation. Where several ways to
// the longest match exist, glibc takes the one its nodes' order prefers
// (BASH_REMATCH's groups show which), and that is Go's order of the
// branches, except that an empty first branch comes after the second:
// glibc's first alternation node then has no left side, and its way on,
// the node after the alternation, is numbered after the second branch's
// nodes. nl: the whole expression can match a newline.
func (p *ereParser) emitBranches(sb *strings.Builder, branches [][]*ereNode, nl bool) error {
	texts := make([]string, len(branches))
	for i, b := range branches {
		var t strings.Builder
		for _, e := range b {
			if err := p.emit(&t, e, nl); err != nil {
				return err
			}
		}
		texts[i] = t.String()
	}
	if len(branches) > 1 && emptyBranch(branches[0]) && !emptyBranch(branches[1]) {
		// Go numbers groups as they are written: the first branch's
		// (repeated {0} times, they match nothing) stay first, in
		// front of the second branch, and the empty way comes after.
		first := texts[1]
		if texts[0] != "" {
			first = "(?:" + texts[0] + "){0}" + first
		}
		texts = append([]string{first, ""}, texts[2:]...)
	}
	sb.WriteString(strings.Join(texts, "|"))
	return nil
}

// emit writes one expression. glibc's '^' is the start of the string
// when nothing can have been matched before it, and, in an expression
// without groups, after a newline the expression itself matched when
// something must have been (its DFA takes a matched newline for a line's
// end whatever REG_NEWLINE says); '$' likewise with what is still to
// match. Otherwise, when the expression can match a newline, Go cannot
// say it.
func (p *ereParser) emit(sb *strings.Builder, n *ereNode, nl bool) error {
	var text string
	switch {
	case n.anchor != 0:
		r := n.before
		if n.anchor == '$' {
			r = n.after
		}
		switch {
		case !r.consumed || !nl:
			sb.WriteRune(n.anchor)
		case !r.empty && p.nsub == 0:
			sb.WriteString("(?m:" + string(n.anchor) + ")")
		default:
			// with groups, glibc checks the match its DFA found
			// against the anchors as REG_NEWLINE says, and on failure
			// goes on at the next start, passing over shorter matches
			return &UnsupportedEREError{What: string(n.anchor) + " inside an expression that can match a newline"}
		}
		return nil
	case n.group:
		var g strings.Builder
		g.WriteByte('(')
		if err := p.emitBranches(&g, n.branches, nl); err != nil {
			return err
		}
		g.WriteByte(')')
		text = g.String()
	default:
		text = n.text
	}
	for _, op := range n.reps {
		lo, hi := repBounds(op)
		if op[0] == '{' && (lo != hi || len(n.reps) > 1) && n.emptyGroupInside() {
			// glibc's copies of the group past the least count undo
			// an empty round's registers (update_regs), its star takes
			// such rounds: Go's last round is another group's text
			return &UnsupportedEREError{What: "a group that can match nothing, repeated " + op}
		}
		if op[0] == '{' && hi != 0 && hi != 1 && n.assertionInside() {
			// glibc's copies of an anchor's constraint lose their way
			// (b(^a){0,2} does not match "ba")
			return &UnsupportedEREError{What: "an anchor inside a group repeated " + op}
		}
	}
	for _, op := range n.reps {
		text = "(?:" + text + ")" + op
	}
	sb.WriteString(text)
	return nil
}

// expression is parse_expression: one atom and the repetitions after it.
func (p *ereParser) expression(nest int) (*ereNode, error) {
	n := &ereNode{}
	c := p.peek(0)
	p.i++
	switch c {
	case '(':
		p.nsub++
		k := p.nsub
		n.group = true
		n.branches = [][]*ereNode{nil}
		if p.peek(0) != ')' {
			var err error
			if n.branches, err = p.regExp(nest + 1); err != nil {
				return nil, err
			}
			if p.peek(0) != ')' {
				return nil, ErrBadERE // REG_EPAREN
			}
		}
		p.i++
		if p.completed == nil {
			p.completed = map[int]bool{}
		}
		p.completed[k] = true
	case '[':
		var b strings.Builder
		if err := p.bracket(&b); err != nil {
			return nil, err
		}
		n.text = b.String()
		rx, err := regexp.Compile(n.text)
		n.newline = err != nil || rx.MatchString("\n")
	case '*', '+', '?', '{':
		return nil, ErrBadERE // REG_BADRPT: nothing to repeat
	case '^', '$':
		// an anchor takes no repetition: a '*' after it starts the next
		// expression, an error
		n.anchor = c
		return n, nil
	case '.':
		n.text, n.newline = ".", true
		if p.bytes {
			n.text = "[^" + invalidBytes + "]"
		}
	case '\\':
		c2 := p.peek(0)
		if c2 == -1 {
			return nil, ErrBadERE // REG_EESCAPE: a backslash at the end
		}
		p.i++
		switch c2 {
		case '1', '2', '3', '4', '5', '6', '7', '8', '9':
			if !p.completed[int(c2-'0')] {
				return nil, ErrBadERE // REG_ESUBREG
			}
			p.unsupported("the back-reference \\" + string(c2))
			n.zeroWidth = true
			return n, nil
		case '<', '>':
			p.unsupported("the word anchor \\" + string(c2))
			n.zeroWidth = true
			return n, nil
		case 'b', 'B':
			if p.unicode {
				// Go's \b knows ASCII words only
				p.unsupported("\\" + string(c2) + " on a string with characters beyond ASCII")
			}
			n.text, n.zeroWidth = `\`+string(c2), true
			return n, nil
		case '`':
			n.text, n.zeroWidth = `\A`, true
			return n, nil
		case '\'':
			n.text, n.zeroWidth = `\z`, true
			return n, nil
		case 'w', 'W':
			n.text, n.newline = p.classBracket(c2 == 'W', "_", "alnum"), c2 == 'W'
		case 's', 'S':
			n.text, n.newline = p.classBracket(c2 == 'S', "", "space"), c2 == 's'
		default:
			n.text = regexp.QuoteMeta(string(c2))
			if p.icase && c2 >= 'a' && c2 <= 'z' {
				// jaiph-go patch: under REG_ICASE glibc folds the
				// string's characters but not an escaped one, so
				// an escaped lowercase letter matches nothing
				// (nocasematch: [[ d =~ \d ]] is false; \D
				// matches d and D)
				n.text = `[^\x00-\x{10FFFF}]`
			}
		}
	default:
		// a character, ')' at the top level and '}' among them
		n.text, n.newline = regexp.QuoteMeta(string(c)), c == '\n'
	}
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
				return nil, err
			}
			n.dropped = n.dropped || op == "{0}"
		default:
			return n, nil
		}
		n.reps = append(n.reps, op)
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
		p.unsupported("a repetition count above 1000 ({" + strconv.Itoa(top) + "})")
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
		if p.bytes {
			s += invalidBytes
		}
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
		if p.bytes {
			sb.WriteString(invalidBytes)
		}
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
