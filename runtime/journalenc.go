package runtime

// This file answers: how does a journal record become its line? As
// json.Marshal writes it, byte for byte (journalenc_test.go holds it to
// that), without reflection: the journal's lines were a tenth of an inbox
// run's instructions through encoding/json.

import (
	"strconv"
	"unicode/utf8"
)

// appendRecord appends r as json.Marshal renders it, without a newline.
func appendRecord(b []byte, r *journalRecord) []byte {
	b = append(b, `{"t":`...)
	b = appendJSONString(b, r.T)
	b = append(b, `,"id":`...)
	b = appendJSONString(b, r.ID)
	b = appendField(b, "kind", r.Kind)
	b = appendField(b, "callee", r.Callee)
	if len(r.Args) > 0 {
		b = append(b, `,"args":[`...)
		for i, a := range r.Args {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSONString(b, a)
		}
		b = append(b, ']')
	}
	if r.Status != nil {
		b = append(b, `,"status":`...)
		b = strconv.AppendInt(b, int64(*r.Status), 10)
	}
	b = appendField(b, "value", r.Value)
	b = appendField(b, "out", r.Out)
	b = appendField(b, "channel", r.Channel)
	b = appendField(b, "sender", r.Sender)
	b = appendField(b, "content", r.Content)
	b = appendField(b, "box", r.Box)
	if r.Redacted {
		b = append(b, `,"redacted":true`...)
	}
	return append(b, '}')
}

// appendField appends ,"k":v unless v is "" (omitempty).
func appendField(b []byte, k, v string) []byte {
	if v == "" {
		return b
	}
	b = append(append(append(b, ',', '"'), k...), '"', ':')
	return appendJSONString(b, v)
}

// jsonPlain marks the bytes encoding/json copies as they are (its
// htmlSafeSet): printable ASCII but '"', '\\', '<', '>' and '&'.
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != '<' && c != '>' && c != '&'
	}
	return t
}()

// appendJSONString is encoding/json's string encoding (HTML escaped,
// invalid UTF-8 as \ufffd, U+2028 and U+2029 escaped).
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	done := 0
	for i := 0; i < len(s); {
		c := s[i]
		if jsonPlain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[done:i]...)
			switch c {
			case '\\', '"':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
			}
			i++
			done = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(append(b, s[done:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[done:i]...), '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		done = i
	}
	return append(append(b, s[done:]...), '"')
}
