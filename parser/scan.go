package parser

import "strings"

// splitLines splits source on \r?\n, the reference's line model.
func splitLines(src string) []string {
	lines := strings.Split(src, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// trim removes the white space the reference's String.trim() removes.
func trim(s string) string { return strings.TrimSpace(s) }

// indentCol returns the 1-based column of the first non-space character.
func indentCol(raw string) int {
	return len(raw) - len(strings.TrimLeft(raw, " \t")) + 1
}

// colOf returns the 1-based column of the first occurrence of word in raw, or
// fallback when it does not occur.
func colOf(raw, word string, fallback int) int {
	if i := strings.Index(raw, word); i >= 0 {
		return i + 1
	}
	return fallback
}

// braceDelta counts `{` minus `}` on one line, ignoring braces inside single
// quotes, double quotes, $'…' strings, after a backslash and in comments (D13).
// Quote state does not carry over to the next line.
func braceDelta(line string) int {
	delta := 0
	inSingle, inDouble, inANSI := false, false, false
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case inSingle:
			if c == '\'' {
				inSingle = false
			}
		case inANSI:
			if c == '\\' {
				i++
			} else if c == '\'' {
				inANSI = false
			}
		case inDouble:
			if c == '\\' {
				i++
			} else if c == '"' {
				inDouble = false
			}
		default:
			switch c {
			case '\\':
				i++
			case '\'':
				if i > 0 && line[i-1] == '$' {
					inANSI = true
				} else {
					inSingle = true
				}
			case '"':
				inDouble = true
			case '#':
				if i == 0 || line[i-1] == ' ' || line[i-1] == '\t' || line[i-1] == ';' {
					return delta
				}
			case '{':
				delta++
			case '}':
				delta--
			}
		}
	}
	return delta
}

// closingDQ returns the index of the first `"` in s that is not escaped by an
// odd number of backslashes (D13), or -1.
func closingDQ(s string) int {
	backslashes := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '\\':
			backslashes++
			continue
		case '"':
			if backslashes%2 == 0 {
				return i
			}
		}
		backslashes = 0
	}
	return -1
}

// closingQuote returns the index of the first q in s not escaped by an odd
// number of backslashes, or -1.
func closingQuote(s string, q byte) int {
	if q == '"' {
		return closingDQ(s)
	}
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

// quotedUntilClose returns first joined by newlines with lines[next:] up to
// and including the first line that holds a q not escaped by an odd number of
// backslashes, the index of that q in the joined text (-1 when no line holds
// one) and the index of the line after the last one used. A newline is not a
// backslash, so escapes never span lines: each line is scanned once, and the
// text is joined once (joining and rescanning per line was quadratic).
func quotedUntilClose(first string, lines []string, next int, q byte) (string, int, int) {
	if end := closingQuote(first, q); end >= 0 || next >= len(lines) {
		return first, end, next
	}
	parts := []string{first}
	off, end := len(first), -1
	for end < 0 && next < len(lines) {
		l := lines[next]
		next++
		parts = append(parts, l)
		if e := closingQuote(l, q); e >= 0 {
			end = off + 1 + e
		}
		off += 1 + len(l)
	}
	return strings.Join(parts, "\n"), end, next
}

// indexOutsideQuotes returns the index of the first occurrence of op in s that
// is outside single and double quotes (backslash escapes are honoured only
// inside quotes), or -1.
func indexOutsideQuotes(s, op string) int {
	inSingle, inDouble := false, false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case inSingle:
			if c == '\\' {
				i++
			} else if c == '\'' {
				inSingle = false
			}
		case inDouble:
			if c == '\\' {
				i++
			} else if c == '"' {
				inDouble = false
			}
		case c == '\'':
			inSingle = true
		case c == '"':
			inDouble = true
		case strings.HasPrefix(s[i:], op):
			return i
		}
	}
	return -1
}

// SplitSend detects the send form `REF <- [command]` (language §5.10): the
// first `<-` outside quotes whose preceding text, trimmed, is exactly a REF.
func SplitSend(s string) (ref, cmd string, ok bool) {
	i := indexOutsideQuotes(s, "<-")
	if i < 0 {
		return "", "", false
	}
	ref = trim(s[:i])
	if !isRef(ref) {
		return "", "", false
	}
	return ref, strings.TrimLeft(s[i+2:], " \t"), true
}

// HasSendOperator reports whether s contains `<-` outside quotes.
func HasSendOperator(s string) bool { return indexOutsideQuotes(s, "<-") >= 0 }

func isSpace(c byte) bool { return c == ' ' || c == '\t' }

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentChar(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// leadingIdent returns the identifier at the start of s and the rest.
func leadingIdent(s string) (string, string) {
	if s == "" || !isIdentStart(s[0]) {
		return "", s
	}
	i := 1
	for i < len(s) && isIdentChar(s[i]) {
		i++
	}
	return s[:i], s[i:]
}

func isIdent(s string) bool {
	id, rest := leadingIdent(s)
	return id != "" && rest == ""
}

// isRef reports whether s is `name` or `alias.name`.
func isRef(s string) bool {
	a, b, dotted := strings.Cut(s, ".")
	if !dotted {
		return isIdent(s)
	}
	return isIdent(a) && isIdent(b)
}

// firstWord splits s at the first run of white space.
func firstWord(s string) (string, string) {
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, ""
	}
	return s[:i], trim(s[i:])
}

// hasWordPrefix reports whether s starts with word followed by white space.
func hasWordPrefix(s, word string) bool {
	return len(s) > len(word) && strings.HasPrefix(s, word) && isSpace(s[len(word)])
}

// matchAssign matches `^IDENT\s*=\s*(.+)$` (or `\s+=` when spaceBefore) and
// returns the name, the right-hand side and its byte offset in s.
func matchAssign(s string, spaceBefore bool) (name, rhs string, off int, ok bool) {
	name, rest := leadingIdent(s)
	if name == "" {
		return "", "", 0, false
	}
	ws := len(rest) - len(strings.TrimLeft(rest, " \t"))
	if spaceBefore && ws == 0 {
		return "", "", 0, false
	}
	rest = rest[ws:]
	if !strings.HasPrefix(rest, "=") {
		return "", "", 0, false
	}
	after := rest[1:]
	rhs = strings.TrimLeft(after, " \t")
	if rhs == "" {
		return "", "", 0, false
	}
	off = len(s) - len(rhs)
	return name, rhs, off, true
}

// matchIfHeader matches `^if\s+<neg><kw>\s+(.+?)\s*;\s*then$` where neg is
// `!\s*` (or `!\s+` for the shell form, kw empty). It returns the captured
// middle text.
func matchIfHeader(t string, negated bool, kw string) (string, bool) {
	if !hasWordPrefix(t, "if") {
		return "", false
	}
	rest := strings.TrimLeft(t[2:], " \t")
	if negated {
		if !strings.HasPrefix(rest, "!") {
			return "", false
		}
		after := rest[1:]
		rest = strings.TrimLeft(after, " \t")
		if kw == "" && len(rest) == len(after) {
			return "", false // shell form needs white space after `!`
		}
	}
	if kw != "" {
		if !hasWordPrefix(rest, kw) {
			return "", false
		}
		rest = strings.TrimLeft(rest[len(kw):], " \t")
	}
	if !strings.HasSuffix(rest, "then") {
		return "", false
	}
	body := strings.TrimRight(rest[:len(rest)-4], " \t")
	if !strings.HasSuffix(body, ";") {
		return "", false
	}
	body = strings.TrimRight(body[:len(body)-1], " \t")
	if body == "" {
		return "", false
	}
	return body, true
}

// heredoc is a here-document operator found on a shell line.
type heredoc struct {
	delim string // the delimiter word with its quotes removed
	dash  bool   // <<- (leading tabs are stripped from body and delimiter)
}

// heredocs returns the here-documents a shell line opens, in order: `<<`
// (or `<<-`) outside quotes, comments and `(( ))`, not `<<<`.
func heredocs(line string) []heredoc {
	var out []heredoc
	inSingle, inDouble, arith := false, false, 0
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case inSingle:
			if c == '\'' {
				inSingle = false
			}
			continue
		case inDouble:
			if c == '\\' {
				i++
			} else if c == '"' {
				inDouble = false
			}
			continue
		}
		switch c {
		case '\\':
			i++
		case '\'':
			inSingle = true
		case '"':
			inDouble = true
		case '#':
			if i == 0 || line[i-1] == ' ' || line[i-1] == '\t' || line[i-1] == ';' {
				return out
			}
		case '(':
			if i+1 < len(line) && line[i+1] == '(' {
				arith++
				i++
			}
		case ')':
			if arith > 0 && i+1 < len(line) && line[i+1] == ')' {
				arith--
				i++
			}
		case '<':
			if arith > 0 || i+1 >= len(line) || line[i+1] != '<' {
				continue
			}
			if i+2 < len(line) && line[i+2] == '<' {
				i += 2 // a here-string
				continue
			}
			j := i + 2
			h := heredoc{}
			if j < len(line) && line[j] == '-' {
				h.dash = true
				j++
			}
			for j < len(line) && (line[j] == ' ' || line[j] == '\t') {
				j++
			}
			var word strings.Builder
			q := byte(0)
		word:
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
				case d == '\\' && j+1 < len(line):
					j++
					word.WriteByte(line[j])
				case strings.IndexByte(" \t;&|<>()", d) >= 0:
					break word
				default:
					word.WriteByte(d)
				}
			}
			if word.Len() > 0 {
				h.delim = word.String()
				out = append(out, h)
			}
			i = j - 1
		}
	}
	return out
}

// heredocBodies returns the lines after line i that are the bodies of the
// here-documents line i opens, kept verbatim (a here-document's text is
// data, not indentation), each ended by its delimiter line, and the index
// of the last line used. A delimiter line matches once trimmed, as the
// reference trims body lines; it is emitted without the indentation so that
// the shell sees it.
func heredocBodies(lines []string, i int) ([]string, int) {
	var body []string
	for _, h := range heredocs(lines[i]) {
		for i+1 < len(lines) {
			i++
			if trim(lines[i]) == h.delim {
				body = append(body, h.delim)
				break
			}
			body = append(body, lines[i])
		}
	}
	return body, i
}
