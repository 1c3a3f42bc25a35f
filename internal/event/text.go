package event

import (
	"strings"
	"unicode/utf8"
)

// This file answers: how is text an event carries cut to a bound (a step's
// out_content, a message's payload_preview) without splitting a character?

// CutRunes returns the first n characters of s when s has more, as
// string([]rune(s)[:n]) would (an invalid byte is one character, shown as
// U+FFFD), without the 4-bytes-per-character copy.
func CutRunes(s string, n int) (string, bool) {
	i := 0
	for k := 0; k < n; k++ {
		if i >= len(s) {
			return s, false
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	if i >= len(s) {
		return s, false
	}
	return ValidRunes([]byte(s[:i])), true
}

// ValidRunes is string([]rune(string(b))) without the 4-byte-per-rune
// copy: each invalid byte becomes U+FFFD.
func ValidRunes(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var s strings.Builder
	s.Grow(len(b))
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			s.WriteRune(utf8.RuneError)
		} else {
			s.Write(b[:size])
		}
		b = b[size:]
	}
	return s.String()
}
