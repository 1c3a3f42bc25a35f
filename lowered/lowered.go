package lowered

import (
	"strings"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"

	"github.com/jaiph-go/jaiph/internal/exec/agent"
)

// Kind is the kind of a managed body.
type Kind string

// The managed body kinds.
const (
	Rule     Kind = "rule"
	Function Kind = "function"
	Workflow Kind = "workflow"
)

// Body is one lowered rule, function or workflow.
type Body struct {
	Kind   Kind
	Name   string
	Symbol string // <module symbol>::<name>
	// Source is the shell source; run with the call's arguments as $@. The
	// body is the function <Symbol>::impl, defined on its first line, with
	// every step on its own .jh line where the lowering allows. Parse it
	// with Parser, which numbers its first line StartLine (the declaration's
	// line), so positions and $LINENO in a body are .jh lines.
	Source string
	// StartLine is the line number of the first line of Source (0: 1).
	StartLine int
	// Lines maps the lines of Source back to the .jh file: Lines[i] is the
	// origin of line StartLine+i (see Origin and Position).
	Lines []Origin
	// Blocks are the line ranges (numbered from StartLine) of Source that
	// hold only user statements nested in generated code (recover bodies,
	// if branches), inner blocks first, for diagnostics that name the
	// user's construct.
	Blocks []Block
	// Line is the declaration's line in the module (0 for a test mock).
	Line int
	// Config is a workflow's own config block (HasConfig: it has one, even
	// empty): it replaces the module's config and locks its keys.
	Config    []Setting
	HasConfig bool
	// Routes are a workflow's inbox routes, resolved to symbols.
	Routes []Route
	// Script marks a test mock (MockBody): it runs like a separate script,
	// in a fresh shell that sees only the exported environment.
	Script bool
	// Steps are the records of the body's `jaiph::run|ensure|prompt <id>`
	// calls: Steps[id-1] (see Step).
	Steps []Step
}

// Origin is where one line of lowered source comes from: a .jh line and the
// column offset to add to a lowered column to get the .jh column. Lines that
// are pure padding map to the same line number with offset 0; lines the
// lowering generates (loop heads, here-document delimiters) map to the .jh
// line of the step they implement.
type Origin struct {
	Line int // 1-based .jh line
	Col  int // .jh column = lowered column + Col
}

// Block is a range of lowered lines: From up to, not including, To.
type Block struct{ From, To int }

// First is the line number of the first line of b.Source.
func (b *Body) First() int { return max(b.StartLine, 1) }

// Parser returns a parser for b.Source that numbers its lines from
// b.StartLine, as the runtime and bashcheck parse it.
func (b *Body) Parser() *syntax.Parser {
	return syntax.NewParser(syntax.Variant(syntax.LangBash), syntax.StartLine(uint(b.First())))
}

// Position maps a line (numbered from StartLine, as b.Parser reports it)
// and 1-based column of b.Source to the .jh file. Positions outside the map
// are returned as is.
func (b *Body) Position(line, col int) (int, int) {
	return MapPosition(b.First(), b.Lines, line, col)
}

// MapPosition maps a position of lowered source whose first line is
// numbered first through its line map: lines[i] is the origin of line
// first+i.
func MapPosition(first int, lines []Origin, line, col int) (int, int) {
	i := line - first
	if i < 0 || i >= len(lines) {
		return line, col
	}
	o := lines[i]
	if c := col + o.Col; c >= 1 {
		col = c
	}
	return o.Line, col
}

// ImplName is the name of the shell function a body is lowered to, as the
// reference names it (`${FUNCNAME[0]}` inside a body).
func ImplName(symbol string) string { return symbol + "::impl" }

// Module is the lowered form of one module: its bodies and what the runtime
// needs of its declarations, resolved (no AST).
type Module struct {
	Symbol string           // e.g. "main", "lib::tools"
	Path   string           // the .jh file
	Bodies map[string]*Body // by plain name
	Order  []*Body          // declaration order: rules, functions, workflows
	// Imports maps each import alias to the imported module's symbol;
	// Deps are the imported modules' symbols in import order (load order).
	Imports map[string]string
	Deps    []string
	// Config is the module's config block, in order.
	Config []Setting
	// Locals are the module's `local` declarations in order.
	Locals []Local
}

// Setting returns the first config setting of m for key, or nil.
func (m *Module) Setting(key string) *Setting {
	for i := range m.Config {
		if m.Config[i].Key == key {
			return &m.Config[i]
		}
	}
	return nil
}

// SettingKind is the type of a config value.
type SettingKind string

// The config value types.
const (
	String SettingKind = "string"
	Bool   SettingKind = "bool"
	Int    SettingKind = "int"
	Array  SettingKind = "array"
)

// Setting is one config entry: Value is its environment value (booleans
// "true"/"false", arrays one element per line).
type Setting struct {
	Key   string
	Value string
	Kind  SettingKind
}

// Route is `channel -> targets` of a workflow, as symbols.
type Route struct {
	Channel string
	Targets []string
}

// ChannelName is the declared name of a channel symbol (D9: the
// declaring module, `::`, the name): what a target gets as $2 and what
// the inbox names a message's file after.
func ChannelName(symbol string) string { return symbol[strings.LastIndex(symbol, "::")+2:] }

// Local is a module `local`: Value is its source text, expanded at load
// time by the runtime.
type Local struct {
	Name  string
	Value string
}

// SafeName maps a symbol to an artifact-safe name: characters outside
// [A-Za-z0-9_.-] become `_` (`main::default` → `main__default`).
func SafeName(symbol string) string {
	b := []byte(symbol)
	for i, c := range b {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-') {
			b[i] = '_'
		}
	}
	return string(b)
}

// StepKind is the kind of a step that has a typed record.
type StepKind string

// The step kinds with records.
const (
	StepRun    StepKind = "run"
	StepEnsure StepKind = "ensure"
	StepPrompt StepKind = "prompt"
	// StepReceive is `[x =] <- CHANNEL [key …] [timeout …]` (beyond the
	// reference), lowered to `[x=$(]jaiph::receive <id> [KEY][)] || return
	// $?`: KEY is the key's quoted word as written, which the shell
	// expands; a failed receive ends the workflow even without errexit.
	StepReceive StepKind = "receive"
)

// Step is the typed record of one `jaiph::<builtin> <id> [words…]` call of a
// body: everything about the call that is known when lowering. The words
// after the id are only what the shell must expand at run time (arguments,
// prompt variable values), so the runtime never parses options back out of
// shell words. Records are numbered from 1 in Body.Steps.
type Step struct {
	ID     int
	Kind   StepKind
	Target string // symbol of the called body (run, ensure)
	// Capture: `x = run|ensure|prompt …`, the call prints its value for
	// the command substitution.
	Capture bool
	// Always prints the captured value even when the call failed (the
	// retry loop of ensure … recover).
	Always bool

	// Prompt steps.
	Typed   bool          // has a `returns` schema
	Name    string        // capture variable of a typed prompt
	Returns string        // the schema as written
	Fields  []agent.Field // the schema, parsed once when lowering
	Preview string        // first 24 characters of the compile-time text
	// Vars names the variables the prompt text refers to; the call passes
	// their values as its words, in this order.
	Vars []string

	// Receive steps: the channel's symbol (D9: module::name), whether the
	// call passes a key as its word, the timeout (0: none) as written.
	Channel string
	HasKey  bool
	Timeout string
}

// String says what the step is, for the step table comments of the lowered
// source (one line).
func (s *Step) String() string {
	w := []string{string(s.Kind)}
	if s.Target != "" {
		w = append(w, s.Target)
	}
	if s.Capture {
		w = append(w, "capture")
	}
	if s.Always {
		w = append(w, "always")
	}
	if s.Typed {
		w = append(w, "returns", strings.Join(strings.Fields(s.Returns), " "), "into", s.Name)
	}
	if len(s.Vars) > 0 {
		w = append(w, "vars", strings.Join(s.Vars, " "))
	}
	if s.Channel != "" {
		w = append(w, s.Channel)
		if s.HasKey {
			w = append(w, "key")
		}
		if s.Timeout != "" {
			w = append(w, "timeout", s.Timeout)
		}
	}
	return strings.Join(w, " ")
}

// Step returns the record of step id, or nil.
func (b *Body) Step(id int) *Step {
	if id < 1 || id > len(b.Steps) {
		return nil
	}
	return &b.Steps[id-1]
}
