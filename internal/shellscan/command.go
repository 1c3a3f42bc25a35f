package shellscan

import "strings"

// FirstCommandWord returns the leading `[A-Za-z_][A-Za-z0-9_.]*` of the first
// command segment that is non-empty once leading assignments and `(`/`{` are
// stripped: the command word the keyword-first guard classifies
// (docs/language.md#the-keyword-first-guard). Segments split on `||`, `&&`,
// `|`, `;` and newlines without regard to quotes, as the reference does; a
// `NAME=value` prefix's quoted value is read to its next quote without
// escapes.
func FirstCommandWord(s string) string {
	for _, seg := range splitSegments(s) {
		seg = stripCommandPrefix(seg)
		if seg == "" {
			continue
		}
		i := 0
		for i < len(seg) && (IsIdentChar(seg[i]) || i > 0 && seg[i] == '.') {
			if i == 0 && seg[i] >= '0' && seg[i] <= '9' {
				break
			}
			i++
		}
		return seg[:i]
	}
	return ""
}

// splitSegments splits on `||`, `&&`, `|`, `;` and newlines.
func splitSegments(s string) []string {
	var out []string
	start := 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '|', '&':
			if i+1 < len(s) && s[i+1] == s[i] {
				out = append(out, s[start:i])
				i++
				start = i + 1
			} else if s[i] == '|' {
				out = append(out, s[start:i])
				start = i + 1
			}
		case ';', '\n':
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// stripCommandPrefix drops leading white space, `(`, `{` and `NAME=value `
// assignments.
func stripCommandPrefix(seg string) string {
	for {
		seg = strings.TrimLeft(seg, " \t")
		if seg == "" {
			return ""
		}
		if seg[0] == '(' || seg[0] == '{' {
			seg = seg[1:]
			continue
		}
		n := assignmentPrefixLen(seg)
		if n == 0 {
			return seg
		}
		seg = seg[n:]
	}
}

// assignmentPrefixLen returns the length of a leading `NAME=value` followed by
// white space (value unquoted non-blank, "…" or '…'), or 0.
func assignmentPrefixLen(s string) int {
	i := 0
	for i < len(s) && (IsIdentChar(s[i]) && !(i == 0 && s[i] >= '0' && s[i] <= '9')) {
		i++
	}
	if i == 0 || i >= len(s) || s[i] != '=' {
		return 0
	}
	i++
	switch {
	case i < len(s) && (s[i] == '"' || s[i] == '\''):
		end := strings.IndexByte(s[i+1:], s[i])
		if end < 0 {
			return 0
		}
		i += end + 2
	default:
		start := i
		for i < len(s) && s[i] != ' ' && s[i] != '\t' {
			i++
		}
		if i == start {
			return 0
		}
	}
	if i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		return i + 1
	}
	return 0
}
