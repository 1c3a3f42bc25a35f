package agent

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/jaiph-go/jaiph/internal/shellscan"
)

// Field is one field of a typed prompt's `returns` schema.
type Field struct {
	Name string
	Type string // "string", "number" or "boolean"
}

// SchemaSuffix is what a typed prompt appends to its text: an instruction
// and the schema as compact JSON, fields in declaration order.
func SchemaSuffix(fields []Field) string {
	var b strings.Builder
	b.WriteString("\n\nRespond with exactly one line of valid JSON (no markdown, no explanation) matching this schema: {")
	for i, f := range fields {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Quote(f.Name) + ":" + strconv.Quote(f.Type))
	}
	b.WriteByte('}')
	return b.String()
}

// TypedError is a typed-prompt failure: Code is the statement's exit status
// (1 invalid JSON, 2 missing field, 3 wrong type) and Message the stderr
// text (docs/language.md#typed-prompts), newline-terminated.
type TypedError struct {
	Code    int
	Message string
}

func (e *TypedError) Error() string { return strings.TrimRight(e.Message, "\n") }

// Typed is a parsed typed-prompt answer.
type Typed struct {
	// Raw is the JSON text the answer was read from, verbatim.
	Raw string
	// Values are the fields' values as the shell sees them, in schema order:
	// strings as-is, numbers in JavaScript's shortest form, true/false.
	Values []string
}

// ParseTyped finds the JSON object in a prompt's answer and checks it
// against the schema (docs/language.md#typed-answers). Candidates, de-duplicated and
// tried in order: (1) the first `{…}` slice, scanning lines last to first
// and each line's `{` left to right, whose depth-matching `}` closes a
// valid JSON object; (2) the last non-blank line, trimmed; (3) the inside of
// the last ``` fence; (4) the last line that starts with `{` and ends with
// `}`; (5) the last line with a `{` after its first character and a later
// `}`, cut to that span. The first candidate that parses as JSON wins.
func ParseTyped(answer string, fields []Field) (*Typed, *TypedError) {
	var lines []string
	for _, l := range strings.Split(answer, "\n") {
		if jsTrim(l) != "" {
			lines = append(lines, l)
		}
	}
	lastLine := ""
	if len(lines) > 0 {
		lastLine = jsTrim(lines[len(lines)-1])
	}
	var candidates []string
	for _, c := range []string{balancedObject(lines), lastLine, lastFence(answer), objectLine(lines), embeddedObject(lines)} {
		if c != "" && !contains(candidates, c) {
			candidates = append(candidates, c)
		}
	}
	var (
		value   any
		raw     string
		found   bool
		lastErr error
	)
	for _, c := range candidates {
		v, err := jsonParse(c)
		if err != nil {
			lastErr = err
			continue
		}
		value, raw, found, lastErr = v, c, true, nil
		break
	}
	// The reference tests `!obj`: a falsy winner (0, false, null, "") reads
	// as a parse failure without an error (quirk).
	if !found || !truthy(value) {
		msg := "unknown parse error"
		if lastErr != nil {
			msg = lastErr.Error()
		}
		cut := lastLine
		if u := utf16.Encode([]rune(lastLine)); len(u) > 200 {
			cut = string(utf16.Decode(u[:200])) + "..."
		}
		return nil, &TypedError{1, "jaiph: prompt returned invalid JSON (parse error): " + msg + "\nLast line: " + cut + "\n"}
	}
	obj, ok := value.(jsonObject)
	if !ok {
		return nil, &TypedError{1, "jaiph: prompt returned invalid JSON: root must be an object\n"}
	}
	for _, f := range fields {
		if _, ok := property(obj, f.Name); !ok {
			return nil, &TypedError{2, "jaiph: prompt response missing required field: " + f.Name + "\n"}
		}
	}
	out := &Typed{Raw: raw}
	for _, f := range fields {
		v, _ := property(obj, f.Name)
		if t := typeOf(v); t != f.Type {
			return nil, &TypedError{3, fmt.Sprintf("jaiph: prompt response field %q expected %s, got %s\n", f.Name, f.Type, t)}
		}
		out.Values = append(out.Values, jsString(v))
	}
	return out, nil
}

// Assignments renders the shell code that sets `<capture>` to the raw JSON
// and exports `<capture>_<field>` for each field, every value single-quoted
// so no answer can become code.
func (t *Typed) Assignments(capture string, fields []Field) (string, error) {
	if !shellscan.IsIdent(capture) {
		return "", fmt.Errorf("invalid capture name %q", capture)
	}
	var b strings.Builder
	b.WriteString(capture + "=" + shellscan.Quote(t.Raw) + "\n")
	for i, f := range fields {
		if !shellscan.IsIdent(f.Name) {
			return "", fmt.Errorf("invalid field name %q", f.Name)
		}
		b.WriteString("export " + capture + "_" + f.Name + "=" + shellscan.Quote(t.Values[i]) + "\n")
	}
	return b.String(), nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// balancedObject is strategy (1).
func balancedObject(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		t := jsTrim(lines[i])
		for from := strings.IndexByte(t, '{'); from >= 0; {
			depth := 0
		scan:
			for j := from; j < len(t); j++ {
				switch t[j] {
				case '{':
					depth++
				case '}':
					depth--
					if depth == 0 {
						s := t[from : j+1]
						if v, err := jsonParse(s); err == nil {
							if _, ok := v.(jsonObject); ok {
								return s
							}
						}
						break scan
					}
				}
			}
			next := strings.IndexByte(t[from+1:], '{')
			if next < 0 {
				break
			}
			from += 1 + next
		}
	}
	return ""
}

// lastFence is strategy (3): the trimmed inside of the last match of
// /```(?:json)?\s*([\s\S]*?)```/gi.
func lastFence(s string) string {
	found, last := false, ""
	for i := 0; i+3 <= len(s); {
		if s[i:i+3] != "```" {
			i++
			continue
		}
		j := i + 3
		if len(s) >= j+4 && strings.EqualFold(s[j:j+4], "json") {
			j += 4
		}
		for j < len(s) {
			r, size := utf8.DecodeRuneInString(s[j:])
			if !isJSSpace(r) {
				break
			}
			j += size
		}
		end := strings.Index(s[j:], "```")
		if end < 0 {
			i++
			continue
		}
		found, last = true, s[j:j+end]
		i = j + end + 3
	}
	if !found {
		return ""
	}
	return jsTrim(last)
}

// objectLine is strategy (4).
func objectLine(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		t := jsTrim(lines[i])
		if strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") {
			return t
		}
	}
	return ""
}

// embeddedObject is strategy (5).
func embeddedObject(lines []string) string {
	for i := len(lines) - 1; i >= 0; i-- {
		t := jsTrim(lines[i])
		if start := strings.IndexByte(t, '{'); start > 0 {
			if end := strings.LastIndexByte(t, '}'); end > start {
				return t[start : end+1]
			}
		}
	}
	return ""
}

// objectPrototype lists Object.prototype's properties: the reference checks
// fields with `in`, so these count as present (and are functions, except
// __proto__) even when the answer lacks them (quirk).
var objectPrototype = map[string]string{
	"constructor": "function", "__defineGetter__": "function", "__defineSetter__": "function",
	"hasOwnProperty": "function", "__lookupGetter__": "function", "__lookupSetter__": "function",
	"isPrototypeOf": "function", "propertyIsEnumerable": "function", "toString": "function",
	"valueOf": "function", "toLocaleString": "function", "__proto__": "object",
}

type inherited string

func property(obj jsonObject, name string) (any, bool) {
	if v, ok := obj[name]; ok {
		return v, true
	}
	if t, ok := objectPrototype[name]; ok {
		return inherited(t), true
	}
	return nil, false
}

// typeOf is JavaScript's typeof for a parsed JSON value.
func typeOf(v any) string {
	switch v := v.(type) {
	case string:
		return "string"
	case float64:
		return "number"
	case bool:
		return "boolean"
	case inherited:
		return string(v)
	}
	return "object"
}

// jsString is String(v) for a checked field value.
func jsString(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return FormatNumber(v)
	case bool:
		return strconv.FormatBool(v)
	}
	return ""
}

// FormatNumber renders f as JavaScript's Number.prototype.toString does:
// the shortest round-trip digits, exponent form below 1e-6 and from 1e21.
func FormatNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == 0:
		return "0"
	case f < 0:
		return "-" + FormatNumber(-f)
	}
	e := strconv.FormatFloat(f, 'e', -1, 64) // d.ddde±XX
	mant, exp, _ := strings.Cut(e, "e")
	digits := strings.Replace(mant, ".", "", 1)
	x, _ := strconv.Atoi(exp)
	k, n := len(digits), x+1
	switch {
	case k <= n && n <= 21:
		return digits + strings.Repeat("0", n-k)
	case 0 < n && n <= 21:
		return digits[:n] + "." + digits[n:]
	case -6 < n && n <= 0:
		return "0." + strings.Repeat("0", -n) + digits
	}
	sign := "+"
	if n-1 < 0 {
		sign = "-"
	}
	abs := n - 1
	if abs < 0 {
		abs = -abs
	}
	if k == 1 {
		return digits + "e" + sign + strconv.Itoa(abs)
	}
	return digits[:1] + "." + digits[1:] + "e" + sign + strconv.Itoa(abs)
}
