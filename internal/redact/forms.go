package redact

import (
	"encoding/json"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// encodedForms are the ways other programs commonly write v that the
// standard library's escapers above do not produce: percent-encoding of
// every reserved byte (Python's quote(v, safe=""), JavaScript's
// encodeURIComponent) in upper- and lower-case hex, and v as the inside of
// a JSON string (JSON.stringify and json.dumps; Go's json.Marshal, which
// also escapes <, > and &; json.dumps' default \uXXXX for non-ASCII).
// A value made of letters, digits and "-_." gives back only forms equal to
// v itself, which New drops as duplicates: such secrets cost no extra
// needle.
func encodedForms(v string) []string {
	return []string{
		percent(v, pyKeep, upperHex), percent(v, pyKeep, lowerHex),
		percent(v, jsKeep, upperHex), percent(v, jsKeep, lowerHex),
		jsonInside(v, false), jsonInside(v, true), jsonASCII(v),
	}
}

const (
	upperHex = "0123456789ABCDEF"
	lowerHex = "0123456789abcdef"
	// pyKeep: RFC 3986's unreserved bytes, which quote(s, safe="") keeps.
	pyKeep = "-_.~"
	// jsKeep: what encodeURIComponent keeps besides letters and digits.
	jsKeep = "-_.!~*'()"
)

// percent escapes every byte of s but ASCII letters, digits and keep.
func percent(s, keep, digits string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte(keep, c) >= 0 {
			b.WriteByte(c)
			continue
		}
		b.WriteByte('%')
		b.WriteByte(digits[c>>4])
		b.WriteByte(digits[c&15])
	}
	return b.String()
}

// jsonInside is s encoded as a JSON string, without its quotes; html adds
// Go's escaping of <, > and &.
func jsonInside(s string, html bool) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(html)
	if enc.Encode(s) != nil {
		return s
	}
	out := strings.TrimSuffix(b.String(), "\n")
	return out[1 : len(out)-1]
}

// jsonASCII is s as Python's json.dumps writes it by default: the JSON
// escapes, and every non-ASCII character as \\uXXXX (a UTF-16 surrogate
// pair beyond the BMP).
func jsonASCII(s string) string {
	inside := jsonInside(s, false)
	if !strings.ContainsFunc(inside, func(r rune) bool { return r >= utf8.RuneSelf }) {
		return inside
	}
	var b strings.Builder
	hex4 := func(r rune) {
		b.WriteString(`\u`)
		for shift := 12; shift >= 0; shift -= 4 {
			b.WriteByte(lowerHex[(r>>shift)&15])
		}
	}
	for _, r := range inside {
		switch {
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case r > 0xFFFF:
			hi, lo := utf16.EncodeRune(r)
			hex4(hi)
			hex4(lo)
		default:
			hex4(r)
		}
	}
	return b.String()
}
