package hooks

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Event names: the keys of hooks.json and the "event" field of payloads.
const (
	WorkflowStartEvent = "workflow_start"
	WorkflowEndEvent   = "workflow_end"
	StepStartEvent     = "step_start"
	StepEndEvent       = "step_end"
)

var eventNames = [...]string{WorkflowStartEvent, WorkflowEndEvent, StepStartEvent, StepEndEvent}

// Config maps an event name to its commands, in file order.
type Config map[string][]string

// GlobalPath is ~/.jaiph/hooks.json for the given home directory.
func GlobalPath(home string) string { return filepath.Join(home, ".jaiph", "hooks.json") }

// ProjectPath is <workspace>/.jaiph/hooks.json.
func ProjectPath(workspace string) string { return filepath.Join(workspace, ".jaiph", "hooks.json") }

// ParseConfig reads one hooks.json. The document must be a JSON object; each
// of the four event keys that holds an array contributes its non-empty
// strings. Every other key, value type and array element is ignored. ok is
// false when the document is not a JSON object.
func ParseConfig(data []byte) (cfg Config, ok bool) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil || top == nil {
		return nil, false
	}
	cfg = Config{}
	for _, ev := range eventNames {
		raw, present := top[ev]
		if !present {
			continue
		}
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			continue
		}
		var cmds []string
		for _, it := range items {
			var s string
			if err := json.Unmarshal(it, &s); err != nil || s == "" {
				continue
			}
			cmds = append(cmds, s)
		}
		if len(cmds) > 0 {
			cfg[ev] = cmds
		}
	}
	return cfg, true
}

// readConfig loads the file at path. A file that does not exist (or cannot
// be stat'ed) means no hooks, silently; read and parse failures are reported
// on stderr and also mean no hooks from this file.
func readConfig(path string, stderr io.Writer) Config {
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	data, err := os.ReadFile(path)
	if err != nil {
		fmt.Fprintf(stderr, "jaiph hooks: failed to read %s, skipping\n", path)
		return nil
	}
	cfg, ok := ParseConfig(data)
	if !ok {
		fmt.Fprintf(stderr, "jaiph hooks: invalid or unsupported config at %s, skipping\n", path)
		return nil
	}
	return cfg
}

// Merge applies the per-event precedence: the project's list wins when it is
// non-empty, else the global one is used.
func Merge(global, project Config) Config {
	out := Config{}
	for _, ev := range eventNames {
		switch {
		case len(project[ev]) > 0:
			out[ev] = project[ev]
		case len(global[ev]) > 0:
			out[ev] = global[ev]
		}
	}
	return out
}
