package progress

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Printable returns s with what a terminal would act on rather than show
// written as escapes: C0 controls other than tab and newline (`\e[31m`
// becomes `\x1b[31m`, CR `\r`), DEL, C1 controls (`\u009b`) and bytes
// that are not UTF-8 (`\xff`). Arguments and log text are data; sent raw
// they could recolour, retitle or rewrite the terminal and the live tree.
func Printable(s string) string {
	i := 0
	for i < len(s) && (s[i] >= 0x20 && s[i] < 0x7f || s[i] == '\t' || s[i] == '\n') {
		i++
	}
	if i == len(s) {
		return s // plain ASCII: the common case
	}
	var b strings.Builder
	b.WriteString(s[:i])
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case r == '\t' || r == '\n':
			b.WriteRune(r)
		case r < 0x20 || r == 0x7f:
			if name := strings.IndexRune("\a\b\f\r\v", r); name >= 0 {
				b.WriteString(`\` + "abfrv"[name:name+1])
			} else {
				fmt.Fprintf(&b, `\x%02x`, r)
			}
		case r >= 0x80 && r < 0xa0:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// printableKeepColour is Printable except for SGR sequences (`ESC [
// digits m`, what Style writes), which are kept: the test report's stderr
// mixes expectEqual's coloured sides with data. Setting a colour is all
// such a sequence can do; a title, a cursor move or a clear is escaped.
func printableKeepColour(s string) string {
	var b strings.Builder
	for {
		i := strings.Index(s, "\x1b[")
		if i < 0 {
			b.WriteString(Printable(s))
			return b.String()
		}
		j := i + 2
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';') {
			j++
		}
		if j > i+2 && j < len(s) && s[j] == 'm' {
			b.WriteString(Printable(s[:i]))
			b.WriteString(s[i : j+1])
			s = s[j+1:]
			continue
		}
		b.WriteString(Printable(s[:i+1]))
		s = s[i+1:]
	}
}
