package parser

import (
	"strings"
	"unicode"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/internal/shellscan"
)

// parseWorkflowBody parses the body of w whose header is line decl, classifying
// each depth-0 line in the order of docs/language.md#steps.
func (p *parser) parseWorkflowBody(w *ast.Workflow, decl int) int {
	var block []string
	depth, blockLine := 0, 0
	for i := decl + 1; i < len(p.lines); {
		raw := p.lines[i]
		t := trim(raw)
		// Here-document bodies, and the lines of a string the line leaves
		// open, stay verbatim, within their shell step; looked for only
		// on a shell line (a Jaiph step's own strings are its own).
		verbatim := func() (string, []string, int) {
			if strings.HasPrefix(t, "#") {
				return t, nil, i
			}
			return p.verbatimLines(i)
		}
		if depth > 0 {
			head, hdoc, hdocLast := verbatim()
			if len(hdoc) > 0 {
				t = head + "\n" + strings.Join(hdoc, "\n")
				i = hdocLast
			}
			block = append(block, t) // the reference trims every line of a block
			depth += shellscan.BraceDelta(raw)
			i++
			if depth <= 0 {
				depth = 0
				st := p.blockStep(strings.Join(block, "\n"), blockLine)
				ast.SetStepEnd(st, p.endOf(i-1))
				w.Steps = append(w.Steps, st)
				block = nil
			}
			continue
		}
		switch {
		case t == "":
			i++
			continue
		case t == "}":
			return i + 1
		case strings.HasPrefix(t, "#"):
			w.Steps = append(w.Steps, &ast.Comment{Pos: p.pos(i, 1), End: p.endOf(i), Text: t})
			i++
			continue
		case strings.HasPrefix(t, "config") && strings.HasPrefix(trim(t[6:]), "{"):
			i = p.parseWorkflowConfig(w, i)
			continue
		}
		steps, next, open := p.parseStep(i, w)
		if open > 0 {
			head, hdoc, hdocLast := verbatim()
			if len(hdoc) > 0 {
				t = head + "\n" + strings.Join(hdoc, "\n")
			}
			depth, blockLine, block = open, i, []string{t}
			i = hdocLast + 1
			continue
		}
		if sh, ok := oneShell(steps); ok && next == i+1 && sh.Text == t {
			if head, hdoc, hdocLast := verbatim(); len(hdoc) > 0 {
				sh.Text = head + "\n" + strings.Join(hdoc, "\n")
				next = hdocLast + 1
			}
		}
		for _, st := range steps {
			ast.SetStepEnd(st, p.endOf(next-1))
		}
		w.Steps = append(w.Steps, steps...)
		i = next
	}
	p.unterminated(decl+1, "unterminated workflow block: "+w.Name)
	return len(p.lines)
}

func (p *parser) parseWorkflowConfig(w *ast.Workflow, i int) int {
	hasSteps := false
	for _, s := range w.Steps {
		if _, ok := s.(*ast.Comment); !ok {
			hasSteps = true
		}
	}
	cfg, next := p.parseConfigBlock(i, true)
	switch {
	case w.Config != nil:
		p.errorAt(i+1, indentCol(p.lines[i]), "duplicate config block inside workflow (only one allowed per workflow)")
	case hasSteps:
		p.errorAt(i+1, indentCol(p.lines[i]), "config block inside workflow must appear before any steps")
	case cfg != nil:
		w.Config = cfg
	}
	return next
}

// blockStep turns a finished brace block into a step: a send when the whole
// text has the send form, else one shell step.
func (p *parser) blockStep(text string, line int) ast.Step {
	if ch, cmd, ok := isSend(text); ok {
		return &ast.Send{Pos: p.pos(line, 1), Channel: ch, RefPos: p.pos(line, indentCol(p.lines[line])), Cmd: cmd}
	}
	return &ast.Shell{Pos: p.pos(line, 1), Text: text, GuardCol: 1}
}

// bareStep reports a step keyword with nothing after it (`prompt`, `x =
// prompt`, `run`, `x = ensure`) with its form's own message and reports
// whether it did. The reference ran such a line as shell, a command of
// that name that is not found; the shell check would call it a step
// misplaced inside a shell construct, which it is not.
func (p *parser) bareStep(i int, l *line, col int) bool {
	kw, capture := trim(l.text), false
	// `x=prompt` is a shell assignment of the word "prompt".
	if _, rhs, off, ok := l.assignment(true); ok {
		kw, capture, col = trim(rhs), true, col+off
	}
	switch kw {
	case "prompt":
		msg := `prompt must match: prompt "<text>"`
		if capture {
			msg = `prompt must match: name = prompt "<text>"`
		}
		p.errorAt(i+1, col, msg)
	case "run":
		p.errorAt(i+1, 1, "run must target a workflow or function reference")
	case "ensure":
		p.errorAt(i+1, 1, "invalid ensure statement")
	default:
		return false
	}
	return true
}

func startsWithAny(s string, prefixes ...string) bool {
	for _, pre := range prefixes {
		if strings.HasPrefix(s, pre) {
			return true
		}
	}
	return false
}

// stepLine is the depth-0 workflow line i being classified.
type stepLine struct {
	*line
	i   int
	raw string
	w   *ast.Workflow
}

// stepResult is what a form made of a line: its steps, the index of the
// next line, and a positive open when the line starts a multi-line block of
// that brace depth (item 14).
type stepResult struct {
	steps []ast.Step
	next  int
	open  int
}

// stepForm is one test of the classification of docs/language.md#steps.
type stepForm struct {
	name  string
	parse func(p *parser, s *stepLine) (stepResult, bool)
}

// stepForms is the order of docs/language.md#steps, forms 1–15: the first
// form whose parse matches the line wins. Each parse matches a head
// (heads.go) on the line's tokens; the checks that are not part of the
// grammar (the quote-unaware `; then` tail, the excluded right-hand sides
// of item 6) are said next to their form.
var stepForms = []stepForm{
	{"1–3 if [!] ensure|run REF …; then / if ! SHELL; then", func(p *parser, s *stepLine) (stepResult, bool) {
		kind, negated, body, off, ok := s.ifHeader()
		if !ok {
			return stepResult{}, false
		}
		steps, next := p.parseIf(s.i, kind, negated, body, off)
		return stepResult{steps: steps, next: next}, true
	}},
	{"4 IDENT = prompt …", func(p *parser, s *stepLine) (stepResult, bool) {
		name, _, off, ok := s.assignment(false)
		if !ok {
			return stepResult{}, false
		}
		text, ok := s.rhsLine().prompt()
		if !ok {
			return stepResult{}, false
		}
		return s.more(p.parsePrompt(s.i, name, text, indentCol(s.raw)+off))
	}},
	{"5 prompt …", func(p *parser, s *stepLine) (stepResult, bool) {
		text, ok := s.prompt()
		if !ok {
			return stepResult{}, false
		}
		return s.more(p.parsePrompt(s.i, "", text, indentCol(s.raw)))
	}},
	// Beyond the reference: a receive, captured or not (docs/language.md#receives).
	{"5a IDENT = <- REF [key …] [timeout …]", func(p *parser, s *stepLine) (stepResult, bool) {
		name, _, off, ok := s.assignment(false)
		if !ok {
			return stepResult{}, false
		}
		h, ok := s.rhsLine().receive()
		if !ok {
			return stepResult{}, false
		}
		return s.more(p.parseReceive(s.i, name, h, indentCol(s.raw)+off, indentCol(s.raw)), s.i+1)
	}},
	{"5b <- REF [key …] [timeout …]", func(p *parser, s *stepLine) (stepResult, bool) {
		h, ok := s.receive()
		if !ok {
			return stepResult{}, false
		}
		return s.more(p.parseReceive(s.i, "", h, indentCol(s.raw), indentCol(s.raw)), s.i+1)
	}},
	// Beyond the reference: a step keyword with nothing after it.
	{"5c [IDENT =] prompt|run|ensure alone", func(p *parser, s *stepLine) (stepResult, bool) {
		if !p.bareStep(s.i, s.line, indentCol(s.raw)) {
			return stepResult{}, false
		}
		return stepResult{next: s.i + 1}, true
	}},
	// Quirk: `x = "s"`, `x = 's'`, `x = $y` (and `x = prompt …` that item 4
	// refused) are shell lines.
	{"6 IDENT WS = RHS", func(p *parser, s *stepLine) (stepResult, bool) {
		name, rhs, off, ok := s.assignment(true)
		if !ok || startsWithAny(rhs, "prompt ", `"`, `'`, "$") {
			return stepResult{}, false
		}
		return s.more(p.parseAssignment(s.i, name, s.rhsLine(), indentCol(s.raw)+off))
	}},
	{"7 ensure …", func(p *parser, s *stepLine) (stepResult, bool) {
		rest, ok := s.keywordLine("ensure")
		if !ok {
			return stepResult{}, false
		}
		return s.more(p.parseEnsure(s.i, "", rest))
	}},
	{"8 run …", func(p *parser, s *stepLine) (stepResult, bool) {
		rest, ok := s.keywordLine("run")
		if !ok {
			return stepResult{}, false
		}
		return s.more(p.parseRun(s.i, "", rest), s.i+1)
	}},
	{"9 log / logerr", func(p *parser, s *stepLine) (stepResult, bool) {
		isErr, rest, ok := s.log()
		if !ok {
			return stepResult{}, false
		}
		return s.more(p.parseLog(s.i, isErr, rest), s.i+1)
	}},
	{"10 return \"…\" | '…' | $…", func(p *parser, s *stepLine) (stepResult, bool) {
		value, ok := s.isValueReturn()
		if !ok {
			return stepResult{}, false
		}
		return s.more(&ast.Return{Pos: p.pos(s.i, indentCol(s.raw)), Value: value}, s.i+1)
	}},
	{"11 malformed if-ensure", func(p *parser, s *stepLine) (stepResult, bool) {
		if !s.malformedIf() {
			return stepResult{}, false
		}
		p.errorAt(s.i+1, 1, `malformed if-ensure statement; expected "if [!] ensure <rule_ref> [args]; then"`)
		return stepResult{next: s.i + 1}, true
	}},
	{"12 REF -> targets", func(p *parser, s *stepLine) (stepResult, bool) {
		ch, targets, off, ok := s.route()
		if !ok {
			return stepResult{}, false
		}
		p.parseRoute(s.i, s.w, ch, targets, indentCol(s.raw)+off)
		return stepResult{next: s.i + 1}, true
	}},
	// A send whose command opens braces (`ch <- {`) accumulates like item 14
	// and the finished block becomes the send; the reference would send `{`
	// alone and end the workflow at the block's `}`.
	{"13 REF <- [command]", func(p *parser, s *stepLine) (stepResult, bool) {
		ch, cmd, ok := s.send()
		if !ok {
			return stepResult{}, false
		}
		if d := shellscan.BraceDelta(s.raw); d > 0 {
			return stepResult{next: s.i + 1, open: d}, true
		}
		return s.more(&ast.Send{Pos: p.pos(s.i, 1), Channel: ch, RefPos: p.pos(s.i, indentCol(s.raw)), Cmd: cmd}, s.i+1)
	}},
	{"14 a line that opens braces starts a multi-line shell block", func(p *parser, s *stepLine) (stepResult, bool) {
		d := shellscan.BraceDelta(s.raw)
		return stepResult{next: s.i + 1, open: d}, d > 0
	}},
	{"15 shell step", func(p *parser, s *stepLine) (stepResult, bool) {
		return s.more(&ast.Shell{Pos: p.pos(s.i, 1), Text: s.text, GuardCol: 1}, s.i+1)
	}},
}

// more is the result of a form that made step st (none when nil) and goes
// on at line next.
func (s *stepLine) more(st ast.Step, next int) (stepResult, bool) {
	return stepResult{steps: stepsOf(st), next: next}, true
}

// parseStep classifies the depth-0 workflow line i with stepForms and
// returns its step(s), the next line index and the brace depth of a
// multi-line block that starts on this line.
func (p *parser) parseStep(i int, w *ast.Workflow) ([]ast.Step, int, int) {
	s := &stepLine{line: newLine(trim(p.lines[i])), i: i, raw: p.lines[i], w: w}
	for _, f := range stepForms {
		if r, ok := f.parse(p, s); ok {
			return r.steps, r.next, r.open
		}
	}
	panic("unreachable: the shell form matches every line")
}

func stepsOf(s ast.Step) []ast.Step {
	if s == nil {
		return nil
	}
	return []ast.Step{s}
}

// parseReceive makes the receive of line i whose `<-` is at col (base: the
// column of the line's first character); nil after a reported error (a
// malformed tail).
func (p *parser) parseReceive(i int, capture string, h receiveHead, col, base int) ast.Step {
	if !h.whole {
		p.errorAt(i+1, col, `malformed receive; expected <- CHANNEL [key "VALUE"] [timeout "DURATION"]`)
		return nil
	}
	return &ast.Receive{Pos: p.pos(i, col), Capture: capture, Channel: h.ch,
		RefPos: p.pos(i, base+h.refOff), Key: h.key, HasKey: h.hasKey, Timeout: h.timeout}
}

// parseRoute stores the route of line i on w; col is the targets' column.
func (p *parser) parseRoute(i int, w *ast.Workflow, ch ast.Ref, targets string, col int) {
	raw := p.lines[i]
	route := &ast.Route{Pos: p.pos(i, 1), End: p.endOf(i), Channel: ch, RefPos: p.pos(i, indentCol(raw))}
	for _, piece := range strings.Split(targets, ",") {
		target := trim(piece)
		at := p.pos(i, col+len(piece)-len(strings.TrimLeftFunc(piece, unicode.IsSpace)))
		col += len(piece) + 1
		r, ok := ast.ParseRef(target)
		if !ok {
			p.errorAt(i+1, 1, `invalid workflow reference in route: "`+target+`"`)
			return
		}
		route.Targets = append(route.Targets, ast.RouteTarget{Ref: r, Col: colOf(raw, target, 1), RefPos: at})
	}
	w.Routes = append(w.Routes, route)
}

// parseAssignment handles `IDENT WS = RHS` (docs/language.md#captures). col is the RHS column.
func (p *parser) parseAssignment(i int, name string, r *line, col int) (ast.Step, int) {
	rhs := r.text
	if !p.checkCaptureRHS(i, r) {
		return nil, i + 1
	}
	if rest, ok := r.keywordLine("ensure"); ok {
		return p.parseEnsure(i, name, rest)
	}
	if rest, ok := r.keywordLine("run"); ok {
		return p.parseRun(i, name, rest), i + 1
	}
	if strings.HasPrefix(rhs, "(") {
		// Quirk: the whole line is an uncaptured shell line, located at
		// the right-hand side.
		return &ast.Shell{Pos: p.pos(i, col), Text: trim(p.lines[i]), GuardCol: col}, i + 1
	}
	return &ast.Capture{Pos: p.pos(i, col), Var: name, Cmd: rhs}, i + 1
}

// checkCaptureRHS rejects a capture whose right-hand side holds a send or a
// route operator; it reports the error and returns false.
func (p *parser) checkCaptureRHS(i int, rhs *line) bool {
	if _, _, ok := rhs.send(); ok {
		p.errorAt(i+1, 1, "E_PARSE capture and send cannot be combined; use separate steps")
		return false
	}
	// Our fix of a reference bug: `x = echo "a" -> b` would run
	// `echo "a" -` into a file `b`; a route never belongs in a capture.
	// The test is the reference's operator scan (quotes only), so a `->`
	// inside `$(…)` is refused too, as before the grammar.
	if shellscan.IndexOperator(rhs.text, "->") >= 0 {
		p.errorAt(i+1, 1, "capture cannot contain a route (->); declare routes on their own line")
		return false
	}
	return true
}

// parseRun parses `REF [args]` after `run`; nil after a reported error.
func (p *parser) parseRun(i int, capture string, rest *line) ast.Step {
	r, args, off, ok := rest.callTarget()
	if !ok {
		p.errorAt(i+1, 1, "run must target a workflow or function reference")
		return nil
	}
	return &ast.Run{Pos: p.pos(i, colOf(p.lines[i], "run", 1)), Capture: capture, Ref: r, RefPos: p.pos(i, indentCol(p.lines[i])+off), Args: args}
}

// parseEnsure parses `REF [args] [recover …]` after `ensure` (docs/language.md#recover).
func (p *parser) parseEnsure(i int, capture string, rest *line) (ast.Step, int) {
	raw := p.lines[i]
	col := colOf(raw, "ensure", 1)
	left, right, hasRecover := splitRecover(rest.text)
	var r ast.Ref
	var args string
	var off int
	var ok bool
	if hasRecover {
		r, args, off, ok = splitCall(left)
		off += rest.base
	} else {
		r, args, off, ok = rest.callTarget()
	}
	if !ok {
		p.errorAt(i+1, 1, "invalid ensure statement")
		return nil, i + 1
	}
	e := &ast.Ensure{Pos: p.pos(i, col), Capture: capture, Ref: r, RefPos: p.pos(i, indentCol(raw)+off), Args: args}
	if !hasRecover {
		return e, i + 1
	}
	// The keyword D17 split at (the reference takes the first `recover`
	// anywhere in the line, which is the same one outside quotes).
	recoverCol := col
	if k := shellscan.IndexOperator(raw, " recover "); k >= 0 {
		recoverCol = k + 2
	}
	right = trim(right)
	next := i + 1
	// Recover statements carry the ensure line and the column of `recover`
	// (column 1 for the multi-line block form).
	stmtCol := recoverCol
	var text string
	switch {
	case right == "{":
		e.RecoverBlock = true
		stmtCol = 1
		var lines []string
		for ; next < len(p.lines) && trim(p.lines[next]) != "}"; next++ {
			lines = append(lines, trim(p.lines[next]))
		}
		if next >= len(p.lines) {
			p.errorAtEOF(i+1, recoverCol, `unterminated recover block, expected "}"`)
			return nil, next
		}
		next++
		text = strings.Join(lines, "\n")
	case strings.HasPrefix(right, "{"):
		e.RecoverBlock = true
		end := strings.IndexByte(right, '}')
		if end < 0 {
			p.errorAt(i+1, recoverCol, `unterminated recover block, expected "}"`)
			return nil, next
		}
		text = right[1:end]
	default:
		text = right
	}
	stmts := shellscan.SplitStatements(text)
	if len(stmts) == 0 {
		p.errorAt(i+1, recoverCol, "recover block must contain at least one statement")
		return nil, next
	}
	e.Recover = []ast.Step{}
	for _, s := range stmts {
		if st := p.parseRecoverStmt(i, stmtCol, s); st != nil {
			e.Recover = append(e.Recover, st)
		}
	}
	return e, next
}

// splitRecover splits at the first ` recover ` outside quotes (D17).
func splitRecover(s string) (string, string, bool) {
	const kw = " recover "
	j := shellscan.IndexOperator(s, kw)
	if j < 0 {
		return s, "", false
	}
	return s[:j], s[j+len(kw):], true
}

// parseRecoverStmt parses one recover statement (docs/language.md#recover). Every statement
// carries the ensure line i and column col. A `run`/`ensure` whose target is
// not a REF is a shell statement, and there is no nested recover.
func (p *parser) parseRecoverStmt(i, col int, s string) ast.Step {
	at := p.pos(i, col)
	l := newLine(s)
	if name, rhs, _, ok := l.assignment(true); ok && !startsWithAny(rhs, "prompt ", `"`, `'`, "$") {
		r := l.rhsLine()
		if !p.checkCaptureRHS(i, r) {
			return nil
		}
		if ref, args, _, ok := r.call("run"); ok {
			return &ast.Run{Pos: at, Capture: name, Ref: ref, Args: args, InRecover: true}
		}
		if ref, args, _, ok := r.call("ensure"); ok {
			return &ast.Ensure{Pos: at, Capture: name, Ref: ref, Args: args, InRecover: true}
		}
		return &ast.Capture{Pos: at, Var: name, Cmd: rhs}
	}
	if ref, args, _, ok := l.call("run"); ok {
		return &ast.Run{Pos: at, Ref: ref, Args: args, InRecover: true}
	}
	if ref, args, _, ok := l.call("ensure"); ok {
		return &ast.Ensure{Pos: at, Ref: ref, Args: args, InRecover: true}
	}
	promptCol := col + strings.Index(s, "prompt")
	if name, _, _, ok := l.assignment(false); ok {
		if text, ok := l.rhsLine().prompt(); ok {
			st, _ := p.parsePromptText(i, name, text, promptCol, nil)
			return st
		}
	}
	if text, ok := l.prompt(); ok {
		st, _ := p.parsePromptText(i, "", text, promptCol, nil)
		return st
	}
	return &ast.Shell{Pos: at, Text: s, GuardCol: col}
}

// parseLog parses the argument of log/logerr: it must start with `"`; the
// message runs to the first unescaped `"`, the rest of the line is ignored.
func (p *parser) parseLog(i int, isErr bool, arg string) ast.Step {
	kw := "log"
	if isErr {
		kw = "logerr"
	}
	col := indentCol(p.lines[i])
	if !strings.HasPrefix(arg, `"`) {
		p.errorAt(i+1, col, kw+` must match: `+kw+` "<message>"`)
		return nil
	}
	end := shellscan.ClosingQuote(arg[1:], '"')
	if end < 0 {
		p.errorAt(i+1, col, "unterminated "+kw+" string")
		return nil
	}
	return &ast.Log{Pos: p.pos(i, col), Err: isErr, Message: arg[1 : end+1]}
}

// parsePrompt parses a prompt step at line i; rest starts at the opening quote.
func (p *parser) parsePrompt(i int, capture, rest string, col int) (ast.Step, int) {
	return p.parsePromptText(i, capture, rest, colOf(p.lines[i], "prompt", col), p.lines)
}

// parsePromptText parses `"text" [\ NL] [returns '…']` (docs/language.md#prompt). When lines is
// nil the prompt must fit on the given text (recover statements).
func (p *parser) parsePromptText(i int, capture, rest string, col int, lines []string) (ast.Step, int) {
	next := i + 1
	if !strings.HasPrefix(rest, `"`) {
		if capture != "" {
			p.errorAt(i+1, col, `prompt must match: name = prompt "<text>"`)
		} else {
			p.errorAt(i+1, col, `prompt must match: prompt "<text>"`)
		}
		return nil, next
	}
	text, end, next := quotedUntilClose(rest[1:], lines, next, '"')
	if end < 0 {
		p.eof = p.eof || lines != nil
		p.errorAt(i+1, col, "unterminated prompt string")
		return nil, next
	}
	pr := &ast.Prompt{Pos: p.pos(i, col), Capture: capture, Raw: text[:end], Text: promptCompileText(text[:end])}
	remainder := trim(text[end+1:])
	for strings.HasSuffix(remainder, `\`) && lines != nil && next < len(lines) {
		remainder = trim(strings.TrimSuffix(remainder, `\`) + "\n" + strings.TrimLeft(lines[next], " \t"))
		next++
	}
	if remainder == "" {
		return pr, next
	}
	schema, ok := returnsSchema(remainder)
	if !ok || schema == "" || (schema[0] != '\'' && schema[0] != '"') {
		p.errorAt(i+1, col, `after prompt string expected keyword "returns" with quoted schema (e.g. returns '{ type: string }') or end of line`)
		return nil, next
	}
	q := schema[0]
	body, send, next := quotedUntilClose(schema[1:], lines, next, q)
	if send < 0 {
		p.eof = p.eof || lines != nil
		p.errorAt(i+1, col, "unterminated returns schema string")
		return nil, next
	}
	if trim(body[send+1:]) != "" {
		p.errorAt(i+1, col, `after prompt string expected keyword "returns" with quoted schema (e.g. returns '{ type: string }') or end of line`)
		return nil, next
	}
	s := body[:send]
	s = strings.ReplaceAll(s, `\'`, `'`)
	s = strings.ReplaceAll(s, `\"`, `"`)
	pr.Returns, pr.HasReturns = s, true
	return pr, next
}

// promptCompileText applies the compile-time escape processing of prompt
// text: `\`+newline removed; `\$`, `\"`, `\\` become the character (so
// `\$5` is expanded at run time, to "" outside a workflow given five
// arguments: the reference's quirk, which the conformance corpus pins
// (case 030); `\\$` is a literal `$`); "\`" stays escaped, so the text's
// expansion gives a literal backtick (the reference unescaped it and then
// refused it as a command substitution; docs/differences.md); other
// backslashes are kept.
func promptCompileText(raw string) string {
	if !strings.Contains(raw, `\`) {
		return raw
	}
	var b strings.Builder
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if c == '\\' && i+1 < len(raw) {
			switch n := raw[i+1]; n {
			case '\n':
				i++
				continue
			case '`':
				b.WriteByte(c)
				b.WriteByte(n)
				i++
				continue
			case '$', '"', '\\':
				b.WriteByte(n)
				i++
				continue
			}
		}
		b.WriteByte(c)
	}
	return b.String()
}

// parseIf parses a managed if block whose header is line i (docs/language.md#if).
func (p *parser) parseIf(i int, kind ast.IfKind, negated bool, body string, bodyOff int) ([]ast.Step, int) {
	raw := p.lines[i]
	st := &ast.If{Pos: p.pos(i, 1), Kind: kind, Negated: negated}
	formName := map[ast.IfKind]string{ast.IfEnsure: "if-ensure", ast.IfRun: "if-run"}[kind]
	switch kind {
	case ast.IfEnsure, ast.IfRun:
		r, args, off, ok := splitCall(body)
		st.RefPos = p.pos(i, indentCol(raw)+bodyOff+off)
		if kind == ast.IfEnsure {
			st.Col = colOf(raw, "ensure", 1)
		} else {
			st.Col = colOf(raw, "run", 1)
		}
		if !ok {
			if kind == ast.IfEnsure {
				p.errorAt(i+1, 1, "invalid ensure reference in if-ensure statement")
			} else {
				p.errorAt(i+1, 1, "invalid workflow reference in if-run statement")
			}
			return nil, p.skipToFi(i + 1)
		}
		st.Ref, st.Args = r, args
	default:
		st.Cond = body
	}
	inElse := false
	for j := i + 1; j < len(p.lines); {
		t := trim(p.lines[j])
		// Here-document bodies stay verbatim, within their shell step,
		// as in the workflow's own lines: not branch lines (trimmed,
		// classified, ended by a `fi` among them).
		var hdoc []string
		hdocLast, head := j, t
		if !strings.HasPrefix(t, "#") {
			head, hdoc, hdocLast = p.verbatimLines(j)
		}
		switch {
		case t == "fi":
			if len(st.Then) == 0 {
				if kind == ast.IfNotShell {
					p.errorAt(i+1, 1, "if-block then-branch must contain at least one command or run")
				} else {
					p.errorAt(i+1, 1, "if-block then-branch must contain at least one run or shell command")
				}
				return nil, j + 1
			}
			return []ast.Step{st}, j + 1
		case t == "" || strings.HasPrefix(t, "#"):
			if t != "" {
				st.Comments = append(st.Comments, &ast.Comment{Pos: p.pos(j, indentCol(p.lines[j])), End: p.endOf(j), Text: t})
			}
			j++
			continue
		case t == "else" && kind != ast.IfNotShell:
			if inElse {
				p.errorAt(j+1, 1, "duplicate else in "+formName+" block")
				return nil, p.skipToFi(j + 1)
			}
			inElse, st.HasElse = true, true
			j++
			continue
		}
		s, next := p.parseBranchLine(j, kind)
		if sh, ok := s.(*ast.Shell); ok && len(hdoc) > 0 && next == j+1 && sh.Text == t {
			sh.Text = head + "\n" + strings.Join(hdoc, "\n")
			next = hdocLast + 1
		}
		if s != nil {
			ast.SetStepEnd(s, p.endOf(next-1))
			if inElse {
				st.Else = append(st.Else, s)
			} else {
				st.Then = append(st.Then, s)
			}
		}
		j = next
	}
	p.errorAtEOF(i+1, 1, `unterminated if-block, expected "fi"`)
	return nil, len(p.lines)
}

// skipToFi is error recovery inside a broken if block.
func (p *parser) skipToFi(j int) int {
	for ; j < len(p.lines); j++ {
		if trim(p.lines[j]) == "fi" {
			return j + 1
		}
	}
	p.eof = true
	return j
}

// parseBranchLine classifies one if-branch line (the table in docs/language.md#if). Branch
// steps are located at the line's first non-space column, except that `run`
// targets use the first occurrence of `run` and prompts that of `prompt`.
func (p *parser) parseBranchLine(j int, kind ast.IfKind) (ast.Step, int) {
	raw := p.lines[j]
	t := trim(raw)
	col := indentCol(raw)
	shell := func() (ast.Step, int) {
		return &ast.Shell{Pos: p.pos(j, col), Text: t, GuardCol: col}, j + 1
	}
	runAt := p.pos(j, colOf(raw, "run", col))
	l := newLine(t)
	// Beyond the reference: a receive (forms 5a/5b) in a branch too.
	if name, _, off, ok := l.assignment(false); ok {
		if h, ok := l.rhsLine().receive(); ok {
			return p.parseReceive(j, name, h, col+off, col), j + 1
		}
	}
	if h, ok := l.receive(); ok {
		return p.parseReceive(j, "", h, col, col), j + 1
	}
	if kind == ast.IfEnsure {
		if name, rhs, _, ok := l.assignment(true); ok && !startsWithAny(rhs, "prompt ", `"`, `'`, "$") {
			r := l.rhsLine()
			if !p.checkCaptureRHS(j, r) {
				return nil, j + 1
			}
			if ref, args, off, ok := r.call("run"); ok {
				return &ast.Run{Pos: runAt, Capture: name, Ref: ref, RefPos: p.pos(j, col+off), Args: args}, j + 1
			}
			return &ast.Capture{Pos: p.pos(j, col), Var: name, Cmd: rhs}, j + 1
		}
	}
	if ref, args, off, ok := l.call("run"); ok {
		return &ast.Run{Pos: runAt, Ref: ref, RefPos: p.pos(j, col+off), Args: args}, j + 1
	}
	if kind != ast.IfNotShell {
		if name, _, off, ok := l.assignment(false); ok {
			if text, ok := l.rhsLine().prompt(); ok {
				return p.parsePrompt(j, name, text, col+off)
			}
		}
		if text, ok := l.prompt(); ok {
			return p.parsePrompt(j, "", text, col)
		}
	}
	if kind == ast.IfEnsure && l.first() == "ensure" {
		p.errorAt(j+1, 1, `E_PARSE "ensure" is not allowed inside an if-ensure then/else branch`)
		return nil, j + 1
	}
	return shell()
}

// oneShell returns the step when steps is a single shell step.
func oneShell(steps []ast.Step) (*ast.Shell, bool) {
	if len(steps) != 1 {
		return nil, false
	}
	sh, ok := steps[0].(*ast.Shell)
	return sh, ok
}
