package lsp

import (
	"strings"
	"unicode/utf16"

	"github.com/jaiph-go/jaiph/diag"
)

const bom = "\xef\xbb\xbf"

// text is a document split the way the parser splits it: on \n, with a
// trailing \r dropped, and without a leading byte order mark (which the
// parser drops too, so line 1's byte columns start after it).
type text struct {
	lines []string
	bom   bool
}

func newText(src string) *text {
	t := &text{}
	if strings.HasPrefix(src, bom) {
		t.bom = true
		src = src[len(bom):]
	}
	t.lines = strings.Split(src, "\n")
	for i, l := range t.lines {
		t.lines[i] = strings.TrimSuffix(l, "\r")
	}
	return t
}

func (t *text) line(i int) string {
	if i < 0 || i >= len(t.lines) {
		return ""
	}
	return t.lines[i]
}

// pos converts a 0-based line and byte offset into an LSP position, whose
// character counts UTF-16 code units.
func (t *text) pos(line, b int) Position {
	l := t.line(line)
	if b > len(l) {
		b = len(l)
	}
	n := 0
	for _, r := range l[:b] {
		// An invalid byte ranges as U+FFFD: one unit, as editors decode it.
		n += utf16.RuneLen(r)
	}
	if line == 0 && t.bom {
		n++
	}
	return Position{Line: line, Character: n}
}

// offset converts an LSP position into a byte offset in its line (clamped
// to the line; a position inside a surrogate pair rounds down).
func (t *text) offset(p Position) int {
	l := t.line(p.Line)
	units := p.Character
	if p.Line == 0 && t.bom {
		units--
	}
	n := 0
	for i, r := range l {
		w := utf16.RuneLen(r)
		if n+w > units {
			return i
		}
		n += w
	}
	return len(l)
}

// rng is the range of bytes [from, to) of a line.
func (t *text) rng(line, from, to int) Range {
	return Range{Start: t.pos(line, from), End: t.pos(line, to)}
}

// spanRange is the range of a diagnostic's token (1-based line, byte
// columns, the end exclusive: diag.Span, as diag.Locate found it).
func (t *text) spanRange(sp diag.Span) Range {
	return t.rng(sp.Line-1, max(sp.Col-1, 0), max(sp.EndCol-1, sp.Col-1, 0))
}
