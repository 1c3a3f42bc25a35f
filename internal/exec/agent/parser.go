package agent

import (
	"io"
	"strings"
	"unicode/utf8"
)

// Parser turns an agent's stream-json output into the transcript text and
// the final answer, line by line, exactly as the reference's stream parser
// (docs/language.md#agent-output). It is an io.Writer fed with the agent's output;
// Close ends the stream. Not safe for concurrent writes (os/exec serialises
// writes when stdout and stderr share it).
type Parser struct {
	w       io.Writer
	partial []byte
	skipLF  bool // the previous chunk ended with \r
	closed  bool

	reasoning, final, fallback                    string
	wroteAny, wroteReasoningHeader, wroteFinalHdr bool
	sawFinalStreamDelta, sawFinalMessage          bool
	sawVisibleFinalText                           bool
}

// NewParser returns a parser writing the transcript to w.
func NewParser(w io.Writer) *Parser { return &Parser{w: w} }

// Write feeds raw output. Lines end at \n, \r\n or a lone \r (Node's
// readline).
func (p *Parser) Write(b []byte) (int, error) {
	for _, c := range b {
		switch {
		case c == '\n' && p.skipLF:
			p.skipLF = false
		case c == '\n' || c == '\r':
			p.skipLF = c == '\r'
			p.line(string(p.partial))
			p.partial = p.partial[:0]
		default:
			p.skipLF = false
			p.partial = append(p.partial, c)
		}
	}
	return len(b), nil
}

// Close processes an unterminated last line and writes the answer if
// nothing was written yet.
func (p *Parser) Close() error {
	if p.closed {
		return nil
	}
	p.closed = true
	if len(p.partial) > 0 {
		p.line(string(p.partial))
		p.partial = nil
	}
	if ans := p.Answer(); !p.wroteAny && ans != "" {
		p.write("Final answer:\n" + ans)
	}
	return nil
}

// Answer is the final answer: the final text, else the non-JSON fallback.
func (p *Parser) Answer() string {
	if p.final != "" {
		return p.final
	}
	return p.fallback
}

func (p *Parser) write(s string) { _, _ = io.WriteString(p.w, s) }

func (p *Parser) section(reasoning bool) {
	if reasoning {
		if !p.wroteReasoningHeader {
			if p.wroteAny {
				p.write("\n\n")
			}
			p.write("Reasoning:\n")
			p.wroteAny, p.wroteReasoningHeader = true, true
		}
		return
	}
	if !p.wroteFinalHdr {
		if p.wroteAny {
			p.write("\n\n")
		}
		p.write("Final answer:\n")
		p.wroteAny, p.wroteFinalHdr = true, true
	}
}

func (p *Parser) writeReasoning(s string) {
	if s == "" {
		return
	}
	p.section(true)
	p.write(s)
}

func (p *Parser) writeFinal(s string) {
	if s == "" {
		return
	}
	p.section(false)
	p.write(s)
}

// visible drops leading newlines until the first visible final text.
func (p *Parser) visible(s string) string {
	if p.sawVisibleFinalText {
		return s
	}
	for {
		switch {
		case strings.HasPrefix(s, "\n"):
			s = s[1:]
			continue
		case strings.HasPrefix(s, "\r\n"):
			s = s[2:]
			continue
		}
		break
	}
	if s != "" {
		p.sawVisibleFinalText = true
	}
	return s
}

// jsTrimEmpty reports whether s is only JavaScript white space.
func jsTrimEmpty(s string) bool { return jsTrim(s) == "" }

func (p *Parser) line(raw string) {
	line := toValidUTF8(raw)
	if jsTrimEmpty(line) {
		return
	}
	v, err := jsonParse(line)
	if err != nil {
		text := p.visible(line + "\n")
		p.fallback += text
		p.writeFinal(text)
		return
	}
	obj, isObj := v.(jsonObject)
	if isObj {
		if p.object(obj) {
			return
		}
	}
	// Generic fallback: the first text-like field, if nothing final yet.
	// Arrays and primitives have none.
	if g := pickGeneric(v); !p.sawFinalStreamDelta && !p.sawFinalMessage && g != "" {
		p.setFinalMessage(g)
	}
}

// setFinalMessage records a whole final text: it replaces the value; only
// the first one is written.
func (p *Parser) setFinalMessage(text string) {
	n := p.visible(text)
	p.final = n
	if !p.sawFinalMessage {
		p.writeFinal(n)
		p.sawFinalMessage = true
	}
}

// object handles the typed events; it reports whether the line is done.
func (p *Parser) object(obj jsonObject) bool {
	typ, _ := obj["type"].(string)
	if typ == "stream_event" {
		if ev, ok := obj["event"].(jsonObject); ok && ev["type"] == "content_block_delta" {
			if d, ok := ev["delta"].(jsonObject); ok {
				if t, ok := d["thinking"].(string); ok && d["type"] == "thinking_delta" && t != "" {
					p.reasoning += t
					p.writeReasoning(t)
					return true
				}
				if t, ok := d["text"].(string); ok && d["type"] == "text_delta" && t != "" {
					n := p.visible(t)
					p.sawFinalStreamDelta = true
					p.final += n
					p.writeFinal(n)
					return true
				}
			}
		}
	}
	if t, ok := obj["text"].(string); ok && typ == "thinking" && t != "" {
		p.reasoning += t
		p.writeReasoning(t)
		return true
	}
	if typ == "assistant" && truthy(obj["message"]) {
		msg, _ := obj["message"].(jsonObject)
		switch content := msg["content"].(type) {
		case []any:
			var reasoning, final string
			for _, b := range content {
				block, ok := b.(jsonObject)
				if !ok {
					continue
				}
				if t, ok := block["thinking"].(string); ok && block["type"] == "thinking" {
					reasoning += t
					continue
				}
				if t, ok := block["text"].(string); ok && block["type"] == "text" {
					final += t
				}
			}
			if reasoning != "" {
				p.reasoning += reasoning
				p.writeReasoning(reasoning)
			}
			if !p.sawFinalStreamDelta && final != "" {
				p.setFinalMessage(final)
			}
			if reasoning != "" || final != "" {
				return true
			}
		case string:
			if content != "" && !p.sawFinalStreamDelta {
				p.setFinalMessage(content)
			}
			return true
		}
	}
	if r, ok := obj["result"].(string); ok && typ == "result" && r != "" {
		if !p.sawFinalStreamDelta && !p.sawFinalMessage {
			p.setFinalMessage(r)
		}
		return true
	}
	return false
}

// truthy is JavaScript truthiness for a parsed JSON value.
func truthy(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case bool:
		return v
	case float64:
		return v != 0 && v == v
	case string:
		return v != ""
	}
	return true
}

// pickGeneric returns the first text-like field of a parsed line: the
// string `message.content`, `delta`, `output_text`, `content` or `text`,
// else `choices[0].text`, `choices[0].delta.content`, `delta[0].text`,
// `content[0].text` (the first present string wins, even if empty).
func pickGeneric(v any) string {
	obj, ok := v.(jsonObject)
	if !ok {
		return ""
	}
	if m, ok := obj["message"].(jsonObject); ok {
		if s, ok := m["content"].(string); ok {
			return s
		}
	}
	for _, k := range []string{"delta", "output_text", "content", "text"} {
		if s, ok := obj[k].(string); ok {
			return s
		}
	}
	if choices, ok := obj["choices"].([]any); ok && len(choices) > 0 && truthy(choices[0]) {
		if c, ok := choices[0].(jsonObject); ok {
			if s, ok := c["text"].(string); ok {
				return s
			}
			if d, ok := c["delta"].(jsonObject); ok {
				if s, ok := d["content"].(string); ok {
					return s
				}
			}
		}
	}
	for _, k := range []string{"delta", "content"} {
		if arr, ok := obj[k].([]any); ok && len(arr) > 0 {
			if first, ok := arr[0].(jsonObject); ok {
				if s, ok := first["text"].(string); ok {
					return s
				}
			}
		}
	}
	return ""
}

// toValidUTF8 replaces each invalid byte with U+FFFD, as Node decodes the
// agent's output.
func toValidUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r)
	}
	return b.String()
}

// isJSSpace reports whether r is white space for String.prototype.trim.
func isJSSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', ' ', 0xa0, 0x1680, 0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff:
		return true
	}
	return r >= 0x2000 && r <= 0x200a
}

// jsTrim is String.prototype.trim.
func jsTrim(s string) string { return strings.TrimFunc(s, isJSSpace) }
