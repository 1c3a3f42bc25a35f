package agent

import (
	"reflect"
	"testing"
)

func TestParseSchema(t *testing.T) {
	for _, c := range []struct {
		in     string
		fields []Field
		msg    string
	}{
		{"{ a: string, b: Number }", []Field{{"a", "string"}, {"b", "number"}}, ""},
		{"{}", nil, ""},
		{"  ", nil, "returns schema cannot be empty"},
		{"{ a: string[] }", nil, "returns schema must be flat (no arrays or union types); only string, number, boolean allowed"},
		{"{ a: date }", nil, `unsupported type in returns schema: "date" (only string, number, boolean allowed)`},
		{"{ a string }", nil, `invalid returns schema entry: expected "fieldName: type" (got a string...)`},
	} {
		fields, msg := ParseSchema(c.in)
		if !reflect.DeepEqual(fields, c.fields) || msg != c.msg {
			t.Errorf("ParseSchema(%q) = %v, %q; want %v, %q", c.in, fields, msg, c.fields, c.msg)
		}
	}
}
