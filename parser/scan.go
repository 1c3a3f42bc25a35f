package parser

import (
	"strings"

	"github.com/jaiph-go/jaiph/internal/shellscan"
)

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

// quotedUntilClose returns first joined by newlines with lines[next:] up to
// and including the first line that holds a q not escaped by an odd number of
// backslashes, the index of that q in the joined text (-1 when no line holds
// one) and the index of the line after the last one used. A newline is not a
// backslash, so escapes never span lines: each line is scanned once, and the
// text is joined once (joining and rescanning per line was quadratic).
func quotedUntilClose(first string, lines []string, next int, q byte) (string, int, int) {
	if end := shellscan.ClosingQuote(first, q); end >= 0 || next >= len(lines) {
		return first, end, next
	}
	parts := []string{first}
	off, end := len(first), -1
	for end < 0 && next < len(lines) {
		l := lines[next]
		next++
		parts = append(parts, l)
		if e := shellscan.ClosingQuote(l, q); e >= 0 {
			end = off + 1 + e
		}
		off += 1 + len(l)
	}
	return strings.Join(parts, "\n"), end, next
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' }

// firstWord splits s at the first run of white space.
func firstWord(s string) (string, string) {
	i := strings.IndexAny(s, " \t")
	if i < 0 {
		return s, ""
	}
	return s[:i], trim(s[i:])
}

// verbatimLines returns the lines after line i that belong to its command
// as data, kept verbatim, and the index of the last one: the rest of a
// quoted string line i leaves open (up to the line that closes it), else
// the bodies of the here-documents line i opens (heredocBodies). bash
// reads a string's lines as they are: trimmed and re-indented they would
// lose their trailing blanks and turn leading tabs into spaces. When the
// lines continue a string, quoted is set: line i's own trailing blanks are
// in the string too (head is the line without its indentation), else head
// is the line trimmed.
func (p *parser) verbatimLines(i int) (head string, body []string, last int) {
	if body, last := p.quotedLines(i); len(body) > 0 {
		return strings.TrimLeft(p.lines[i], " \t"), body, last
	}
	body, last = p.heredocBodies(i)
	return trim(p.lines[i]), body, last
}

// quotedLines returns the lines after line i up to the one that closes the
// quoted string line i ends in, and the index of that line; none when line
// i closes its strings, or when no later line does (the shell check then
// reports the open quote where it is).
func (p *parser) quotedLines(i int) ([]string, int) {
	open := shellscan.QuoteAfter(p.lines[i], 0)
	if open == 0 {
		return nil, i
	}
	for j := i + 1; j < len(p.lines); j++ {
		if open = shellscan.QuoteAfter("\n"+p.lines[j], open); open == 0 {
			return p.lines[i+1 : j+1], j
		}
	}
	return nil, i
}

// heredocBodies returns the lines after line i that are the bodies of the
// here-documents line i opens, kept verbatim (a here-document's text is
// data, not indentation), each ended by its delimiter line, and the index
// of the last line used. A delimiter line matches once trimmed, as the
// reference trims body lines; it is emitted without the indentation so that
// the shell sees it. A delimiter split by a backslash-newline (EO\ then F)
// is an error: bash joins the lines of an unquoted body before it looks
// for the delimiter, the bodies here are whole lines (and the rest of the
// block is then likely a body: no "unterminated" noise follows).
func (p *parser) heredocBodies(i int) ([]string, int) {
	lines := p.lines
	var body []string
	for _, h := range shellscan.Heredocs(lines[i]) {
		for i+1 < len(lines) {
			i++
			if trim(lines[i]) == h.Delim {
				body = append(body, h.Delim)
				break
			}
			if !h.Quoted && splitDelimiter(lines[i:], h.Delim) {
				p.errorAtEOF(i+1, 1, "the here-document delimiter "+h.Delim+" is split by a backslash-newline (bash joins the lines and ends the here-document there): write it on one line")
			}
			body = append(body, lines[i])
		}
	}
	return body, i
}

// splitDelimiter reports whether lines[0], ended by a backslash, joined
// with the lines after it while each ends by one, is the delimiter.
func splitDelimiter(lines []string, delim string) bool {
	joined := ""
	for _, l := range lines {
		n := len(l) - len(strings.TrimRight(l, "\\"))
		if n%2 == 0 {
			return joined != "" && trim(joined+l) == delim
		}
		joined += l[:len(l)-1]
		if !strings.HasPrefix(delim, strings.TrimLeft(joined, " \t")) {
			return false
		}
	}
	return false
}
