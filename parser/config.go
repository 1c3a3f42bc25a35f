package parser

import (
	"strconv"
	"strings"
	"time"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/diag"
)

// configTable is every config key and the value type it requires: the
// reference's keys in its order, then jaiph-go's (docs/differences.md).
// The one list: the unknown-key diagnostic, its "Did you mean", the key
// kinds and editor completion (ConfigKeys) all come from it.
var configTable = []struct {
	key       string
	kind      ast.ConfigKind
	reference bool // one of the reference's keys
}{
	{"agent.default_model", ast.ConfigString, true}, {"agent.command", ast.ConfigString, true},
	{"agent.backend", ast.ConfigString, true}, {"agent.trusted_workspace", ast.ConfigString, true},
	{"agent.cursor_flags", ast.ConfigString, true}, {"agent.claude_flags", ast.ConfigString, true},
	{"run.logs_dir", ast.ConfigString, true}, {"run.debug", ast.ConfigBool, true}, {"run.inbox_parallel", ast.ConfigBool, true},
	{"runtime.docker_enabled", ast.ConfigBool, true}, {"runtime.docker_image", ast.ConfigString, true},
	{"runtime.docker_network", ast.ConfigString, true}, {"runtime.docker_timeout", ast.ConfigInt, true},
	{"runtime.workspace", ast.ConfigArray, true},
	// jaiph-go's own.
	{"agent.retries", ast.ConfigInt, false}, {"agent.retry_backoff", ast.ConfigString, false},
	{"agent.idle_warn", ast.ConfigString, false},
	{"run.inbox_max_dispatch_depth", ast.ConfigInt, false},
	{"run.inbox_retries", ast.ConfigInt, false}, {"run.inbox_retry_backoff", ast.ConfigString, false},
	{"run.inbox_lease", ast.ConfigString, false},
	{"run.timeout", ast.ConfigString, false}, {"run.max_steps", ast.ConfigInt, false},
	{"run.step_idle_kill", ast.ConfigString, false},
}

// ConfigKeys lists every config key in configTable's order.
var ConfigKeys = configKeys(false)

// configKeys lists the keys of configTable (only the reference's when
// referenceOnly).
func configKeys(referenceOnly bool) []string {
	var out []string
	for _, e := range configTable {
		if e.reference || !referenceOnly {
			out = append(out, e.key)
		}
	}
	return out
}

// unknownKey is the unknown-key diagnostic. Its "Allowed:" list is the
// reference's keys, as the reference prints it (the conformance corpus
// pins the text, case 050); "Did you mean" looks at every key, so a
// misspelt jaiph-go key is named.
func unknownKey(key string) string {
	return "unknown config key: " + key + ". Allowed: " + strings.Join(configKeys(true), ", ") + diag.Suggest(key, ConfigKeys)
}

// configKeyKind is the value type each key requires.
var configKeyKind = func() map[string]ast.ConfigKind {
	out := make(map[string]ast.ConfigKind, len(configTable))
	for _, e := range configTable {
		out[e.key] = e.kind
	}
	return out
}()

// isDigits reports whether v is one or more ASCII digits (the reference's
// /^[0-9]+$/).
func isDigits(v string) bool {
	if v == "" {
		return false
	}
	for i := 0; i < len(v); i++ {
		if v[i] < '0' || v[i] > '9' {
			return false
		}
	}
	return true
}

// parseConfigBlock parses `config {` … `}` starting at line i and returns the
// block and the index of the line after it. In a workflow only agent.* and
// run.* keys are allowed.
func (p *parser) parseConfigBlock(i int, inWorkflow bool) (*ast.Config, int) {
	open := p.lines[i]
	cfg := &ast.Config{Pos: p.pos(i, indentCol(open))}
	if trim(open) != "config {" {
		p.errorAt(i+1, indentCol(open), "config block must be exactly 'config {' on its own line")
		return nil, p.skipConfig(i + 1)
	}
	bad := false
	for j := i + 1; j < len(p.lines); j++ {
		raw := p.lines[j]
		t := trim(raw)
		col := indentCol(raw)
		if t == "" || strings.HasPrefix(t, "#") {
			if t != "" {
				cfg.Comments = append(cfg.Comments, &ast.Comment{Pos: p.pos(j, col), End: p.endOf(j), Text: t})
			}
			continue
		}
		if t == "}" {
			if bad {
				return nil, j + 1
			}
			cfg.End = p.endOf(j)
			return cfg, j + 1
		}
		if bad {
			continue
		}
		h, ok := parseHead(t, grammars.config())
		if !ok && !strings.Contains(t, "=") {
			p.entryError(j+1, col, "config line must be key = value: "+t)
			bad = true
			continue
		}
		var key, value string
		if ok {
			key, value = h.Key, trim(t[h.EndPos.Offset:])
		} else {
			// Not `key = ` as tokens: split at the first `=` as the
			// reference does, which names the text before it in the
			// unknown-key diagnostic (and accepts a key followed by
			// white space other than Space, such as a vertical tab).
			before, after, _ := strings.Cut(t, "=")
			key, value = trim(before), trim(after)
		}
		want, known := configKeyKind[key]
		if !known {
			p.entryError(j+1, col, unknownKey(key))
			bad = true
			continue
		}
		if inWorkflow && strings.HasPrefix(key, "runtime.") {
			p.entryError(j+1, col, "runtime.* keys are not allowed in workflow-level config (only agent.* and run.* keys)")
			bad = true
			continue
		}
		e := &ast.ConfigEntry{Pos: p.pos(j, col), Key: key}
		next, msg := p.parseConfigValue(e, value, j)
		if msg.text == "" {
			msg = configError{line: j + 1, col: col, text: checkConfigType(e, want)}
		}
		if msg.text != "" {
			if msg.fatal {
				p.errorAt(msg.line, msg.col, msg.text)
				p.eof = true
				return nil, next
			}
			p.entryError(msg.line, msg.col, msg.text)
			bad = true
		}
		e.End = p.endOf(next - 1)
		cfg.Entries = append(cfg.Entries, e)
		j = next - 1
	}
	p.errorAtEOF(i+1, 1, "config block not closed with '}'")
	return nil, len(p.lines)
}

// skipConfig skips to the line after the closing `}` of a rejected block.
func (p *parser) skipConfig(i int) int {
	for ; i < len(p.lines); i++ {
		if trim(p.lines[i]) == "}" {
			return i + 1
		}
	}
	p.eof = true
	return i
}

// configError is a config value problem at a position; fatal errors (an
// unclosed array) end the block.
type configError struct {
	line, col int
	text      string
	fatal     bool
}

// parseConfigValue fills e from the text after `=` on line j; arrays may
// continue over following lines. It returns the next line index and the
// problem, if any (text "" when fine).
func (p *parser) parseConfigValue(e *ast.ConfigEntry, v string, j int) (int, configError) {
	at := func(text string) configError {
		return configError{line: j + 1, col: indentCol(p.lines[j]), text: text}
	}
	switch {
	case v == "true" || v == "false":
		e.Kind, e.Bool = ast.ConfigBool, v == "true"
	case isDigits(v):
		n, err := strconv.Atoi(v)
		if err != nil {
			return j + 1, at(notAValue(e.Key, v))
		}
		e.Kind, e.Int = ast.ConfigInt, n
	case v == "[]":
		e.Kind, e.Array = ast.ConfigArray, []string{}
	case v == "[":
		e.Kind, e.Array = ast.ConfigArray, []string{}
		for k := j + 1; k < len(p.lines); k++ {
			t := trim(p.lines[k])
			if t == "]" || t == "]," {
				return k + 1, configError{}
			}
			if t == "" || strings.HasPrefix(t, "#") {
				continue
			}
			if c := strings.Index(t, " #"); c >= 0 {
				t = strings.TrimRight(t[:c], " \t")
			}
			if strings.HasSuffix(t, ",") {
				t = strings.TrimRight(t[:len(t)-1], " \t")
			}
			s, ok := quotedConfigString(t)
			if !ok {
				return k + 1, configError{line: k + 1, col: indentCol(p.lines[k]), text: "array elements must be quoted strings: " + t}
			}
			e.Array = append(e.Array, s)
		}
		return len(p.lines), configError{line: j + 1, col: 1, text: "array not closed with ']'", fatal: true}
	default:
		s, ok := quotedConfigString(v)
		if !ok {
			return j + 1, at(notAValue(e.Key, v))
		}
		e.Kind, e.Str = ast.ConfigString, s
	}
	return j + 1, configError{}
}

// notAValue is the diagnostic of a value written in no syntax a config
// value has (`-3`, `claude --print`). An integer or boolean key says what
// it takes: the reference's text, kept for string keys, would offer "a
// quoted string or true/false" to `run.max_steps = -3`.
func notAValue(key, v string) string {
	switch configKeyKind[key] {
	case ast.ConfigInt:
		if key == "run.inbox_max_dispatch_depth" {
			return key + " must be a positive integer: " + v
		}
		return key + " must be a non-negative integer: " + v
	case ast.ConfigBool:
		return key + " must be true or false: " + v
	}
	return "config value must be a quoted string or true/false: " + v
}

// quotedConfigString unquotes `"…"`/`'…'` and applies the reference's
// sequential escape replacements (\n, \t, \", \\).
func quotedConfigString(v string) (string, bool) {
	// Quirk: a lone `"` starts and ends with a quote and is the empty string.
	if len(v) < 1 || (v[0] != '"' && v[0] != '\'') || v[len(v)-1] != v[0] {
		return "", false
	}
	s := ""
	if len(v) >= 2 {
		s = v[1 : len(v)-1]
	}
	s = strings.ReplaceAll(s, `\n`, "\n")
	s = strings.ReplaceAll(s, `\t`, "\t")
	s = strings.ReplaceAll(s, `\"`, `"`)
	s = strings.ReplaceAll(s, `\\`, `\`)
	return s, true
}

func checkConfigType(e *ast.ConfigEntry, want ast.ConfigKind) string {
	if e.Kind != want {
		switch want {
		case ast.ConfigBool:
			return e.Key + " must be true or false"
		case ast.ConfigInt:
			return e.Key + " must be an integer"
		case ast.ConfigArray:
			return e.Key + " must be an array of strings"
		default:
			return e.Key + " must be a string"
		}
	}
	if e.Key == "agent.backend" && e.Str != "cursor" && e.Str != "claude" {
		return `agent.backend must be "cursor" or "claude"`
	}
	// 0 would stop every drain at its first message; the runtime would
	// silently fall back to 100 instead.
	if e.Key == "run.inbox_max_dispatch_depth" && e.Int < 1 {
		return "run.inbox_max_dispatch_depth must be a positive integer"
	}
	// Checked here so that a typo fails `jaiph check`, not the first prompt.
	if (e.Key == "agent.retry_backoff" || e.Key == "agent.idle_warn" || e.Key == "run.inbox_retry_backoff" || e.Key == "run.inbox_lease" || e.Key == "run.timeout" || e.Key == "run.step_idle_kill") && !validDuration(e.Str) {
		return e.Key + ` must be a duration such as "1s", "500ms" or "2m": ` + e.Str
	}
	return ""
}

// validDuration is the duration syntax of agent.retry_backoff,
// agent.idle_warn and run.inbox_retry_backoff (Go's, non-negative); the
// runtime reads the same syntax from their JAIPH_* variables.
func validDuration(s string) bool {
	d, err := time.ParseDuration(s)
	return err == nil && d >= 0
}
