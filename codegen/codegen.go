// Package codegen lowers each rule, function and workflow body of a validated
// module to shell source in which every Jaiph step is a call to a runtime
// builtin (`jaiph::run`, `jaiph::ensure`, `jaiph::log`, …). Arguments stay
// shell words written by the user; nothing the program reads at run time is
// ever spliced into the source. The runtime parses the result once with
// mvdan.cc/sh and runs it; `jaiph build` writes it out for inspection.
package codegen

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/jaiph-go/jaiph/agent"
	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/validate"
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
	Source string // shell source; run with the call's arguments as $@
	// Workflow is the declaration, for workflows (config, routes).
	Workflow *ast.Workflow
	// Script marks a test mock (MockBody): it runs like a separate script,
	// in a fresh shell that sees only the exported environment.
	Script bool
}

// Module is the lowered form of one module.
type Module struct {
	Symbol string // e.g. "main", "lib::tools"
	File   *ast.File
	Bodies map[string]*Body // by plain name
	Order  []*Body          // declaration order: rules, functions, workflows
	// Imports maps each import alias to the imported module's symbol.
	Imports map[string]string
}

// ModuleSymbol derives a module symbol from a file path relative to root:
// extension dropped, separators replaced by `::` (`lib/tools.jh` →
// `lib::tools`).
func ModuleSymbol(root, path string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil {
		rel = path
	}
	rel = strings.TrimSuffix(strings.TrimSuffix(rel, ".jh"), ".jph")
	return strings.ReplaceAll(filepath.ToSlash(rel), "/", "::")
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

// Lower lowers every body of f. symbolOf returns the module symbol of the
// module an import alias resolves to.
func Lower(f *ast.File, symbol string, symbolOf func(*ast.Import) string) *Module {
	m := &Module{Symbol: symbol, File: f, Bodies: map[string]*Body{}, Imports: map[string]string{}}
	for _, im := range f.Imports {
		m.Imports[im.Alias] = symbolOf(im)
	}
	l := &lowerer{mod: m}
	add := func(b *Body) {
		m.Bodies[b.Name] = b
		m.Order = append(m.Order, b)
	}
	for _, r := range f.Rules {
		add(&Body{Kind: Rule, Name: r.Name, Symbol: symbol + "::" + r.Name, Source: l.body(r.Body)})
	}
	for _, fn := range f.Functions {
		add(&Body{Kind: Function, Name: fn.Name, Symbol: symbol + "::" + fn.Name, Source: l.body(fn.Body)})
	}
	for _, w := range f.Workflows {
		add(&Body{Kind: Workflow, Name: w.Name, Symbol: symbol + "::" + w.Name, Source: l.workflow(w), Workflow: w})
	}
	return m
}

type lowerer struct {
	mod *Module
	b   strings.Builder
	n   int // counter for unique helper variable names
}

// Ref resolves a reference to its symbol.
func (m *Module) Ref(r ast.Ref) string {
	if r.Alias == "" {
		return m.Symbol + "::" + r.Name
	}
	return m.Imports[r.Alias] + "::" + r.Name
}

// wrap puts the body into a shell function so that `return` and `local`
// behave as in the reference, whose bodies are bash functions.
func wrap(inner string) string {
	return "jaiph::body() {\n" + inner + ":\n}\njaiph::body \"$@\"\n"
}

func (l *lowerer) body(cmds []*ast.BodyCmd) string {
	l.b.Reset()
	for _, c := range cmds {
		switch c.Kind {
		case ast.BodyComment:
			l.line(c.Text)
		case ast.BodyEnsure:
			l.line("jaiph::ensure " + l.mod.Ref(c.Ref) + sp(c.Args))
		case ast.BodyReturn:
			l.returnValue(c.Value)
		default:
			l.line(l.rewrite(c.Text))
		}
	}
	return wrap(l.b.String())
}

func (l *lowerer) workflow(w *ast.Workflow) string {
	l.b.Reset()
	l.steps(w, w.Steps)
	if len(w.Routes) > 0 {
		// An orchestrator drains its inbox once its body completes, also
		// after a value return (D12), but not after a failure. The body's
		// status is an argument: `body && drain` would switch off errexit
		// inside the body.
		return wrap(l.b.String()) + "jaiph::drain $?\n"
	}
	return wrap(l.b.String())
}

func (l *lowerer) line(s string) {
	l.b.WriteString(s)
	l.b.WriteByte('\n')
}

func sp(args string) string {
	if args == "" {
		return ""
	}
	return " " + args
}

func (l *lowerer) returnValue(v string) {
	l.line("jaiph::return " + v)
	l.line("return 0")
}

func (l *lowerer) steps(w *ast.Workflow, steps []ast.Step) {
	for _, s := range steps {
		l.step(w, s)
	}
}

// call renders a managed run/ensure call, captured or not.
func (l *lowerer) call(builtin string, flags []string, ref ast.Ref, args, capture string, inRecover bool) string {
	if inRecover && args == "" {
		args = `"$@"`
	}
	if capture != "" {
		flags = append([]string{"--capture"}, flags...)
	}
	cmd := builtin
	for _, f := range flags {
		cmd += " " + f
	}
	cmd += " " + l.mod.Ref(ref) + sp(args)
	if capture != "" {
		return capture + "=$(" + cmd + ")"
	}
	return cmd
}

func (l *lowerer) step(w *ast.Workflow, s ast.Step) {
	switch s := s.(type) {
	case *ast.Comment:
		l.line(s.Text)
	case *ast.Shell:
		l.line(l.rewrite(s.Text))
	case *ast.Capture:
		l.line(s.Var + "=$(" + l.rewrite(s.Cmd) + ")")
	case *ast.Run:
		var flags []string
		if HasListOperator(s.Args) {
			flags = append(flags, "--noerrexit")
		}
		l.line(l.call("jaiph::run", flags, s.Ref, s.Args, s.Capture, s.InRecover))
	case *ast.Ensure:
		if s.Recover == nil {
			l.line(l.call("jaiph::ensure", nil, s.Ref, s.Args, s.Capture, s.InRecover))
			return
		}
		l.ensureRecover(w, s)
	case *ast.Prompt:
		l.prompt(s)
	case *ast.Log:
		name := "jaiph::log"
		if s.Err {
			name = "jaiph::logerr"
		}
		l.line(name + ` "` + s.Message + `"`)
	case *ast.Return:
		l.returnValue(s.Value)
	case *ast.If:
		l.ifStep(w, s)
	case *ast.Send:
		l.send(w, s)
	}
}

// ensureRecover lowers `ensure R args recover …` to a bounded retry loop in
// the caller's shell, so recover statements see and change its state.
func (l *lowerer) ensureRecover(w *ast.Workflow, s *ast.Ensure) {
	l.n++
	v := fmt.Sprintf("__jaiph_rv%d", l.n)
	ok := fmt.Sprintf("__jaiph_ok%d", l.n)
	saved := fmt.Sprintf("__jaiph_args%d", l.n)
	i := fmt.Sprintf("__jaiph_try%d", l.n)
	call := "jaiph::ensure --capture --always " + l.mod.Ref(s.Ref) + sp(s.Args)
	l.line(v + `=""; ` + ok + "=0")
	l.line("for ((" + i + "=1; " + i + "<=$(jaiph::retries); " + i + "++)); do")
	l.line("if " + v + "=$(" + call + "); then " + ok + "=1; break; fi")
	l.line(saved + `=("$@")`)
	l.line(`set -- "$` + v + `"`)
	l.steps(w, s.Recover)
	l.line(`set -- "${` + saved + `[@]}"`)
	l.line("done")
	l.line(`[ "$` + ok + `" = 1 ] || jaiph::ensure_failed`)
	if s.Capture != "" {
		l.line(s.Capture + `="$` + v + `"`)
	}
}

func (l *lowerer) ifStep(w *ast.Workflow, s *ast.If) {
	neg := ""
	if s.Negated {
		neg = "! "
	}
	switch s.Kind {
	case ast.IfEnsure:
		l.line("if " + neg + "jaiph::ensure " + l.mod.Ref(s.Ref) + sp(s.Args) + "; then")
	case ast.IfRun:
		l.line("if " + neg + "jaiph::run --noerrexit " + l.mod.Ref(s.Ref) + sp(s.Args) + "; then")
	default:
		l.line("if ! " + l.rewrite(s.Cond) + "; then")
	}
	l.steps(w, s.Then)
	if s.HasElse {
		l.line("else")
		l.steps(w, s.Else)
	}
	l.line("fi")
}

// send lowers `ch <- cmd`: the command's stdout is the message; a failing
// command sends nothing and fails the step with its status (D18).
func (l *lowerer) send(w *ast.Workflow, s *ast.Send) {
	ch := l.mod.Ref(s.Channel)
	if s.Cmd == "" {
		l.line("jaiph::send " + ch + " " + w.Name + ` "$1"`)
		return
	}
	l.n++
	v := fmt.Sprintf("__jaiph_msg%d", l.n)
	l.line(v + "=$(" + l.rewrite(s.Cmd) + ") || jaiph::status $?")
	l.line("jaiph::send " + ch + " " + w.Name + ` "$` + v + `"`)
}

// prompt lowers a prompt step. The text is passed as an unquoted here-document
// so the shell expands it exactly as the reference does (parameters and
// arithmetic; validation rejects command substitution).
func (l *lowerer) prompt(s *ast.Prompt) {
	text := PromptText(s)
	delim := "__JAIPH_PROMPT__"
	for strings.Contains(text, delim) {
		delim += "_"
	}
	args := []string{"jaiph::prompt"}
	if s.Capture != "" {
		args = append(args, "--capture")
	}
	if s.HasReturns {
		args = append(args, "--returns", ShellQuote(s.Returns), "--name", s.Capture)
	}
	args = append(args, "--preview", ShellQuote(PromptPreview(s)))
	for _, ref := range PromptVarRefs(s.Text) {
		args = append(args, "--var", `"`+ref+`=${`+ref+`}"`)
	}
	cmd := strings.Join(args, " ") + " <<" + delim + "\n" + text + "\n" + delim
	switch {
	case s.HasReturns:
		// The builtin prints assignments to eval; `eval "$(…)"` alone would
		// drop its failure status (1/2/3), so test the substitution first.
		l.n++
		v := fmt.Sprintf("__jaiph_typed%d", l.n)
		l.line("if " + v + "=$(" + cmd + "\n); then eval \"$" + v + "\"; else jaiph::status $?; fi")
	case s.Capture != "":
		l.line(s.Capture + "=$(" + cmd + "\n)")
	default:
		l.line(cmd)
	}
}

// PromptText is the compile-time text a prompt sends: typed prompts append
// the schema suffix (runtime.md §7).
func PromptText(s *ast.Prompt) string {
	if !s.HasReturns {
		return s.Text
	}
	schema, _ := validate.ParseSchema(s.Returns)
	fields := make([]agent.Field, len(schema))
	for i, f := range schema {
		fields[i] = agent.Field{Name: f.Name, Type: f.Type}
	}
	return s.Text + agent.SchemaSuffix(fields)
}

// PromptPreview is the first 24 characters of the compile-time text (typed
// prompts include the schema suffix the agent sees).
func PromptPreview(s *ast.Prompt) string {
	t := PromptText(s)
	r := []rune(t)
	if len(r) > 24 {
		r = r[:24]
	}
	return string(r)
}

// PromptVarRefs returns the distinct `$name`, `${name}`, `$N`, `${N}` (N ≥ 1)
// references of a prompt text in order of first appearance.
func PromptVarRefs(text string) []string {
	var out []string
	seen := map[string]bool{}
	for i := 0; i < len(text); i++ {
		if text[i] != '$' || i+1 >= len(text) {
			continue
		}
		if i > 0 && text[i-1] == '\\' {
			continue
		}
		j := i + 1
		braced := text[j] == '{'
		if braced {
			j++
		}
		k := j
		switch {
		case k < len(text) && isIdentStart(text[k]):
			for k < len(text) && isIdentChar(text[k]) {
				k++
			}
		case k < len(text) && text[k] >= '1' && text[k] <= '9':
			if braced {
				for k < len(text) && text[k] >= '0' && text[k] <= '9' {
					k++
				}
			} else {
				k++
			}
		default:
			continue
		}
		if braced && (k >= len(text) || text[k] != '}') {
			continue
		}
		name := text[j:k]
		if !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
	}
	return out
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func isIdentChar(c byte) bool { return isIdentStart(c) || c >= '0' && c <= '9' }

// ShellQuote quotes s as one single-quoted shell word.
func ShellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// rewrite applies the textual rewrites of shell lines (language §5.2): every
// `alias.X` not preceded by [A-Za-z0-9_] becomes `<module symbol>::X`, and
// `local|export|readonly NAME = value` becomes `NAME=value`.
func (l *lowerer) rewrite(s string) string {
	s = rewriteDeclAssign(s)
	if len(l.mod.Imports) == 0 || !strings.Contains(s, ".") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if i == 0 || !isIdentChar(s[i-1]) {
			if sym, n := l.aliasAt(s[i:]); n > 0 {
				b.WriteString(sym)
				b.WriteString("::")
				i += n
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// aliasAt matches `alias.X` at the start of s for an import alias; it returns
// the module symbol and the length of `alias.`.
func (l *lowerer) aliasAt(s string) (string, int) {
	j := 0
	for j < len(s) && isIdentChar(s[j]) {
		j++
	}
	if j == 0 || j+1 >= len(s) || s[j] != '.' || !isIdentStart(s[j+1]) {
		return "", 0
	}
	sym, ok := l.mod.Imports[s[:j]]
	if !ok {
		return "", 0
	}
	return sym, j + 1
}

// rewriteDeclAssign turns `local|export|readonly NAME = value` (spaces on both
// sides of `=`) into `NAME=value`, line by line.
func rewriteDeclAssign(s string) string {
	if !strings.Contains(s, " = ") {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		t := strings.TrimLeft(line, " \t")
		indent := line[:len(line)-len(t)]
		for _, kw := range []string{"local", "export", "readonly"} {
			if !strings.HasPrefix(t, kw+" ") {
				continue
			}
			rest := strings.TrimLeft(t[len(kw):], " \t")
			j := 0
			for j < len(rest) && isIdentChar(rest[j]) {
				j++
			}
			if j == 0 || !isIdentStart(rest[0]) {
				break
			}
			after := rest[j:]
			trimmed := strings.TrimLeft(after, " \t")
			if len(trimmed) == len(after) || !strings.HasPrefix(trimmed, "=") {
				break
			}
			value := trimmed[1:]
			if len(value) == 0 || (value[0] != ' ' && value[0] != '\t') {
				break
			}
			lines[i] = indent + kw + " " + rest[:j] + "=" + strings.TrimLeft(value, " \t")
			break
		}
	}
	return strings.Join(lines, "\n")
}

// HasListOperator reports whether call arguments contain `&&` or `||`
// outside quotes and `$(…)`: such a run executes with errexit ignored
// (bash semantics the reference inherits).
func HasListOperator(args string) bool {
	inSingle, inDouble, depth := false, false, 0
	for i := 0; i < len(args); i++ {
		c := args[i]
		switch {
		case inSingle:
			if c == '\'' {
				inSingle = false
			}
		case c == '\\':
			i++
		case c == '\'' && !inDouble:
			inSingle = true
		case c == '"':
			inDouble = !inDouble
		case c == '$' && i+1 < len(args) && args[i+1] == '(':
			depth++
			i++
		case c == ')' && depth > 0:
			depth--
		case !inDouble && depth == 0 && i+1 < len(args) && (c == '&' || c == '|') && args[i+1] == c:
			return true
		}
	}
	return false
}
