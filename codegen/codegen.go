package codegen

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/internal/exec/agent"
	"github.com/jaiph-go/jaiph/internal/shellscan"
	"github.com/jaiph-go/jaiph/lowered"
)

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

// Lower lowers every body of f. symbolOf returns the module symbol of the
// module an import alias resolves to.
func Lower(f *ast.File, symbol string, symbolOf func(*ast.Import) string) *lowered.Module {
	return LowerEach(f, symbol, symbolOf, nil)
}

// LowerEach is Lower that also hands each body to done, when done is not
// nil, as soon as the body is lowered (in Order), so that a consumer such
// as the shell check can work on it while the next bodies are lowered.
// done must not change the body, and must not read the module before
// LowerEach returns.
func LowerEach(f *ast.File, symbol string, symbolOf func(*ast.Import) string, done func(*lowered.Body)) *lowered.Module {
	m := &lowered.Module{Symbol: symbol, Path: f.Path, Bodies: map[string]*lowered.Body{}, Imports: map[string]string{},
		Config: settings(f.Config)}
	for _, im := range f.Imports {
		m.Imports[im.Alias] = symbolOf(im)
		m.Deps = append(m.Deps, symbolOf(im))
	}
	for _, l := range f.Locals {
		m.Locals = append(m.Locals, lowered.Local{Name: l.Name, Value: l.Value})
	}
	l := &lowerer{mod: m, src: f.Lines}
	add := func(b *lowered.Body) {
		b.Source, b.StartLine, b.Lines, b.Blocks, b.Steps = l.b.String(), l.start, l.lines, l.blocks, l.tab
		m.Bodies[b.Name] = b
		m.Order = append(m.Order, b)
		if done != nil {
			done(b)
		}
	}
	for _, r := range f.Rules {
		sym := symbol + "::" + r.Name
		l.body(sym, r.Line, r.Body)
		add(&lowered.Body{Kind: lowered.Rule, Name: r.Name, Symbol: sym, Line: r.Line})
	}
	for _, fn := range f.Functions {
		sym := symbol + "::" + fn.Name
		l.body(sym, fn.Line, fn.Body)
		add(&lowered.Body{Kind: lowered.Function, Name: fn.Name, Symbol: sym, Line: fn.Line})
	}
	for _, w := range f.Workflows {
		sym := symbol + "::" + w.Name
		l.workflow(sym, w)
		add(&lowered.Body{Kind: lowered.Workflow, Name: w.Name, Symbol: sym, Line: w.Line,
			Config: settings(w.Config), HasConfig: w.Config != nil, Routes: routes(m, w)})
	}
	return m
}

type lowerer struct {
	mod    *lowered.Module
	src    []string         // the text parsed (ast.File.Lines; nil for a file built by hand)
	b      bytes.Buffer     // not a strings.Builder: a one-line recover truncates it
	start  int              // line number of the first line written to b
	lines  []lowered.Origin // origin of each line written to b
	blocks []lowered.Block
	tab    []lowered.Step // the body's step records
	n      int            // counter for unique helper variable names
	// recFrom > 0 while lowering the statements of a multi-line recover
	// block: the source line the next statement is searched from (the AST
	// gives recover statements the ensure line).
	recFrom int
}

func (l *lowerer) reset() {
	l.b.Reset()
	l.lines = nil
	l.blocks = nil
	l.tab = nil
	l.start = 1
	l.recFrom = 0
}

// next is the number of the next line written.
func (l *lowerer) next() int { return l.start + len(l.lines) }

// padTo writes empty lines until the next line is line (inside a body: the
// body itself starts on its declaration's line, see open).
func (l *lowerer) padTo(line int) {
	for l.next() < line {
		l.b.WriteByte('\n')
		l.lines = append(l.lines, lowered.Origin{Line: l.next()})
	}
}

// put writes one line with its origin.
func (l *lowerer) put(s string, o lowered.Origin) {
	l.b.WriteString(s)
	l.b.WriteByte('\n')
	l.lines = append(l.lines, o)
}

// lastLine is the .jh line of the last line written.
func (l *lowerer) lastLine() int {
	if len(l.lines) == 0 {
		return l.start
	}
	return l.lines[len(l.lines)-1].Line
}

// gen writes generated lines that stand for the last step written.
func (l *lowerer) gen(s string) {
	line := l.lastLine()
	for _, part := range strings.Split(s, "\n") {
		l.put(part, lowered.Origin{Line: line})
	}
}

// at writes prefix+text+suffix as the lowering of a step on .jh line line,
// where text (the user's words) starts at .jh column col (0: unknown). The
// line is indented so that text keeps its column when the prefix leaves
// room; otherwise the offset is recorded. Lines of a multi-line text map to
// the following .jh lines with their own columns.
func (l *lowerer) at(line, col int, prefix, text, suffix string) {
	if line <= 0 {
		line = l.lastLine()
	}
	l.padTo(line)
	off, pad := 0, 0
	if col > 0 {
		pad = col - 1 - len(prefix)
		if pad < 0 {
			pad = min(len(l.indentOf(line)), col-1)
		}
		off = col - 1 - pad - len(prefix)
	}
	if !strings.Contains(prefix, "\n") && !strings.Contains(text, "\n") && !strings.Contains(suffix, "\n") {
		// One line, the common case: written in place rather than
		// joined and split again.
		for range pad {
			l.b.WriteByte(' ')
		}
		l.b.WriteString(prefix)
		l.b.WriteString(text)
		l.put(suffix, lowered.Origin{Line: line, Col: off})
		return
	}
	prefix = strings.Repeat(" ", pad) + prefix
	parts := strings.Split(prefix+text+suffix, "\n")
	for k, part := range parts {
		o := lowered.Origin{Line: line + k, Col: off}
		if k > 0 {
			o.Col = l.contOffset(line+k, part)
		}
		l.put(part, o)
	}
}

// indentOf is the leading white space of source line line.
func (l *lowerer) indentOf(line int) string {
	if line < 1 || line > len(l.src) {
		return ""
	}
	s := l.src[line-1]
	return s[:len(s)-len(strings.TrimLeft(s, " \t"))]
}

// contOffset is the column offset of a continuation line of a multi-line
// step whose text may have been trimmed.
func (l *lowerer) contOffset(line int, text string) int {
	t := strings.TrimLeft(text, " \t")
	if t == "" {
		return 0
	}
	if c := l.colIn(line, t, 1); c > 0 {
		return c - 1 - (len(text) - len(t))
	}
	return 0
}

// colIn is the 1-based column of the first line of text on source line
// line, searched from column from; 0 when unknown.
func (l *lowerer) colIn(line int, text string, from int) int {
	if text == "" || line < 1 || line > len(l.src) {
		return 0
	}
	first, _, _ := strings.Cut(text, "\n")
	src := l.src[line-1]
	if from < 1 || from > len(src) {
		from = 1
	}
	if i := strings.Index(src[from-1:], first); i >= 0 {
		return from + i
	}
	if i := strings.Index(src, first); i >= 0 {
		return i + 1
	}
	return 0
}

// colOr is colIn, or fallback when the text is not found.
func (l *lowerer) colOr(line int, text string, from, fallback int) int {
	if c := l.colIn(line, text, from); c > 0 {
		return c
	}
	return fallback
}

// open writes the wrapper line on the declaration's line. The body is a
// shell function so that `return`, `local`, `$FUNCNAME` and the body's exit
// status behave as in the reference, whose bodies are bash functions.
func (l *lowerer) open(symbol string, line int) {
	l.reset()
	l.start = max(line, 1)
	l.put(ImplName(symbol)+"() {", lowered.Origin{Line: l.start})
}

// close ends the wrapper and calls it. A body with no command gets a no-op
// (bash rejects an empty function); otherwise the body's status is its last
// command's, as for a bash function.
func (l *lowerer) close(symbol string, empty bool) {
	if empty {
		l.gen(":")
	}
	l.put("}", lowered.Origin{Line: l.next()})
	l.put(ImplName(symbol)+` "$@"`, lowered.Origin{Line: l.next()})
}

func (l *lowerer) body(symbol string, declLine int, cmds []*ast.BodyCmd) {
	l.open(symbol, declLine)
	empty := true
	for _, c := range cmds {
		switch c.Kind {
		case ast.BodyComment:
			l.at(c.Line, l.colIn(c.Line, c.Text, 1), "", c.Text, "")
			continue
		case ast.BodyEnsure:
			id := l.addStep(lowered.Step{Kind: lowered.StepEnsure, Target: Ref(l.mod, c.Ref)})
			l.callAt(c.Line, c.Col, "", "jaiph::ensure "+id+" ", c.Args, "")
		case ast.BodyReturn:
			l.returnValue(c.Line, c.Col, c.Value)
		default:
			l.at(c.Line, l.colOr(c.Line, c.Text, 1, c.Col), "", l.rewrite(c.Text), "")
		}
		empty = false
	}
	l.close(symbol, empty)
}

// hasCommand reports whether steps hold more than comments.
func hasCommand(steps []ast.Step) bool {
	for _, s := range steps {
		if _, ok := s.(*ast.Comment); !ok {
			return true
		}
	}
	return false
}

func (l *lowerer) workflow(symbol string, w *ast.Workflow) {
	l.open(symbol, w.Line)
	l.steps(w, w.Steps)
	l.close(symbol, !hasCommand(w.Steps))
	if len(w.Routes) > 0 {
		// An orchestrator drains its inbox once its body completes, also
		// after a value return (D12), but not after a failure. The body's
		// status is an argument: `body && drain` would switch off errexit
		// inside the body.
		l.put("jaiph::drain $?", lowered.Origin{Line: l.next()})
	}
}

// callAt writes a managed call whose arguments (the user's words) are
// located on the .jh line: prefix is the lowered text before them, kwCol
// the column of the step's keyword.
func (l *lowerer) callAt(line, kwCol int, capture, prefix, args, suffix string) {
	if args == "" {
		l.at(line, kwCol, capture, strings.TrimSuffix(prefix, " "), suffix)
		return
	}
	l.at(line, l.colIn(line, args, kwCol), capture+prefix, args, suffix)
}

func (l *lowerer) returnValue(line, col int, v string) {
	l.at(line, l.colIn(line, v, col), "jaiph::return ", v, "; return 0")
}

func (l *lowerer) steps(w *ast.Workflow, steps []ast.Step) {
	for _, s := range steps {
		l.step(w, s)
	}
}

// block lowers nested statements and records their line range.
func (l *lowerer) block(w *ast.Workflow, steps []ast.Step) {
	from := l.next()
	l.steps(w, steps)
	if l.next() > from {
		l.blocks = append(l.blocks, lowered.Block{From: from, To: l.next()})
	}
}

// stepKey is text of a step that appears on its source line.
func stepKey(s ast.Step) string {
	switch s := s.(type) {
	case *ast.Shell:
		return s.Text
	case *ast.Capture:
		return s.Cmd
	case *ast.Run:
		return s.Ref.String()
	case *ast.Ensure:
		return s.Ref.String()
	case *ast.Log:
		return s.Message
	case *ast.Return:
		return s.Value
	case *ast.Prompt:
		return "prompt"
	case *ast.Comment:
		return s.Text
	}
	return ""
}

// where returns the .jh line of a step and the column its text is searched
// from: the AST position, or for a statement of a multi-line recover block
// the line found below the ensure.
func (l *lowerer) where(s ast.Step) (int, int) {
	p := s.StepPos()
	if l.recFrom == 0 {
		return p.Line, p.Col
	}
	key := stepKey(s)
	for i := l.recFrom; key != "" && i <= len(l.src); i++ {
		if strings.Contains(l.src[i-1], key) {
			l.recFrom = i
			return i, 1
		}
	}
	return p.Line, 1
}

// call renders a managed run/ensure call, captured or not, as the capture
// assignment, the command up to the arguments, the arguments, and the rest.
func (l *lowerer) call(st lowered.Step, ref ast.Ref, args, capture string, inRecover bool) (string, string, string, string) {
	if inRecover && args == "" {
		args = `"$@"`
	}
	st.Target, st.Capture = Ref(l.mod, ref), capture != ""
	cmd := "jaiph::" + string(st.Kind) + " " + l.addStep(st) + " "
	if capture != "" {
		return capture + "=$(", cmd, args, ")"
	}
	return "", cmd, args, ""
}

func (l *lowerer) step(w *ast.Workflow, s ast.Step) {
	line, col := l.where(s)
	switch s := s.(type) {
	case *ast.Comment:
		l.at(line, l.colIn(line, s.Text, 1), "", s.Text, "")
	case *ast.Shell:
		l.at(line, l.colOr(line, s.Text, 1, s.GuardCol), "", l.rewrite(s.Text), "")
	case *ast.Capture:
		l.at(line, l.colOr(line, s.Cmd, col, col), s.Var+"=$(", l.rewrite(s.Cmd), ")")
	case *ast.Run:
		c, p, a, x := l.call(lowered.Step{Kind: lowered.StepRun}, s.Ref, s.Args, s.Capture, s.InRecover)
		l.callAt(line, l.colOr(line, "run", col, col), c, p, a, x)
	case *ast.Ensure:
		if s.Recover == nil {
			c, p, a, x := l.call(lowered.Step{Kind: lowered.StepEnsure}, s.Ref, s.Args, s.Capture, s.InRecover)
			l.callAt(line, l.colOr(line, "ensure", col, col), c, p, a, x)
			return
		}
		l.ensureRecover(w, s, line, col)
	case *ast.Prompt:
		l.prompt(s, line, col)
	case *ast.Log:
		name := "jaiph::log "
		if s.Err {
			name = "jaiph::logerr "
		}
		l.at(line, l.colIn(line, `"`+s.Message+`"`, col), name, `"`+s.Message+`"`, "")
	case *ast.Return:
		l.returnValue(line, col, s.Value)
	case *ast.If:
		l.ifStep(w, s, line, col)
	case *ast.Send:
		l.send(w, s, line)
	case *ast.Receive:
		l.receive(s, line, col)
	}
}

// receive lowers `[x =] <- ch [key "K"] [timeout "D"]` to
// `[x=$(]jaiph::receive <id> ["K"][)] || return $?`: the key is a word the shell
// expands (as data: validate refuses command substitution in it).
func (l *lowerer) receive(s *ast.Receive, line, col int) {
	st := lowered.Step{Kind: lowered.StepReceive, Channel: Ref(l.mod, s.Channel), Capture: s.Capture != "", HasKey: s.HasKey, Timeout: s.Timeout}
	cmd := "jaiph::receive " + l.addStep(st)
	if s.HasKey {
		cmd += " " + s.Key
	}
	// A receive that failed (a timeout) ends the workflow with its status
	// even where errexit is off (`run ask || …`), so callers can branch
	// on it.
	if s.Capture != "" {
		l.at(line, l.colOr(line, "<-", col, col), s.Capture+"=$(", cmd, ") || return $?")
		return
	}
	l.at(line, l.colOr(line, "<-", col, col), "", cmd, " || return $?")
}

// ensureRecover lowers `ensure R args recover …` to a bounded retry loop in
// the caller's shell, so recover statements see and change its state. The
// loop head is one line, on the ensure's line, so the statements of a
// multi-line recover block keep their lines.
func (l *lowerer) ensureRecover(w *ast.Workflow, s *ast.Ensure, line, col int) {
	l.n++
	v := fmt.Sprintf("__jaiph_rv%d", l.n)
	ok := fmt.Sprintf("__jaiph_ok%d", l.n)
	saved := fmt.Sprintf("__jaiph_args%d", l.n)
	i := fmt.Sprintf("__jaiph_try%d", l.n)
	head := v + `=""; ` + ok + "=0; for ((" + i + "=1; " + i + "<=$(jaiph::retries); " + i + "++)); do " +
		"if " + v + "=$(jaiph::ensure " + l.addStep(lowered.Step{Kind: lowered.StepEnsure, Target: Ref(l.mod, s.Ref), Capture: true, Always: true}) + " "
	tail := "); then " + ok + "=1; break; fi; " + saved + `=("$@"); set -- "$` + v + `"`
	l.callAt(line, l.colOr(line, "ensure", col, col), "", head, s.Args, tail)
	block := line <= len(l.src) && strings.HasSuffix(strings.TrimRight(l.src[line-1], " \t\r"), "{")
	end := `set -- "${` + saved + `[@]}"; done; [ "$` + ok + `" = 1 ] || jaiph::ensure_failed`
	if s.Capture != "" {
		end += "; " + s.Capture + `="$` + v + `"`
	}
	if !block {
		if joined, ok := l.oneLine(w, s.Recover); ok {
			// A one-line recover stays on the ensure's line.
			l.b.Truncate(l.b.Len() - 1) // the head's newline
			l.b.WriteString("; " + joined + "; " + end + "\n")
			return
		}
	}
	if block && l.recFrom == 0 {
		l.recFrom = line + 1
	}
	l.block(w, s.Recover)
	l.recFrom = 0
	end = l.indentOf(line) + end
	if block {
		l.put(end, lowered.Origin{Line: l.next()})
	} else {
		l.gen(end)
	}
}

// oneLine lowers steps into one line joined by `;`, when each lowers to a
// single line that can be joined (no here-document, comment or trailing
// `&`).
func (l *lowerer) oneLine(w *ast.Workflow, steps []ast.Step) (string, bool) {
	// The steps are on the current line: starting there spares padding
	// from line 1 per recover (quadratic in a body of many of them).
	sub := &lowerer{mod: l.mod, n: l.n, start: l.lastLine(), tab: l.tab}
	sub.steps(w, steps)
	var parts []string
	for _, line := range strings.Split(strings.TrimSuffix(sub.b.String(), "\n"), "\n") {
		t := strings.TrimSpace(line)
		if t == "" {
			continue
		}
		if strings.HasPrefix(t, "#") || strings.HasSuffix(t, "&") && !strings.HasSuffix(t, "&&") || strings.Contains(t, "<<") {
			return "", false
		}
		parts = append(parts, t)
	}
	if len(parts) == 0 {
		return "", false
	}
	l.n, l.tab = sub.n, sub.tab
	return strings.Join(parts, "; "), true
}

func (l *lowerer) ifStep(w *ast.Workflow, s *ast.If, line, col int) {
	neg := ""
	if s.Negated {
		neg = "! "
	}
	ifCol := l.colIn(line, "if", 1)
	switch s.Kind {
	case ast.IfEnsure:
		id := l.addStep(lowered.Step{Kind: lowered.StepEnsure, Target: Ref(l.mod, s.Ref)})
		l.callAt(line, l.colOr(line, "ensure", col, ifCol), "", "if "+neg+"jaiph::ensure "+id+" ", s.Args, "; then")
	case ast.IfRun:
		id := l.addStep(lowered.Step{Kind: lowered.StepRun, Target: Ref(l.mod, s.Ref)})
		l.callAt(line, l.colOr(line, "run", col, ifCol), "", "if "+neg+"jaiph::run "+id+" ", s.Args, "; then")
	default:
		l.at(line, l.colIn(line, s.Cond, ifCol), "if ! ", l.rewrite(s.Cond), "; then")
	}
	// An empty branch (comments at most) gets a no-op: bash rejects an
	// empty statement list, and an empty else is left out.
	l.block(w, s.Then)
	if !hasCommand(s.Then) {
		l.gen(":")
	}
	ind := l.indentOf(line)
	if s.HasElse && hasCommand(s.Else) {
		l.put(ind+"else", lowered.Origin{Line: l.next()})
		l.block(w, s.Else)
	}
	l.put(ind+"fi", lowered.Origin{Line: l.next()})
}

// send lowers `ch <- cmd`: the command's stdout is the message; a failing
// command sends nothing and fails the step with its status (D18).
func (l *lowerer) send(w *ast.Workflow, s *ast.Send, line int) {
	ch := Ref(l.mod, s.Channel)
	if s.Cmd == "" {
		l.at(line, l.colIn(line, s.Channel.String(), 1), "", "jaiph::send "+ch+" "+w.Name+` "$1"`, "")
		return
	}
	l.n++
	v := fmt.Sprintf("__jaiph_msg%d", l.n)
	l.at(line, l.colIn(line, s.Cmd, 1), v+"=$(", l.rewrite(s.Cmd),
		") || jaiph::status $?; jaiph::send "+ch+" "+w.Name+` "$`+v+`"`)
}

// prompt lowers a prompt step. The text is passed as an unquoted here-document
// so the shell expands it exactly as the reference does (parameters and
// arithmetic; validation rejects command substitution). The here-document
// lines map to the prompt's own lines.
func (l *lowerer) prompt(s *ast.Prompt, line, col int) {
	text := PromptText(s)
	if n := len(text) - len(strings.TrimRight(text, `\`)); n%2 == 1 {
		// A last backslash would join the delimiter line and leave the
		// here-document unclosed: it stands for itself.
		text += `\`
	}
	delim := "__JAIPH_PROMPT__"
	for strings.Contains(text, delim) {
		delim += "_"
	}
	st := lowered.Step{Kind: lowered.StepPrompt, Capture: s.Capture != "", Preview: PromptPreview(s), Vars: PromptVarRefs(s.Text)}
	if s.HasReturns {
		st.Typed, st.Returns, st.Name, st.Fields = true, s.Returns, s.Capture, schemaFields(s.Returns)
	}
	args := []string{"jaiph::prompt", l.addStep(st)}
	for _, ref := range st.Vars {
		args = append(args, `"${`+ref+`}"`)
	}
	cmd := strings.Join(args, " ") + " <<" + delim
	var capture, after string
	switch {
	case s.HasReturns:
		// The builtin prints assignments to eval; `eval "$(…)"` alone would
		// drop its failure status (1/2/3), so test the substitution first.
		l.n++
		v := fmt.Sprintf("__jaiph_typed%d", l.n)
		capture = "if " + v + "=$("
		after = "); then eval \"$" + v + "\"; else jaiph::status $?; fi"
	case s.Capture != "":
		capture = s.Capture + "=$("
		after = ")"
	}
	l.at(line, l.colOr(line, "prompt", col, col), capture, cmd, "")
	for k, t := range strings.Split(text, "\n") {
		o := lowered.Origin{Line: line + k}
		if k == 0 {
			o.Col = l.colOr(line, "prompt", col, col) // the text follows the keyword
			o.Col = max(l.colIn(line, t, o.Col)-1, 0)
		}
		l.put(t, o)
	}
	l.gen(delim)
	if after != "" {
		l.gen(after)
	}
}

// PromptText is the compile-time text a prompt sends: typed prompts append
// the schema suffix (docs/language.md#typed-prompts).
func PromptText(s *ast.Prompt) string {
	if !s.HasReturns {
		return s.Text
	}
	return s.Text + agent.SchemaSuffix(schemaFields(s.Returns))
}

// PromptPreview is the first 24 characters of the compile-time text (typed
// prompts include the schema suffix the agent sees).
func PromptPreview(s *ast.Prompt) string {
	t := strings.ReplaceAll(PromptText(s), "\\`", "`") // as the expanded text shows it
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
		case k < len(text) && shellscan.IsIdentStart(text[k]):
			for k < len(text) && shellscan.IsIdentChar(text[k]) {
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

// rewrite applies the textual rewrites of shell lines (docs/language.md#shell-steps): every
// `alias.X` not preceded by [A-Za-z0-9_] becomes `<module symbol>::X`, and
// `local|export|readonly NAME = value` becomes `NAME=value`.
func (l *lowerer) rewrite(s string) string {
	s = rewriteDeclAssign(s)
	if len(l.mod.Imports) == 0 || !strings.Contains(s, ".") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if i == 0 || !shellscan.IsIdentChar(s[i-1]) {
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
	for j < len(s) && shellscan.IsIdentChar(s[j]) {
		j++
	}
	if j == 0 || j+1 >= len(s) || s[j] != '.' || !shellscan.IsIdentStart(s[j+1]) {
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
			for j < len(rest) && shellscan.IsIdentChar(rest[j]) {
				j++
			}
			if j == 0 || !shellscan.IsIdentStart(rest[0]) {
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

// schemaFields is the fields of a `returns` schema that validated.
func schemaFields(returns string) []agent.Field {
	fields, _ := agent.ParseSchema(returns)
	return fields
}
