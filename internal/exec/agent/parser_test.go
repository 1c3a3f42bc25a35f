package agent

import (
	"strings"
	"testing"
)

// Each case feeds the lines (joined with \n, plus a final \n) to a parser
// and checks the transcript and the answer (docs/language.md#agent-output).
func TestParser(t *testing.T) {
	tests := []struct {
		name       string
		in         []string
		transcript string
		answer     string
	}{
		{"empty stream", nil, "", ""},
		{"blank lines only", []string{"", "   ", "\t"}, "", ""},
		{"result",
			[]string{`{"type":"result","result":"done"}`},
			"Final answer:\ndone", "done"},
		{"thinking then result",
			[]string{`{"type":"thinking","text":"hmm"}`, `{"type":"result","result":"done"}`},
			"Reasoning:\nhmm\n\nFinal answer:\ndone", "done"},
		{"claude deltas: thinking, text, result ignored",
			[]string{
				`{"type":"stream_event","event":{"type":"content_block_delta","delta":{"type":"thinking_delta","thinking":"a"}}}`,
				`{"type":"stream_event","event":{"type":"content_block_delta","delta":{"type":"thinking_delta","thinking":"b"}}}`,
				`{"type":"stream_event","event":{"type":"content_block_delta","delta":{"type":"text_delta","text":"\n\nHel"}}}`,
				`{"type":"stream_event","event":{"type":"content_block_delta","delta":{"type":"text_delta","text":"lo\n"}}}`,
				`{"type":"assistant","message":{"content":[{"type":"text","text":"ignored"}]}}`,
				`{"type":"result","result":"ignored too"}`,
			},
			"Reasoning:\nab\n\nFinal answer:\nHello\n", "Hello\n"},
		{"reasoning after final opens a second section",
			[]string{
				`{"type":"stream_event","event":{"type":"content_block_delta","delta":{"type":"text_delta","text":"x"}}}`,
				`{"type":"thinking","text":"late"}`,
				`{"type":"stream_event","event":{"type":"content_block_delta","delta":{"type":"text_delta","text":"y"}}}`,
			},
			"Final answer:\nx\n\nReasoning:\nlatey", "xy"},
		{"empty deltas are ignored",
			[]string{
				`{"type":"stream_event","event":{"type":"content_block_delta","delta":{"type":"thinking_delta","thinking":""}}}`,
				`{"type":"stream_event","event":{"type":"content_block_delta","delta":{"type":"text_delta","text":""}}}`,
				`{"type":"result","result":"r"}`,
			},
			"Final answer:\nr", "r"},
		{"newline-only delta: marks streamed, writes nothing",
			[]string{
				`{"type":"stream_event","event":{"type":"content_block_delta","delta":{"type":"text_delta","text":"\n"}}}`,
				`{"type":"result","result":"r"}`,
			},
			"", ""},
		{"assistant blocks: thinking and text; later messages replace the value",
			[]string{
				`{"type":"assistant","message":{"content":[{"type":"thinking","thinking":"t1"},{"type":"text","text":"first"},{"type":"text","text":" part"}]}}`,
				`{"type":"assistant","message":{"content":[{"type":"text","text":"second"}]}}`,
			},
			"Reasoning:\nt1\n\nFinal answer:\nfirst part", "second"},
		{"assistant string content",
			[]string{`{"type":"assistant","message":{"content":"\nplain"}}`, `{"type":"assistant","message":{"content":"later"}}`},
			"Final answer:\nplain", "later"},
		{"assistant message after streamed text is ignored",
			[]string{
				`{"type":"stream_event","event":{"type":"content_block_delta","delta":{"type":"text_delta","text":"s"}}}`,
				`{"type":"assistant","message":{"content":"m"}}`,
			},
			"Final answer:\ns", "s"},
		{"result only when nothing final yet",
			[]string{`{"type":"assistant","message":{"content":"a"}}`, `{"type":"result","result":"r"}`},
			"Final answer:\na", "a"},
		{"assistant without text falls back to generic pick",
			[]string{`{"type":"assistant","message":{"content":[{"type":"tool_use"}]},"text":"generic"}`},
			"Final answer:\ngeneric", "generic"},
		{"generic: message.content",
			[]string{`{"type":"user","message":{"content":"mc"}}`}, "Final answer:\nmc", "mc"},
		{"generic: delta string",
			[]string{`{"delta":"d","text":"t"}`}, "Final answer:\nd", "d"},
		{"generic: output_text",
			[]string{`{"output_text":"o"}`}, "Final answer:\no", "o"},
		{"generic: content string",
			[]string{`{"content":"c"}`}, "Final answer:\nc", "c"},
		{"generic: text",
			[]string{`{"text":"t"}`}, "Final answer:\nt", "t"},
		{"generic: choices[0].text",
			[]string{`{"choices":[{"text":"ct"}]}`}, "Final answer:\nct", "ct"},
		{"generic: choices[0].delta.content",
			[]string{`{"choices":[{"delta":{"content":"cd"}}]}`}, "Final answer:\ncd", "cd"},
		{"generic: delta[0].text",
			[]string{`{"delta":[{"text":"dt"}]}`}, "Final answer:\ndt", "dt"},
		{"generic: content[0].text",
			[]string{`{"content":[{"text":"c0"}]}`}, "Final answer:\nc0", "c0"},
		{"generic: an empty string field wins and yields nothing",
			[]string{`{"delta":"","text":"t"}`}, "", ""},
		{"generic: only the first is written, the value is replaced",
			[]string{`{"text":"one"}`, `{"text":"two"}`}, "Final answer:\none", "one"},
		{"non-object JSON lines are ignored",
			[]string{`42`, `"str"`, `null`, `[{"text":"x"}]`, `{"type":"system","subtype":"init"}`}, "", ""},
		{"non-JSON lines are the fallback",
			[]string{"plain text", "{broken", `{"type":"result","result":"r"}`},
			"Final answer:\nplain text\n{broken\nr", "r"},
		{"fallback is the answer when no final text",
			[]string{"only text", "more"}, "Final answer:\nonly text\nmore\n", "only text\nmore\n"},
		{"non-JSON line after a final answer is still written",
			[]string{`{"type":"result","result":"r"}`, "tail"}, "Final answer:\nrtail\n", "r"},
		{"JSON with surrounding white space",
			[]string{`  {"type":"result","result":"ws"}  `}, "Final answer:\nws", "ws"},
		{"a BOM makes a line non-JSON",
			[]string{"\ufeff{\"text\":\"x\"}"}, "Final answer:\n\ufeff{\"text\":\"x\"}\n", "\ufeff{\"text\":\"x\"}\n"},
		{"answer never written is printed at the end",
			[]string{`{"type":"assistant","message":{"content":[{"type":"text","text":"\n"}]}}`,
				`{"type":"assistant","message":{"content":[{"type":"text","text":"late"}]}}`},
			"Final answer:\nlate", "late"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var b strings.Builder
			p := NewParser(&b)
			for _, l := range tt.in {
				_, _ = p.Write([]byte(l + "\n"))
			}
			_ = p.Close()
			if b.String() != tt.transcript {
				t.Errorf("transcript = %q, want %q", b.String(), tt.transcript)
			}
			if p.Answer() != tt.answer {
				t.Errorf("answer = %q, want %q", p.Answer(), tt.answer)
			}
		})
	}
}

// Lines end at \n, \r\n or a lone \r, across writes; the last line needs no
// terminator.
func TestParserLineSplitting(t *testing.T) {
	var b strings.Builder
	p := NewParser(&b)
	for _, chunk := range []string{"a\r", "\nb\rc", "\r", "\n", "d"} {
		_, _ = p.Write([]byte(chunk))
	}
	_ = p.Close()
	if want := "Final answer:\na\nb\nc\nd\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

func TestParserInvalidUTF8(t *testing.T) {
	var b strings.Builder
	p := NewParser(&b)
	_, _ = p.Write([]byte("x\xffy\n"))
	_ = p.Close()
	if want := "Final answer:\nx\ufffdy\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}
