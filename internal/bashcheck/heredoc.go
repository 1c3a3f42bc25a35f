package bashcheck

import (
	"strings"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// subHeredocs calls fn with each here-document redirection whose nearest
// enclosing substitution is sub, a $(…) or a process substitution: bash
// parses those with `)` as the token that ends its input, which changes
// where their here-documents end (make_here_document).
func subHeredocs(sub syntax.Node, fn func(*syntax.Redirect)) {
	syntax.Walk(sub, func(n syntax.Node) bool {
		switch n := n.(type) {
		case *syntax.CmdSubst:
			return n == sub // a nested one is walked on its own
		case *syntax.ProcSubst:
			return n == sub
		case *syntax.Redirect:
			if (n.Op == syntax.Hdoc || n.Op == syntax.DashHdoc) && n.Hdoc != nil {
				fn(n)
			}
		}
		return true
	})
}

// heredocCloseLine reports whether a line of rd's body starts with its
// delimiter (after its leading tabs, for <<-) and holds a `)` after it:
// inside $(…), bash ends the here-document there and reads the rest of
// the line as commands ("backwards compatibility", with a warning that it
// was delimited by end-of-file). A line that goes on in an expansion after
// the delimiter counts, as the expansion's text may hold one.
func heredocCloseLine(rd *syntax.Redirect) bool {
	delim, ok := literalWord(rd.Word)
	if !ok || delim == "" {
		return false
	}
	delim = unbackslash(delim)
	var line strings.Builder // the current line's text while it is literal
	literal := true
	startsWithDelim := func() (string, bool) {
		l := line.String()
		if rd.Op == syntax.DashHdoc {
			l = strings.TrimLeft(l, "\t")
		}
		return strings.CutPrefix(l, delim)
	}
	for _, part := range rd.Hdoc.Parts {
		lit, isLit := part.(*syntax.Lit)
		if !isLit {
			if _, found := startsWithDelim(); found && literal {
				return true
			}
			literal = false
			continue
		}
		text := lit.Value
		for {
			nl := strings.IndexByte(text, '\n')
			if nl < 0 {
				if literal {
					line.WriteString(text)
				}
				break
			}
			if literal {
				line.WriteString(text[:nl])
				if rest, found := startsWithDelim(); found && strings.Contains(rest, ")") {
					return true
				}
			}
			line.Reset()
			literal = true
			text = text[nl+1:]
		}
	}
	rest, found := startsWithDelim()
	return literal && found && strings.Contains(rest, ")")
}

// unbackslash is a literal word's text after quote removal of its
// backslashes (\EOF is the delimiter EOF).
func unbackslash(s string) string {
	if !strings.Contains(s, "\\") {
		return s
	}
	var sb strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) {
			i++
		}
		sb.WriteByte(s[i])
	}
	return sb.String()
}
