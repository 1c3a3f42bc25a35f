package agent

import (
	"fmt"
	"strconv"
	"unicode/utf16"
)

// This file is a JSON parser with the semantics of JavaScript's JSON.parse
// (what the reference's Node kernel uses): numbers are float64 (overflow →
// ±Inf), duplicate keys keep the last value, lone surrogates become U+FFFD,
// and failures carry V8's SyntaxError messages as Node 20 words them,
// positions counted in UTF-16 code units.

// jsonObject is a parsed JSON object.
type jsonObject map[string]any

// jsonParse parses text as JSON.parse does; the error text is V8's message.
func jsonParse(text string) (any, error) {
	p := &jsonParser{src: utf16.Encode([]rune(text))}
	v, ok := p.value()
	if !ok {
		return nil, p.err
	}
	if p.peek() != tokEOS {
		p.fail(p.peek(), msgNonWhitespaceAfter)
		return nil, p.err
	}
	return v, nil
}

type jsonToken int

const (
	tokEOS jsonToken = iota
	tokString
	tokNumber
	tokTrue
	tokFalse
	tokNull
	tokColon
	tokComma
	tokLBrack
	tokRBrack
	tokLBrace
	tokRBrace
	tokWhitespace
	tokIllegal
)

func tokenOf(c uint16) jsonToken {
	switch {
	case c == '"':
		return tokString
	case c == '-' || c >= '0' && c <= '9':
		return tokNumber
	case c == 't':
		return tokTrue
	case c == 'f':
		return tokFalse
	case c == 'n':
		return tokNull
	case c == ' ' || c == '\t' || c == '\r' || c == '\n':
		return tokWhitespace
	case c == ':':
		return tokColon
	case c == ',':
		return tokComma
	case c == '[':
		return tokLBrack
	case c == ']':
		return tokRBrack
	case c == '{':
		return tokLBrace
	case c == '}':
		return tokRBrace
	}
	return tokIllegal
}

// V8 message templates that carry a position.
const (
	msgNone                  = ""
	msgExpectedPropNameOrRB  = "Expected property name or '}' in JSON"
	msgExpectedCommaOrRBrack = "Expected ',' or ']' after array element in JSON"
	msgExpectedCommaOrRBrace = "Expected ',' or '}' after property value in JSON"
	msgExpectedColon         = "Expected ':' after property name in JSON"
	msgExpectedDoubleQuoted  = "Expected double-quoted property name in JSON"
	msgUnterminatedString    = "Unterminated string in JSON"
	msgBadControlCharacter   = "Bad control character in string literal in JSON"
	msgBadUnicodeEscape      = "Bad Unicode escape in JSON"
	msgBadEscapedCharacter   = "Bad escaped character in JSON"
	msgNoNumberAfterMinus    = "No number after minus sign in JSON"
	msgExponentMissing       = "Exponent part is missing a number in JSON"
	msgUnterminatedFraction  = "Unterminated fractional number in JSON"
	msgNonWhitespaceAfter    = "Unexpected non-whitespace character after JSON"
)

type jsonParser struct {
	src []uint16
	pos int
	err error
}

func (p *jsonParser) at(i int) int {
	if i < len(p.src) {
		return int(p.src[i])
	}
	return -1
}

// peek skips white space and returns the next token.
func (p *jsonParser) peek() jsonToken {
	for p.pos < len(p.src) {
		t := tokenOf(p.src[p.pos])
		if t != tokWhitespace {
			return t
		}
		p.pos++
	}
	return tokEOS
}

// fail records V8's message for an unexpected token at the current
// position (msg overrides the token's own message).
func (p *jsonParser) fail(tok jsonToken, msg string) {
	if p.err != nil {
		return
	}
	pos := p.pos
	if msg != msgNone {
		p.err = fmt.Errorf("%s at position %d", msg, pos)
		return
	}
	switch tok {
	case tokEOS:
		p.err = fmt.Errorf("Unexpected end of JSON input")
		return
	case tokNumber:
		p.err = fmt.Errorf("Unexpected number in JSON at position %d", pos)
		return
	case tokString:
		p.err = fmt.Errorf("Unexpected string in JSON at position %d", pos)
		return
	}
	src := string(utf16.Decode(p.src))
	switch src {
	case "[object Object]", "undefined", "Infinity", "NaN":
		p.err = fmt.Errorf("%q is not valid JSON", src)
		return
	}
	token := string(utf16.Decode(p.src[pos : pos+1]))
	const ctx = 10
	n := len(p.src)
	sub := func(a, b int) string {
		if b > n {
			b = n
		}
		return string(utf16.Decode(p.src[a:b]))
	}
	switch {
	case n < 2*ctx+1:
		p.err = fmt.Errorf("Unexpected token '%s', \"%s\" is not valid JSON", token, src)
	case pos < ctx:
		p.err = fmt.Errorf("Unexpected token '%s', \"%s\"... is not valid JSON", token, sub(0, pos+ctx))
	case pos < n-ctx:
		p.err = fmt.Errorf("Unexpected token '%s', ...\"%s\"... is not valid JSON", token, sub(pos-ctx, pos+ctx))
	default:
		p.err = fmt.Errorf("Unexpected token '%s', ...\"%s\" is not valid JSON", token, sub(pos-ctx, n))
	}
}

// expect consumes tok after white space or fails with msg.
func (p *jsonParser) expect(tok jsonToken, msg string) bool {
	if t := p.peek(); t != tok {
		p.fail(t, msg)
		return false
	}
	p.pos++
	return true
}

func (p *jsonParser) value() (any, bool) {
	switch t := p.peek(); t {
	case tokString:
		p.pos++
		return p.str()
	case tokNumber:
		return p.number()
	case tokLBrace:
		p.pos++
		obj := jsonObject{}
		if p.peek() == tokRBrace {
			p.pos++
			return obj, true
		}
		msg := msgExpectedPropNameOrRB
		for {
			if !p.expect(tokString, msg) {
				return nil, false
			}
			key, ok := p.str()
			if !ok {
				return nil, false
			}
			if !p.expect(tokColon, msgExpectedColon) {
				return nil, false
			}
			v, ok := p.value()
			if !ok {
				return nil, false
			}
			obj[key.(string)] = v
			if p.peek() == tokComma {
				p.pos++
				msg = msgExpectedDoubleQuoted
				continue
			}
			if !p.expect(tokRBrace, msgExpectedCommaOrRBrace) {
				return nil, false
			}
			return obj, true
		}
	case tokLBrack:
		p.pos++
		arr := []any{}
		if p.peek() == tokRBrack {
			p.pos++
			return arr, true
		}
		for {
			v, ok := p.value()
			if !ok {
				return nil, false
			}
			arr = append(arr, v)
			if p.peek() == tokComma {
				p.pos++
				continue
			}
			if !p.expect(tokRBrack, msgExpectedCommaOrRBrack) {
				return nil, false
			}
			return arr, true
		}
	case tokTrue:
		return true, p.literal("true")
	case tokFalse:
		return false, p.literal("false")
	case tokNull:
		return nil, p.literal("null")
	default:
		p.fail(t, msgNone)
		return nil, false
	}
}

// literal scans true/false/null; a mismatch is reported at the first
// differing character, a truncated literal as the end of input.
func (p *jsonParser) literal(word string) bool {
	for i := 1; i < len(word); i++ {
		c := p.at(p.pos + i)
		if c < 0 {
			p.pos = len(p.src)
			p.fail(tokEOS, msgNone)
			return false
		}
		if c != int(word[i]) {
			p.pos += i
			p.fail(tokenOf(uint16(c)), msgNone)
			return false
		}
	}
	p.pos += len(word)
	return true
}

func isDigit(c int) bool { return c >= '0' && c <= '9' }

func (p *jsonParser) number() (any, bool) {
	start := p.pos
	if p.at(p.pos) == '-' {
		p.pos++
	}
	if p.at(p.pos) == '0' {
		p.pos++
		if isDigit(p.at(p.pos)) {
			p.fail(tokNumber, msgNone)
			return nil, false
		}
	} else {
		if !isDigit(p.at(p.pos)) {
			p.fail(tokIllegal, msgNoNumberAfterMinus)
			return nil, false
		}
		for isDigit(p.at(p.pos)) {
			p.pos++
		}
	}
	if p.at(p.pos) == '.' {
		p.pos++
		if !isDigit(p.at(p.pos)) {
			p.fail(tokIllegal, msgUnterminatedFraction)
			return nil, false
		}
		for isDigit(p.at(p.pos)) {
			p.pos++
		}
	}
	if c := p.at(p.pos); c == 'e' || c == 'E' {
		p.pos++
		if c := p.at(p.pos); c == '+' || c == '-' {
			p.pos++
		}
		if !isDigit(p.at(p.pos)) {
			p.fail(tokIllegal, msgExponentMissing)
			return nil, false
		}
		for isDigit(p.at(p.pos)) {
			p.pos++
		}
	}
	f, _ := strconv.ParseFloat(string(utf16.Decode(p.src[start:p.pos])), 64)
	return f, true
}

// str scans a string body after its opening quote.
func (p *jsonParser) str() (any, bool) {
	var out []uint16
	for {
		c := p.at(p.pos)
		switch {
		case c < 0:
			p.fail(tokEOS, msgUnterminatedString)
			return nil, false
		case c == '"':
			p.pos++
			return string(utf16.Decode(out)), true
		case c < 0x20:
			p.fail(tokIllegal, msgBadControlCharacter)
			return nil, false
		case c != '\\':
			out = append(out, uint16(c))
			p.pos++
			continue
		}
		p.pos++
		e := p.at(p.pos)
		if e > 0xff {
			p.fail(tokIllegal, msgNone)
			return nil, false
		}
		switch e {
		case '"', '\\', '/':
			out = append(out, uint16(e))
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			v := 0
			for i := 0; i < 4; i++ {
				p.pos++
				d := hexValue(p.at(p.pos))
				if d < 0 {
					p.fail(tokIllegal, msgBadUnicodeEscape)
					return nil, false
				}
				v = v<<4 | d
			}
			out = append(out, uint16(v))
		case -1:
			p.fail(tokEOS, msgNone)
			return nil, false
		default:
			p.fail(tokIllegal, msgBadEscapedCharacter)
			return nil, false
		}
		p.pos++
	}
}

func hexValue(c int) int {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10
	}
	return -1
}
