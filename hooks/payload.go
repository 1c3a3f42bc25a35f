package hooks

import (
	"strconv"
	"unicode/utf8"
)

// payload builds a compact JSON object whose keys keep the order in which
// they are added (runtime.md §11 fixes the order per event).
type payload struct{ b []byte }

func (p *payload) key(k string) {
	if len(p.b) == 0 {
		p.b = append(p.b, '{')
	} else {
		p.b = append(p.b, ',')
	}
	p.b = appendString(p.b, k)
	p.b = append(p.b, ':')
}

func (p *payload) str(k, v string) *payload {
	p.key(k)
	p.b = appendString(p.b, v)
	return p
}

// optStr adds the key only when v is non-empty (JSON.stringify drops
// undefined fields).
func (p *payload) optStr(k, v string) *payload {
	if v != "" {
		p.str(k, v)
	}
	return p
}

func (p *payload) num(k string, v int64) *payload {
	p.key(k)
	p.b = strconv.AppendInt(p.b, v, 10)
	return p
}

func (p *payload) bytes() []byte {
	if len(p.b) == 0 {
		return []byte("{}")
	}
	return append(p.b, '}')
}

// appendString escapes like JSON.stringify: `"`, `\`, the short escapes
// \b \f \n \r \t, other control characters as \u00xx, no HTML escaping,
// non-ASCII kept as UTF-8 (invalid bytes become U+FFFD).
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf {
			r, size := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && size == 1 {
				b = append(b, "\ufffd"...)
			} else {
				b = append(b, s[i:i+size]...)
			}
			i += size
			continue
		}
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		default:
			if c < 0x20 {
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			} else {
				b = append(b, c)
			}
		}
		i++
	}
	return append(b, '"')
}
