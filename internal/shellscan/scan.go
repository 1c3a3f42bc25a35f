package shellscan

import "strings"

// Mode selects the quoting rules of a Scanner (see the package comment).
type Mode uint8

const (
	// ANSIC makes $'…' a string whose backslashes escape the next byte.
	ANSIC Mode = 1 << iota
	// Comments ends the text at an unquoted # at its start or after a blank
	// or `;`.
	Comments
	// EscapeOutside makes an unquoted backslash quote the next byte.
	EscapeOutside
	// EscapeInSingle makes a backslash inside '…' escape the next byte.
	EscapeInSingle
	// ReportDouble reports the bytes inside "…" too (with inDouble set).
	ReportDouble
	// NoSingle makes ' an ordinary byte: only "…" quotes.
	NoSingle
)

// The variants, named by what they are for.
const (
	BodyLine     = ANSIC | Comments | EscapeOutside
	ShellText    = ANSIC | EscapeOutside | ReportDouble
	Operators    = EscapeInSingle
	RecoverBlock = NoSingle
)

// Scanner walks the bytes of a text that its mode does not hide: quote
// characters, quoted text (except "…" with ReportDouble), escaped bytes and
// comments are skipped.
type Scanner struct {
	s        string
	i        int
	mode     Mode
	inDouble bool
}

// New returns a scanner over s that starts outside quotes.
func New(s string, m Mode) Scanner { return Scanner{s: s, mode: m} }

// Next returns the index of the next reported byte and whether it is inside
// "…"; ok is false at the end of the text or at a comment.
func (sc *Scanner) Next() (i int, inDouble, ok bool) {
	s := sc.s
	for i = sc.i; i < len(s); i++ {
		c := s[i]
		if sc.inDouble {
			switch c {
			case '\\':
				i++
			case '"':
				sc.inDouble = false
			default:
				if sc.mode&ReportDouble != 0 {
					sc.i = i + 1
					return i, true, true
				}
			}
			continue
		}
		switch c {
		case '\\':
			if sc.mode&EscapeOutside != 0 {
				i++
				continue
			}
		case '\'':
			if sc.mode&NoSingle != 0 {
				break
			}
			esc := sc.mode&EscapeInSingle != 0 || sc.mode&ANSIC != 0 && i > 0 && s[i-1] == '$'
			i = closeSingle(s, i+1, esc)
			continue
		case '"':
			sc.inDouble = true
			continue
		case '#':
			if sc.mode&Comments != 0 && (i == 0 || s[i-1] == ' ' || s[i-1] == '\t' || s[i-1] == ';') {
				sc.i = len(s)
				return len(s), false, false
			}
		}
		sc.i = i + 1
		return i, false, true
	}
	sc.i = len(s)
	return len(s), false, false
}

// Seek makes the scanner continue at index i in its current quote state.
func (sc *Scanner) Seek(i int) { sc.i = i }

// closeSingle returns the index of the ' closing a string whose text starts
// at i (a backslash escapes the next byte when esc), or len(s).
func closeSingle(s string, i int, esc bool) int {
	if !esc {
		if j := strings.IndexByte(s[i:], '\''); j >= 0 {
			return i + j
		}
		return len(s)
	}
	for ; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case '\'':
			return i
		}
	}
	return len(s)
}

// BraceDelta counts `{` minus `}` on one Jaiph body line (BodyLine rules).
func BraceDelta(line string) int {
	if strings.IndexAny(line, "{}") < 0 {
		return 0 // most lines: skip the scan
	}
	delta := 0
	sc := New(line, BodyLine)
	for {
		i, _, ok := sc.Next()
		if !ok {
			return delta
		}
		switch line[i] {
		case '{':
			delta++
		case '}':
			delta--
		}
	}
}

// IndexOperator returns the index of the first op (`<-`, `->`, ` recover `,
// …) in s outside quotes under the Operators rules, or -1.
func IndexOperator(s, op string) int {
	if !strings.Contains(s, op) {
		return -1
	}
	sc := New(s, Operators)
	for {
		i, _, ok := sc.Next()
		if !ok {
			return -1
		}
		if strings.HasPrefix(s[i:], op) {
			return i
		}
	}
}

// IndexSend returns the index of the first `<-` in s that is a send
// operator (Operators rules), or -1. Unlike IndexOperator it knows the
// shell's own uses of those two bytes, where a send cannot be: the tail of
// the here-document operator `<<-` (and of `<<<-word`), and `<` before a
// negative operand inside arithmetic (`(( ))`, `$(( ))`, `$[ ]`) or a
// `[[ ]]` test. The reference took every one of them for a send.
func IndexSend(s string) int {
	if !strings.Contains(s, "<-") {
		return -1
	}
	// arith counts the open parentheses of an arithmetic context (its
	// opening `((` counts two); brackets the open [ of `$[ ]`.
	arith, brackets, test := 0, 0, false
	sc := New(s, Operators)
	for {
		i, _, ok := sc.Next()
		if !ok {
			return -1
		}
		next := byte(0)
		if i+1 < len(s) {
			next = s[i+1]
		}
		switch c := s[i]; {
		case c == '(' && arith > 0:
			arith++
		case c == '(' && next == '(':
			arith = 2
			sc.Seek(i + 2)
		case c == ')' && arith > 0:
			arith--
		case c == '$' && next == '[':
			brackets++
			sc.Seek(i + 2)
		case c == '[' && brackets > 0:
			brackets++
		case c == ']' && brackets > 0:
			brackets--
		case c == '[' && next == '[' && !test && (i == 0 || isBlankOrOp(s[i-1])):
			test = true
			sc.Seek(i + 2)
		case c == ']' && next == ']' && test:
			test = false
			sc.Seek(i + 2)
		case c == '<' && next == '-':
			if arith == 0 && brackets == 0 && !test && (i == 0 || s[i-1] != '<') {
				return i
			}
		}
	}
}

// isBlankOrOp reports whether c can come right before a word that starts a
// command (`[[` after `if `, `;`, `&&`, `(`, …).
func isBlankOrOp(c byte) bool {
	return strings.IndexByte(" \t\n;&|(!{", c) >= 0
}

// ClosingQuote returns the index of the first q in s that is not escaped by
// an odd number of backslashes (a Jaiph string, D13), or -1.
func ClosingQuote(s string, q byte) int {
	backslashes := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			backslashes++
			continue
		case q:
			if backslashes%2 == 0 {
				return i
			}
		}
		backslashes = 0
	}
	return -1
}

// Substitutions returns the inner text of every `$(` … `)` (not `$((`)
// outside single quotes, double quotes included (ShellText rules), outermost
// first, recursively: the fragments the keyword-first guard checks.
func Substitutions(s string) []string {
	if !strings.Contains(s, "$(") {
		return nil
	}
	var out []string
	sc := New(s, ShellText)
	for {
		i, _, ok := sc.Next()
		if !ok {
			return out
		}
		if s[i] != '$' || i+1 >= len(s) || s[i+1] != '(' {
			continue
		}
		if i+2 < len(s) && s[i+2] == '(' {
			sc.Seek(i + 3)
			continue
		}
		end := matchParen(s, i+2)
		inner := s[i+2 : end]
		out = append(out, inner)
		out = append(out, Substitutions(inner)...)
		sc.Seek(end + 1)
	}
}

// matchParen returns the index of the `)` closing a group whose content
// starts at i (ShellText rules; `(` and `)` count outside "…", `$(` nests
// inside it), or len(s) when it is unclosed.
func matchParen(s string, i int) int {
	depth := 1
	sc := New(s, ShellText)
	sc.Seek(i)
	for {
		i, inDouble, ok := sc.Next()
		if !ok {
			return len(s)
		}
		switch c := s[i]; {
		case inDouble:
			if c == '$' && i+1 < len(s) && s[i+1] == '(' {
				sc.Seek(matchParen(s, i+2) + 1)
			}
		case c == '(':
			depth++
		case c == ')':
			depth--
			if depth == 0 {
				return i
			}
		}
	}
}

// SplitStatements splits the text of a `recover { … }` block at `;` and
// newlines outside "…" (RecoverBlock rules, docs/language.md#recover), trims each
// statement and drops empty ones.
func SplitStatements(text string) []string {
	var out []string
	add := func(s string) {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, s)
		}
	}
	start := 0
	sc := New(text, RecoverBlock)
	for {
		i, _, ok := sc.Next()
		if !ok {
			break
		}
		if text[i] == ';' || text[i] == '\n' {
			add(text[start:i])
			start = i + 1
		}
	}
	add(text[start:])
	return out
}

// Heredoc is a here-document operator found on a shell line.
type Heredoc struct {
	Delim string // the delimiter word with its quotes removed
	Dash  bool   // <<- (leading tabs are stripped from body and delimiter)
	// Quoted: the word had quotes or a backslash, so the body is text
	// (no expansions, backslash-newlines kept)
	Quoted bool
}

// Heredocs returns the here-documents a shell line opens, in order: `<<`
// (or `<<-`) outside quotes, comments and `(( ))`, not `<<<` (BodyLine
// rules).
func Heredocs(line string) []Heredoc {
	if !strings.Contains(line, "<<") {
		return nil
	}
	var out []Heredoc
	arith := 0
	sc := New(line, BodyLine)
	for {
		i, _, ok := sc.Next()
		if !ok {
			return out
		}
		switch line[i] {
		case '(':
			if i+1 < len(line) && line[i+1] == '(' {
				arith++
				sc.Seek(i + 2)
			}
		case ')':
			if arith > 0 && i+1 < len(line) && line[i+1] == ')' {
				arith--
				sc.Seek(i + 2)
			}
		case '<':
			if arith > 0 || i+1 >= len(line) || line[i+1] != '<' {
				continue
			}
			if i+2 < len(line) && line[i+2] == '<' {
				sc.Seek(i + 3) // a here-string
				continue
			}
			h, end := heredocWord(line, i+2)
			if h.Delim != "" || h.Quoted {
				// a quoted empty word (<<"" or <<-'') is a
				// delimiter: the body ends at the first empty line
				out = append(out, h)
			}
			sc.Seek(end)
		}
	}
}

// heredocWord reads the `[-] word` after `<<` at i and returns it with the
// index after it.
func heredocWord(line string, j int) (Heredoc, int) {
	h := Heredoc{}
	if j < len(line) && line[j] == '-' {
		h.Dash = true
		j++
	}
	for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
		j++
	}
	var word strings.Builder
	q := byte(0)
	for ; j < len(line); j++ {
		d := line[j]
		switch {
		case q != 0:
			if d == q {
				q = 0
			} else {
				word.WriteByte(d)
			}
		case d == '\'' || d == '"':
			q = d
			h.Quoted = true
		case d == '\\' && j+1 < len(line):
			j++
			h.Quoted = true
			word.WriteByte(line[j])
		case strings.IndexByte(" \t;&|<>()", d) >= 0:
			h.Delim = word.String()
			return h, j
		default:
			word.WriteByte(d)
		}
	}
	h.Delim = word.String()
	return h, j
}

// EndsInQuote reports whether s, shell text read under the BodyLine rules,
// ends inside '…', $'…' or "…": a string that goes on on the next line.
func EndsInQuote(s string) bool { return QuoteAfter(s, 0) != 0 }

// QuoteAfter scans s, starting inside the quote open (a single quote,
// '"', '$' for $'…', 0 for none), and returns the quote open at its end: a
// multi-line string's lines are scanned once each, in turn, each after a
// newline. Every body line goes through it (jaiph check's cost): one pass,
// byte by byte, through a table of the bytes that matter.
func QuoteAfter(s string, open byte) byte {
	i := 0
	if open == 0 {
		// most lines: no byte that matters, or none before the end
		for i < len(s) && !quoteScanBytes[s[i]] {
			i++
		}
		if i == len(s) {
			return 0
		}
	}
	for {
		switch open {
		case '\'', '$':
			j := closeSingle(s, i, open == '$')
			if j >= len(s) {
				return open
			}
			i, open = j+1, 0
		case '"':
			for i < len(s) && s[i] != '"' {
				if s[i] == '\\' {
					i++
				}
				i++
			}
			if i >= len(s) {
				return '"'
			}
			i, open = i+1, 0
		}
		for ; i < len(s); i++ {
			c := s[i]
			if !quoteScanBytes[c] {
				continue
			}
			switch c {
			case '\\':
				i++
				continue
			case '\'':
				open = '\''
				if i > 0 && s[i-1] == '$' {
					open = '$'
				}
			case '"':
				open = '"'
			case '#':
				if i == 0 || strings.IndexByte(" \t;\n", s[i-1]) >= 0 {
					// a comment to the end of its line
					nl := strings.IndexByte(s[i:], '\n')
					if nl < 0 {
						return 0
					}
					i += nl
				}
				continue
			}
			i++ // past the opening quote
			break
		}
		if open == 0 {
			return 0
		}
	}
}

// quoteScanBytes are the bytes QuoteAfter stops at outside quotes.
var quoteScanBytes = [256]bool{'\\': true, '\'': true, '"': true, '#': true}
