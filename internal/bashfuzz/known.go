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
	// An EXIT trap whose command fails, run when a body called where
	// errexit is ignored (`run f || …`) or a subshell so called ends:
	// bash runs the trap's commands under errexit (its status is the
	// failed command's), jaiph ran them with errexit still ignored.
	ClassSubshellTrap Class = "exit-trap-status"
	// `return` inside `( … )` outside any function defined in the body
	// (the body is a function): bash ends the subshell, jaiph ended the
	// whole body.
	ClassSubshellReturn Class = "subshell-return"
	// `${v:o:-l}` with the offset past the end of the value (an unset or
	// empty variable too): bash expands to nothing, jaiph failed with
	// "-l: substring expression < 0" (fixed: the offset is checked first).
	ClassNegLenUnset Class = "neglen-unset"
	// An arithmetic error (a non-numeric subscript of an indexed array, a
	// word in a declare -i value): jaiph's message differed from bash's
	// (no `declare: `/`local: `/`printf: ` prefix, the shell went on, the
	// error token started elsewhere, a division by 0 won over an
	// assignment to a non-variable in an operand not evaluated, a `$` in
	// a value was expanded again); fixed.
	ClassArithMessage Class = "arith-error-message"
	// An ERR trap: jaiph ran it for a failed compound command (once more
	// after the command inside it), with a failed simple command's
	// redirections still in place, and for the call of a function that
	// set it (a body ending in a failed `a && b`); fixed.
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
	// variable: under errexit bash ends the shell even left of ||, jaiph's
	// read failed and the body went on; fixed.
	ClassReadonlyAssign Class = "readonly-assign"
	// PIPESTATUS before any command of the body ran: bash has the
	// caller's (0), jaiph had none.
	ClassPipestatusStart Class = "pipestatus-at-start"
	// A while or until loop whose last body command failed: bash's loop
	// status is that command's, jaiph's was 0.
	ClassWhileStatus Class = "while-status"
	// A `<<-` here-document line that is one expansion expanding to
	// nothing: jaiph dropped the line, bash keeps it empty (fixed).
	ClassDashHeredocEmpty Class = "dash-heredoc-empty-line"
	// An EXIT trap that runs when errexit ends the body inside a
	// redirected brace group (`{ false; } > f1`): bash runs it with the
	// group's redirections, jaiph ran it without; after an arithmetic
	// error there (and an expansion error without errexit) bash undoes
	// them first, jaiph kept them; fixed.
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
	// double quotes: `"${v:+"$unset"x}"` is empty in bash, was `x` in
	// jaiph; the same in `=` and `:=`: `"${u="$v"x}"` is empty and
	// assigns "" in bash (fixed: bash strips the inner quotes from the
	// word's text, so `"$v"x` reads as `$vx`).
	ClassNestedArrayAlt Class = "nested-quoted-alternative"
	// PIPESTATUS after `! [[ … ]]` or `! (( … ))`: bash holds the
	// negated status, jaiph held the test's own (`! true` agrees).
	ClassPipestatusNegation Class = "pipestatus-negation"
	// A here-document inside a workflow's `if ! cmd; then … fi` (a Jaiph
	// form whose lines are steps): its tabs became blanks (its body lines
	// were parsed as branch steps; they stay verbatim now).
	ClassWorkflowIfNotHeredoc Class = "workflow-if-not-heredoc"
	// A fatal error in a declare -i value (an arithmetic error) in a
	// callee whose errexit is ignored, after a failed command: bash's
	// jump to the top level discards the rest of the script's line, so
	// the bash framing's status is that failed command's (2, 141), where
	// jaiph's callee fails with 1 (its call is no script line).
	ClassFatalDiscardStatus Class = "fatal-discard-status"
	// `${!v*}` after `local v1=…` of a global v1: jaiph lists v1 twice.
	ClassLocalShadowNames Class = "local-shadow-prefix-names"
	// `${u:?'word'}`: jaiph's message kept the word's quotes (fixed).
	ClassColonQQuote Class = "colon-q-quoted-word"
	// `local v={a,b}` (declare, export, readonly): bash brace-expands the
	// word into `v=a v=b`, jaiph kept `{a,b}` (fixed).
	ClassDeclBraceExpansion Class = "declaration-brace-expansion"
	// `continue N` (break N) with N above the number of enclosing loops:
	// bash continues (breaks) the outermost loop, jaiph leaves it.
	ClassLevelsBeyondLoops Class = "levels-beyond-loops"
)

// Known lists the divergences that are known and being fixed, each with
// what it is. The bounded run of `make test` (TestBashDiffBounded) and the
// default of FuzzBashDiff avoid them; remove an entry when its fix lands,
// and the fixed-seed run then covers the construct again.
var Known = map[Class]string{}

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

	// Statuses: loops, PIPESTATUS, return in a subshell, EXIT traps (issue 36).
	ClassWhileStatus:        "while/until whose last body command failed: jaiph's status was 0 (the condition's)",
	ClassPipestatusNegation: "PIPESTATUS after ! [[ -n x ]] or ! (( 1 )): jaiph held the status from before the !",
	ClassPipestatusStart:    "PIPESTATUS before the body's first pipeline: jaiph's was empty (bash: the caller's, 0)",
	ClassSubshellReturn:     "( return 0 ) in a body ended jaiph's whole body (bash: the subshell)",
	ClassSubshellTrap:       "trap 'false' EXIT in a body run where errexit is ignored: the trap's false did not end it (bash: status 1)",

	// Expansions (issue 36).
	ClassNegLenUnset:        "${v:5:-1} with the offset past the end (unset, empty) failed in jaiph (bash: empty)",
	ClassDashHeredocEmpty:   "a <<- here-document line expanding to nothing was dropped",
	ClassNestedArrayAlt:     `"${v:+"$w"x}" and "${u="$v"x}" were Wx (Vx) in jaiph; bash strips the inner quotes and expands $wx`,
	ClassColonQQuote:        "${u:?'no value'}: jaiph's message kept the quotes",
	ClassDeclBraceExpansion: "local v={a,b}: bash brace-expands it (v=b), jaiph kept {a,b}",

	// Traps and readonly assignments (issue 36).
	ClassErrTrap:        "the ERR trap ran for a compound's status, with a simple command's redirections, for the call of a function that set it",
	ClassReadonlyAssign: "read (mapfile, getopts, printf -v…) into a readonly variable under errexit went on; bash exits even after ||",

	// Pipes and arithmetic messages (issue 36); the here-document one was
	// fixed in jaiph's own parser (a workflow's managed if block).
	ClassWorkflowIfNotHeredoc: "a here-document in a workflow's if ! …; then block lost its tabs (its lines were branch steps)",
	ClassPipeWrite:            "printf … | true: jaiph's builtin reported a broken pipe; bash's element dies of SIGPIPE (141, silently)",

	// Found once Known was empty (issue 36).
	ClassFatalDiscardStatus: "a fatal declare -i error after a failed command: bash discards the framing's line and ends with that command's status; jaiph's callee failed with 1",
	ClassArithMessage:       "arithmetic errors, the long tail (seed 24): a division by 0 reported where bash's parser first met an assignment to a non-variable in an operand not evaluated; declare -i v=${u=\\$x} expanded the $x again (bash: operand expected)",
	ClassExitTrapRedirect:   "the EXIT trap after an arithmetic error inside { …; } > f1 (seed 24) ran with the redirection in force; bash's jump to its top level undoes it first",
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
	readonlySubst := false // a readonly statement's value holds a $(…)
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
			if strings.HasPrefix(text, "declare -i") && ctx.errexitIgnored() {
				out[ClassFatalDiscardStatus] = true
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
				if strings.Contains(text, "$(") || strings.Contains(text, "`") {
					readonlySubst = true
				}
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
			if ctx.errexitIgnored() || readonlySubst {
				// `readonly r1=…` (export) of the readonly r1 ends
				// bash's shell under set -e even where errexit is
				// ignored, jaiph's body goes on; and bash's status is
				// then that of the value's last $(…), jaiph's 1.
				out[ClassReadonlyAssign] = true
			}
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
