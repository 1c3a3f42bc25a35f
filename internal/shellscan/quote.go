package shellscan

import "strings"

// Quote quotes s as one shell word in single quotes. Each quote inside is
// written as '"'"' (close, a double-quoted quote, reopen) rather than with
// a backslash, which mvdan.cc/sh v3.14 keeps in assignment values. NUL
// bytes, which no shell word can hold, are dropped. This is the quoting for
// text that becomes code (lowered steps, agent answers); agent.Quote is
// bash's printf %q, for display.
func Quote(s string) string {
	s = strings.ReplaceAll(s, "\x00", "")
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}
