package agent

import (
	"fmt"
	"strings"

	"github.com/jaiph-go/jaiph/internal/lazy"
)

// schemaEntry is compiled on first use (internal/lazy).
var schemaEntry = lazy.Regexp(`^\s*([A-Za-z_][A-Za-z0-9_]*)\s*:\s*(\S+)\s*$`)

// ParseSchema parses a flat `{ name: type, … }` schema; msg is the E_SCHEMA
// text when it is invalid. validate reports msg; codegen puts the fields of
// a valid schema in the prompt's step record, so nothing parses it at run
// time.
func ParseSchema(schema string) (fields []Field, msg string) {
	t := strings.TrimSpace(schema)
	if t == "" {
		return nil, "returns schema cannot be empty"
	}
	if strings.ContainsAny(t, "[]|") {
		return nil, "returns schema must be flat (no arrays or union types); only string, number, boolean allowed"
	}
	inner := strings.TrimLeft(t, " \t\n\r")
	inner = strings.TrimPrefix(inner, "{")
	inner = strings.TrimRight(inner, " \t\n\r")
	inner = strings.TrimSuffix(inner, "}")
	inner = strings.TrimSpace(inner)
	if inner == "" {
		return nil, ""
	}
	for _, part := range strings.Split(inner, ",") {
		p := strings.TrimSpace(part)
		m := schemaEntry().FindStringSubmatch(p)
		if m == nil {
			if len(p) > 40 {
				p = p[:40]
			}
			return nil, fmt.Sprintf(`invalid returns schema entry: expected "fieldName: type" (got %s...)`, p)
		}
		typ := strings.ToLower(m[2])
		if typ != "string" && typ != "number" && typ != "boolean" {
			return nil, fmt.Sprintf(`unsupported type in returns schema: "%s" (only string, number, boolean allowed)`, m[2])
		}
		fields = append(fields, Field{Name: m[1], Type: typ})
	}
	return fields, ""
}
