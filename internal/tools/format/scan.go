package format

import (
	"strings"
	"unicode"

	"github.com/jaiph-go/jaiph/internal/shellscan"
)

// lineInfo is what the scanner learnt about one line of a body.
type lineInfo struct {
	verbatim bool // starts inside a string or is a here-document line: never changed
	inString bool // starts inside a string
	indent   int  // nesting level of the line (valid when !verbatim)
	// cont: the line continues the previous one (which ended in an unquoted
	// backslash); glued: that backslash directly followed a non-blank byte,
	// so the line's leading white space separates words (or its absence
	// joins them) and must be kept as it is.
	cont, glued bool
	openQuote   bool // the line ends inside a string: its trailing blanks are text
}

// scanner walks the lines of a body with the quote, here-document and
// nesting state that carries from one line to the next. It follows bash's
// quoting (the BodyLine rules of internal/shellscan), but shellscan's
// scanners see one line at a time and cannot say that a line ends inside
// '…' or `…`, which is what decides the lines that must stay verbatim;
// here-document operators still come from shellscan.Heredocs.
type scanner struct {
	quote byte // 0, '\'', '"', '$' ($'…') or '`' while inside a string
	// nest are the substitutions opened inside double quotes ("$(…)",
	// "${…}", "`…`"), innermost last: quotes start afresh inside them, and
	// the string goes on after them.
	nest     []nested
	heredocs []string // delimiters of the open here-documents, in order
	stack    []string // open constructs: "{", "(", "if", "do", "case", "pat", "cfg", "["
	cont     bool     // the previous line ended in an unquoted backslash
	glued    bool
}

// nested is one substitution inside a double-quoted string: its closing
// byte, the opening byte that nests within it, how deep that nesting is.
type nested struct {
	open, close byte
	depth       int
}

func (s *scanner) top() string {
	if len(s.stack) == 0 {
		return ""
	}
	return s.stack[len(s.stack)-1]
}

func (s *scanner) push(k string) { s.stack = append(s.stack, k) }

// pop closes the innermost construct of kind k, if one is open. The
// first entry is the item's own block, which only its closing line ends
// (so a stray `}` in `echo }` does not outdent the rest of the body).
func (s *scanner) pop(k string) {
	for i := len(s.stack) - 1; i >= 1; i-- {
		if s.stack[i] == k {
			s.stack = s.stack[:i]
			return
		}
	}
}

// line scans one line and returns what the formatter may do with it.
func (s *scanner) line(raw string) lineInfo {
	if len(s.heredocs) > 0 {
		if strings.TrimSpace(raw) == s.heredocs[0] {
			s.heredocs = s.heredocs[1:]
		}
		return lineInfo{verbatim: true, openQuote: true}
	}
	info := lineInfo{indent: len(s.stack), cont: s.cont, glued: s.glued}
	s.cont, s.glued = false, false
	if s.quote != 0 || len(s.nest) > 0 {
		info.verbatim, info.inString = true, true
	}
	if strings.TrimSpace(raw) == "config {" && s.quote == 0 {
		s.push("cfg")
		return info
	}
	leading := !info.cont && s.quote == 0
	cmdPos := !info.cont
	dedent := func(n int) {
		if leading && n < info.indent {
			info.indent = max(n, 0)
		}
	}
	comment := false
	i, rest := 0, 0 // rest: where the text outside the string this line started in begins
	for i < len(raw) {
		c := raw[i]
		if s.quote != 0 {
			i = s.inQuote(raw, i)
			if info.verbatim && rest == 0 && s.quote == 0 && len(s.nest) == 0 {
				rest = i
			}
			continue
		}
		if n := len(s.nest); n > 0 {
			i = s.inNested(raw, i, &s.nest[n-1])
			if info.verbatim && rest == 0 && s.quote == 0 && len(s.nest) == 0 {
				rest = i
			}
			continue
		}
		switch {
		case c == ' ' || c == '\t':
			i++
			continue
		case c == '\\':
			if i+1 >= len(raw) {
				s.cont = true
				s.glued = i > 0 && raw[i-1] != ' ' && raw[i-1] != '\t'
				i++
				continue
			}
			i += 2
			leading, cmdPos = false, false
			continue
		case c == '\'' || c == '"' || c == '`':
			s.quote = c
			i++
			leading, cmdPos = false, false
			continue
		case c == '$' && i+1 < len(raw) && raw[i+1] == '\'':
			s.quote = '$'
			i += 2
			leading, cmdPos = false, false
			continue
		case c == '#' && (i == 0 || strings.IndexByte(" \t;&|()", raw[i-1]) >= 0):
			i, comment = len(raw), true
			continue
		case c == '{' || c == '(' || c == '[' && s.inConfig():
			s.push(string(c))
			leading, cmdPos = false, c != '['
		case c == '}':
			if s.top() == "cfg" {
				s.pop("cfg")
			} else {
				s.pop("{")
			}
			dedent(len(s.stack))
		case c == ']' && s.top() == "[":
			s.pop("[")
			dedent(len(s.stack))
		case c == ')':
			switch s.top() {
			case "(":
				s.pop("(")
				dedent(len(s.stack))
			case "case":
				s.push("pat")
				leading = false
			}
			cmdPos = true
		case c == ';' || c == '&' || c == '|':
			if c == ';' && i+1 < len(raw) && raw[i+1] == ';' || c == ';' && i+1 < len(raw) && raw[i+1] == '&' {
				if s.top() == "pat" {
					s.pop("pat")
					dedent(len(s.stack))
				}
				i++
			}
			cmdPos = true
		default:
			j := i
			for j < len(raw) && !strings.ContainsRune(" \t;&|(){}<>\"'`\\$", rune(raw[j])) {
				j++
			}
			if j == i {
				j = i + 1 // an operator byte or a lone $
			}
			word := raw[i:j]
			if cmdPos {
				s.keyword(word, dedent, &leading, &cmdPos)
			} else {
				leading = false
			}
			i = j
			continue
		}
		i++
	}
	// The parser trims lines, so a backslash that escapes a trailing blank
	// ends up ending the line: the next line may continue this one, glued.
	if t := strings.TrimRightFunc(raw, unicode.IsSpace); s.quote == 0 && !comment && !s.cont && t != raw && oddBackslashes(t) {
		s.cont, s.glued = true, true
	}
	info.openQuote = s.quote != 0 || len(s.nest) > 0
	if info.verbatim && s.quote == 0 && len(s.nest) == 0 || !info.verbatim && !strings.HasPrefix(strings.TrimSpace(raw), "#") {
		for _, h := range shellscan.Heredocs(raw[rest:]) {
			s.heredocs = append(s.heredocs, h.Delim)
		}
	}
	return info
}

func (s *scanner) inConfig() bool { return s.top() == "cfg" || s.top() == "[" }

// keyword updates the nesting for a word in command position.
func (s *scanner) keyword(word string, dedent func(int), leading, cmdPos *bool) {
	switch word {
	case "if":
		s.push("if")
	case "then", "else", "elif":
		dedent(len(s.stack) - 1)
		return
	case "fi":
		s.pop("if")
		dedent(len(s.stack))
		*cmdPos = false
		return
	case "do":
		s.push("do")
	case "done":
		s.pop("do")
		dedent(len(s.stack))
		*cmdPos = false
		return
	case "case":
		s.push("case")
		*leading, *cmdPos = false, false
		return
	case "esac":
		if s.top() == "pat" {
			s.pop("pat")
		}
		s.pop("case")
		dedent(len(s.stack))
		*cmdPos = false
		return
	case "while", "until", "!", "time":
	default:
		*leading, *cmdPos = false, false
		return
	}
	*leading = false
}

// inQuote advances through string text from i and returns the index after
// what it consumed (the closing quote, or the end of the line).
func (s *scanner) inQuote(raw string, i int) int {
	for ; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '\\' && s.quote != '\'':
			i++
		case s.quote == '"' && c == '$' && i+1 < len(raw) && (raw[i+1] == '(' || raw[i+1] == '{'):
			n := nested{open: raw[i+1], close: ')'}
			if n.open == '{' {
				n.close = '}'
			}
			s.nest = append(s.nest, n)
			s.quote = 0
			return i + 2
		case s.quote == '"' && c == '`':
			s.nest = append(s.nest, nested{close: '`'})
			s.quote = 0
			return i + 1
		case c == '\'' && (s.quote == '\'' || s.quote == '$'), c == '"' && s.quote == '"', c == '`' && s.quote == '`':
			s.quote = 0
			return i + 1
		}
	}
	return i
}

// inNested scans inside substitution f of a double-quoted string from
// raw[i] until a quote opens (its text is scanned by inQuote) or f
// closes, which resumes the string. Its parentheses and braces do not
// nest the body's blocks.
func (s *scanner) inNested(raw string, i int, f *nested) int {
	for ; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '\\':
			i++
		case c == f.close && (f.depth == 0 || c == '`'):
			s.nest = s.nest[:len(s.nest)-1]
			s.quote = '"'
			return i + 1
		case c == f.close:
			f.depth--
		case c == f.open && f.open != 0:
			f.depth++
		case c == '\'' || c == '"' || c == '`':
			s.quote = c
			return i + 1
		case c == '$' && i+1 < len(raw) && raw[i+1] == '\'':
			s.quote = '$'
			return i + 2
		}
	}
	return i
}
