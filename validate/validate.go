package validate

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/internal/exec/agent"
	"github.com/jaiph-go/jaiph/internal/shellscan"
)

// checker validates one parsed module against the modules it imports
// (docs/language.md#checks), collecting every diagnostic in the
// reference's order.
type checker struct {
	file    *ast.File
	loader  *Loader
	imports map[string]*ast.File // alias → imported module (nil when it failed to load)
	diags   []*diag.Diagnostic
	kinds   map[*ast.File]map[string]string // kindIn's index of each module
}

func (c *checker) report(line, col int, code, msg string) {
	c.diags = append(c.diags, diag.New(c.file.Path, line, col, code, msg))
}

// The reference reports many problems away from their token (column 1, a
// keyword, the declaration's line); these place the token for `jaiph
// check` and the editor (diag.Span; diag.Locate completes it), leaving
// Line and Col as `jaiph run` prints them.

// pointAt starts the span of the diagnostics reported since the n-th at
// line:col.
func (c *checker) pointAt(n, line, col int) {
	for _, d := range c.diags[n:] {
		if d.Span.Line == 0 {
			d.Span = diag.Span{Line: line, Col: col}
		}
	}
}

// pointInText starts the span of the diagnostics reported since the n-th
// on the line of text (a command written from line:col on, maybe over
// several lines) that holds the name their message quotes, else at
// line:col.
func (c *checker) pointInText(n int, text string, line, col int) {
	for _, d := range c.diags[n:] {
		if d.Span.Line != 0 {
			continue
		}
		d.Span = diag.Span{Line: line, Col: col}
		if name := diag.QuotedName(d.Message); name != "" {
			for i, l := range strings.Split(text, "\n") {
				if i > 0 && strings.Contains(l, name) {
					d.Span = diag.Span{Line: line + i, Col: 1}
					break
				} else if i == 0 && strings.Contains(l, name) {
					break
				}
			}
		}
	}
}

// pointAtPrompt spans the diagnostics reported since the n-th over the
// prompt's text (inText) or its returns schema: the first string after
// the word prompt (the reference's column can be inside `prompted = …`),
// or the schema's quoted text on the prompt's last line.
func (c *checker) pointAtPrompt(n int, s *ast.Prompt, inText bool) {
	if len(c.diags) == n || s.Line < 1 || s.Line > len(c.file.Lines) {
		return
	}
	if !inText && s.HasReturns {
		for _, line := range []int{s.End.Line, s.Line} {
			if line < 1 || line > len(c.file.Lines) {
				continue
			}
			l := c.file.Lines[line-1]
			for _, q := range []string{"'", `"`} {
				if i := strings.LastIndex(l, q+s.Returns+q); i >= 0 {
					c.pointAt(n, line, i+1)
					return
				}
			}
		}
	}
	l := c.file.Lines[s.Line-1]
	for i := strings.Index(l, "prompt"); i >= 0; {
		rest := strings.TrimLeft(l[i+len("prompt"):], " \t")
		if strings.HasPrefix(rest, `"`) {
			c.pointAt(n, s.Line, len(l)-len(rest)+1)
			return
		}
		j := strings.Index(l[i+1:], "prompt")
		if j < 0 {
			break
		}
		i += 1 + j
	}
}

// pointAtName spans the diagnostics reported since the n-th over the name
// of ref (after `alias.`) on line.
func (c *checker) pointAtName(n, line int, ref ast.Ref) {
	if line < 1 || line > len(c.file.Lines) {
		return
	}
	l := c.file.Lines[line-1]
	if i := strings.Index(l, ref.String()); i >= 0 {
		from := i + len(ref.String()) - len(ref.Name)
		for _, d := range c.diags[n:] {
			d.Span = diag.Span{Line: line, Col: from + 1, EndCol: from + len(ref.Name) + 1}
		}
	}
}

// wordEnd is the byte offset just after the last ` word ` of line (the
// receive's `key`/`timeout` keywords come after its channel), or -1.
func (c *checker) wordEnd(line int, word string) int {
	if line < 1 || line > len(c.file.Lines) {
		return -1
	}
	i := strings.LastIndex(c.file.Lines[line-1], " "+word+" ")
	if i < 0 {
		return -1
	}
	return i + len(word) + 1
}

// pointAtString spans the diagnostics reported since the n-th over the
// first quoted string at or after byte from of line (an import's path).
func (c *checker) pointAtString(n, line, from int) {
	if n == len(c.diags) || from < 0 || line < 1 || line > len(c.file.Lines) {
		return
	}
	l := c.file.Lines[line-1]
	from = min(max(from, 0), len(l))
	i := strings.IndexAny(l[from:], "\"'")
	if i < 0 {
		return
	}
	i += from
	end := strings.IndexByte(l[i+1:], l[i])
	if end < 0 {
		end = len(l)
	} else {
		end += i + 2
	}
	for _, d := range c.diags[n:] {
		d.Span = diag.Span{Line: line, Col: i + 1, EndCol: end + 1}
	}
}

// checkModule runs steps 2–4 on f. Imported modules are loaded through l.
func checkModule(f *ast.File, l *Loader) []*diag.Diagnostic {
	c := &checker{file: f, loader: l, imports: map[string]*ast.File{}}
	c.checkImports()
	if f.IsTest {
		c.checkTests()
		return c.diags
	}
	for _, fn := range f.Functions {
		c.checkFunction(fn)
	}
	for _, r := range f.Rules {
		c.checkRule(r)
	}
	for _, w := range f.Workflows {
		c.checkWorkflow(w)
	}
	c.checkReceivedNotRouted()
	c.checkLocalCycles()
	c.checkRuleRunLines()
	for _, w := range f.Workflows {
		c.checkPrompts(w.Steps)
	}
	return c.diags
}

// checkImports: duplicate alias → file exists → imported file parses.
func (c *checker) checkImports() {
	seen := map[string]bool{}
	for _, im := range c.file.Imports {
		n := len(c.diags)
		if seen[im.Alias] {
			c.report(im.Line, im.Col, diag.Validate, fmt.Sprintf("duplicate import alias %q", im.Alias))
			continue
		}
		seen[im.Alias] = true
		resolved := c.loader.ResolveImport(c.file.Path, im)
		mod := c.loader.Load(resolved)
		if mod.missing {
			c.report(im.Line, im.Col, diag.ImportNotFound, `import "`+im.Alias+`" resolves to missing file "`+resolved+`"`)
			c.pointAtString(n, im.Line, im.Col-1) // the path
			c.imports[im.Alias] = nil
			continue
		}
		if len(mod.diags) > 0 {
			c.diags = append(c.diags, mod.diags[0])
		}
		c.imports[im.Alias] = mod.file
	}
}

// lookup resolves ref to the module that should declare it. ok is false when
// the alias is unknown; mod is nil when the alias names a module that failed
// to load (already reported), in which case callers stay silent.
func (c *checker) lookup(ref ast.Ref) (mod *ast.File, ok bool) {
	if ref.Alias == "" {
		return c.file, true
	}
	mod, ok = c.imports[ref.Alias]
	return mod, ok
}

// kindIn names what name is in module m: "rule", "workflow", "function" or
// "" (a rule first, then a workflow, then a function, as ast.File's
// lookups are tried). Each module's names are indexed on first use: every
// reference of a body looks one up (a linear search per reference was 6 %
// of checking the 4,500-line benchmark module).
func (c *checker) kindIn(m *ast.File, name string) string {
	kinds, ok := c.kinds[m]
	if !ok {
		kinds = make(map[string]string, len(m.Rules)+len(m.Workflows)+len(m.Functions))
		for _, r := range m.Rules {
			kinds[r.Name] = "rule"
		}
		for _, w := range m.Workflows {
			if _, dup := kinds[w.Name]; !dup {
				kinds[w.Name] = "workflow"
			}
		}
		for _, fn := range m.Functions {
			if _, dup := kinds[fn.Name]; !dup {
				kinds[fn.Name] = "function"
			}
		}
		if c.kinds == nil {
			c.kinds = map[*ast.File]map[string]string{}
		}
		c.kinds[m] = kinds
	}
	return kinds[name]
}

// refUse is one way a body names a callable (ensure, run, a route's
// target): the kinds it accepts and, for each kind it refuses, the message
// (%q is the reference). The three differ only in these.
type refUse struct {
	noun  string   // the reference in the unknown-alias message
	kinds []string // accepted, in the order the unknown-name messages list them
	wrong map[string]string
}

var (
	ensureRef = refUse{"rule reference", []string{"rule"}, map[string]string{
		"workflow": "workflow %q must be called with run", "function": "function %q cannot be called with ensure"}}
	runRef = refUse{"run target", []string{"workflow", "function"}, map[string]string{
		"rule": "rule %q must be called with ensure, not run"}}
	routeTarget = refUse{"workflow reference", []string{"workflow"}, map[string]string{
		"rule": "rule %q must be called with ensure", "function": "function %q cannot be called with run"}}
)

// checkRef validates a reference used as u says.
func (c *checker) checkRef(u refUse, ref ast.Ref, line, col int) {
	mod, ok := c.lookup(ref)
	if !ok {
		c.report(line, col, diag.Validate, fmt.Sprintf("unknown import alias %q for %s %q", ref.Alias, u.noun, ref.String())+diag.Suggest(ref.Alias, c.aliases()))
		return
	}
	if mod == nil {
		return
	}
	n := ref.String()
	kinds := strings.Join(u.kinds, " or ")
	switch kind := c.kindIn(mod, ref.Name); {
	case slices.Contains(u.kinds, kind):
	case kind != "":
		c.report(line, col, diag.Validate, fmt.Sprintf(u.wrong[kind], n))
	case ref.Alias == "":
		c.report(line, col, diag.Validate, fmt.Sprintf("unknown local %s reference %q", kinds, n)+diag.Suggest(n, names(mod, "", u.kinds...)))
	default:
		c.report(line, col, diag.Validate, fmt.Sprintf("imported %s %q does not exist", kinds, n)+diag.Suggest(n, names(mod, ref.Alias+".", u.kinds...)))
	}
}

// checkChannel validates a send or route channel reference.
func (c *checker) checkChannel(ref ast.Ref, line int) {
	mod, ok := c.lookup(ref)
	if ok && mod == nil {
		return
	}
	if !ok || mod.Channel(ref.Name) == nil {
		var cands []string
		switch {
		case !ok:
			for _, a := range c.aliases() {
				if m := c.imports[a]; m != nil && m.Channel(ref.Name) != nil {
					cands = append(cands, a+"."+ref.Name)
				}
			}
		case ref.Alias == "":
			cands = names(mod, "", "channel")
		default:
			cands = names(mod, ref.Alias+".", "channel")
		}
		c.report(line, 1, diag.Validate, fmt.Sprintf("Channel %q is not defined", ref.String())+diag.Suggest(ref.String(), cands))
	}
}

// aliases are the import aliases of the module.
func (c *checker) aliases() []string {
	out := make([]string, 0, len(c.imports))
	for a := range c.imports {
		out = append(out, a)
	}
	return out
}

// names lists the declarations of the given kinds ("rule", "workflow",
// "function", "channel") in m, each prefixed, for a "Did you mean".
func names(m *ast.File, prefix string, kinds ...string) []string {
	var out []string
	for _, k := range kinds {
		switch k {
		case "rule":
			for _, r := range m.Rules {
				out = append(out, prefix+r.Name)
			}
		case "workflow":
			for _, w := range m.Workflows {
				out = append(out, prefix+w.Name)
			}
		case "function":
			for _, f := range m.Functions {
				out = append(out, prefix+f.Name)
			}
		case "channel":
			for _, ch := range m.Channels {
				out = append(out, prefix+ch.Name)
			}
		}
	}
	return out
}

// symbolKindOf is the guard's view of a command word in this module.
func (c *checker) symbolKindOf(word string) fragmentKind {
	alias, name, dotted := strings.Cut(word, ".")
	mod := c.file
	if dotted {
		m, ok := c.imports[alias]
		if !ok {
			return fragOK // not an alias: `a.b` is ordinary shell
		}
		if m == nil {
			return fragOK // missing module, reported at the import
		}
		mod = m
	} else {
		name = word
	}
	switch c.kindIn(mod, name) {
	case "rule":
		return fragRule
	case "workflow":
		return fragWorkflow
	case "function":
		return fragFunction
	}
	if dotted {
		return fragUnknown
	}
	return fragOK
}

// checkShellText reports the first guard problem of text at line:col.
func (c *checker) checkShellText(text string, lines bool, line, col int) {
	if msg := checkShell(text, lines, c.symbolKindOf); msg != "" {
		c.report(line, col, diag.Validate, msg)
	}
}

// Function-body command tests, in the reference's order, compiled on first
// use (a package-level regexp would cost every command, `--version` too).
type functionBodyTest struct {
	re  *regexp.Regexp
	msg string
}

var functionBodyTests = sync.OnceValue(func() []functionBodyTest {
	return []functionBodyTest{
		{regexp.MustCompile(`^(run|ensure)\s`), "function body cannot use run or ensure (move orchestration to a workflow)"},
		{regexp.MustCompile(`^\s*config\s*\{`), "function body cannot contain config blocks"},
		{regexp.MustCompile(`^\s*(export\s+)?workflow\s`), "function body cannot declare workflows"},
		{regexp.MustCompile(`^\s*(export\s+)?rule\s`), "function body cannot declare rules"},
		{regexp.MustCompile(`^\s*function\s`), "function body cannot declare nested functions"},
		{regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*\s+->\s+`), "function body cannot declare channel routes (->)"},
	}
})

// mayDeclare reports whether line holds a word one of functionBodyTests
// needs; most body lines hold none, and the six patterns are then not run.
func mayDeclare(line string) bool {
	for _, w := range [...]string{"run", "ensure", "config", "workflow", "rule", "function", "->"} {
		if strings.Contains(line, w) {
			return true
		}
	}
	return false
}

func (c *checker) checkFunction(fn *ast.Function) {
	for _, cmd := range fn.Body {
		if cmd.Kind == ast.BodyComment {
			continue
		}
		n := len(c.diags)
		text := cmd.Text
		first, _, _ := strings.Cut(strings.TrimSpace(text), "\n")
		reported := false
		if mayDeclare(first) {
			for _, t := range functionBodyTests() {
				if t.re.MatchString(first) {
					c.report(fn.Line, 1, diag.Validate, t.msg)
					reported = true
					break
				}
			}
		}
		if !reported {
			c.checkShellText(text, false, fn.Line, 1)
		}
		c.pointInText(n, text, cmd.Line, cmd.Col)
	}
}

func (c *checker) checkRule(r *ast.Rule) {
	for _, cmd := range r.Body {
		switch cmd.Kind {
		case ast.BodyEnsure:
			c.checkRef(ensureRef, cmd.Ref, cmd.Line, cmd.Col)
		case ast.BodyShell, ast.BodyReturn:
			n := len(c.diags)
			c.checkShellText(cmd.Text, false, r.Line, 1)
			c.pointInText(n, cmd.Text, cmd.Line, cmd.Col)
		}
	}
}

func (c *checker) checkWorkflow(w *ast.Workflow) {
	for _, rt := range w.Routes {
		c.checkChannel(rt.Channel, rt.Line)
		for _, t := range rt.Targets {
			c.checkRef(routeTarget, t.Ref, rt.Line, t.Col)
		}
	}
	c.checkSteps(w, w.Steps)
}

func (c *checker) checkSteps(w *ast.Workflow, steps []ast.Step) {
	for _, s := range steps {
		switch s := s.(type) {
		case *ast.Shell:
			n := len(c.diags)
			c.checkShellText(s.Text, true, s.Line, s.GuardCol)
			c.pointInText(n, s.Text, s.Line, s.GuardCol)
		case *ast.Capture:
			c.checkShellText(s.Cmd, true, s.Line, s.Col)
		case *ast.Ensure:
			c.checkRef(ensureRef, s.Ref, s.Line, s.Col)
			c.checkSteps(w, s.Recover)
		case *ast.Run:
			c.checkRef(runRef, s.Ref, s.Line, s.Col)
		case *ast.If:
			switch s.Kind {
			case ast.IfEnsure:
				c.checkRef(ensureRef, s.Ref, s.Line, s.Col)
			case ast.IfRun:
				c.checkRef(runRef, s.Ref, s.Line, s.Col)
			default:
				n := len(c.diags)
				c.checkShellText(s.Cond, true, w.Line, 1)
				c.pointAt(n, s.Line, s.Col)
			}
			c.checkSteps(w, s.Then)
			c.checkSteps(w, s.Else)
		case *ast.Send:
			c.checkChannel(s.Channel, s.Line)
			if s.Cmd != "" {
				c.checkShellText(s.Cmd, true, s.Line, 1)
			}
		case *ast.Receive:
			c.checkReceive(s)
		}
	}
}

// checkReceive validates a receive (docs/language.md#receives): a declared
// channel, a key without command substitution, a positive Go duration.
func (c *checker) checkReceive(s *ast.Receive) {
	c.checkChannel(s.Channel, s.Line)
	n := len(c.diags)
	if s.HasKey && (strings.Contains(s.Key, "$(") || strings.Contains(s.Key, "`")) {
		c.report(s.Line, s.Col, diag.Validate, "a receive's key cannot contain command substitution; capture the value first (k = cmd) and write key \"$k\"")
	}
	c.pointAtString(n, s.Line, c.wordEnd(s.Line, "key"))
	n = len(c.diags)
	if s.Timeout != "" {
		if d, err := time.ParseDuration(s.Timeout); err != nil || d <= 0 {
			c.report(s.Line, s.Col, diag.Validate, fmt.Sprintf("invalid receive timeout %q; write a positive duration such as \"30s\", \"5m\" or \"1h\"", s.Timeout))
		}
	}
	c.pointAtString(n, s.Line, c.wordEnd(s.Line, "timeout"))
}

// checkReceivedNotRouted refuses a channel that is both routed
// (`CHANNEL -> workflow`) and received from (`<- CHANNEL`): its messages
// would have two readers. It looks at this module's routes and receives
// and at those of the modules it imports that name their own channels,
// and reports on this module's lines.
func (c *checker) checkReceivedNotRouted() {
	type chKey struct {
		mod  *ast.File
		name string
	}
	routed, receivedThere := map[chKey]bool{}, map[chKey]bool{} // receivedThere: in an imported module
	var walk func(steps []ast.Step, each func(*ast.Receive))
	walk = func(steps []ast.Step, each func(*ast.Receive)) {
		for _, s := range steps {
			switch s := s.(type) {
			case *ast.Receive:
				each(s)
			case *ast.If:
				walk(s.Then, each)
				walk(s.Else, each)
			case *ast.Ensure:
				walk(s.Recover, each)
			}
		}
	}
	for _, m := range c.imports {
		if m == nil {
			continue
		}
		for _, w := range m.Workflows {
			for _, rt := range w.Routes {
				if rt.Channel.Alias == "" {
					routed[chKey{m, rt.Channel.Name}] = true
				}
			}
			walk(w.Steps, func(r *ast.Receive) {
				if r.Channel.Alias == "" {
					receivedThere[chKey{m, r.Channel.Name}] = true
				}
			})
		}
	}
	key := func(ref ast.Ref) (chKey, bool) {
		mod, ok := c.lookup(ref)
		return chKey{mod, ref.Name}, ok && mod != nil
	}
	for _, w := range c.file.Workflows {
		for _, rt := range w.Routes {
			if k, ok := key(rt.Channel); ok {
				routed[k] = true
			}
		}
	}
	msg := func(ref ast.Ref) string {
		return fmt.Sprintf("channel %q is both routed (->) and received from (<-); a channel has one reader: remove its route or receive on another channel", ref.String())
	}
	for _, w := range c.file.Workflows {
		for _, rt := range w.Routes {
			if k, ok := key(rt.Channel); ok && receivedThere[k] {
				c.report(rt.RefPos.Line, rt.RefPos.Col, diag.Validate, msg(rt.Channel))
			}
		}
		walk(w.Steps, func(r *ast.Receive) {
			if k, ok := key(r.Channel); ok && routed[k] {
				c.report(r.RefPos.Line, r.RefPos.Col, diag.Validate, msg(r.Channel))
			}
		})
	}
}

// checkRuleRunLines reports `run` at depth 0 inside rules (a compile check).
func (c *checker) checkRuleRunLines() {
	for _, r := range c.file.Rules {
		for _, cmd := range r.Body {
			if cmd.Kind == ast.BodyRun {
				c.report(cmd.Line, cmd.Col, diag.Parse, "`run` is not allowed inside a `rule` block.\nUse `ensure` to call another rule, or move this call to a `workflow`.")
			}
		}
	}
}

// checkPrompts applies the compile checks of prompt steps: text safety,
// returns without capture, and the schema.
func (c *checker) checkPrompts(steps []ast.Step) {
	for _, s := range steps {
		switch s := s.(type) {
		case *ast.Prompt:
			n := len(c.diags)
			switch {
			case unescaped(s.Text, "`"):
				c.report(s.Line, s.Col, diag.Parse, "prompt cannot contain backticks (`...`); use variable expansion only")
			case strings.Contains(s.Text, "$("):
				c.report(s.Line, s.Col, diag.Parse, "prompt cannot contain command substitution ($( ... )); use variable expansion only")
			case s.HasReturns && s.Capture == "":
				c.report(s.Line, s.Col, diag.Parse, `prompt with "returns" schema must capture to a variable (e.g. result = prompt "..." returns '{ ... }')`)
			case s.HasReturns:
				if _, msg := agent.ParseSchema(s.Returns); msg != "" {
					c.report(s.Line, s.Col, diag.Schema, msg)
				}
			}
			c.pointAtPrompt(n, s, unescaped(s.Text, "`") || strings.Contains(s.Text, "$("))
		case *ast.Ensure:
			c.checkPrompts(s.Recover)
		case *ast.If:
			c.checkPrompts(s.Then)
			c.checkPrompts(s.Else)
		}
	}
}

// checkLocalCycles reports a cycle among the module's locals at 1:1. Like
// the reference, each local's value is expanded in declaration order with an
// empty set of names being expanded; the name reported is the first
// reference met while it is already being expanded.
func (c *checker) checkLocalCycles() {
	byName := map[string]*ast.Local{}
	for _, l := range c.file.Locals {
		byName[l.Name] = l
	}
	// safe memoises locals whose expansion finished without a cycle: a cycle
	// through one of them would have been met inside that expansion.
	expanding, safe := map[string]bool{}, map[string]bool{}
	var expand func(value string) string
	expand = func(value string) string {
		for _, ref := range shellscan.VarRefNames(value) {
			l, isLocal := byName[ref]
			if !isLocal || safe[ref] {
				continue
			}
			if expanding[ref] {
				return ref
			}
			expanding[ref] = true
			cyc := expand(l.Value)
			delete(expanding, ref)
			if cyc != "" {
				return cyc
			}
			safe[ref] = true
		}
		return ""
	}
	for _, l := range c.file.Locals {
		if cyc := expand(l.Value); cyc != "" {
			c.report(1, 1, diag.Parse, fmt.Sprintf("circular reference among top-level local declarations involving %q", cyc))
			c.pointAt(len(c.diags)-1, l.Line, l.Col)
			return
		}
	}
}

// checkTests validates the workflow runs and symbol mocks of a test file
// (docs/language.md#test-blocks).
func (c *checker) checkTests() {
	for _, t := range c.file.Tests {
		for _, st := range t.Stmts {
			if m, ok := st.(*ast.MockSymbol); ok {
				c.checkMockTarget(m)
				continue
			}
			run, ok := st.(*ast.TestRun)
			if !ok {
				continue
			}
			if run.Ref.Alias == "" {
				c.report(run.Line, run.Col, diag.Validate, fmt.Sprintf("test workflow reference must be <alias>.<workflow>, got %q", run.Ref.String()))
				continue
			}
			mod, known := c.imports[run.Ref.Alias]
			switch {
			case !known:
				c.report(run.Line, run.Col, diag.Validate, fmt.Sprintf("unknown import alias %q in test", run.Ref.Alias))
			case mod != nil && mod.Workflow(run.Ref.Name) == nil:
				c.report(run.Line, run.Col, diag.Validate, fmt.Sprintf("imported module %q has no workflow %q", run.Ref.Alias, run.Ref.Name))
				c.pointAtName(len(c.diags)-1, run.Line, run.Ref)
			}
		}
	}
}

// checkMockTarget refuses a symbol mock whose target does not exist (or
// is of another kind): the reference did not check, so a misspelt target
// mocked nothing and the real symbol ran. A one-word target names a symbol
// of the first import's module, as the runner resolves it.
func (c *checker) checkMockTarget(m *ast.MockSymbol) {
	alias, name := m.Ref.Alias, m.Ref.Name
	shown := m.Ref.String()
	if alias == "" {
		if len(c.file.Imports) == 0 {
			c.report(m.Line, m.Col, diag.Validate, fmt.Sprintf("mock %s target %q: the test file imports no module to find it in", m.Kind, shown))
			return
		}
		alias = c.file.Imports[0].Alias
	}
	mod, known := c.imports[alias]
	switch {
	case !known:
		c.report(m.Line, m.Col, diag.Validate, fmt.Sprintf("unknown import alias %q in mock %s target %q", alias, m.Kind, shown)+diag.Suggest(alias, c.aliases()))
		return
	case mod == nil:
		return // a missing module, reported at its import
	}
	prefix := ""
	if m.Ref.Alias != "" {
		prefix = alias + "."
	}
	switch kind := c.kindIn(mod, name); kind {
	case m.Kind:
	case "":
		c.report(m.Line, m.Col, diag.Validate, fmt.Sprintf("mock %s target %q does not exist in %q", m.Kind, shown, alias)+diag.Suggest(prefix+name, names(mod, prefix, m.Kind)))
	default:
		c.report(m.Line, m.Col, diag.Validate, fmt.Sprintf("mock %s target %q is a %s: use mock %s", m.Kind, shown, kind, kind))
	}
}

// unescaped reports whether sub occurs in a prompt's text without a
// backslash escaping its first character (an odd number of backslashes
// before it): "\`" is a literal backtick.
func unescaped(text, sub string) bool {
	for i := strings.Index(text, sub); i >= 0; {
		n := 0
		for n < i && text[i-1-n] == '\\' {
			n++
		}
		if n%2 == 0 {
			return true
		}
		j := strings.Index(text[i+1:], sub)
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}
