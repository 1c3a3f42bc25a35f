package serve

// This file answers: which workflows are served, what arguments does each
// take, and how does a request's JSON object become $1, $2, …?

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/jaiph-go/jaiph/internal/tools/mcpserver"
)

// workflow is one served workflow: an exported workflow, named as `jaiph
// mcp` names its tool.
type workflow struct {
	mcpserver.Tool
	params []param // its positional parameters, $1 first
	rest   bool    // it also takes the rest ("$@"): the "args" array
}

// param is one positional parameter and the key of the request object
// that gives it: its name in the body (name="$1"), else argN.
type param struct {
	pos  int
	name string
}

// restKey is the request object's key for the arguments after the named
// ones, when the body uses "$@" or "$*".
const restKey = "args"

func newWorkflow(t mcpserver.Tool) workflow {
	w := workflow{Tool: t}
	for _, p := range t.Params {
		if p == "…" {
			w.rest = true
			continue
		}
		num, name, _ := strings.Cut(strings.TrimPrefix(p, "$"), " ")
		pos, _ := strconv.Atoi(num)
		if name == "" || name == restKey {
			name = "arg" + num
		}
		w.params = append(w.params, param{pos: pos, name: name})
	}
	return w
}

// keys are the request object's keys the workflow accepts.
func (w workflow) keys() []string {
	var ks []string
	for _, p := range w.params {
		ks = append(ks, p.name)
	}
	if w.rest {
		ks = append(ks, restKey)
	}
	return ks
}

// args turns a request body (a JSON object of strings, and "args" an array
// of strings when the workflow takes the rest) into the workflow's
// positional arguments. A parameter left out is "" when a later one is
// given, and absent after the last one given ($# counts what was given).
// The values are data: they reach the workflow as $1, $2, …, never as code.
func (w workflow) args(body []byte) ([]string, error) {
	var obj map[string]json.RawMessage
	if len(strings.TrimSpace(string(body))) == 0 {
		obj = map[string]json.RawMessage{}
	} else if err := json.Unmarshal(body, &obj); err != nil || obj == nil {
		return nil, fmt.Errorf("the body must be a JSON object of string arguments (%s)", w.keysText())
	}
	byName := map[string]int{}
	for _, p := range w.params {
		byName[p.name] = p.pos
	}
	var out []string
	var rest []string
	names := make([]string, 0, len(obj))
	for k := range obj {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		v := obj[k]
		if k == restKey && w.rest {
			if err := json.Unmarshal(v, &rest); err != nil || rest == nil && string(v) != "[]" {
				return nil, fmt.Errorf("%q must be an array of strings", restKey)
			}
			continue
		}
		pos, ok := byName[k]
		if !ok {
			return nil, fmt.Errorf("unknown argument %q: workflow %s takes %s", k, w.Name, w.keysText())
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return nil, fmt.Errorf("argument %q must be a string", k)
		}
		for len(out) < pos {
			out = append(out, "")
		}
		out[pos-1] = s
	}
	if len(rest) > 0 {
		for len(out) < len(w.params) {
			out = append(out, "")
		}
		out = append(out, rest...)
	}
	return out, nil
}

func (w workflow) keysText() string {
	ks := w.keys()
	if len(ks) == 0 {
		return "no arguments"
	}
	return strings.Join(ks, ", ")
}

// schema is the JSON Schema (draft 2020-12, as OpenAPI 3.1 takes it) of
// the workflow's request body.
func (w workflow) schema() map[string]any {
	props := map[string]any{}
	for _, p := range w.params {
		props[p.name] = map[string]any{"type": "string", "description": fmt.Sprintf("$%d", p.pos)}
	}
	if w.rest {
		props[restKey] = map[string]any{"type": "array", "items": map[string]any{"type": "string"},
			"description": fmt.Sprintf("the arguments after $%d", len(w.params))}
	}
	return map[string]any{"type": "object", "properties": props, "additionalProperties": false}
}
