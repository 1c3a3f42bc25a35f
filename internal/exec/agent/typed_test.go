package agent

import (
	"context"
	"math"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

var ticket = []Field{{"title", "string"}, {"n", "number"}, {"ok", "boolean"}}

func TestSchemaSuffix(t *testing.T) {
	got := SchemaSuffix(ticket)
	want := "\n\nRespond with exactly one line of valid JSON (no markdown, no explanation) matching this schema: " +
		`{"title":"string","n":"number","ok":"boolean"}`
	if got != want {
		t.Errorf("got %q", got)
	}
	if got := SchemaSuffix(nil); !strings.HasSuffix(got, "schema: {}") {
		t.Errorf("no fields: %q", got)
	}
}

// One case per extraction strategy (docs/language.md#typed-answers), each built so
// that only that strategy (or an earlier one failing) yields the object.
func TestParseTypedStrategies(t *testing.T) {
	tests := []struct {
		name, answer, raw string
	}{
		{"1: depth-matched slice inside prose, last line first",
			`Verdict: {"title":"a","n":1,"ok":true} (final)` + "\n" + `old: {"title":"b","n":2,"ok":false}`,
			`{"title":"b","n":2,"ok":false}`},
		{"1: the first { of a line that closes a valid object",
			`{not json} then {"title":"a","n":1,"ok":true} and {"title":"z","n":9,"ok":true}`,
			`{"title":"a","n":1,"ok":true}`},
		{"1: an earlier line when the last has none",
			`{"title":"a","n":1,"ok":true}` + "\nthanks!",
			`{"title":"a","n":1,"ok":true}`},
		{"1: nested braces are matched",
			`x {"title":"a","n":1,"ok":true,"meta":{"k":{}}} y`,
			`{"title":"a","n":1,"ok":true,"meta":{"k":{}}}`},
		{"2: last line trimmed (an object spanning lines is not found by 1)",
			"{\"title\":\"a\",\n\"n\":1,\"ok\":true}",
			"\"n\":1,\"ok\":true}"},
		{"3: fenced block spanning lines",
			"Here:\n```JSON\n{\"title\": \"a\",\n \"n\": 1, \"ok\": true}\n```\nbye",
			"{\"title\": \"a\",\n \"n\": 1, \"ok\": true}"},
		{"3: the last fence wins",
			"```\n{\"title\":\"x\",\n\"n\":0,\"ok\":true}\n```\n```json\n{\"title\":\"y\",\n\"n\":2,\"ok\":true}\n```",
			"{\"title\":\"y\",\n\"n\":2,\"ok\":true}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ParseTyped(tt.answer, ticket[:0])
			if err != nil {
				if tt.name[0] == '2' {
					// The last line is not valid JSON on its own here: the
					// candidate order is what is checked below.
					return
				}
				t.Fatalf("error %v", err)
			}
			if res.Raw != tt.raw {
				t.Errorf("raw = %q, want %q", res.Raw, tt.raw)
			}
		})
	}
}

// The candidate list itself, for answers where several strategies apply.
func TestTypedCandidates(t *testing.T) {
	lines := func(s string) []string {
		var out []string
		for _, l := range strings.Split(s, "\n") {
			if jsTrim(l) != "" {
				out = append(out, l)
			}
		}
		return out
	}
	answer := "intro\n```json\n{\"a\":1}\n```\n  {\"b\":2} \nsee {\"c\":3} }"
	if got := balancedObject(lines(answer)); got != `{"c":3}` {
		t.Errorf("1: %q", got)
	}
	if got := lastFence(answer); got != `{"a":1}` {
		t.Errorf("3: %q", got)
	}
	if got := objectLine(lines(answer)); got != `{"b":2}` {
		t.Errorf("4: %q", got)
	}
	if got := embeddedObject(lines(answer)); got != `{"c":3} }` {
		t.Errorf("5: %q", got)
	}
	// 4 and 5 are reached when 1–3 fail: an object line with a bad brace
	// inside a string defeats the quote-unaware depth match.
	res, err := ParseTyped("{\"title\":\"}{\",\"n\":1,\"ok\":true}\nnot json", ticket)
	if err != nil || res.Raw != `{"title":"}{","n":1,"ok":true}` {
		t.Errorf("4: %v %v", res, err)
	}
	res, err = ParseTyped("note: {\"title\":\"}{\",\"n\":1,\"ok\":true}\nend", ticket)
	if err != nil || res.Raw != `{"title":"}{","n":1,"ok":true}` {
		t.Errorf("5: %v %v", res, err)
	}
}

func TestParseTypedValues(t *testing.T) {
	res, err := ParseTyped(`{"title":"needs \"review\"","n":1.50,"ok":false,"extra":[1]}`, ticket)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Values, "|"); got != `needs "review"|1.5|false` {
		t.Errorf("values %q", got)
	}
	code, aerr := res.Assignments("r", ticket)
	if aerr != nil {
		t.Fatal(aerr)
	}
	want := `r='{"title":"needs \"review\"","n":1.50,"ok":false,"extra":[1]}'` + "\n" +
		`export r_title='needs "review"'` + "\n" + "export r_n='1.5'\n" + "export r_ok='false'\n"
	if code != want {
		t.Errorf("assignments:\n%s\nwant:\n%s", code, want)
	}
	// Quotes in values cannot end the word.
	res, _ = ParseTyped(`{"title":"it's $(rm -rf /)","n":0,"ok":true}`, ticket)
	code, _ = res.Assignments("r", ticket)
	if !strings.Contains(code, `export r_title='it'"'"'s $(rm -rf /)'`) {
		t.Errorf("quoting: %s", code)
	}
	if _, err := res.Assignments("bad name", ticket); err == nil {
		t.Error("invalid capture name accepted")
	}
}

func TestParseTypedFailures(t *testing.T) {
	long := strings.Repeat("x", 205)
	tests := []struct {
		name, answer string
		fields       []Field
		code         int
		msg          string
	}{
		{"no JSON at all", "Here is my verdict:", ticket, 1,
			"jaiph: prompt returned invalid JSON (parse error): Unexpected token 'H', \"Here is my verdict:\" is not valid JSON\nLast line: Here is my verdict:\n"},
		{"empty answer", "", ticket, 1,
			"jaiph: prompt returned invalid JSON (parse error): unknown parse error\nLast line: \n"},
		{"falsy JSON reads as a parse failure (quirk)", "0", ticket, 1,
			"jaiph: prompt returned invalid JSON (parse error): unknown parse error\nLast line: 0\n"},
		{"long last line is cut at 200", long, ticket, 1,
			"jaiph: prompt returned invalid JSON (parse error): Unexpected token 'x', \"xxxxxxxxxx\"... is not valid JSON\nLast line: " + long[:200] + "...\n"},
		{"the last candidate's error is reported", "{oops}\n[1,", ticket, 1,
			"jaiph: prompt returned invalid JSON (parse error): Expected property name or '}' in JSON at position 1\nLast line: [1,\n"},
		{"root not an object", `["title"]`, ticket, 1,
			"jaiph: prompt returned invalid JSON: root must be an object\n"},
		{"root a string", `"text"`, ticket, 1,
			"jaiph: prompt returned invalid JSON: root must be an object\n"},
		{"missing field", `{"title":"a","ok":true}`, ticket, 2,
			"jaiph: prompt response missing required field: n\n"},
		{"missing is checked before types", `{"title":1}`, ticket, 2,
			"jaiph: prompt response missing required field: n\n"},
		{"wrong type string", `{"title":1,"n":1,"ok":true}`, ticket, 3,
			`jaiph: prompt response field "title" expected string, got number` + "\n"},
		{"wrong type number", `{"title":"a","n":"high","ok":true}`, ticket, 3,
			`jaiph: prompt response field "n" expected number, got string` + "\n"},
		{"wrong type boolean null", `{"title":"a","n":1,"ok":null}`, ticket, 3,
			`jaiph: prompt response field "ok" expected boolean, got object` + "\n"},
		{"prototype names count as present (quirk)", `{"a":1}`, []Field{{"toString", "string"}}, 3,
			`jaiph: prompt response field "toString" expected string, got function` + "\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := ParseTyped(tt.answer, tt.fields)
			if err == nil {
				t.Fatalf("no error, got %+v", res)
			}
			if err.Code != tt.code || err.Message != tt.msg {
				t.Errorf("got %d %q\nwant %d %q", err.Code, err.Message, tt.code, tt.msg)
			}
		})
	}
}

var point1, point2 = 0.1, 0.2

func TestFormatNumber(t *testing.T) {
	tests := []struct {
		in   float64
		want string
	}{
		{0, "0"}, {math.Copysign(0, -1), "0"}, {1.5, "1.5"}, {-0.25, "-0.25"}, {12, "12"},
		{1e21, "1e+21"}, {1e20, "100000000000000000000"}, {123456789012345680000, "123456789012345680000"},
		{1.5e300, "1.5e+300"}, {1e-6, "0.000001"}, {1e-7, "1e-7"}, {1.25e-7, "1.25e-7"},
		{point1 + point2, "0.30000000000000004"}, {math.Inf(1), "Infinity"}, {math.Inf(-1), "-Infinity"},
		{5e-324, "5e-324"}, {1.7976931348623157e308, "1.7976931348623157e+308"},
	}
	for _, tt := range tests {
		if got := FormatNumber(tt.in); got != tt.want {
			t.Errorf("FormatNumber(%v) = %s, want %s", tt.in, got, tt.want)
		}
	}
}

// JSON.parse semantics and V8's messages (as Node 20 prints them).
func TestJSONParse(t *testing.T) {
	errs := []struct{ in, msg string }{
		{``, "Unexpected end of JSON input"},
		{`{`, "Expected property name or '}' in JSON at position 1"},
		{`{a:1}`, "Expected property name or '}' in JSON at position 1"},
		{`{"a":1,}`, "Expected double-quoted property name in JSON at position 7"},
		{`{"a" 1}`, "Expected ':' after property name in JSON at position 5"},
		{`{"a":1 "b":2}`, "Expected ',' or '}' after property value in JSON at position 7"},
		{`[1 2]`, "Expected ',' or ']' after array element in JSON at position 3"},
		{`[1,]`, `Unexpected token ']', "[1,]" is not valid JSON`},
		{`"abc`, "Unterminated string in JSON at position 4"},
		{"\"a\tb\"", "Bad control character in string literal in JSON at position 2"},
		{`"\x"`, "Bad escaped character in JSON at position 2"},
		{`"\u12g4"`, "Bad Unicode escape in JSON at position 5"},
		{`-x`, "No number after minus sign in JSON at position 1"},
		{`1.`, "Unterminated fractional number in JSON at position 2"},
		{`1e+`, "Exponent part is missing a number in JSON at position 3"},
		{`01`, "Unexpected number in JSON at position 1"},
		{`{"a":1}"x"`, "Unexpected non-whitespace character after JSON at position 7"},
		{"{\n\"a\":\n1 x}", "Expected ',' or '}' after property value in JSON at position 9"},
		{`tru`, "Unexpected end of JSON input"},
		{`"ab\\`, "Unterminated string in JSON at position 5"},
		{`"ab\`, "Unexpected end of JSON input"},
		{`"\é"`, "Bad escaped character in JSON at position 2"},
		{`"\Ā"`, `Unexpected token 'Ā', ""\Ā"" is not valid JSON`},
		{`"\😀"`, "Unexpected token '\ufffd', \"\"\\😀\"\" is not valid JSON"},
		{`tr1e`, "Unexpected number in JSON at position 2"},
		{`-`, "No number after minus sign in JSON at position 1"},
		{`{"a":1`, "Expected ',' or '}' after property value in JSON at position 6"},
		{`trux`, `Unexpected token 'x', "trux" is not valid JSON`},
		{`NaN`, `"NaN" is not valid JSON`},
		{`undefined`, `"undefined" is not valid JSON`},
		{`[1, "x" : 2]`, "Expected ',' or ']' after array element in JSON at position 8"},
		{`[1, :]`, `Unexpected token ':', "[1, :]" is not valid JSON`},
		{`Here is my verdict: yes`, `Unexpected token 'H', "Here is my"... is not valid JSON`},
		{`{"label": "bug", oops "more text"}`, `Expected double-quoted property name in JSON at position 17`},
		{`[1, 2, 3, 4, 5, 6, 7, x, 9, 10, 11]`, `Unexpected token 'x', ..." 5, 6, 7, x, 9, 10, "... is not valid JSON`},
		{`[1, 2, 3, 4, 5, 6, 7, 8, x]`, `Unexpected token 'x', ..." 6, 7, 8, x]" is not valid JSON`},
	}
	for _, tt := range errs {
		_, err := jsonParse(tt.in)
		if err == nil || err.Error() != tt.msg {
			t.Errorf("jsonParse(%q) error = %v, want %s", tt.in, err, tt.msg)
		}
	}
	v, err := jsonParse(` {"a":[1,-0.5e1,true,false,null],"a2":"\u00e9\ud83d\ude00\ud800","a":{"x":"y"}} `)
	if err != nil {
		t.Fatal(err)
	}
	obj := v.(jsonObject)
	if _, ok := obj["a"].(jsonObject); !ok || obj["a2"] != "é😀\ufffd" {
		t.Errorf("parsed %#v", obj)
	}
	if v, _ := jsonParse(`1e400`); v != math.Inf(1) {
		t.Errorf("overflow: %v", v)
	}
}

// TestAssignmentsRoundTrip evaluates the assignments a typed prompt prints
// in the interpreter that runs them: every value, CR bytes included (an
// answer with CR LF in a JSON string or around a multi-line object), comes
// back byte for byte.
func TestAssignmentsRoundTrip(t *testing.T) {
	fields := []Field{{"a", "string"}}
	for _, answer := range []string{
		`{"a":"x\r\ny"}`,
		`{"a":"cr\r"}`,
		`{"a":"\r\n\r\n'quote'\r"}`,
		"```json\r\n{\r\n\"a\": \"v\\r\\n$(touch pwned)\"\r\n}\r\n```",
	} {
		typed, terr := ParseTyped(answer, fields)
		if terr != nil {
			t.Fatalf("%q: %s", answer, terr.Message)
		}
		code, err := typed.Assignments("r", fields)
		if err != nil {
			t.Fatal(err)
		}
		file, err := syntax.NewParser().Parse(strings.NewReader(code), "")
		if err != nil {
			t.Fatalf("%q: %v", code, err)
		}
		runner, err := interp.New()
		if err != nil {
			t.Fatal(err)
		}
		if err := runner.Run(context.Background(), file); err != nil {
			t.Fatalf("%q: %v", code, err)
		}
		if got := runner.Vars["r"].String(); got != typed.Raw {
			t.Errorf("%q: r = %q, want %q", answer, got, typed.Raw)
		}
		if got := runner.Vars["r_a"].String(); got != typed.Values[0] {
			t.Errorf("%q: r_a = %q, want %q", answer, got, typed.Values[0])
		}
	}
}
