// jaiph-go: bash's ansic_shouldquote and ansic_quote, which declare -p,
// ${x@Q} and xtrace share, in a UTF-8 locale.

package expand

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// printable reports whether glibc's iswprint accepts r in C.UTF-8: every
// assigned character except controls (C0, DEL, C1) and the line and
// paragraph separators.
func printable(r rune) bool {
	if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x2028 || r == 0x2029 {
		return false
	}
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.Co, unicode.Cf)
}

// ANSICShouldQuote reports whether bash writes s in $'…' (its
// ansic_shouldquote): s holds a byte that is no UTF-8 or a character
// that is not printable (a control character, an unassigned one).
func ANSICShouldQuote(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 || !printable(r) {
			return true
		}
		i += size
	}
	return false
}

// ANSICQuote is bash's ansic_quote: $'…' with \a \b \E \f \n \r \t \v,
// \\ and \' escaped, every other byte of a character that is not
// printable, and every byte that is no UTF-8, as three octal digits.
func ANSICQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			fmt.Fprintf(&b, "\\%03o", s[i])
			i++
			continue
		}
		switch r {
		case '\a':
			b.WriteString(`\a`)
		case '\b':
			b.WriteString(`\b`)
		case 0x1b:
			b.WriteString(`\E`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '\v':
			b.WriteString(`\v`)
		case '\\', '\'':
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			if printable(r) {
				b.WriteString(s[i : i+size])
			} else {
				for _, c := range []byte(s[i : i+size]) {
					fmt.Fprintf(&b, "\\%03o", c)
				}
			}
		}
		i += size
	}
	b.WriteByte('\'')
	return b.String()
}
