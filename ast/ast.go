package ast

import (
	"strings"

	"github.com/jaiph-go/jaiph/internal/shellscan"
)

// Pos is a 1-based source position. File is the module's absolute path.
type Pos struct {
	File string
	Line int
	Col  int
}

// Ref names a rule, function, workflow or channel: `name` or `alias.name`.
type Ref struct {
	Alias string // empty for a same-module reference
	Name  string
}

// String renders the reference as written (`alias.name` or `name`).
func (r Ref) String() string {
	if r.Alias == "" {
		return r.Name
	}
	return r.Alias + "." + r.Name
}

// ParseRef splits `name` or `alias.name`; ok is false when s is not a REF.
func ParseRef(s string) (Ref, bool) {
	alias, name, dotted := strings.Cut(s, ".")
	if !dotted {
		return Ref{Name: s}, shellscan.IsRef(s)
	}
	return Ref{Alias: alias, Name: name}, shellscan.IsRef(s)
}

// IsIdent reports whether s matches [A-Za-z_][A-Za-z0-9_]*.
func IsIdent(s string) bool { return shellscan.IsIdent(s) }

// File is one parsed source file.
type File struct {
	Path   string // absolute path
	IsTest bool   // *.test.jh / *.test.jph
	// Items are the top-level declarations, comments and runs of blank
	// lines in source order (for formatting and editors; the typed lists
	// below are what the compiler reads).
	Items     []Item
	Config    *Config
	Imports   []*Import
	Channels  []*Channel
	Locals    []*Local
	Rules     []*Rule
	Functions []*Function
	Workflows []*Workflow
	Tests     []*Test // test files only
	// EntryErrorsOnly is set when the file's parse errors are all in
	// config entries (an unknown key, a wrong value): its structure is
	// whole and it is validated like a file without errors.
	EntryErrorsOnly bool
	// Lines is the text the parser read, split at line ends (no byte order
	// mark, no \r): later stages that need the text itself (codegen's
	// columns of trimmed step text) take it from here, because the file on
	// disk may not be what was parsed (an editor's unsaved buffer).
	Lines []string `dump:"-"`
}

// Rule returns the rule called name, or nil.
func (f *File) Rule(name string) *Rule {
	for _, r := range f.Rules {
		if r.Name == name {
			return r
		}
	}
	return nil
}

// Function returns the function called name, or nil.
func (f *File) Function(name string) *Function {
	for _, fn := range f.Functions {
		if fn.Name == name {
			return fn
		}
	}
	return nil
}

// Workflow returns the workflow called name, or nil.
func (f *File) Workflow(name string) *Workflow {
	for _, w := range f.Workflows {
		if w.Name == name {
			return w
		}
	}
	return nil
}

// Channel returns the channel called name, or nil.
func (f *File) Channel(name string) *Channel {
	for _, c := range f.Channels {
		if c.Name == name {
			return c
		}
	}
	return nil
}

// Import returns the import with the given alias, or nil.
func (f *File) Import(alias string) *Import {
	for _, im := range f.Imports {
		if im.Alias == alias {
			return im
		}
	}
	return nil
}

// Item is a top-level node of File.Items: *Import, *Channel, *Local,
// *Config, *Rule, *Function, *Workflow, *Test, *Comment or *Blank.
type Item interface {
	ItemPos() Pos
}

// ItemPos implements Item.
func (p Pos) ItemPos() Pos { return p }

// Blank is a run of blank lines at top level.
type Blank struct {
	Pos
	End   Pos // just after the last blank line
	Lines int
}

// Import is `import "path" as alias`.
type Import struct {
	Pos
	End   Pos    // just after the line's last character (End is so on every node)
	Path  string // as written, without quotes
	Alias string
}

// Channel is `channel name`.
type Channel struct {
	Pos
	End  Pos
	Name string
}

// LocalQuote tells how a top-level local's value was written.
type LocalQuote int

// The three spellings of a local's value.
const (
	LocalBare LocalQuote = iota
	LocalDouble
	LocalSingle
)

// Local is a top-level `local NAME = VALUE`. Value is the raw text between the
// quotes (no escape processing), or the bare rest of the line.
type Local struct {
	Pos
	End   Pos
	Name  string
	Value string
	Quote LocalQuote
}

// ConfigKind is the type of a config value.
type ConfigKind int

// Config value kinds.
const (
	ConfigString ConfigKind = iota
	ConfigBool
	ConfigInt
	ConfigArray
)

// ConfigEntry is one `key = value` line of a config block.
type ConfigEntry struct {
	Pos
	End   Pos
	Key   string
	Kind  ConfigKind
	Str   string // ConfigString (escapes processed)
	Bool  bool
	Int   int
	Array []string
}

// Config is a module or workflow `config { … }` block.
type Config struct {
	Pos
	End     Pos
	Entries []*ConfigEntry
	// Comments are the block's `#` lines (kept for formatting only).
	Comments []*Comment
}

// Get returns the entry for key, or nil.
func (c *Config) Get(key string) *ConfigEntry {
	if c == nil {
		return nil
	}
	for _, e := range c.Entries {
		if e.Key == key {
			return e
		}
	}
	return nil
}

// BodyKind classifies one command of a rule or function body.
type BodyKind int

// Rule/function body command kinds.
const (
	BodyShell   BodyKind = iota // raw shell (maybe a multi-line block)
	BodyComment                 // `# …`, kept as a shell comment
	BodyEnsure                  // `ensure REF [args]` (rules only)
	BodyReturn                  // value return `return "…"|'…'|$…`
	BodyRun                     // `run …` at depth 0: rejected by the compile checks
)

// BodyCmd is one command of a rule or function body.
type BodyCmd struct {
	Pos  // line of the command; Col of the keyword for BodyEnsure/BodyRun
	End  Pos
	Kind BodyKind
	Text string // shell text (trimmed; blocks keep their inner lines) or comment
	Ref  Ref    // BodyEnsure
	// RefPos is where Ref starts (BodyEnsure).
	RefPos Pos
	Args   string // BodyEnsure: verbatim rest of line
	// Value is the return argument as written, for BodyReturn.
	Value string
}

// Rule is `[export] rule name { … }`.
type Rule struct {
	Pos
	End      Pos // just after the closing brace
	Name     string
	Exported bool
	Body     []*BodyCmd
}

// Function is `function name[()] { … }`.
type Function struct {
	Pos
	End  Pos
	Name string
	Body []*BodyCmd
}

// Workflow is `[export] workflow name { … }`.
type Workflow struct {
	Pos
	End      Pos
	Name     string
	Exported bool
	Config   *Config
	Routes   []*Route
	Steps    []Step
}

// Route is `channel -> target, target` stored on its workflow.
type Route struct {
	Pos     // line of the route, col 1
	End     Pos
	Channel Ref
	RefPos  Pos // where Channel starts
	Targets []RouteTarget
}

// RouteTarget is one target of a route with its column (first occurrence of
// the target text in the raw line).
type RouteTarget struct {
	Ref
	Col    int
	RefPos Pos // where this target's REF starts (exact, unlike Col)
}

// Step is one workflow step (or a statement of a recover block or if branch).
// Every step type has an End field (just after its last character; zero for
// the statements of a recover body, which share the ensure line).
type Step interface {
	StepPos() Pos
}

// StepEnd returns the End of a step.
func StepEnd(s Step) Pos {
	switch s := s.(type) {
	case *Comment:
		return s.End
	case *Shell:
		return s.End
	case *Capture:
		return s.End
	case *Ensure:
		return s.End
	case *Run:
		return s.End
	case *Prompt:
		return s.End
	case *Log:
		return s.End
	case *Return:
		return s.End
	case *If:
		return s.End
	case *Send:
		return s.End
	case *Receive:
		return s.End
	}
	return Pos{}
}

// SetStepEnd sets the End of a step.
func SetStepEnd(s Step, end Pos) {
	switch s := s.(type) {
	case *Comment:
		s.End = end
	case *Shell:
		s.End = end
	case *Capture:
		s.End = end
	case *Ensure:
		s.End = end
	case *Run:
		s.End = end
	case *Prompt:
		s.End = end
	case *Log:
		s.End = end
	case *Return:
		s.End = end
	case *If:
		s.End = end
	case *Send:
		s.End = end
	case *Receive:
		s.End = end
	}
}

// StepPos implements Step for every step type.
func (p Pos) StepPos() Pos { return p }

// Comment is a `# …` line inside a workflow body, kept in the lowered shell.
type Comment struct {
	Pos
	End  Pos
	Text string
}

// Shell is a plain shell step: one line or an accumulated multi-line block.
// GuardCol is where shell-guard diagnostics point (col 1 for a step line,
// first non-space column for an if-branch line).
type Shell struct {
	Pos
	End      Pos
	Text     string
	GuardCol int
}

// Capture is `name = <shell command>`: stdout of Cmd (trailing newlines
// stripped) is assigned to Var.
type Capture struct {
	Pos // Col is the column of the right-hand side
	End Pos
	Var string
	Cmd string
}

// Ensure is `[x =] ensure REF [args] [recover …]`.
type Ensure struct {
	Pos     // Col: column of `ensure` in the raw line
	End     Pos
	Capture string // variable name, or ""
	Ref     Ref
	RefPos  Pos    // where Ref starts (zero in recover bodies)
	Args    string // verbatim shell text
	Recover []Step // nil: no recover
	// RecoverBlock is true for the `{ … }` forms.
	RecoverBlock bool
	// InRecover is true for ensure statements inside a recover body.
	InRecover bool
}

// Run is `[x =] run REF [args]`.
type Run struct {
	Pos       // Col: first occurrence of `run` in the raw line
	End       Pos
	Capture   string // variable name, or ""
	Ref       Ref
	RefPos    Pos    // where Ref starts (zero in recover bodies)
	Args      string // verbatim shell text
	InRecover bool
}

// Prompt is `[x =] prompt "…" [returns '…']`.
type Prompt struct {
	Pos     // Col: column of `prompt`
	End     Pos
	Capture string // variable name, or ""
	// Text is the compile-time prompt text (escapes `\$`, "\`", `\"`, `\\`
	// resolved, `\`+newline removed) that the runtime expands like an
	// unquoted here-document body.
	Text string
	// Raw is the text between the quotes exactly as written.
	Raw string
	// Returns is the schema text as written (without its quotes), "" if none.
	Returns    string
	HasReturns bool
}

// Log is `log "…"` or `logerr "…"`; Message is the raw text between the quotes,
// expanded by the shell at run time.
type Log struct {
	Pos
	End     Pos
	Err     bool
	Message string
}

// Return is a value return: Value is the argument as written (`"…"`, `'…'`
// or `$…`).
type Return struct {
	Pos
	End   Pos
	Value string
}

// IfKind is the form of a managed `if`.
type IfKind int

// The three managed if forms.
const (
	IfEnsure IfKind = iota
	IfRun
	IfNotShell
)

// If is a managed `if [!] ensure|run REF [args]; then … [else …] fi` or
// `if ! <shell>; then … fi`.
type If struct {
	Pos         // the `if` line; Col is the col of ensure/run for managed forms
	End     Pos // just after `fi`
	Kind    IfKind
	Negated bool
	Ref     Ref    // IfEnsure / IfRun
	RefPos  Pos    // where Ref starts
	Args    string // IfEnsure / IfRun
	Cond    string // IfNotShell
	Then    []Step
	Else    []Step
	HasElse bool
	// Comments are the branches' `#` lines, which are not steps (kept for
	// formatting only).
	Comments []*Comment
}

// Send is `channel <- [command]`; an empty Cmd forwards $1.
type Send struct {
	Pos
	End     Pos
	Channel Ref
	RefPos  Pos // where Channel starts
	Cmd     string
}

// Receive is `[NAME =] <- CHANNEL [key "VALUE"] [timeout "DURATION"]`
// (beyond the reference, docs/differences.md): it waits for a message on
// the channel (with the key when HasKey) and captures its payload.
type Receive struct {
	Pos     // Col: column of `<-`
	End     Pos
	Capture string // variable name, or ""
	Channel Ref
	RefPos  Pos    // where Channel starts
	Key     string // the key's quoted text as written (with its quotes), "" for none
	Timeout string // the duration as written (without its quotes), "" for none
	HasKey  bool
}

// Test is one `test "description" { … }` block of a test file.
type Test struct {
	Pos
	End         Pos
	Description string
	Stmts       []TestStmt
}

// TestStmt is a statement of a test block.
type TestStmt interface {
	StmtPos() Pos
}

// StmtPos implements TestStmt.
func (p Pos) StmtPos() Pos { return p }

// MockPrompt queues one canned prompt response.
type MockPrompt struct {
	Pos
	Response string
}

// MockBranch is one `if|elif $1 contains "…" ; then respond "…"` or `else
// respond "…"` arm of a mock prompt dispatcher.
type MockBranch struct {
	Else     bool
	Pattern  string
	Response string
}

// MockDispatcher is `mock prompt { … }`.
type MockDispatcher struct {
	Pos
	Branches []MockBranch
}

// MockSymbol is `mock workflow|rule|function REF { body }`.
type MockSymbol struct {
	Pos
	Kind string // workflow, rule or function
	Ref  Ref
	Body string // raw lines joined by \n
}

// Expect is `expectContain|expectNotContain|expectEqual var "text"`.
type Expect struct {
	Pos
	Kind     string
	Var      string
	Expected string
}

// TestRun runs a workflow: `[x =] alias.wf ["arg"] [allow_failure]`.
type TestRun struct {
	Pos
	Capture      string
	Ref          Ref
	Arg          string
	HasArg       bool
	AllowFailure bool
}

// TestShell is any other line of a test block, run as shell.
type TestShell struct {
	Pos
	Text string
}

func (k ConfigKind) String() string {
	return [...]string{"string", "bool", "int", "array"}[k]
}

func (q LocalQuote) String() string { return [...]string{"bare", "double", "single"}[q] }

func (k BodyKind) String() string {
	return [...]string{"shell", "comment", "ensure", "return", "run"}[k]
}

func (k IfKind) String() string { return [...]string{"if-ensure", "if-run", "if-not-shell"}[k] }
