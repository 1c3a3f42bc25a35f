package shellscan

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Quote quotes s as one shell word in single quotes. Each quote inside is
// written as '"'"' (close, a double-quoted quote, reopen) rather than with
// a backslash, which mvdan.cc/sh v3.14 keeps in assignment values. NUL
// bytes, which no shell word can hold, are dropped. This is the quoting for
// text that becomes code (lowered steps, agent answers); QuoteQ is bash's
// printf %q, for display.
func Quote(s string) string {
	s = strings.ReplaceAll(s, "\x00", "")
	return "'" + strings.ReplaceAll(s, "'", `'"'"'`) + "'"
}

// QuoteQ quotes s exactly like bash 5's `printf %q` in a UTF-8 locale (what
// the reference uses to log the agent command line). The empty string is a
// pair of single quotes; a string with a character that is not printable
// (ASCII controls, DEL, C1 controls, U+2028/U+2029, unassigned code points,
// invalid UTF-8) becomes one $'…' word; otherwise every shell-special ASCII
// character gets a backslash, as do a leading # and a ~ at the start or
// after : or =.
//
// It is for display (the agent command line, the printf builtin's %q);
// text that becomes code is quoted with Quote.
func QuoteQ(s string) string {
	if s == "" {
		return "''"
	}
	if needsANSIC(s) {
		return ansiCQuote(s)
	}
	return backslashQuote(s)
}

// printable reports whether glibc's iswprint accepts r in C.UTF-8: every
// assigned character except controls and the line/paragraph separators.
func printable(r rune) bool {
	if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == 0x2028 || r == 0x2029 {
		return false
	}
	return unicode.In(r, unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.Co, unicode.Cf)
}

func needsANSIC(s string) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			return true
		}
		if !printable(r) {
			return true
		}
		i += size
	}
	return false
}

// backslashSpecial is bash's table of characters printf %q escapes.
const backslashSpecial = "\t\n !\"$&'()*,;<>?[\\]^`{|}"

func backslashQuote(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case strings.IndexByte(backslashSpecial, c) >= 0:
			b.WriteByte('\\')
		case c == '#' && i == 0:
			b.WriteByte('\\')
		case c == '~' && (i == 0 || s[i-1] == ':' || s[i-1] == '='):
			b.WriteByte('\\')
		}
		b.WriteByte(c)
	}
	return b.String()
}

func ansiCQuote(s string) string {
	var b strings.Builder
	b.WriteString("$'")
	for i := 0; i < len(s); {
		c := s[i]
		esc := byte(0)
		switch c {
		case 0x1b:
			esc = 'E'
		case '\a':
			esc = 'a'
		case '\v':
			esc = 'v'
		case '\b':
			esc = 'b'
		case '\f':
			esc = 'f'
		case '\n':
			esc = 'n'
		case '\r':
			esc = 'r'
		case '\t':
			esc = 't'
		case '\\', '\'':
			esc = c
		}
		if esc != 0 {
			b.WriteByte('\\')
			b.WriteByte(esc)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || !printable(r) {
			// Non-printable: each byte as a three-digit octal escape.
			for j := 0; j < size; j++ {
				o := s[i+j]
				b.WriteByte('\\')
				b.WriteByte('0' + o>>6&7)
				b.WriteByte('0' + o>>3&7)
				b.WriteByte('0' + o&7)
			}
			i += size
			continue
		}
		b.WriteString(s[i : i+size])
		i += size
	}
	b.WriteByte('\'')
	return b.String()
}
