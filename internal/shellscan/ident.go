package shellscan

import (
	"strings"

	"github.com/jaiph-go/jaiph/internal/lazy"
)

// IsIdentStart reports whether c may start an identifier ([A-Za-z_]).
func IsIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

// IsIdentChar reports whether c may continue an identifier ([A-Za-z0-9_]).
func IsIdentChar(c byte) bool { return IsIdentStart(c) || c >= '0' && c <= '9' }

// IsDigits reports whether s is one or more ASCII digits (a number
// without sign: a message number, a positional parameter, a signal).
func IsDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// LeadingIdent returns the identifier at the start of s and the rest.
func LeadingIdent(s string) (string, string) {
	if s == "" || !IsIdentStart(s[0]) {
		return "", s
	}
	i := 1
	for i < len(s) && IsIdentChar(s[i]) {
		i++
	}
	return s[:i], s[i:]
}

// IsIdent reports whether s matches [A-Za-z_][A-Za-z0-9_]* (a Jaiph name, a
// shell variable name).
func IsIdent(s string) bool {
	id, rest := LeadingIdent(s)
	return id != "" && rest == ""
}

// IsRef reports whether s is a reference: `name` or `alias.name`.
func IsRef(s string) bool {
	a, b, dotted := strings.Cut(s, ".")
	if !dotted {
		return IsIdent(s)
	}
	return IsIdent(a) && IsIdent(b)
}

// HasWordPrefix reports whether s starts with word followed by a blank.
func HasWordPrefix(s, word string) bool {
	return len(s) > len(word) && strings.HasPrefix(s, word) && (s[len(word)] == ' ' || s[len(word)] == '\t')
}

// VarRef matches a `$NAME` or `${NAME}` reference; submatch 1 is the braced
// name, submatch 2 the bare one. It is compiled on first use.
var VarRef = lazy.Regexp(`\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))`)

// VarRefNames returns the names s refers to with `$NAME` or `${NAME}`, in
// order.
func VarRefNames(s string) []string {
	var out []string
	for _, m := range VarRef().FindAllStringSubmatch(s, -1) {
		if m[1] != "" {
			out = append(out, m[1])
		} else {
			out = append(out, m[2])
		}
	}
	return out
}
