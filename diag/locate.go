package diag

import "strings"

// Locate completes the span of each diagnostic of the file whose source
// lines (as the parser split them) lines are: from the span's start, or
// else Line:Col,
//   - to the name the message quotes first, when the line holds it there
//     or after as a whole name, or else as an alias before its dot (`run
//     missing` reported at `run` underlines `missing`);
//   - else to the token there: blanks skipped (column 1 of an indented
//     step), a name with its dots, a quoted string, or a run of non-blanks.
//
// A span past the end of its line is empty, at the line's end.
func Locate(ds []*Diagnostic, lines []string) {
	for _, d := range ds {
		if d.Span.EndCol > 0 || d.Line < 1 || d.Line > len(lines) && d.Span.Line == 0 {
			continue
		}
		at := d.At()
		if at.Line < 1 || at.Line > len(lines) {
			continue
		}
		l := lines[at.Line-1]
		from := min(max(at.Col-1, 0), len(l))
		if name := QuotedName(d.Message); name != "" {
			i := tokenIndex(l, name, from, false)
			if i < 0 {
				i = tokenIndex(l, name, from, true) // an alias: `nolib` of nolib.build
			}
			if i >= 0 {
				d.Span = Span{at.Line, i + 1, i + len(name) + 1}
				continue
			}
		}
		for from < len(l) && (l[from] == ' ' || l[from] == '\t') {
			from++
		}
		to := from
		switch {
		case to == len(l):
		case isNameByte(l[to]):
			for to < len(l) && (isNameByte(l[to]) || l[to] == '.' && to+1 < len(l) && isNameByte(l[to+1])) {
				to++
			}
		case l[to] == '"' || l[to] == '\'':
			q := l[to]
			for to++; to < len(l) && l[to] != q; to++ {
				if l[to] == '\\' && q == '"' {
					to++
				}
			}
			to = min(to+1, len(l))
		default:
			for to < len(l) && l[to] != ' ' && l[to] != '\t' {
				to++
			}
		}
		d.Span = Span{at.Line, from + 1, to + 1}
	}
}

// QuotedName is the first "…" of a message when it is a name (a REF such
// as alias.name, a channel), else "": what the diagnostic is about.
func QuotedName(msg string) string {
	head, rest, ok := strings.Cut(msg, `"`)
	if !ok || strings.Contains(head, ": ") {
		return "" // a quote after `: ` is inside quoted source text (`statement: echo "x"`)
	}
	name, _, ok := strings.Cut(rest, `"`)
	if !ok || name == "" {
		return ""
	}
	for i := 0; i < len(name); i++ {
		if !isNameByte(name[i]) && name[i] != '.' {
			return ""
		}
	}
	return name
}

func isNameByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// tokenIndex is the first whole-token occurrence of tok in l at or after
// from (or, with dotted, one followed by a dot), or -1.
func tokenIndex(l, tok string, from int, dotted bool) int {
	for from <= len(l) {
		i := strings.Index(l[from:], tok)
		if i < 0 {
			return -1
		}
		i += from
		end := i + len(tok)
		whole := end == len(l) || !isNameByte(l[end]) && l[end] != '.'
		if dotted {
			whole = end < len(l) && l[end] == '.'
		}
		if (i == 0 || !isNameByte(l[i-1]) && l[i-1] != '.') && whole {
			return i
		}
		from = i + 1
	}
	return -1
}
