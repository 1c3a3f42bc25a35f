package bashfuzz

import "strings"

// Class names a kind of divergence the generator can produce.
type Class string

// The known divergences: found, and being fixed in the interpreter. Each
// is a construct the generator tags where it makes it (Stmt.Classes) or
// that Classify recognises in a whole program.
const (
	// `{ …; break; …; }` (or continue) in a brace group inside a loop;
	// the fuzzer found the same in an if or case body inside a loop: the
	// statements after the break still run.
	ClassBraceBreak Class = "brace-break"
	// A `/` in the pattern of `${v//pattern/repl}` (`${v////-}`), or
	// after the `/` operator (`${v///}`).
	ClassSlashPattern Class = "slash-pattern"
	// `$?` in a word after a `$(…)` in an earlier word of the same
	// command (`echo $(false) $?`).
	ClassStatusAfterSubst Class = "status-after-subst"
	// A pattern operator (`#`, `%`, `/` …) on an unset variable.
	ClassPatternUnset Class = "pattern-unset"
	// `[\!]` in a bracket expression of a pattern.
	ClassBracketBang Class = "bracket-bang"
	// `""$b`: an empty quoted string before an unquoted expansion, which
	// splitting with a custom IFS treats differently.
	ClassEmptyQuoteIFS Class = "empty-quote-ifs"
	// A file descriptor number on a here-document (`cat 3<<E`).
	ClassHeredocFd Class = "heredoc-fd"
	// A prefix assignment (`r=1 cmd`) to a readonly variable.
	ClassReadonlyPrefix Class = "readonly-prefix"
	// `set -e` or `set -o pipefail` inside a body that runs with errexit
	// ignored (`run f || …`, `if run f`).
	ClassErrexitIgnored Class = "errexit-ignored-callee"

	// Found by this fuzzer and not being fixed yet: each has its minimal
	// program in testdata/bashfuzz/found.txtar.

	// A pipeline whose reader may exit before the writer writes
	// (`echo x | false`): jaiph's echo and printf reported "write error:
	// Broken pipe", bash's die of SIGPIPE silently (status 141). A small
	// write races the reader in bash itself, so the generator's writer
	// writes more than the pipes hold.
	ClassPipeWrite Class = "pipe-write-error"
	// An EXIT trap whose last command fails, run when the shell (or a
	// subshell) ends without an explicit exit: bash's status is then the
	// trap's, jaiph's the body's.
	ClassSubshellTrap Class = "exit-trap-status"
	// `return` inside `( … )` outside any function: bash ends the
	// subshell, jaiph ends the whole body.
	ClassSubshellReturn Class = "subshell-return"
	// `${v:o:-l}` with the offset past the end of the value (an unset or
	// empty variable too): bash expands to nothing, jaiph fails with
	// "-l: substring expression < 0".
	ClassNegLenUnset Class = "neglen-unset"
	// An arithmetic error (a non-numeric subscript of an indexed array, a
	// word in a declare -i value): jaiph's message differed from bash's
	// (no `declare: `/`local: `/`printf: ` prefix, the shell went on, the
	// error token started elsewhere).
	ClassArithMessage Class = "arith-error-message"
	// An ERR trap: jaiph runs it for a failed command that is not the
	// last of an && / || list, in a body whose errexit is ignored, and
	// with the failed command's redirections still in place.
	ClassErrTrap Class = "err-trap"
	// `[[ -v WORD ]]` where the word expands to nothing: the interpreter
	// panics ("variable name must not be empty").
	ClassTestVEmpty Class = "test-v-empty"
	// `${!A1[@]}` of a variable that is not an array (unset): bash expands
	// to nothing, jaiph fails with "invalid indirect expansion".
	ClassIndirectUnset Class = "indirect-keys-unset"
	// `set -u`: bash fails on an unset variable in arithmetic, jaiph does
	// not (jaiph failed on `${!prefix*}` too: fixed).
	ClassNounset Class = "nounset"
	// A compound command (`{ …; }`, if, a loop, case) whose status comes
	// from a failed && / || list: bash goes on under errexit, jaiph exits.
	ClassCompoundAndOr Class = "compound-and-or-errexit"
	// `read` (and other assignments by builtins) into a readonly
	// variable: bash fails, jaiph's read returns 0.
	ClassReadonlyAssign Class = "readonly-assign"
	// PIPESTATUS before any command of the body ran: bash has the
	// caller's (0), jaiph none.
	ClassPipestatusStart Class = "pipestatus-at-start"
	// A while or until loop whose last body command failed: bash's loop
	// status is that command's, jaiph's 0.
	ClassWhileStatus Class = "while-status"
	// A `<<-` here-document line that is one expansion expanding to
	// nothing: jaiph drops the line, bash keeps it empty.
	ClassDashHeredocEmpty Class = "dash-heredoc-empty-line"
	// An EXIT trap that runs when errexit ends the body inside a
	// redirected brace group (`{ false; } > f1`): bash runs it with the
	// group's redirections, jaiph without.
	ClassExitTrapRedirect Class = "exit-trap-redirect"
	// `declare -r r1=…` (local, readonly) of a variable already readonly:
	// jaiph's message lacks bash's `declare: ` prefix.
	ClassReadonlyRedeclare Class = "readonly-redeclare-message"
	// `$?` in a for loop's body (a case arm) whose word list (word) held
	// a failing `$(…)`: bash has its status, jaiph 0.
	ClassForSubstStatus Class = "for-subst-status"
	// `local -a v=scalar`: bash makes an array, jaiph made a scalar.
	ClassLocalArrayAttr Class = "local-a-scalar"
	// A double-quoted word inside `${v:+…}` (`:-`, `+`, `-`) itself in
	// double quotes: `"${v:+"$unset"x}"` is empty in bash, `x` in jaiph
	// (`"${v:+"${a1[@]}"}"`, several words in bash, is fixed); the same
	// in `=` and `:=`: `"${u="$v"x}"` is empty and assigns "" in bash.
	ClassNestedArrayAlt Class = "nested-quoted-alternative"
	// PIPESTATUS after `! [[ … ]]` or `! (( … ))`: bash holds the
	// negated status, jaiph the test's own (`! true` agrees).
	ClassPipestatusNegation Class = "pipestatus-negation"
	// A here-document inside a workflow's `if ! cmd; then … fi` (a Jaiph
	// form whose lines are steps): its tabs became blanks (its body lines
	// were parsed as branch steps; they stay verbatim now).
	ClassWorkflowIfNotHeredoc Class = "workflow-if-not-heredoc"
	// `${!v*}` after `local v1=…` of a global v1: jaiph lists v1 twice.
	ClassLocalShadowNames Class = "local-shadow-prefix-names"
	// `${u:?'word'}`: jaiph's message keeps the word's quotes.
	ClassColonQQuote Class = "colon-q-quoted-word"
	// `local v={a,b}` (declare, export, readonly): bash brace-expands the
	// word into `v=a v=b`, jaiph keeps `{a,b}`.
	ClassDeclBraceExpansion Class = "declaration-brace-expansion"
	// `continue N` (break N) with N above the number of enclosing loops:
	// bash continues (breaks) the outermost loop, jaiph leaves it.
	ClassLevelsBeyondLoops Class = "levels-beyond-loops"
)

// Known lists the divergences that are known and being fixed, each with
// what it is. The bounded run of `make test` (TestBashDiffBounded) and the
// default of FuzzBashDiff avoid them; remove an entry when its fix lands,
// and the fixed-seed run then covers the construct again.
var Known = map[Class]string{
	ClassSubshellTrap:       "trap 'false' EXIT: bash ends with the trap's status, jaiph with the body's",
	ClassSubshellReturn:     "( return 0 ) outside a function ends jaiph's whole body",
	ClassNegLenUnset:        "${v:5:-1} with the offset past the end (unset, empty) fails in jaiph",
	ClassErrTrap:            "ERR trap: fired for non-final && elements, under ignored errexit, with the command's redirections",
	ClassReadonlyAssign:     "read into a readonly variable: bash abandons the body (even after ||), jaiph's read fails with 1 and the body goes on",
	ClassWhileStatus:        "while/until whose last body command failed: jaiph's status 0",
	ClassDashHeredocEmpty:   "a <<- here-document line expanding to nothing is dropped",
	ClassExitTrapRedirect:   "the EXIT trap run from inside { …; } > f1 by errexit: bash keeps the redirection",
	ClassNestedArrayAlt:     `"${v:+"$unset"x}" and "${u="$v"x}" are x (Vx) in jaiph, empty in bash`,
	ClassPipestatusNegation: "PIPESTATUS after ! [[ -n x ]]: bash 1, jaiph 0",
	ClassColonQQuote:        "${u:?'no value'}: jaiph's message keeps the quotes",
	ClassPipestatusStart:    "PIPESTATUS before any pipeline ran (the body's start, after definitions): bash 0, jaiph empty",
	ClassDeclBraceExpansion: "local v={a,b}: bash brace-expands it (v=b), jaiph keeps {a,b}",
}

// Fixed lists the classes that diverged and were fixed: the generator
// makes them freely, so the bounded run covers them (their cases are in
// testdata/bashcompat).
var Fixed = map[Class]string{
	ClassBraceBreak:        "break/continue inside { …; }, if or case in a loop",
	ClassSlashPattern:      "a / inside the pattern of ${v//pattern/repl}",
	ClassStatusAfterSubst:  "$? after $(false) in an earlier argument",
	ClassPatternUnset:      "pattern operators on an unset variable",
	ClassBracketBang:       `[\!] in a bracket expression`,
	ClassEmptyQuoteIFS:     `""$b with a custom IFS`,
	ClassHeredocFd:         "fd numbers on here-documents",
	ClassReadonlyPrefix:    "a readonly variable in a prefix assignment",
	ClassErrexitIgnored:    "set -e / pipefail inside a function called as run f || …",
	ClassReadonlyRedeclare: "declare -r of a readonly variable: the error's declare: prefix",
	ClassForSubstStatus:    "$? in a for body (case arm) after a failing $(…) in the word list (case word)",
	ClassLevelsBeyondLoops: "continue N / break N beyond the enclosing loops",
	ClassTestVEmpty:        "[[ -v \"\" ]] panicked in the interpreter",
	ClassLocalShadowNames:  "${!v*} after local v1=… of a global v1 listed v1 twice",
	ClassIndirectUnset:     "${!A1[@]} of an unset variable failed with invalid indirect expansion",
	ClassCompoundAndOr:     "{ false && x; } under errexit: jaiph exited, bash goes on",
	ClassNounset:           "set -u: ++, -- and += on an unset name in arithmetic went on; ${!prefix*} failed",
	ClassLocalArrayAttr:    "local -a v=y was a scalar in jaiph (bash sets element 0)",

	// Fixed in jaiph's own parser (a workflow's managed if block), not the interpreter.
	ClassWorkflowIfNotHeredoc: "a here-document in a workflow's if ! …; then block lost its tabs (its lines were branch steps)",
	ClassPipeWrite:            "printf … | true: jaiph's builtin reported a broken pipe; bash's element dies of SIGPIPE (141, silently)",
	ClassArithMessage:         "arithmetic error messages: the builtin's prefix and the end of the shell for a declare -i value, the error token (first non-variable assignment, missing `)`, a quoted subscript, an error before a syntax error)",
}

// KnownAvoided is Known as the generator's Options.Avoid.
func KnownAvoided() map[Class]bool {
	m := make(map[Class]bool, len(Known))
	for c := range Known {
		m[c] = true
	}
	return m
}

// Classify lists the known classes the program shows when run in ctx:
// the ones its statements were tagged with and the ones that depend on the
// whole program (an unset variable under a pattern, a readonly variable
// assigned as a prefix, errexit set in a body whose errexit is ignored).
// It errs on the side of naming a class: it decides what the bounded run
// skips, so a miss would be a spurious failure.
func Classify(p *Prog, ctx Context) map[Class]bool {
	out := map[Class]bool{}
	set := map[string]bool{}
	setters := map[string]int{} // statements that assign each variable
	var readonly, prefixed []string
	var walk func(l []*Stmt, sub bool)
	line := func(text string) {
		if i := strings.Index(text, "$("); i >= 0 && strings.Contains(text[i:], "$?") {
			out[ClassStatusAfterSubst] = true
		}
		if strings.Contains(text, "`") && strings.Contains(text, "$?") {
			out[ClassStatusAfterSubst] = true
		}
	}
	assoc := false
	walk = func(l []*Stmt, sub bool) {
		for _, s := range l {
			text := strings.Join(s.Words, " ")
			if sub && s.Parts == nil && strings.Contains(text, "return") {
				out[ClassSubshellReturn] = true
			}
			if strings.Contains(text, "declare -A") {
				assoc = true
			}
			if (strings.HasPrefix(text, "A1['x y']") || strings.HasPrefix(text, "A1[$v3]")) && !assoc || strings.HasPrefix(text, "declare -i") {
				out[ClassArithMessage] = true
			}
			if strings.Count(text, "n+=3") >= 2 {
				// Two assignments that may be to a non-variable: bash's
				// error token starts at the first it parses, jaiph's at
				// a later one (found by the long run, seed 16).
				out[ClassArithMessage] = true
			}
			if len(s.NegLen) > 0 {
				// Whether the offset passes the end depends on the value.
				out[ClassNegLenUnset] = true
			}
			for _, c := range s.Classes {
				out[c] = true
			}
			for _, v := range s.Patterned {
				if !set[v] {
					out[ClassPatternUnset] = true
				}
			}
			for _, v := range s.Sets {
				set[v] = true
				setters[v]++
			}
			if s.ReadonlyVar != "" {
				readonly = append(readonly, s.ReadonlyVar)
			}
			if s.PrefixVar != "" {
				prefixed = append(prefixed, s.PrefixVar)
			}
			// In a callee whose errexit is ignored, jaiph also loses
			// pipefail: every pipeline is in the known class there.
			heads := ""
			for _, part := range s.Parts {
				heads += part.Head + "\n"
			}
			if (s.SetsErrexit || strings.Contains(text, " | ") || strings.Contains(heads, " | ")) && ctx.errexitIgnored() {
				out[ClassErrexitIgnored] = true
			}
			if s.Parts == nil && s.Words[0] == "trap" && strings.HasSuffix(text, "ERR") {
				out[ClassErrTrap] = true
			}
			if strings.Contains(text, "[[ -v") || strings.Contains(p0(s), "[[ -v") {
				out[ClassTestVEmpty] = true
			}
			if strings.Contains(text, "${!A1[@]}") || strings.Contains(p0(s), "${!A1[@]}") {
				if !assoc {
					out[ClassIndirectUnset] = true
				}
			}
			if text == "set -u" {
				out[ClassNounset] = true
			}
			if h := p0(s); strings.HasPrefix(h, "while") || strings.HasPrefix(h, "until") {
				if b := s.Parts[0].Body; len(b) == 0 || b[len(b)-1].String() != "true\n" {
					out[ClassWhileStatus] = true
				}
			}
			if endsAndOr(s, true) {
				out[ClassCompoundAndOr] = true
			}
			if s.Parts == nil {
				line(strings.Join(s.Words, " "))
			}
			for i, p := range s.Parts {
				line(p.Head)
				// Inside ( … ), and not inside a function defined there.
				walk(p.Body, (sub || p.Head == "(") && !(i == 0 && strings.HasSuffix(p.Head, "() {")))
			}
			if s.Tail != "" {
				line(s.Tail)
			}
		}
	}
	walk(p.Body, false)
	if ctx == CtxWorkflow {
		var heredocUnder func(l []*Stmt) bool
		heredocUnder = func(l []*Stmt) bool {
			for _, s := range l {
				if s.Heredoc != "" {
					return true
				}
				for _, part := range s.Parts {
					if heredocUnder(part.Body) {
						return true
					}
				}
			}
			return false
		}
		var walkIf func(l []*Stmt)
		walkIf = func(l []*Stmt) {
			for _, s := range l {
				if strings.HasPrefix(p0(s), "if !") && heredocUnder([]*Stmt{{Parts: s.Parts}}) {
					out[ClassWorkflowIfNotHeredoc] = true
				}
				for _, part := range s.Parts {
					walkIf(part.Body)
				}
			}
		}
		walkIf(p.Body)
	}
	if out[ClassExitTrapRedirect] && !strings.Contains(p.String(), "' EXIT") {
		delete(out, ClassExitTrapRedirect)
	}
	for _, s := range p.Body {
		if strings.Contains(s.String(), "PIPESTATUS") {
			out[ClassPipestatusStart] = true
		}
		if !strings.HasSuffix(p0(s), "() {") {
			break // a command ran (function definitions do not count)
		}
	}
	text := p.String()
	if (strings.Contains(text, "${!v*}") || strings.Contains(text, "${!a*}")) && strings.Contains(text, "local ") {
		out[ClassLocalShadowNames] = true
	}
	if strings.Contains(text, "PIPESTATUS") && (strings.Contains(text, "! ") || strings.Contains(text, "!(")) {
		out[ClassPipestatusNegation] = true
	}
	if strings.Contains(text, "$?") || strings.Contains(text, "PIPESTATUS") {
		for _, l := range strings.Split(text, "\n") {
			if (strings.HasPrefix(l, "for ") || strings.HasPrefix(l, "case ")) && strings.Contains(l, "$(") {
				out[ClassForSubstStatus] = true
			}
		}
	}
	for _, r := range readonly {
		// Declared twice, or in a loop or function (declared each time).
		if setters[r] > 1 || strings.Contains(text, "while ") || strings.Contains(text, "until ") || strings.Contains(text, "for ") || strings.Contains(text, "() {") {
			out[ClassReadonlyRedeclare] = true
		}
	}
	if len(readonly) > 0 {
		// A readonly variable and an assignment by a builtin anywhere.
		for _, w := range []string{"read ", "printf -v", ":=", "for "} {
			if strings.Contains(p.String(), w) {
				out[ClassReadonlyAssign] = true
			}
		}
	}
	for _, r := range readonly {
		for _, v := range prefixed {
			if r == v {
				out[ClassReadonlyPrefix] = true
			}
		}
	}
	return out
}

// p0 is a compound statement's first head ("" for a simple one).
func p0(s *Stmt) string {
	if s.Parts == nil {
		return ""
	}
	return s.Parts[0].Head
}

// endsAndOr: a compound statement (not a subshell or a function
// definition) whose status may come from an && / || list or a `!`, the
// last statement of one of its parts or of a compound nested there.
func endsAndOr(s *Stmt, top bool) bool {
	if s.Parts == nil {
		if top {
			return false
		}
		t := strings.Join(s.Words, " ")
		return strings.Contains(t, "&&") || strings.Contains(t, "||") || strings.HasPrefix(t, "!")
	}
	if s.Parts[0].Head == "(" || strings.HasSuffix(s.Parts[0].Head, "() {") {
		return false
	}
	for _, part := range s.Parts {
		body := part.Body
		if n := len(body); n > 0 && body[n-1].Parts == nil && body[n-1].Words[0] == ";;" {
			body = body[:n-1]
		}
		if n := len(body); n > 0 && endsAndOr(body[n-1], false) {
			return true
		}
	}
	return false
}
