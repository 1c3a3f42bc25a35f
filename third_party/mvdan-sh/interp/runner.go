// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package interp

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"iter"
	"maps"
	"math"
	mathrand "math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/internal"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/pattern"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

const (
	// shellReplyPS3Var, or PS3, is a special variable in Bash used by the select command,
	// while the shell is awaiting for input. the default value is [shellDefaultPS3]
	shellReplyPS3Var = "PS3"
	// shellDefaultPS3, or #?, is PS3's default value
	shellDefaultPS3 = "#? "
	// shellReplyVar, or REPLY, is a special variable in Bash that is used to store the result of
	// the select command or of the read command, when no variable name is specified
	shellReplyVar = "REPLY"

	fifoNamePrefix = "sh-interp-"
)

func (r *Runner) fillExpandConfig(ctx context.Context) {
	r.ectx = ctx
	r.ecfg = &expand.Config{
		Env:      expandEnv{r},
		Done:     ctx.Done(), // jaiph-go patch: a long pattern match gives up on Ctrl-C
		JobCount: r.jobCount, // jaiph-go patch: \j of ${x@P}
		// jaiph-go patch: bash's expand_no_split_dollar_star goes with
		// the substitution's commands (expand.Config.NoSplitStar).
		NoSplitStar: r.noSplitStar,
		CmdSubst: func(w io.Writer, cs *syntax.CmdSubst, noSplitStar bool) error {
			switch len(cs.Stmts) {
			case 0: // nothing to do
				return nil
			case 1: // $(<file)
				word := catShortcutArg(cs.Stmts[0])
				if word == nil {
					break
				}
				path := r.literal(word)
				f, err := r.open(ctx, path, os.O_RDONLY, 0, false)
				if err != nil {
					// jaiph-go patch: as in bash, a file that does
					// not open is reported with bash's text and the
					// substitution is empty with status 1; the
					// command goes on.
					if _, ok := err.(*os.PathError); !ok {
						return err
					}
					r.errf("%v\n", redirOpenError(path, err))
					r.lastExpandExit = exitStatus{code: 1}
					r.lastExit = exitStatus{code: 1}
					r.substsDone++ // jaiph-go patch: see substsDone
					if r.opts[optErrExit] {
						// jaiph-go patch: under set -e bash's shell
						// ends there with 1, even where errexit is
						// ignored (f || …)
						r.exit = exitStatus{code: 1, exiting: true}
						return errReported
					}
					return nil
				}
				_, err = io.Copy(w, f)
				f.Close()
				r.lastExpandExit = exitStatus{} // jaiph-go patch: as below
				r.lastExit = exitStatus{}
				r.substsDone++ // jaiph-go patch: see substsDone
				return err
			}
			r2 := r.subshell(false)
			r2.noSplitStar, r2.ecfg.NoSplitStar = noSplitStar, noSplitStar
			r2.stdout = w
			r2.traceDepth++
			r2.noSignalReport = true // jaiph-go patch: see jaiph_sigreport.go
			// jaiph-go patch: see comsubNoErrExit
			r2.noErrExit, r2.comsubIgnoreReturn = r.comsubNoErrExit, r.comsubNoErrExit
			// jaiph-go patch: as in bash, a command substitution does not
			// inherit errexit unless "shopt -s inherit_errexit" is set.
			if !r.opts[optInheritErrExit] {
				r2.opts[optErrExit] = false
			}
			r2.noForkCall = noForkTail(cs.Stmts) // jaiph-go patch: see jaiph_nofork.go
			r2.stmts(ctx, cs.Stmts)
			r2.exitTraps(ctx, true) // jaiph-go patch: a subshell runs its EXIT trap
			r2.exit.leaveSubshell() // subshells don't exit (or return from) the parent shell
			r.lastExpandExit = r2.exit
			r.substsDone++ // jaiph-go patch: see substsDone
			// jaiph-go patch: as in bash, "$?" is the substitution's
			// status from here to the end of the command
			// (`echo "$(false)" $?` prints 1).
			r.lastExit = exitStatus{code: r2.exit.code}
			if r2.exit.fatalExit {
				return r2.exit.err // surface fatal errors immediately
			}
			return nil
		},
		ProcSubst: func(ps *syntax.ProcSubst) (string, error) {
			if ps.Op == syntax.CmdInTemp { // zsh's =(...)
				return "", fmt.Errorf("unsupported")
			}
			if runtime.GOOS == "windows" {
				return "", fmt.Errorf("TODO: support process substitution on Windows")
			}
			if len(ps.Stmts) == 0 { // nothing to do
				return os.DevNull, nil
			}

			// We can't atomically create a random unused temporary FIFO.
			// Similar to [os.CreateTemp],
			// keep trying new random paths until one does not exist.
			// We use a uint64 because a uint32 easily runs into retries.
			var path string
			try := 0
			for {
				path = filepath.Join(r.tempDir, fifoNamePrefix+strconv.FormatUint(mathrand.Uint64(), 16))
				err := mkfifo(path, 0o666)
				if err == nil {
					break
				}
				if !os.IsExist(err) {
					return "", fmt.Errorf("cannot create fifo: %v", err)
				}
				if try++; try > 100 {
					return "", fmt.Errorf("giving up at creating fifo: %v", err)
				}
			}

			r2 := r.subshell(true)
			r2.noSignalReport = true // jaiph-go patch: see jaiph_sigreport.go
			stdout := r.origStdout
			// TODO: note that `man bash` mentions that `wait` only waits for the last
			// process substitution as long as it is $!; the logic here would mean we wait for all of them.
			bg, pctx := r.newBgProc(ctx, false) // jaiph-go patch: numeric $!, kill
			go func() {
				defer func() {
					bg.finish(r2.exit)
				}()
				switch ps.Op {
				case syntax.CmdIn:
					f, err := os.OpenFile(path, os.O_WRONLY, 0)
					if err != nil {
						r.errf("cannot open fifo for stdout: %v\n", err)
						return
					}
					r2.stdout = f
					defer func() {
						if err := f.Close(); err != nil {
							r.errf("closing stdout fifo: %v\n", err)
						}
						os.Remove(path)
					}()
				case syntax.CmdOut:
					f, err := os.OpenFile(path, os.O_RDONLY, 0)
					if err != nil {
						r.errf("cannot open fifo for stdin: %v\n", err)
						return
					}
					r2.stdin = f
					r2.stdout = stdout

					defer func() {
						f.Close()
						os.Remove(path)
					}()
				default:
					// Should only happen if we forgot a case above.
					panic(fmt.Sprintf("unexpected process substitution operator: %q", ps.Op))
				}
				if word := catShortcutArg(ps.Stmts[0]); word != nil && len(ps.Stmts) == 1 && ps.Op == syntax.CmdIn {
					// jaiph-go patch: <(<file) is bash's $(<file)
					// shortcut too: the file's contents (the bare
					// redirection printed nothing).
					path := r2.literal(word)
					src, err := r2.open(pctx, path, os.O_RDONLY, 0, false)
					if err != nil {
						r2.errf("%v\n", redirOpenError(path, err))
						r2.exit.code = 1
						return
					}
					io.Copy(r2.stdout, src)
					src.Close()
					return
				}
				r2.stmts(pctx, ps.Stmts)
				r2.undoKeptRedirs()     // jaiph-go patch: no EXIT trap runs here
				r2.exit.leaveSubshell() // subshells don't exit (or return from) the parent shell
			}()
			return path, nil
		},
	}
	r.updateExpandOpts()
}

// exportReadonlyOpts are the options export and readonly take (bash's
// ATTROPTS): declare's others are invalid there (jaiph-go patch).
var exportReadonlyOpts = []string{"-a", "-A", "-f", "-n", "-p"}

// declUsage are the usage lines bash prints after an invalid option of a
// declaration builtin (jaiph-go patch).
var declUsage = map[string]string{
	"declare":  "declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p [-aAfFilnrtux] [name ...]",
	"typeset":  "typeset [-aAfFgiIlnrtux] name[=value] ... or typeset -p [-aAfFilnrtux] [name ...]",
	"local":    "local [option] name[=value] ...",
	"export":   "export [-fn] [name[=value] ...] or export -p",
	"readonly": "readonly [-aAf] [name[=value] ...] or readonly -p",
}

// catShortcutArg checks if a statement is of the form "$(<file)". The redirect
// word is returned if there's a match, and nil otherwise.
func catShortcutArg(stmt *syntax.Stmt) *syntax.Word {
	if stmt.Cmd != nil || stmt.Negated || stmt.Background || stmt.Coprocess || stmt.Disown {
		return nil
	}
	if len(stmt.Redirs) != 1 {
		return nil
	}
	redir := stmt.Redirs[0]
	if redir.Op != syntax.RdrIn {
		return nil
	}
	return redir.Word
}

func (r *Runner) updateExpandOpts() {
	if r.opts[optNoGlob] {
		r.ecfg.ReadDir2 = nil
		r.ecfg.Lstat = nil
	} else {
		r.ecfg.ReadDir2 = func(s string) ([]fs.DirEntry, error) {
			return r.readDirHandler(r.handlerCtx(r.ectx, handlerKindReadDir, todoPos), s)
		}
		r.ecfg.Lstat = func(s string) (fs.FileInfo, error) { // jaiph-go patch
			return r.statHandler(r.handlerCtx(r.ectx, handlerKindStat, todoPos), s, false)
		}
	}
	r.ecfg.GlobStar = r.opts[optGlobStar]
	r.ecfg.DotGlob = r.opts[optDotGlob]
	r.ecfg.NoCaseGlob = r.opts[optNoCaseGlob]
	r.ecfg.NullGlob = r.opts[optNullGlob]
	r.ecfg.NoPatsubReplacement = !r.opts[optPatsubRepl] // jaiph-go patch
	r.ecfg.FailGlob = r.opts[optFailGlob]               // jaiph-go patch
	r.ecfg.NoGlobSkipDots = !r.opts[optGlobSkipDots]    // jaiph-go patch
	r.ecfg.NoUnset = r.opts[optNoUnset]
	r.ecfg.LinenoPlain = r.linenoUnset // jaiph-go patch
	r.ecfg.ExtGlob = r.opts[optExtGlob]
	r.ecfg.NoCaseMatch = r.opts[optNoCaseMatch]            // jaiph-go patch
	r.ecfg.ReportError = r.reportError                     // jaiph-go patch
	r.ecfg.Warn = func(msg string) { r.errf("%s\n", msg) } // jaiph-go patch
}

// errReported is the error of an expansion stopped by [Runner.reportError]:
// already printed, with the exit status set (jaiph-go patch).
var errReported = errors.New("reported")

// reportError is bash's report_error for the expander (jaiph-go patch):
// it prints the error and lets the expansion go on, except under errexit
// (in any context: bash tests the option itself), where the shell exits
// with the last status, or 1 if that was 0.
func (r *Runner) reportError(err error) error {
	r.errf("%v\n", err)
	if !r.errexitOn() {
		return nil
	}
	r.exit.code = cmp.Or(r.lastExit.code, 1)
	r.exit.exiting = true
	r.reportedFailure = true // named after no builtin (SetVar)
	r.exitTrapInPlace(&r.exit)
	return errReported
}

func (r *Runner) expandErr(err error) {
	if err == nil || errors.Is(err, errReported) { // jaiph-go patch: see reportError
		return
	}
	if err == expand.ErrInterrupted {
		// jaiph-go patch: a pattern match gave up because the run was
		// cancelled; the run ends as any cancelled run, without a word.
		r.exit.fatal(cmp.Or(r.ectx.Err(), err))
		return
	}
	errMsg := err.Error()
	if errors.Is(err, expand.ErrRefValue) {
		// jaiph-go patch: bash's ${r:=1x} of a nameref without a value
		// is sh_invalidid's error, named after this_command_name (a
		// function running), and discards the top-level command with
		// EX_BADUSAGE (2), errexit or not
		if r.thisCommand != "" {
			errMsg = r.thisCommand + ": " + errMsg
		}
		fmt.Fprintln(r.stderr, errMsg)
		r.exit = exitStatus{code: 2, exiting: true, discard: true, badUsage: true, popScopes: true}
		return
	}
	if _, intValue := errors.AsType[intValueError](err); intValue && isArithmErr(err) {
		// jaiph-go patch: bash's arithmetic names this_command_name:
		// the command whose redirections are being expanded (cat <<<
		// "${v:=1/0}" of a declare -i v: "cat: 1/0: …"), or, while a
		// command's words expand, what set it last and was not reset
		// by a simple command ending (`((`, `[[`, the function or
		// eval running: (( 1 )); echo ${v:=1/0} says "((: 1/0: …").
		if name := cmp.Or(r.redirCommand, r.thisCommand); name != "" {
			fmt.Fprint(r.stderr, name+": ")
		}
	}
	fmt.Fprintln(r.stderr, errMsg)
	if err == expand.ErrBraceLimit {
		// jaiph-go patch: where bash would need more than 4 GB, and
		// ends with its xmalloc error's status
		r.exit.code = 2
		r.exit.exiting = true
		return
	}
	_, unsetParam := errors.AsType[expand.UnsetParameterError](err)
	defaultBadSubscript := isDefaultAssignErr(err) && errors.Is(err, expand.ErrBadSubscript) // ${a[@]:=w}
	switch {
	case unsetParam, strings.HasSuffix(errMsg, ": invalid indirect expansion"), isArithmErr(err),
		strings.HasSuffix(errMsg, ": invalid variable name"), // jaiph-go patch: ${!r}, see indirectTarget
		strings.HasPrefix(errMsg, "no match: "),              // jaiph-go patch: failglob aborts the shell as in bash
		// jaiph-go patch: as fatal in bash as the errors above.
		strings.HasSuffix(errMsg, ": substring expression < 0"),
		strings.HasSuffix(errMsg, ": cannot assign in this way"),
		// jaiph-go patch: as bash, an assignment to a readonly
		// variable while a word expands (${r:=x}, $((r=2))).
		errors.Is(err, errReadOnly),
		errors.Is(err, expand.ErrBadLengthSubscript),
		defaultBadSubscript:
		// TODO: These errors are treated as fatal by bash.
		// Make the error type reflect that.
		r.exit.code = 1
		if r.errexitOn() && (strings.HasSuffix(errMsg, ": invalid indirect expansion") || strings.HasSuffix(errMsg, ": invalid variable name") ||
			errors.Is(err, expand.ErrBadLengthSubscript)) {
			// jaiph-go patch: bash's report_error exits under errexit
			// with the last status, a substitution's earlier in the
			// command ($(exit 3) ${!r}: 3), or 1.
			r.exit.code = cmp.Or(r.lastExit.code, 1)
		}
		if _, intValue := errors.AsType[intValueError](err); errors.Is(err, errReadOnly) || intValue && !unsetParam || defaultBadSubscript {
			// jaiph-go patch: bash's err_readonly keeps the last
			// status ($((n--)) of a readonly n after (exit 3): 3), as
			// a declare -i value's arithmetic does.
			r.exit.code = cmp.Or(r.lastExit.code, 1)
		}
		if (defaultBadSubscript || isDefaultAssignErr(err) && errors.Is(err, errReadOnly)) && !r.errexitOn() {
			// jaiph-go patch: bash's ${v:=w} of a readonly v (or of a
			// nameref to a[@]) fails with EX_BADUSAGE (2) as it
			// discards the command (under errexit its err_readonly,
			// or err_badarraysub, has ended the shell with 1)
			r.exit.code = 2
			r.exit.discard, r.exit.badUsage = true, true
		}
		r.exit.exiting = true
		// jaiph-go patch: bash's report_error exits in place under
		// errexit (the redirections stay for the EXIT trap); otherwise,
		// and for an arithmetic error always, the shell jumps to its
		// top level after top_level_cleanup (subst.c's
		// exp_jump_to_top_level, expr.c's callers of evalexp).
		// A negative substring length is evaluated as arithmetic: bash
		// jumps to its top level for it under errexit too. The jump pops
		// the functions' scopes as well (exitStatus.popScopes).
		r.exit.undoAll = isArithmErr(err) || strings.HasSuffix(errMsg, ": substring expression < 0") || !r.errexitOn()
		r.exit.popScopes = r.exit.undoAll
		ae, arith := errors.AsType[expand.ArithmError](err)
		r.exit.expDiscard = r.exit.undoAll && !unsetParam && !(arith && ae.Subscript) && !errors.Is(err, expand.ErrBadLengthSubscript)
		if ue, ok := errors.AsType[expand.UnsetParameterError](err); ok && ue.Node.Length && ue.Node.Index != nil {
			// jaiph-go patch: ${#a[@]} or ${#a[0]} unbound under set
			// -u is bash's expansion error, not its fatal one: the
			// top-level command is discarded (an eval or a sourced
			// file fails with 1 and the shell goes on)
			r.exit.discard = true
		}
		if !r.exit.undoAll && r.elemExitTrap == "" {
			r.exitTrapInPlace(&r.exit)
		}
		if cb := r.elemExitTrap; cb != "" { // jaiph-go patch: see elemExitTrap
			r.elemExitTrap = ""
			st := r.exit
			ctx := r.ectx
			if ctx == nil {
				ctx = context.Background()
			}
			// The command's redirections wait for its words: not the
			// trap's commands'.
			pending := r.pendingRedirs
			r.pendingRedirs = nil
			// bash's child jumps to its top level: the functions'
			// unwinding gives back the ERR trap they took away, and
			// no && / || / condition around the command is left to
			// ignore a failure in the trap; the child still has the
			// shell's ERR trap and BASH_SUBSHELL
			if r.elemHasErrTrap {
				r.setTrap(trapErr, r.elemErrTrap, true)
			}
			if top, ok := r.topErrTrap(); ok {
				r.setTrap(trapErr, top, true)
			}
			level := r.subshellLevel
			r.subshellLevel = r.elemSubshellLevel
			defer func() { r.subshellLevel = level }()
			noErrExit := r.noErrExit
			r.noErrExit = false
			r.trapCallback(ctx, cb, "exit")
			r.exit, r.pendingRedirs, r.noErrExit = st, pending, noErrExit
		}
	case errors.Is(err, expand.ErrBadSubscript):
		// jaiph-go patch: bash fails the command; under errexit that ends
		// the shell, even where errexit is otherwise ignored (an if
		// condition, an && list).
		r.exit.code = 1
		if r.errexitOn() {
			r.exit.exiting = true
		}
	}
}

// readonlyInCommand handles an assignment to a readonly variable by an
// arithmetic command ((( )), let, for (( ))) (jaiph-go patch): it fails the
// command, or ends the shell under errexit (readonlyFailed); in a word's
// expansion it is fatal instead ([Runner.expandErr]).
func (r *Runner) readonlyInCommand(err error) bool {
	if err == nil || errors.Is(err, errReported) || !errors.Is(err, errReadOnly) {
		return false
	}
	r.errf("%v\n", err)
	r.readonlyFailed(&r.exit)
	return true
}

// arithm evaluates a whole expression (a subscript, a for ((…)) part):
// jaiph-go patch: through ArithmTop, which words an operand's error with
// the expression's text, as bash (A1['x y']=v of an indexed A1 quoted
// nothing).
func (r *Runner) arithm(expr syntax.ArithmExpr) int {
	return r.arithmTrail(expr, "")
}

// arithmTrail is arithm of a subscript whose source text is raw
// (syntax.Assign.IndexRaw): its trailing blanks stay in bash's error text
// (jaiph-go patch).
func (r *Runner) arithmTrail(expr syntax.ArithmExpr, raw string) int {
	n, err := expand.ArithmTop(r.ecfg, expr, expand.TrailingBlanks(raw))
	r.subscriptErr(err)
	return n
}

// subscriptErr is expandErr for an array subscript's arithmetic (an
// element assigned or unset): bash ends the shell for its errors, in an
// eval string or a sourced file too (jaiph-go patch: no
// exitStatus.expDiscard).
func (r *Runner) subscriptErr(err error) {
	r.expandErr(err)
	r.exit.expDiscard = false
	if err != nil {
		r.unnamedFailure = true // see HandlerContext.SetVar
	}
}

// arithmCmd evaluates the expression of a ((…)) or let command. jaiph-go
// patch: as in bash, an arithmetic error there prints "((: …" or "let: …"
// and sets status 1 without exiting the shell.
func (r *Runner) arithmCmd(prefix string, expr syntax.ArithmExpr, trailing string) int {
	r.ecfg.ArithCommand = strings.TrimSuffix(prefix, ": ")
	n, err := expand.ArithmTop(r.ecfg, expr, trailing)
	r.ecfg.ArithCommand = ""
	if ae, ok := errors.AsType[expand.ArithmError](err); ok && !ae.Subscript {
		r.errf("%s%s\n", prefix, ae.Error())
		r.exit.code = 1
		return 0
	}
	if r.readonlyInCommand(err) {
		return 0
	}
	r.expandErr(err)
	return n
}

func (r *Runner) fields(words ...*syntax.Word) []string {
	strs, err := expand.Fields(r.ecfg, words...)
	r.expandErr(err)
	return strs
}

// assocListLiteral expands a key or value of an associative list: bash
// 5.2 expands no tilde prefix there (jaiph-go patch).
func (r *Runner) assocListLiteral(word *syntax.Word) string {
	old, oldCond := r.ecfg.NoSplitStar, r.ecfg.CondWord
	r.ecfg.NoSplitStar, r.ecfg.CondWord = true, true // bash's expand_subscript_string
	str, err := expand.LiteralNoTilde(r.ecfg, word)
	r.ecfg.NoSplitStar, r.ecfg.CondWord = old, oldCond
	r.expandErr(err)
	return str
}

// unsplitLiteral is literal of a case word, which bash expands without
// splitting it, [expand.Config.NoSplitStar] and CaseWord set meanwhile
// (jaiph-go patch).
func (r *Runner) unsplitLiteral(word *syntax.Word) string {
	old, oldCase := r.ecfg.NoSplitStar, r.ecfg.CaseWord
	r.ecfg.NoSplitStar, r.ecfg.CaseWord = true, true
	defer func() { r.ecfg.NoSplitStar, r.ecfg.CaseWord = old, oldCase }()
	return r.literal(word)
}

// assocPairWord is a word of an associative list of key-value pairs as
// bash takes it: a [k]=v word is its expanded text, "[k]=v" (jaiph-go
// patch).
func (r *Runner) assocPairWord(e *syntax.ArrayElem) string {
	if e.Index == nil {
		return r.assocListLiteral(e.Value)
	}
	k, err := expand.AssocKeyRaw(r.ecfg, e.Index, e.IndexRaw)
	r.expandErr(err)
	v := ""
	if e.Value != nil {
		v = r.assocListLiteral(e.Value)
	}
	return "[" + k + "]=" + v
}

func (r *Runner) literal(word *syntax.Word) string {
	str, err := expand.Literal(r.ecfg, word)
	r.expandErr(err)
	return str
}

func (r *Runner) document(word *syntax.Word) string {
	str, err := expand.Document(r.ecfg, word)
	r.expandErr(err)
	return str
}

func (r *Runner) pattern(word *syntax.Word) string {
	str, err := expand.Pattern(r.ecfg, word)
	r.expandErr(err)
	return str
}

// expandEnviron exposes [Runner]'s variables to the expand package.
type expandEnv struct {
	r *Runner
}

var _ expand.WriteEnviron = expandEnv{}

func (e expandEnv) Get(name string) expand.Variable {
	vr := e.r.lookupVar(name)
	if name == e.r.binding && !vr.IsSet() && vr.Kind != expand.Indexed && vr.Kind != expand.Associative && vr.Kind != expand.NameRef {
		// jaiph-go patch: see whileBinding
		vr.Set, vr.Kind, vr.Str = true, expand.String, ""
	}
	return vr
}

// Peek is Get without drawing a number from RANDOM or SRANDOM (jaiph-go
// patch, see expand.PeekEnviron): their kind is a string's unless the
// script made them something else (unset, then an array or a nameref).
func (e expandEnv) Peek(name string) expand.Variable {
	switch name {
	case "SRANDOM":
		return expand.Variable{Set: true, Kind: expand.String, Integer: true}
	case "RANDOM", "SECONDS":
		return e.r.peekVar(name)
	}
	return e.Get(name)
}

// Draws reports whether reading name draws a number (jaiph-go patch,
// see expand.PeekEnviron): RANDOM while it is the shell's, SRANDOM.
func (e expandEnv) Draws(name string) bool {
	switch name {
	case "RANDOM":
		return !e.r.randomUnset && !e.r.writeEnv.Get(name).Local
	case "SRANDOM":
		return true
	}
	return false
}

func (e expandEnv) Set(name string, vr expand.Variable) error {
	// jaiph-go patch: an array's element the expansion changed
	// (${a[k]:=v}, $((a[k]+=1))) took its declare -i/-l/-u as it was
	// placed (ElemValue); setVarErr transforms a string alone.
	err := e.r.setVarErr(name, vr)
	if _, unset := errors.AsType[expand.UnsetParameterError](err); unset || isArithmErr(err) {
		// jaiph-go patch: the value's arithmetic for a declare -i
		// variable (${v:=…}), see intValueError.
		return intValueError{err}
	}
	return err
}

// ElemValue is val as an element of the array vr named name holds it:
// transformed by the array's declare -i/-l/-u, as bash's
// bind_array_element, unless the array is readonly (Set then refuses it
// before anything is evaluated) (jaiph-go patch).
func (e expandEnv) ElemValue(name string, vr expand.Variable, val string) (string, error) {
	if !(vr.Integer || vr.Lower || vr.Upper) || e.r.readonlyHere(name, vr) {
		return val, nil
	}
	s, err := e.r.attrValue(vr, val)
	if _, unset := errors.AsType[expand.UnsetParameterError](err); unset || isArithmErr(err) {
		return "", intValueError{err}
	}
	return s, err
}

// intValueError is an arithmetic error in a value a word's expansion
// assigns to a declare -i variable (jaiph-go patch): bash's evalexp jumps
// without setting the status, so the shell ends with the last one, unlike
// the same error in $((…)) (status 1).
type intValueError struct{ error }

func (e intValueError) Unwrap() error { return e.error }

func (e expandEnv) Each(fn func(name string, vr expand.Variable) bool) {
	seen := make(map[string]bool)
	stopped := false
	e.r.writeEnv.Each(func(name string, vr expand.Variable) bool {
		seen[name] = true
		if !fn(name, vr) {
			stopped = true
			return false
		}
		return true
	})
	if stopped {
		return
	}
	// jaiph-go patch: the variables bash computes (lookupVar) are
	// variables too: ${!SHELL*} lists SHELLOPTS, ${!BASH*} BASHPID.
	for _, name := range computedVars {
		if vr := e.r.peekVar(name); !seen[name] && vr.IsSet() && !fn(name, vr) { // names, not RANDOM's numbers
			return
		}
	}
}

// computedVars are the variables [Runner.lookupVar] computes, listed by
// ${!prefix*} when they are set (jaiph-go patch).
var computedVars = []string{
	"BASHOPTS", "BASHPID", "BASH_SUBSHELL", "BASH_VERSINFO", "BASH_VERSION",
	"DIRSTACK", "EPOCHREALTIME", "EPOCHSECONDS", "FUNCNAME", "PPID",
	"RANDOM", "SECONDS", "SHELLOPTS", "SRANDOM", "_",
}

var todoPos syntax.Pos // for handlerCtx callers where we don't yet have a position

func (r *Runner) handlerCtx(ctx context.Context, kind handlerKind, pos syntax.Pos) context.Context {
	hc := HandlerContext{
		runner:         r,
		kind:           kind,
		Env:            &overlayEnviron{parent: r.writeEnv},
		Dir:            r.Dir,
		Pos:            pos,
		Stdout:         r.stdout,
		Stderr:         r.stderr,
		LastExitStatus: int(r.lastExit.code),
		ErrExitIgnored: r.noErrExit,                     // jaiph-go patch
		StdinClosed:    r.stdin == nil && r.stdinClosed, // jaiph-go patch
		stdPath:        r.stdPathExec,
		ByExec:         r.byExec, // jaiph-go patch
	}
	if r.stdin != nil { // do not leave hc.Stdin as a typed nil
		hc.Stdin = r.stdin
	}
	hc.ExtraFiles = r.extraFiles()
	return context.WithValue(ctx, handlerCtxKey{}, hc)
}

func (r *Runner) out(s string) {
	_, err := io.WriteString(r.stdout, s)
	r.notePipeWrite(err) // jaiph-go patch: see jaiph_sigpipe.go
	r.noteOutErr(err)    // jaiph-go patch: see jaiph_chkwrite.go
}

func (r *Runner) outf(format string, a ...any) {
	_, err := fmt.Fprintf(r.stdout, format, a...)
	r.notePipeWrite(err) // jaiph-go patch: see jaiph_sigpipe.go
	r.noteOutErr(err)    // jaiph-go patch: see jaiph_chkwrite.go
}

func (r *Runner) errf(format string, a ...any) {
	fmt.Fprintf(r.stderr, format, a...)
}

func (r *Runner) stop(ctx context.Context) bool {
	// jaiph-go patch: trapCallback clears the exit status before running a
	// trap, so that exit inside a trap ends it (as in bash).
	if r.exit.returning || r.exit.exiting {
		return true
	}
	if err := ctx.Err(); err != nil {
		r.exit.fatal(err)
		return true
	}
	if r.opts[optNoExec] {
		return true
	}
	return false
}

func (r *Runner) stmt(ctx context.Context, st *syntax.Stmt) {
	if r.stop(ctx) {
		return
	}
	// jaiph-go patch: as in bash, once `break` or `continue` has run,
	// no command runs until the loop it leaves has seen it, whatever
	// encloses it (a `{ … }` group, an if/case body, an && list, eval,
	// source); the last status stays.
	if r.breakEnclosing > 0 || r.contnEnclosing > 0 {
		return
	}
	// jaiph-go patch: signals its jobs sent to $$ since the last command
	// (jaiph_jobs.go); one that ends the shell ends it here.
	if r.takeShellSignals(ctx) {
		return
	}
	r.exit = exitStatus{}
	if st.Background || st.Disown {
		r2 := r.subshell(true)
		r2.forkedLoopLevel(st.Cmd)
		st2 := *st
		st2.Background = false
		st2.Disown = false
		// jaiph-go patch: the job's status is its own child's, not a
		// command of the shell's: no ERR trap, no errexit for it
		r2.childStmt = &st2
		// jaiph-go patch: the job gets a numeric $! and its own context,
		// which kill cancels with the signal as cause (jaiph_jobs.go).
		bg, jctx := r.newBgProc(ctx, true)
		bg.runner = r2
		bg.holds = r2.heldFiles()
		bg.texts = jobTexts(&st2)
		_, r2.noSignalReport = st2.Cmd.(*syntax.CallExpr) // jaiph-go patch: bash execs it
		r2.ignoreJobSignals()
		r2.fillExpandConfig(jctx)
		go func() {
			r2.stmt(jctx, &st2)
			r2.exitTraps(jctx, true)
			r2.exit.leaveSubshell() // subshells don't exit (or return from) the parent shell
			bg.finish(r2.exit)
		}()
	} else {
		r.stmtSync(ctx, st)
	}
	r.lastExit = r.exit
}

func (r *Runner) stmtSync(ctx context.Context, st *syntax.Stmt) {
	oldIn, oldOut, oldErr := r.stdin, r.stdout, r.stderr
	oldInClosed := r.stdinClosed // jaiph-go patch: see stdinClosed
	oldFds := r.fds              // jaiph-go patch: descriptors 3 and up
	jobsBefore := len(r.bgProcs)
	// jaiph-go patch: the state of the statement's redirections (see
	// [stmtRedirs]) is allocated only for a statement that has some:
	// most have none, and this runs for every statement.
	rs := newStmtRedirs(st)
	// jaiph-go patch: bash decides whether a failure runs the ERR trap
	// from the trap set before the command ran (was_error_trap): a
	// function that sets one does not run it for its own call.
	_, hadErrTrap := r.traps[trapErr]
	// jaiph-go patch: the redirection level of this statement, for the
	// redirections kept in force when the shell exits inside it (see
	// [Runner.keepOnExit]); those of a simple command are bash's
	// "saved-redirects" frames.
	level, simpleFrame := r.redirLevel, false
	if simpleCommand(st.Cmd) {
		r.cmdLine = st.Pos().Line()
		r.cmdEndLine = st.Cmd.End().Line()
	}
	if len(st.Redirs) > 0 {
		r.redirLevel++
		if simpleCommand(st.Cmd) {
			r.simpleRedirLevels = append(r.simpleRedirLevels, level)
			simpleFrame = true
		}
	}
	r.forked = false
	// jaiph-go patch: as in bash, errexit is ignored for the whole of a
	// negated command, functions it calls included (even one that runs
	// `set -e` itself), where errexit is on as it starts; where it is off
	// (execute_command_internal sets CMD_IGNORE_RETURN for `!` only under
	// exit_immediately_on_error) the ERR trap runs for a command failing
	// inside it, and a `set -e` there is in force: `! { set -e; false; }`
	// ends the shell.
	negNoErrExit := r.noErrExit
	if st.Negated && r.errexitOn() {
		r.noErrExit = true
	}
	if _, ok := st.Cmd.(*syntax.CallExpr); (ok || isDeclClause(st.Cmd)) && len(st.Redirs) > 0 {
		// jaiph-go patch: as in bash, a simple command's words are
		// expanded before its redirections are performed, so that
		// `echo $(cat f) > f` reads f before truncating it; the
		// CallExpr case of [Runner.cmd] calls this once it has expanded.
		r.pendingRedirs = func() bool { return rs.apply(ctx, r, st) }
		r.cmd(ctx, st.Cmd)
		r.pendingRedirs = nil
		r.setPipeStatus(st.Cmd, st.Negated)
	} else if st.Cmd == nil {
		// jaiph-go patch: redirections alone; the status is that of
		// the last command substitution in them, as bash's (`>$(echo
		// f; exit 3)` is 3)
		if substs := r.substsDone; rs != nil && rs.apply(ctx, r, st) && r.substsDone != substs {
			r.exit = r.lastExpandExit
		}
	} else if _, sub := st.Cmd.(*syntax.Subshell); sub && rs != nil {
		// jaiph-go patch: a subshell's redirections are expanded in
		// its child (inChildEnv)
		ok := false
		r.inChildEnv(func() { ok = rs.apply(ctx, r, st) })
		if ok {
			r.cmd(ctx, st.Cmd)
			r.setPipeStatus(st.Cmd, st.Negated)
		}
	} else if rs == nil || rs.apply(ctx, r, st) {
		r.cmd(ctx, st.Cmd)
		r.setPipeStatus(st.Cmd, st.Negated)
	}
	r.comsubNoErrExit = false // jaiph-go patch: see comsubNoErrExit
	r.noErrExit = negNoErrExit
	if len(st.Redirs) > 0 {
		r.redirLevel--
		if simpleFrame {
			r.simpleRedirLevels = r.simpleRedirLevels[:len(r.simpleRedirLevels)-1]
		}
	}
	// jaiph-go patch: declare -p (a declaration clause, not a builtin) and
	// select's menu write outside builtin(): a broken pipe kills the
	// shell after the command, as SIGPIPE does (jaiph_sigpipe.go).
	r.pipeKill(&r.exit)
	// jaiph-go patch: bash runs the ERR trap, and errexit ends the shell,
	// where a simple command, a subshell, a pipeline, [[ ]] or (( ))
	// failed (or a compound command's redirection), unless errexit is
	// ignored there: not for a compound command ({ …; }, if, a loop,
	// case), which only passes on the status of a command inside it, that
	// has been through this already (execute_cmd.c).
	errFail := false
	killedBy := r.exit.err // jaiph-go patch: a signal's death is reported under ! too
	if st.Negated && (r.exit.exiting || r.exit.returning) {
		// jaiph-go patch: `exit` or `return` inside a negated command
		// leaves with its own status, not negated (! f where f runs
		// exit 0 ends the shell with 0).
	} else if st.Negated {
		if r.exit.ok() {
			r.exit.code = 1
		} else {
			r.exit.clear()
		}
	} else if b, ok := st.Cmd.(*syntax.BinaryCmd); ok && (b.Op == syntax.AndStmt || b.Op == syntax.OrStmt) {
	} else if r.noErrExitOnce {
		r.noErrExitOnce = false
	} else if keepsIgnoredFail(st.Cmd) && !rs.didFail() {
	} else if r.exit.returning {
		// `return N` leaves the function or sourced file before bash
		// looks at its status; the caller's command does.
	} else if st == r.childStmt {
		// An element of a pipeline: its status is the pipeline's, which
		// the shell looks at (bash: pipe_in or pipe_out is set).
	} else if !r.exit.ok() && !r.noErrExit {
		errFail = true
	}
	// fail runs the ERR trap and ends the shell under errexit.
	fail := func(undone bool) {
		if !r.exit.exiting && hadErrTrap {
			// jaiph-go patch: a shell already exiting (`exit` in an
			// ERR trap, errexit in a called function) runs no more
			// ERR traps on its way out, as in bash. $LINENO there is
			// the failed command's line (line_number_for_err_trap).
			r.trapLine = st.Pos().Line()
			if rs.didFail() && keepsIgnoredFail(st.Cmd) && r.cmdLine > 0 {
				// A compound's redirection fails before bash
				// updates the line: the last simple command's.
				r.trapLine = r.cmdLine
			}
			r.trapCallback(ctx, r.traps[trapErr], "error")
			r.trapLine = 0
		}
		if r.opts[optErrExit] && !r.exit.exiting {
			r.exit.exiting = true
			funcs := slices.Clone(r.funcStack)
			r.exit.errexitFuncs = &funcs
			if undone && len(r.simpleRedirLevels) > 0 {
				// bash undoes the innermost simple command's
				// redirections (a function call's) and those
				// inside it before the EXIT trap runs.
				r.exit.undoFrom = r.simpleRedirLevels[len(r.simpleRedirLevels)-1] + 1
			}
		}
	}
	// A simple command's redirections are undone before its failure is
	// looked at (bash's trap output goes where the shell's does, not to
	// `2>/dev/null` of the failed command); a subshell's never applied to
	// the shell. Those of [[ ]], (( )) and a compound command are still in
	// force then.
	_, subshell := st.Cmd.(*syntax.Subshell)
	// jaiph-go patch: redirections alone (`>$(exit 3)`) are undone
	// before the ERR trap too
	afterUndo := errFail && (simpleCommand(st.Cmd) || subshell || st.Cmd == nil)
	if errFail && !afterUndo {
		fail(false)
	}
	if afterUndo {
		defer fail(!subshell && st.Cmd != nil)
	}
	if r.keepRedirs {
		// The exec builtin made this statement's redirections apply to the
		// shell itself, so don't undo them and keep their files open.
		r.keepRedirs = false
		r.closeDroppedFds(oldFds)
		if rs != nil { // exec alone has no redirections
			r.execFiles = append(r.execFiles, rs.closers...)
			for _, c := range rs.closers {
				// one a later redirection of the same exec replaced
				// (`exec 3>f2 3>f1` leaves f2 open to nothing)
				r.closeDroppedExecFile(c)
			}
			r.closeDroppedStd(oldIn, oldOut, oldErr)
		}
	} else if len(st.Redirs) > 0 && r.keepOnExit(level) {
		// jaiph-go patch: the shell exits inside the statement (errexit,
		// exit): its redirections stay in force for the EXIT trap, as
		// bash's do, and are undone after it (see [Runner.exitTraps]).
		r.exitUndo = append(r.exitUndo, func() {
			r.undoStmtRedirs(st, oldIn, oldInClosed, oldOut, oldErr, oldFds, rs.varFds, rs.closers, jobsBefore)
		})
	} else if len(st.Redirs) > 0 {
		r.undoStmtRedirs(st, oldIn, oldInClosed, oldOut, oldErr, oldFds, rs.varFds, rs.closers, jobsBefore)
	}
	r.reportSignalDeath(st, killedBy) // jaiph-go patch: see jaiph_sigreport.go
}

// runsInChild tells whether bash runs the command named so in a child it
// forks (jaiph-go patch): not a function (the host's included) nor a
// builtin.
func (r *Runner) runsInChild(ctx context.Context, name string) bool {
	if r.Funcs[name] != nil || IsBuiltin(name) || r.builtinHandlers[name] != nil {
		return false
	}
	return !r.isHandlerFunc(ctx, name)
}

// inChildEnv runs f, the expansion of the redirections of a command bash
// runs in a child it forks (an external program, a subshell), with the
// variables it assigns (`cat <${x=f}`, a here-document's `${a=foo}`)
// kept to a scratch scope: in bash they are the child's and go with it
// (jaiph-go patch).
func (r *Runner) inChildEnv(f func()) {
	saved := r.writeEnv
	r.writeEnv = &overlayEnviron{parent: saved}
	defer func() { r.writeEnv = saved }()
	f()
}

// varFd is a {var} redirection of a statement (jaiph-go patch).
type varFd struct {
	name string
	prev expand.Variable
	cls  io.Closer
}

// stmtRedirs is what a statement's redirections leave to undo (jaiph-go
// patch; see [Runner.stmtSync]). A {var} redirection outlives its command,
// as in bash (the descriptor stays open, the variable keeps its number),
// unless bash runs the command in a child it forks (an external program, a
// subshell): there neither is seen afterwards.
type stmtRedirs struct {
	closers []io.Closer
	varFds  []varFd
	failed  bool // a redirection failed
}

// newStmtRedirs returns the redirection state of st, nil when st has no
// redirections (nothing is allocated for those).
func newStmtRedirs(st *syntax.Stmt) *stmtRedirs {
	if len(st.Redirs) == 0 {
		return nil
	}
	return &stmtRedirs{}
}

// didFail tells whether a redirection of the statement failed.
func (rs *stmtRedirs) didFail() bool { return rs != nil && rs.failed }

// apply performs the statement's redirections in order, stopping at the
// first that fails.
func (rs *stmtRedirs) apply(ctx context.Context, r *Runner, st *syntax.Stmt) bool {
	for _, rd := range st.Redirs {
		name, isVar := varRedirName(rd)
		var prev expand.Variable
		if isVar {
			prev = r.lookupVar(name)
		}
		cls, err := r.redir(ctx, rd)
		if err != nil {
			if !r.exit.fatalExit && err != errRedirReported {
				// A fatal error from a handler is reported by [Runner.Run].
				r.errf("%v\n", err)
			}
			r.exit.code = 1
			rs.failed = true
			return false
		}
		if isVar {
			rs.varFds = append(rs.varFds, varFd{name, prev, cls})
			// jaiph-go patch: its file is the shell's own from now on
			// (it may outlive the command): closed when dropped
			// (`f {fd}>f` with f running `exec {fd}>&-`) or at the
			// shell's end, unless the command's end closes it
			r.keepVarFdFile(cls)
		} else if cls != nil {
			rs.closers = append(rs.closers, cls)
		}
		if r.exit.exiting {
			// jaiph-go patch: a fatal expansion error in one (a
			// here-document's ${x?}) stops bash before the next
			// redirection: `cat <<EOF >f` leaves no f
			return false
		}
	}
	return true
}

// keepOnExit tells whether the redirections of a statement at a level stay
// in force while the shell exits (jaiph-go patch): bash leaves them on its
// way out, except that errexit after a simple command undoes the innermost
// simple command's (execute_cmd.c: run_unwind_frame ("saved-redirects")).
// A discarded command (FUNCNEST) and a fatal error undo them all.
//
// A failed assignment's discard under errexit is bash's report_error
// exiting in place: kept; an arithmetic error, and an expansion error
// without errexit, jump to the top level after undoing them all
// (exitStatus.undoAll).
func (r *Runner) keepOnExit(level int) bool {
	if !(r.exit.exiting || r.returnEnds()) || r.exit.fatalExit || r.exit.undoAll {
		return false
	}
	if r.exit.discard && !(r.exit.assignFailed && r.errexitOn()) {
		return false
	}
	return r.exit.undoFrom == 0 || level < r.exit.undoFrom-1
}

// returnEnds tells whether a `return` is ending a subshell of a function
// (not a function called inside it): bash's return jumps out of the
// redirected commands without undoing their redirections, and the
// subshell's EXIT trap runs with them in force, as after exit (jaiph-go
// patch).
func (r *Runner) returnEnds() bool {
	return r.exit.returning && r.inSubshell && len(r.funcStack) == r.subshellFuncs
}

// undoKeptRedirs undoes the redirections kept in force for the EXIT trap,
// innermost first (jaiph-go patch).
func (r *Runner) undoKeptRedirs() {
	for i := len(r.exitUndo) - 1; i >= 0; i-- {
		r.exitUndo[i]()
	}
	r.exitUndo = nil
}

// keepsBuiltinAssign reports whether the builtin name assigns its variables
// with bash's bind_variable, which changes the shell's variable too when
// the command's prefix bound it (jaiph-go patch): cd, pushd and popd (PWD,
// OLDPWD), printf -v, let and getopts; read, mapfile and the declarations
// bind in the temporary scope alone.
func keepsBuiltinAssign(name string) bool {
	switch name {
	case "cd", "pushd", "popd", "printf", "let", "getopts":
		return true
	}
	return false
}

// simpleCommand tells whether bash runs cm as a simple command: its
// redirections are undone when it returns, before its failure is looked at.
func simpleCommand(cm syntax.Command) bool {
	switch cm.(type) {
	case *syntax.CallExpr, *syntax.DeclClause, *syntax.LetClause:
		return true
	}
	return false
}

// undoStmtRedirs undoes a statement's redirections (see [Runner.stmtSync]).
func (r *Runner) undoStmtRedirs(st *syntax.Stmt, oldIn stdinFile, oldInClosed bool, oldOut, oldErr io.Writer, oldFds map[int]*fdEntry, varFds []varFd, closers []io.Closer, jobsBefore int) {
	{
		// jaiph-go patch: as bash's undo list, only the descriptors the
		// statement's redirections named are restored; an `exec >f`
		// run inside a redirected compound command or function
		// (`while …; do exec >>f; done <<< x`) changes the others for
		// good.
		touched := r.redirFds(st.Redirs)
		if touched[0] {
			r.stdin, r.stdinClosed = oldIn, oldInClosed
		}
		if touched[1] {
			r.stdout = oldOut
		}
		if touched[2] {
			r.stderr = oldErr
		}
		curFds := r.fds
		r.fds = restoreFds(oldFds, curFds, touched)
		// Only the statement's own simple command tells: the commands
		// inside a group or a function set r.forked too.
		_, simple := st.Cmd.(*syntax.CallExpr)
		_, subshell := st.Cmd.(*syntax.Subshell)
		forked := (simple && r.forked) || subshell
		for _, v := range varFds {
			n, err := strconv.Atoi(r.envGet(v.name))
			switch {
			case forked:
				r.setVar(v.name, v.prev)
				if v.cls != nil {
					closers = append(closers, v.cls)
				}
				if err == nil && n > 2 && r.fds[n] != oldFds[n] {
					r.setFd(n, oldFds[n])
				}
			case err == nil && n > 2 && curFds[n] != nil:
				r.setFd(n, curFds[n])
			default:
				// jaiph-go patch: the command dropped it (or its
				// variable): closed unless a descriptor refers to it
				if v.cls != nil && slices.Contains(r.execFiles, v.cls) {
					closers = append(closers, v.cls)
				}
			}
		}
		// A file the statement opened that a descriptor kept by an
		// exec inside it still uses (`{ exec 3>&1; } >f`) stays open.
		closers = slices.DeleteFunc(closers, r.fileInUse)
		for _, c := range closers {
			r.forgetExecFile(c) // a {var} descriptor's file, closed here
		}
		// jaiph-go patch: jobs started inside the statement (`{ cmd & } >f`)
		// hold its redirected files open, as forked processes do in bash;
		// close them once those jobs end instead of under their writes.
		// Process substitutions (job 0) read or write the statement's
		// files themselves and end when those are closed, so they don't.
		var jobs []*bgProc
		if len(closers) > 0 && len(r.bgProcs) > jobsBefore {
			jobs = slices.DeleteFunc(slices.Clone(r.bgProcs[jobsBefore:]), func(bg *bgProc) bool { return bg.job == 0 })
		}
		if len(jobs) > 0 {
			go func() {
				for _, bg := range jobs {
					<-bg.done
				}
				for _, cls := range closers {
					cls.Close()
				}
			}()
			return
		}
		for _, cls := range closers {
			cls.Close()
		}
	}
}

func (r *Runner) cmd(ctx context.Context, cm syntax.Command) {
	if r.stop(ctx) {
		return
	}

	tracingEnabled := r.opts[optXTrace]
	trace := r.tracer()

	switch cm := cm.(type) {
	case *syntax.Block:
		r.stmts(ctx, cm.Stmts)
	case *syntax.Subshell:
		r2 := r.subshell(false)
		r2.loopLevel = 0 // jaiph-go patch: bash's subshell leaves no loop
		r2.stmts(ctx, r2.takeNegation(cm.Stmts))
		r2.invertJump()
		r2.exitTraps(ctx, true) // jaiph-go patch: a subshell runs its EXIT trap
		r2.exit.leaveSubshell() // subshells don't exit (or return from) the parent shell
		r.exit = r2.exit
	case *syntax.CallExpr:
		// jaiph-go patch: the status before the command's words are
		// expanded (a readonly prefix binding under errexit exits with
		// it, as bash).
		statusBefore := r.lastExit.code
		// jaiph-go patch: the words' and assignments' substitutions, not
		// the redirections' nor the command's, ignore errexit with it
		// (see comsubNoErrExit).
		r.comsubNoErrExit = r.noErrExit // reset by stmt after the command
		// Build new slices, to not modify the caller's AST
		// nor the slices in the alias map.
		args := cm.Args
		for i := 0; i < len(args); {
			if !r.opts[optExpandAliases] {
				break
			}
			als, ok := r.alias[args[i].Lit()]
			if !ok {
				break
			}
			args = slices.Concat(args[:i], als.args, args[i+1:])
			if !als.blank {
				break
			}
			i += len(als.args)
		}
		r.lastExpandExit = exitStatus{}
		fields := r.fields(args...)
		pending := r.pendingRedirs
		r.pendingRedirs = nil
		if p := pending; p != nil {
			pending = func() bool {
				r.comsubNoErrExit = false
				return p()
			}
		}
		if len(fields) == 0 {
			r.thisCommand = "" // jaiph-go patch: see thisCommand
			for _, as := range cm.Assigns {
				name := as.Name.Value

				prev := r.peekVar(name) // jaiph-go patch: RANDOM draws nothing
				roName := name
				if n, v := prev.Resolve(r.writeEnv); n != "" && prev.ReadOnly && !v.ReadOnly && as.Array == nil && as.Index == nil {
					// jaiph-go patch: a readonly nameref
					// (declare -rn r=x) still assigns its
					// target, as bash.
					prev.ReadOnly = false
				} else if n != "" && prev.ReadOnly && v.ReadOnly && as.Array == nil && as.Index == nil {
					roName = n
				} else if n != "" && !prev.ReadOnly && v.ReadOnly {
					// jaiph-go patch: through a nameref too; bash
					// names the target for a plain value, the
					// nameref for a list or a subscript.
					prev.ReadOnly = true
					if as.Array == nil && as.Index == nil {
						roName = n
					}
				}
				if prev.ReadOnly {
					r.assignReadonly(as, prev, roName)
					break
				}
				// Here we have a naked "foo=bar", so if we inherited a local var from a parent
				// function we want to signal that we are modifying the parent var rather than
				// creating a new local var via "local foo=bar".
				// TODO: there is likely a better way to do this.
				prev.Local = false

				if prev.Kind == expand.NameRef && (as.Index != nil || as.Array != nil) {
					// jaiph-go patch: r[i]=v or r=(…) through a
					// nameref to an element (declare -n r='a[0]')
					// is bash's assignment error, discarding the
					// command as a readonly variable's does.
					if n, v := prev.Resolve(r.writeEnv); n != "" && !v.Declared() {
						// (a local named as the element, see the
						// declaration, is assigned as bash's
						// find_variable finds it)
						if _, _, ok := cutElemSubscript(n); ok {
							r.errf("`%s': not a valid identifier\n", n)
							r.exit = exitStatus{code: 1, exiting: true, discard: true}
							break
						}
					}
				}
				if elem := r.elemRefAssign(prev, as); elem != nil {
					// jaiph-go patch: r=v and r+=v through a nameref
					// to an element (declare -n r='a[1]') assign the
					// element; of a readonly array it is the bare
					// assignment's error (it failed, and went on).
					as, prev = elem, r.lookupVar(elem.Name.Value)
					prev.Local = false
					if allElems(as) {
						// bash expands the value first (its
						// substitutions run), then refuses
						if as.Value != nil {
							r.literal(as.Value)
						}
						if !r.exit.exiting {
							r.refuseAllElems(as)
						}
						break
					}
					if prev.ReadOnly {
						r.assignReadonly(as, prev, as.Name.Value)
						break
					}
				}
				if as.Array != nil && as.Index == nil && r.arrayBeforeList(as.Name.Value) {
					prev = r.lookupVar(as.Name.Value)
					prev.Local = false
				}
				name, vr, appendIndex := r.assignVal(as.Name.Value, prev, as, "")
				if r.exit.exiting {
					// jaiph-go patch: an error that ends the shell while
					// the value expands (a bad subscript under errexit)
					// ends it before the assignment, as in bash.
					break
				}
				if as.Index == nil && as.Array == nil && namerefRefuses(prev, vr.Str) {
					// jaiph-go patch: bash's bind_variable refuses it and
					// discards the top-level command, status 1, errexit
					// or not (declare -n r; r=1x)
					r.errf("`%s': not a valid identifier\n", vr.Str)
					r.exit = exitStatus{code: 1, exiting: true, discard: true, popScopes: true}
					break
				}
				if name != as.Name.Value {
					// jaiph-go patch: r[k]=v (r+=v) through a nameref
					// sets the element of the referenced array, and r=v
					// element 0 of an array it names.
					prev = r.lookupVar(name)
				}
				if tracingEnabled {
					trace.prime() // jaiph-go patch: PS4 as before the assignment
				}
				r.setVarWithIndex(prev, name, as.Index, appendIndex, as.IndexRaw, vr)

				if !tracingEnabled {
					continue
				}

				// Strangely enough, it seems like Bash prints original
				// source for arrays, but the expanded value otherwise.
				// Note that, unlike bash, we print neither the subscript
				// in `x[i]=y` nor just the appended value in `x+=y`.
				if as.Array != nil {
					trace.expr(as)
				} else {
					// jaiph-go patch: as bash, the assignment word
					// after expansion: the subscript as written, +=
					// and the value expanded (not the variable's
					// new value).
					lhs := as.Name.Value
					if as.Index != nil {
						if w, ok := as.Index.(*syntax.Word); ok {
							lhs += "[" + printNode(w) + "]"
						} else {
							lhs += "[" + expand.ArithmSource(as.Index) + "]"
						}
					}
					if as.Append {
						lhs += "+"
					}
					word := ""
					if as.Value != nil {
						word = r.assignWord
					}
					trace.stringf("%s=%s", lhs, traceAssignQuote(word))
				}
				trace.newLineFlush()
			}
			// jaiph-go patch: an assignment alone empties "$_", as in bash.
			r.lastArg = ""
			// If interpreting the last expansion like $(foo) failed,
			// and the expansion and assignments otherwise succeeded,
			// we need to surface that last exit code.
			if r.exit.ok() {
				r.exit = r.lastExpandExit
			}
			r.elemExitTrap = "" // jaiph-go patch: see elemExitTrap
			if pending != nil && !r.exit.exiting {
				// Assignments are expanded first, as in bash; a
				// substitution in a redirection comes after them and
				// its status is the command's (jaiph-go patch: `a=$(exit
				// 1) >$(echo f; exit 2)` is 2).
				st, substs := r.exit, r.substsDone
				if pending() {
					r.exit = st
					if r.substsDone != substs {
						r.exit = r.lastExpandExit
					}
				}
			}
			break
		}

		var restores, applied, bound []restoreVar
		readonlyExit := false
		// jaiph-go patch: a function call's prefix bindings are a scope
		// of their own (bash's temporary environment, see tempScope);
		// other commands' are set and restored around them.
		var temp *overlayEnviron
		if len(cm.Assigns) > 0 && r.Funcs[fields[0]] != nil {
			temp = &overlayEnviron{parent: r.writeEnv, tempScope: true, values: map[string]namedVariable{}}
			r.writeEnv = temp
		} else if len(cm.Assigns) > 0 && (fields[0] == "eval" || fields[0] == "source" || fields[0] == ".") {
			// jaiph-go patch: see builtinEnv
			temp = &overlayEnviron{parent: r.writeEnv, tempScope: true, builtinEnv: true, values: map[string]namedVariable{}}
			r.writeEnv = temp
		}

		// jaiph-go patch: bash expands a command's prefix assignments
		// with no this_command_name (see thisCommand)
		r.thisCommand = ""
		for _, as := range cm.Assigns {
			name := as.Name.Value
			prev := r.lookupVar(name)
			// Resolve any nameref so we can restore the original final value later on.
			if n, v := prev.Resolve(r.writeEnv); n != "" && (syntax.ValidName(n) || isDeclBuiltin(fields[0])) {
				name, prev = n, v
			} else if n != "" && !v.ReadOnly && v.Declared() {
				// jaiph-go patch: a local that a declaration through
				// a nameref to an element made, literally named
				// "a[1]", is what bash's assign_in_env finds and
				// binds (r=0 printenv 'a[1]' prints 0).
				name, prev = n, v
			} else if n != "" && v.ReadOnly && v.Declared() {
				prev.ReadOnly = true // see below
			} else if n != "" {
				// jaiph-go patch: a nameref to an array element
				// (declare -n r='a[1]'): bash's assign_in_env binds
				// the name itself, a plain variable of the command's
				// environment holding what is assigned (r=0 printenv r
				// prints 0), appended to the nameref's own value (+=).
				// A variable named as the element (see the
				// declaration) that is readonly refuses it.
				prev = expand.Variable{Set: true, Kind: expand.String, Str: n, ReadOnly: v.ReadOnly}
			}

			if prev.ReadOnly {
				// jaiph-go patch: bash reports it once; without
				// errexit it still runs the command with the variable
				// unchanged, with errexit set (in any context, even
				// `if`, `||` or `!`) it runs nothing and the shell
				// exits with 1, without an ERR trap (assign_in_env's
				// failure in expand_word_list_internal). It names
				// the word as written (a nameref, not its target).
				r.errf("%s: readonly variable\n", as.Name.Value)
				if r.errexitOn() {
					readonlyExit = true
					break
				}
				continue
			}
			name, vr, _ := r.assignVal(name, prev, as, "") // a binding takes a+=v's value as it is
			// jaiph-go patch: an earlier binding the value's expansion
			// assigned to (X= Y=${X:=b} cmd, Y=$((X=5))) changes the
			// binding and the shell's variable too, as bash's
			// bind_variable does with a temporary environment: X is
			// b after the command
			for i, a := range bound {
				cur := r.lookupVar(a.name)
				if cur.Kind == a.vr.Kind && cur.String() == a.vr.String() {
					continue
				}
				bound[i].vr = cur
				if temp != nil {
					if wenv, ok := temp.parent.(expand.WriteEnviron); ok {
						plain := cur
						plain.Exported = false
						r.setVarFailed(wenv.Set(a.name, plain))
					}
					continue
				}
				for j := range restores {
					if restores[j].name == a.name {
						restores[j].vr = cur
						restores[j].vr.Exported = false
					}
				}
			}
			if !as.Append {
				// jaiph-go patch: bash makes `v=x cmd` a variable of
				// the command's temporary environment, without the
				// declare -i/-l/-u of a variable v (`+=` still applies
				// them, to the value appended to).
				vr.Integer, vr.Lower, vr.Upper = false, false, false
			}
			if vr.Kind == expand.NameRef && prev.Kind == expand.NameRef && prev.Str == "" {
				// jaiph-go patch: a binding of a nameref naming
				// nothing (declare -n r) is a plain variable of the
				// command's environment holding the value, as bash's
				// assign_in_env ($r is "two" in `r=two eval 'echo $r'`)
				vr.Kind = expand.String
			}
			// Inline command vars are always exported.
			vr.Exported = true
			if tracingEnabled {
				// jaiph-go patch: xtrace shows each prefix binding
				// on a line of its own, before the command, as bash.
				trace.stringf("%s=%s", as.Name.Value, traceAssignQuote(vr.String()))
				trace.newLineFlush()
			}

			bound = append(bound, restoreVar{name, vr})
			if temp != nil {
				vr.Local, vr.ReadOnly = false, false
				temp.values[temp.normalize(name)] = namedVariable{name, vr}
				if name == "PATH" {
					r.hashFlush() // jaiph-go patch: see jaiph_hash.go
				}
				continue
			}
			if name != "RANDOM" && name != "SRANDOM" {
				// jaiph-go patch: what the value's expansion
				// assigned to the variable stays after the command
				// and is seen by its redirections (u=${u:=x} cmd >
				// f$u writes fx), as bash's global is.
				prev = r.lookupVar(name)
			}
			restores = append(restores, restoreVar{name, prev})
			applied = append(applied, restoreVar{name, vr})

			r.setVar(name, restoreVar{name, vr}.assigned())
		}
		undoPrefix := func() {
			if temp != nil {
				r.writeEnv = temp.parent.(expand.WriteEnviron)
				if temp.holds("PATH") {
					r.hashFlush() // jaiph-go patch: see jaiph_hash.go
				}
			}
			for _, restore := range restores {
				// jaiph-go patch: the variable comes back as it
				// was, its value not evaluated again by its
				// declare -i (a stored 'a/b/c.d' stays)
				r.putBack(restore)
			}
		}
		if readonlyExit {
			undoPrefix()
			r.exit = exitStatus{code: cmp.Or(statusBefore, 1), exiting: true}
			r.exitTrapInPlace(&r.exit) // report_error exits in place
			break
		}
		if pending != nil {
			// jaiph-go patch: as bash, the redirections come after the
			// prefix assignments' values are expanded (their errors and
			// their substitutions' stderr precede them, and a fatal one
			// runs a pipeline element's EXIT trap), and they see the
			// variables as they were before (x=f cmd > $x).
			r.elemExitTrap = "" // the redirections come after the reset
			if r.exit.exiting {
				undoPrefix()
				break
			}
			undoPrefix()
			child := r.runsInChild(ctx, fields[0])
			r.redirCommand, r.childRedirs = fields[0], child
			var ok bool
			if child {
				r.inChildEnv(func() { ok = pending() })
			} else {
				ok = pending()
			}
			r.redirCommand, r.childRedirs = "", false
			if child && r.exit.exiting && !r.exit.fatalExit && !r.exit.discard {
				// jaiph-go patch: bash performs an external
				// command's redirections in the child it forked for
				// it, so a fatal expansion error there (`cat <<<
				// $unset` under set -u, `> ${u:?}`) ends that child
				// only: the command fails with status 1.
				r.exit = exitStatus{code: 1}
				ok = false
			}
			if !ok || r.exit.exiting {
				break
			}
			if temp != nil {
				r.writeEnv = temp
			}
			for _, a := range applied {
				r.setVar(a.name, a.assigned())
			}
		}

		r.elemExitTrap = "" // jaiph-go patch: see elemExitTrap
		if r.jumpInverts && r.childStmt != nil && r.childStmt.Cmd == cm && r.Funcs[fields[0]] == nil {
			// jaiph-go patch: a builtin's own error lands at the frame
			// bash's child gives it (see invertElemJump)
			r.jumpInverts = false
		}
		trace.call(fields[0], fields[1:]...)
		trace.newLineFlush()

		r.comsubNoErrExit = false
		// jaiph-go patch: a PATH bound for this command alone is not
		// read from nor written to the table of command paths.
		oldPrefixPath := r.prefixPath
		if temp == nil && slices.ContainsFunc(cm.Assigns, func(as *syntax.Assign) bool { return as.Name.Value == "PATH" }) {
			r.prefixPath = true
		}
		r.thisCommand = fields[0] // jaiph-go patch: see thisCommand (eval 'echo ${v:=1/0}')
		if r.noForkCall == cm {
			r.callNoFork = r.noForkChosen || r.noForkAllowed()
			r.noForkCall, r.noForkChosen = nil, false
		}
		r.call(ctx, cm.Args[0].Pos(), fields)
		r.thisCommand = "" // jaiph-go patch: see thisCommand
		// jaiph-go patch: "$_" is the last argument of the previous
		// simple command, as in bash.
		r.lastArg = fields[len(fields)-1]
		r.prefixPath = oldPrefixPath
		if temp != nil {
			r.writeEnv = temp.parent.(expand.WriteEnviron)
			if temp.holds("PATH") {
				r.hashFlush() // jaiph-go patch: see jaiph_hash.go
			}
		}
		keeps := temp == nil && r.Funcs[fields[0]] == nil && keepsBuiltinAssign(fields[0])
		for i, restore := range restores {
			if keeps {
				// jaiph-go patch: what the builtin assigned to a
				// variable its prefix bound stays, as bash's
				// bind_variable sets the shell's variable too
				// (PWD=/bin cd /dev leaves PWD /dev)
				if cur := r.lookupVar(restore.name); cur.Kind != applied[i].vr.Kind || cur.String() != applied[i].vr.String() {
					cur.Exported = restore.vr.Exported
					r.setVarFailed(r.bindChecked(restore.name, restoreVar{restore.name, cur}.assigned()))
					continue
				}
			}
			// jaiph-go patch: see undoPrefix
			r.putBack(restore)
		}
	case *syntax.BinaryCmd:
		switch cm.Op {
		case syntax.AndStmt, syntax.OrStmt:
			oldNoErrExit := r.noErrExit
			r.noErrExit = true
			r.stmt(ctx, cm.X)
			r.noErrExit = oldNoErrExit
			if r.exit.ok() == (cm.Op == syntax.AndStmt) {
				r.stmt(ctx, cm.Y)
			}
		case syntax.Pipe, syntax.PipeAll:
			r.pipeline(ctx, cm)
		}
	case *syntax.IfClause:
		oldNoErrExit := r.noErrExit
		r.noErrExit = true
		r.stmts(ctx, cm.Cond)
		r.noErrExit = oldNoErrExit

		if r.exit.ok() {
			r.stmts(ctx, cm.Then)
			break
		}
		r.exit.clear()
		if cm.Else != nil {
			r.cmd(ctx, cm.Else)
		}
	case *syntax.WhileClause:
		// jaiph-go patch: as in bash (execute_while_or_until), the loop's
		// status is its body's last status, 0 if the body never ran; the
		// condition's status that ends the loop is not the loop's.
		var body exitStatus
		for !r.stop(ctx) {
			oldNoErrExit := r.noErrExit
			r.noErrExit = true
			// jaiph-go patch: the condition is inside the loop, as in
			// bash: `while break; do …; done` ends the loop (it hung),
			// `continue` there starts the next iteration.
			r.loopLevel++
			r.stmts(ctx, cm.Cond)
			r.loopLevel--
			r.noErrExit = oldNoErrExit
			if r.breakEnclosing > 0 || r.contnEnclosing > 0 {
				// bash: a break or continue in a while condition leaves
				// the condition with its status, and the body it skips
				// "returns" that status; an until's condition that
				// succeeds ends the loop before the body.
				if !cm.Until || !r.exit.ok() {
					body = r.exit
				}
			}
			if r.breakEnclosing > 0 {
				r.breakEnclosing--
				break
			}
			if r.contnEnclosing > 0 {
				r.contnEnclosing--
				// bash: an until condition left by continue has
				// succeeded, which ends the loop.
				if r.contnEnclosing > 0 || cm.Until && r.exit.ok() {
					break
				}
				continue
			}

			stop := r.exit.ok() == cm.Until
			r.exit.clear()
			if stop {
				break
			}
			broken := r.loopStmtsBroken(ctx, cm.Do)
			body = r.exit
			if broken {
				break
			}
		}
		if !r.exit.returning && !r.exit.exiting && !r.exit.fatalExit {
			r.exit.code, r.exit.err = body.code, body.err
		}
	case *syntax.ForClause:
		switch y := cm.Loop.(type) {
		case *syntax.WordIter:
			name := y.Name.Value
			if !syntax.ValidName(name) {
				// jaiph-go patch: bash's error; the loop does not run.
				r.errf("`%s': not a valid identifier\n", name)
				r.exit.code = 1
				r.noErrExitOnce = true // bash's for fails without errexit
				break
			}
			items := r.Params // for i; do ...

			inToken := y.InPos.IsValid()
			if inToken {
				items = r.fields(y.Items...) // for i in ...; do ...
			}

			if cm.Select {
				// jaiph-go patch: as bash, the default only where
				// PS3 is unset (an empty PS3 prompts with nothing)
				ps3 := shellDefaultPS3
				if v := r.lookupVar(shellReplyPS3Var); v.IsSet() {
					ps3 = v.String()
				}

				for menu := true; ; {
					if menu {
						// display menu
						for i, word := range items {
							r.errf("%d) %v\n", i+1, word)
						}
						menu = false
					}
					r.errf("%s", ps3)

					line, err := r.readLine(ctx, true)
					if err != nil {
						// jaiph-go patch: as bash, a newline on stdout
						// and status 1, which errexit ignores.
						r.out("\n")
						r.exit.code = 1
						r.noErrExitOnce = true
						break
					}
					if len(line) == 0 {
						menu = true // no reply; show the menu again
						continue
					}

					reply := string(line)
					r.setVarString(shellReplyVar, reply)

					val := ""
					if c, _ := strconv.Atoi(reply); c > 0 && c <= len(items) {
						val = items[c-1]
					}
					// jaiph-go patch: a readonly name ends the
					// loop with status 1, as in bash; a nameref's
					// variable is assigned.
					target := r.refTarget(name)
					if syntax.ValidName(target) || r.lookupVar(target).Declared() {
						err = r.bindKeeping(target, expand.Variable{Set: true, Kind: expand.String, Str: val})
					} else {
						// through a nameref to an element, the
						// element (it made a variable named a[1],
						// a readonly array's too)
						err = HandlerContext{runner: r}.SetVar(target, val)
					}
					if err != nil {
						if r.arithAssignFatal(err, "", &r.exit) {
							break
						}
						r.errf("%v\n", err)
						r.exit.code = 1
						if errors.Is(err, errReadOnly) {
							r.readonlyFailed(&r.exit)
						}
						break
					}

					// execute commands until break or return is encountered
					if r.loopStmtsBroken(ctx, cm.Do) {
						break
					}
				}
				break
			}

			for _, field := range items {
				if ref := r.lookupVar(name); ref.Kind == expand.NameRef {
					// jaiph-go patch: as bash's for, a nameref
					// control variable names each word in turn
					// (one that is no name ends the loop, status 1).
					if !syntax.ValidName(field) {
						r.errf("`%s': not a valid identifier\n", field)
						r.exit.code = 1
						break
					}
					ref.Str, ref.Set = field, true
					if err := r.setVarErr(name, ref); err != nil {
						r.setVarFailed(err)
						break
					}
				} else if err := r.bindKeeping(name, expand.Variable{Set: true, Kind: expand.String, Str: field}); err != nil {
					// jaiph-go patch: as in bash, a readonly name
					// fails the loop with status 1 before its body
					// runs.
					if r.arithAssignFatal(err, "", &r.exit) {
						break
					}
					r.errf("%v\n", err)
					r.exit.code = 1
					if errors.Is(err, errReadOnly) {
						r.readonlyFailed(&r.exit)
					}
					break
				}
				trace.stringf("for %s in", y.Name.Value)
				if inToken {
					for _, item := range y.Items {
						trace.string(" ")
						trace.expr(item)
					}
				} else {
					trace.string(` "$@"`)
				}
				trace.newLineFlush()
				r.thisCommand = "" // jaiph-go patch: see thisCommand
				if r.loopStmtsBroken(ctx, cm.Do) {
					break
				}
			}
		case *syntax.CStyleLoop:
			// jaiph-go patch: as in bash, an arithmetic error in one of
			// the three expressions (a division by 0, an assignment to a
			// readonly variable, a quoted operand) is reported as a
			// ((…)) command's is, `((: EXPR: …`, and ends the loop with
			// status 1, which errexit does not act on.
			arith := func(x syntax.ArithmExpr) (int, bool) {
				st := r.exit
				r.exit.clear()
				r.thisCommand = "((" // jaiph-go patch: see thisCommand
				n := r.arithmCmd("((: ", x, "")
				if r.exit.code != 0 || r.exit.exiting {
					if !r.exit.exiting {
						r.noErrExitOnce = true
					}
					return 0, false
				}
				r.exit = st
				return n, true
			}
			if y.Init != nil {
				if _, ok := arith(y.Init); !ok {
					break
				}
			}
			r.exit.clear()
			for {
				if y.Cond != nil {
					n, ok := arith(y.Cond)
					if !ok || n == 0 {
						break
					}
				}
				// jaiph-go patch: a body whose last command failed goes on
				// looping, as in bash (only a fatal error or exit stops).
				if r.stop(ctx) || r.loopStmtsBroken(ctx, cm.Do) {
					break
				}
				if y.Post != nil {
					if _, ok := arith(y.Post); !ok {
						break
					}
				}
			}
		}
	case *syntax.FuncDecl:
		if cm.Name == nil { // e.g. zsh's anonymous or multi-name functions
			r.errf("unsupported\n")
			r.exit.code = 1
			break
		}
		r.setFunc(cm.Name.Value, cm.Body)
		r.setFuncDecl(cm)
	case *syntax.ArithmCmd:
		if tracingEnabled {
			// jaiph-go patch: bash traces "(( " + the source + " ))".
			lead := ""
			if cm.X.Pos().Line() == cm.Left.Line() && cm.X.Pos().Col() > cm.Left.Col()+2 {
				lead = strings.Repeat(" ", int(cm.X.Pos().Col()-cm.Left.Col()-2))
			}
			trace.string("(( " + lead + expand.ArithmSource(cm.X) + expand.ArithTrailing(cm.X, cm.Right) + " ))")
			trace.newLineFlush()
		}
		r.thisCommand = "((" // jaiph-go patch: see thisCommand
		// jaiph-go patch: a fatal error (an assignment to a readonly
		// variable under errexit) keeps the status it set, the last
		// status as bash's report_error leaves it, not 1 for the value.
		if n := r.arithmCmd("((: ", cm.X, expand.ArithTrailing(cm.X, cm.Right)); !r.exit.exiting {
			r.exit.oneIf(n == 0)
		}
	case *syntax.LetClause:
		r.thisCommand = "" // jaiph-go patch: see thisCommand
		if tracingEnabled {
			trace.string("let")
			for _, expr := range cm.Exprs {
				trace.stringf(" %s", r.letArgString(trace.printer, expr))
			}
			trace.newLineFlush()
		}
		var val int
		for _, expr := range cm.Exprs {
			r.ecfg.LetArith = true
			val = r.arithmCmd("let: ", expr, "")
			r.ecfg.LetArith = false
			if r.exit.code != 0 || r.exit.exiting {
				break
			}
		}
		if r.exit.code == 0 && !r.exit.exiting {
			r.exit.oneIf(val == 0)
		}
	case *syntax.CaseClause:
		trace.string("case ")
		trace.expr(cm.Word)
		trace.string(" in")
		trace.newLineFlush()
		str := r.unsplitLiteral(cm.Word)
		runNext := false // whether the previous item ended with ";&"
		for _, ci := range cm.Items {
			if !runNext && !slices.ContainsFunc(ci.Patterns, func(word *syntax.Word) bool {
				return r.match(r.pattern(word), str, r.opts[optExtGlob])
			}) {
				continue
			}
			r.stmts(ctx, ci.Stmts)
			if len(ci.Stmts) == 0 && !r.stop(ctx) && r.breakEnclosing == 0 && r.contnEnclosing == 0 {
				// jaiph-go patch: an item without commands that runs
				// (reached by ";&" or ";;&") makes the status 0, as
				// bash's execute_command of no command.
				r.exit = exitStatus{}
			}
			switch ci.Op {
			case syntax.Fallthrough: // ";&" runs the next item unconditionally
				runNext = true
			case syntax.Resume, syntax.ResumeKorn: // ";;&" and ";|" resume matching
				runNext = false
			default: // ";;" or the last item stop
				return
			}
		}
	case *syntax.TestClause:
		r.comsubNoErrExit = r.noErrExit // jaiph-go patch: see comsubNoErrExit
		r.thisCommand = "[["            // jaiph-go patch: see thisCommand
		// jaiph-go patch: [[ ]]'s words are not split (bash's
		// cond_expand_word), see expand.Config.NoSplitStar
		old, oldCond := r.ecfg.NoSplitStar, r.ecfg.CondWord
		r.ecfg.NoSplitStar, r.ecfg.CondWord = true, true
		res := r.bashTest(ctx, cm.X, false)
		r.ecfg.NoSplitStar, r.ecfg.CondWord = old, oldCond
		r.comsubNoErrExit = false
		if res == "" && r.exit.ok() {
			// to preserve exit status code 2 for regex errors, etc
			r.exit.code = 1
		}
	case *syntax.DeclClause:
		// jaiph-go patch: a listing's write error (jaiph_chkwrite.go)
		outErr := r.outErr
		r.outErr = nil
		defer func() {
			// bash's listing of every function checks as it
			// prints, keeping its status
			listing := declFuncQuery(cm.Args) != ""
			r.checkWrite(cm.Variant.Value, !listing, &r.exit)
			r.outErr = outErr
		}()
		// jaiph-go patch: as in bash, every word is expanded before the
		// redirections are performed and before any assignment is made
		// (`readonly x=$(cmd) 2>/dev/null` keeps cmd's stderr, `declare
		// x=2 y=$x` gives y the old x).
		r.comsubNoErrExit = r.noErrExit // jaiph-go patch: see comsubNoErrExit
		// jaiph-go patch: the name before what the words' expansion says
		// (see thisCommand); a declaration is a simple command, after
		// which bash has none
		thisCommand := r.thisCommand
		r.thisCommand = ""
		declArgs := r.expandDeclArgs(cm.Variant.Value, cm.Args)
		r.comsubNoErrExit = false
		if r.exit.exiting {
			break
		}
		// the builtin's own errors land at its frame (see
		// invertElemJump); a list assigned to a readonly variable is
		// refused while the words expand, before it
		elemJumpInverts := r.jumpInverts
		if r.childStmt != nil && r.childStmt.Cmd == cm {
			r.jumpInverts = false
		}
		if n := len(declArgs); n > 0 {
			// jaiph-go patch: "$_" is the declaration's last word, as
			// in bash: `declare s=v` leaves s=v, `declare a=(1 2)` a.
			as := declArgs[n-1]
			last := as.Name.Value
			if !as.Naked && as.Array == nil && as.Index == nil {
				op := "="
				if as.Append {
					op = "+="
				}
				val := ""
				if as.Value != nil {
					val = r.literal(as.Value)
				}
				last += op + val
			}
			defer func() { r.lastArg = last }()
		}
		// what bash says while the words expand goes where stderr was
		// before the redirections
		expandStderr := r.stderr
		if pending := r.pendingRedirs; pending != nil {
			r.pendingRedirs = nil
			if !pending() {
				break
			}
		}
		// the builtin's name, before what declare -i's arithmetic says
		r.ecfg.ArithCommand = cm.Variant.Value
		defer func() { r.ecfg.ArithCommand = "" }()
		if cm.Variant.Value == "declare" || cm.Variant.Value == "typeset" {
			// jaiph-go patch: "declare -f" and "declare -F" alone list
			// every function, as bash does.
			if q := declFuncQuery(cm.Args); q != "" {
				for _, name := range slices.Sorted(maps.Keys(r.Funcs)) {
					if q == "-F" {
						r.outf("declare -f %s\n", name)
					} else {
						r.out(r.funcDefinition(name, r.Funcs[name]))
					}
				}
				break
			}
		}
		local, global := false, false
		var modes []string
		valType := ""
		declQuery := "" // "-f" or "-p" for query mode
		switch cm.Variant.Value {
		case "declare", "typeset": // jaiph-go patch: typeset too, as bash
			// When used in a function, "declare" acts as "local"
			// unless the "-g" option is used.
			local = r.inFunc
		case "local":
			if !r.inFunc {
				r.errf("local: can only be used in a function\n")
				r.exit.code = 1
				return
			}
			local = true
		case "export":
			modes = append(modes, "-x")
		case "readonly":
			modes = append(modes, "-r")
		case "nameref":
			valType = "-n"
		}
		// jaiph-go patch: xtrace prints declare/local/export/readonly.
		var traceArgs, traceAssigns []string
		if tracingEnabled {
			fromCall := r.declFromCall // jaiph-go patch: traced as a call
			if !fromCall {
				trace.prime() // jaiph-go patch: PS4 as before the declaration
			}
			defer func() {
				if !fromCall {
					trace.call(cm.Variant.Value, traceArgs...)
					trace.newLineFlush()
				}
				// bash also traces the assignments of export
				// and readonly on their own lines.
				for _, as := range traceAssigns {
					trace.string(as)
					trace.newLineFlush()
				}
			}()
		}
		endOpts := false  // jaiph-go patch: after --, names only
		unexport := false // jaiph-go patch: export -n
		invalidName := false
		// assignErr: bash's assign_error, for which the builtin
		// returns EX_BADASSIGN (260): the current shell makes it 1, but
		// the child forked for it as a pipeline's element or a job
		// exits with it (execute_subshell_builtin_or_function), 4
		assignErr := false
		defer func() {
			if invalidName && r.exit.code == 0 {
				r.exit.code = 1
			}
			if assignErr && r.exit.code == 1 && !r.exit.exiting && r.childStmt != nil && r.childStmt.Cmd == cm {
				r.exit.code = 4
			}
		}()
		// jaiph-go patch: a local a subshell declares is the function's
		// own there (see ownLocals), marked once its declaration is
		// done, so that later ones reach it
		declaredLocal := ""
		markLocal := func() {
			if declaredLocal != "" {
				r.markOwnLocal(declaredLocal)
				declaredLocal = ""
			}
		}
		defer markLocal()
		// chainWord: the word being declared set valType for itself
		// (see chainEndsOutside); flagsValType is valType as the flags
		// set it, for the words after it.
		chainWord, flagsValType := false, valType
	assignLoop:
		for _, as := range declArgs {
			if chainWord {
				valType, chainWord = flagsValType, false
			}
			markLocal()
			if local && !global && syntax.ValidName(as.Name.Value) {
				declaredLocal = as.Name.Value
			}
			appendWord := as.Append && as.Value != nil // as written: the trace shows x+=v
			appendWritten := as.Append                 // before a new local's += becomes =, below
			roElem := false                            // see the -r NAME[SUB]=v case below
			if tracingEnabled && strings.HasPrefix(as.Name.Value, "-") {
				traceArgs = append(traceArgs, as.Name.Value)
			}
			if !endOpts && as.Naked && as.Name.Value == "--" {
				// jaiph-go patch: `declare -- x=1` (it was the
				// invalid name "--", and x stayed unset).
				endOpts = true
				continue
			}
			fp := flagParser{remaining: []string{as.Name.Value}}
			if endOpts {
				fp.remaining = nil
			}
			// jaiph-go patch: a lone "+" or "-" is no option in bash
			// but a name, not a valid one (`readonly +`); `local -`
			// keeps its meaning.
			if v := as.Name.Value; v == "+" || (v == "-" && cm.Variant.Value != "local") {
				fp.remaining = nil
			}
			// jaiph-go patch: every flag of a combined "-rxi" counts
			// (upstream stopped after the first).
			sawFlag := false
			for fp.more() {
				sawFlag = true
				raw := fp.flag()
				flag := raw
				if v := cm.Variant.Value; (v == "export" || v == "readonly") && !slices.Contains(exportReadonlyOpts, flag) {
					flag = "" // jaiph-go patch: an option of declare's alone (below)
				}
				switch flag {
				case "-x", "-r", "-i", "-l", "-u": // jaiph-go patch: -i -l -u
					modes = append(modes, flag)
				case "-n":
					switch cm.Variant.Value {
					case "export":
						// jaiph-go patch: export -n takes the
						// export attribute away (it made a
						// nameref).
						unexport = true
						continue
					case "readonly":
						// jaiph-go patch: as export -n, readonly
						// -n takes its attribute away: the value
						// is assigned, nothing more (bash's
						// set_or_show_attributes).
						modes = slices.DeleteFunc(modes, func(m string) bool { return m == "-r" })
						continue
					}
					valType = flag
				case "-a", "-A":
					valType = flag
				case "-g":
					global = true
				case "-f", "-p", "-F": // jaiph-go patch: -F
					declQuery = flag
				default:
					// jaiph-go patch: bash's text, naming the builtin,
					// and its usage line.
					v := cm.Variant.Value
					usage, ok := declUsage[v]
					if !ok {
						v, usage = "declare", declUsage["declare"]
					}
					r.errf("%s: %s: invalid option\n%s: usage: %s\n", v, raw, v, usage)
					r.exit.code = 2
					return
				}
			}
			if sawFlag {
				continue assignLoop
			}
			name := as.Name.Value
			if as.Index != nil && (cm.Variant.Value == "export" || cm.Variant.Value == "readonly") {
				// jaiph-go patch: export and readonly take names, not
				// elements: bash's "`v[3]': not a valid identifier"
				// (subscript expanded, value left out), status 1; the
				// element stays unset and the other names still go.
				var sub string
				if w, ok := as.Index.(*syntax.Word); ok {
					sub = r.literal(w)
				} else {
					sub, _ = expand.ArithmText(r.ecfg, as.Index)
				}
				r.errf("%s: `%s[%s]': not a valid identifier\n", cm.Variant.Value, name, sub)
				invalidName = true
				assignErr = assignErr || !as.Naked || cm.Variant.Value != "export" && cm.Variant.Value != "readonly"
				continue
			}
			if declQuery != "" && (!as.Naked || !syntax.ValidName(name) || as.Index != nil) {
				// jaiph-go patch: declare -p, -f and -F look their
				// words up as they are, valid names or not: a word
				// with `=` is "declare: foo=bar: not found" for -p and
				// no function for -f/-F; a function name may hold a
				// `/` (declare -F ble/foo).
				word := name
				if w, ok := as.Index.(*syntax.Word); ok {
					word += "[" + r.literal(w) + "]"
				} else if as.Index != nil {
					word += "[" + expand.ArithmSource(as.Index) + "]"
				}
				if !as.Naked {
					if as.Append {
						word += "+"
					}
					if as.Value != nil {
						word += "=" + r.literal(as.Value)
					} else {
						word += "="
					}
				}
				if declQuery == "-p" && as.Naked && r.lookupVar(word).Declared() {
					// jaiph-go patch: a variable literally named
					// "a[1]" (a declaration through a nameref to an
					// element made it in a function) is shown.
					name = word
				} else if declQuery == "-p" || !as.Naked {
					if declQuery == "-p" {
						r.errf("%s: %s: not found\n", cm.Variant.Value, word)
					}
					r.exit.code = 1
					continue
				}
			} else if !syntax.ValidName(name) {
				// jaiph-go patch: bash's message names the builtin and
				// the word as written, and the other names still go.
				word := name
				if i := strings.IndexByte(name, '['); i > 0 && !as.Naked && syntax.ValidName(name[:i]) && strings.HasSuffix(strings.TrimSuffix(name, "+"), "]") {
					// an element (`x[4]=1` made by an expansion) is
					// an assignment word to bash: the name is cut
					// at its = or +=.
					word = strings.TrimSuffix(name, "+")
				} else {
					if as.Append {
						word += "+"
					}
					if !as.Naked && as.Value != nil {
						word += "=" + r.literal(as.Value)
					}
				}
				r.errf("%s: `%s': not a valid identifier\n", cm.Variant.Value, word)
				invalidName = true
				assignErr = assignErr || cm.Variant.Value != "export" && cm.Variant.Value != "readonly"
				continue
			}
			if tracingEnabled && declQuery != "" {
				traceArgs = append(traceArgs, name) // jaiph-go patch: declare -p a
			}
			if declQuery == "-f" || declQuery == "-F" {
				// declare -f name: print function definition;
				// declare -F name: its name only.
				// Bash silently returns exit 1 for missing functions.
				if def, ok := r.handlerFunc(ctx, name); ok { // jaiph-go patch
					if declQuery == "-F" {
						r.outf("%s\n", name)
					} else {
						r.out(def)
					}
				} else if body := r.Funcs[name]; body == nil {
					r.exit.code = 1
				} else if declQuery == "-F" {
					r.outf("%s\n", name)
				} else {
					r.out(r.funcDefinition(name, body))
				}
				continue
			}
			if declQuery == "-p" {
				// declare -p name: print variable with attributes.
				vr := r.lookupVar(name)
				if !vr.Declared() {
					r.errf("%s: %s: not found\n", cm.Variant.Value, name) // jaiph-go patch: typeset -p says typeset
					r.exit.code = 1
					continue
				}
				flags := vr.Flags()
				if flags == "" {
					flags = "-"
				}
				// jaiph-go patch: quote values like bash's declare -p
				// (upstream used Go's %q and listed map keys randomly).
				switch {
				case !vr.IsSet():
					r.outf("declare -%s %s\n", flags, name)
				case vr.Kind == expand.Indexed:
					r.outf("declare -%s %s=(", flags, name)
					for i, v := range vr.List {
						idx := i
						if vr.Indexes != nil {
							idx = vr.Indexes[i]
						}
						if i > 0 {
							r.out(" ")
						}
						r.outf("[%d]=%s", idx, bashDeclQuote(v, true))
					}
					r.out(")\n")
				case vr.Kind == expand.Associative:
					r.outf("declare -%s %s=(", flags, name)
					for _, k := range vr.AssocKeys() {
						key := k
						if expand.ContainsShellMetas(k) || k == "@" || hasControl(k) { // jaiph-go patch: bash quotes the key @ as it does *
							key = bashDeclQuote(k, true) // jaiph-go patch: $'…' for a control character, as assoc_to_assign
						}
						r.outf("[%s]=%s ", key, bashDeclQuote(vr.Map[k], true))
					}
					r.out(")\n")
				default:
					r.outf("declare -%s %s=%s\n", flags, name, bashDeclQuote(vr.Str, true))
				}
				continue
			}
			if v := cm.Variant.Value; (v == "export" || v == "readonly") && as.Index == nil && as.Array == nil && valType != "-n" && r.lookupVar(name).Kind == expand.NameRef {
				if cur := r.lookupVar(name); !as.Naked && cur.Kind == expand.NameRef && cur.Str == "" && valType == "" && as.Index == nil && as.Array == nil && (v == "export" && !unexport || v == "readonly" && slices.Contains(modes, "-r")) {
					// jaiph-go patch: export r=x of a nameref without
					// a value: bash assigns r=x first (the nameref
					// takes x as the name it refers to), then gives x
					// the attribute (x made if need be), as export x
					// would; the nameref had it
					val := r.literal(as.Value)
					if r.exit.exiting {
						break assignLoop
					}
					plain := *as // the value expanded once, whatever follows
					plain.Value = &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: val}}}
					as = &plain
					if internal.ValidNameOrElem(val) && val != name {
						prev := cur
						prev.Local = false
						n, vr, _ := r.assignVal(name, prev, as, "")
						r.setVarWithIndex(prev, n, nil, nil, "", vr)
						if r.exit.exiting {
							break assignLoop
						}
						if !syntax.ValidName(val) {
							// an element: named, and refused the
							// attribute, status unchanged
							r.errf("%s: `%s': not a valid identifier\n", v, val)
							continue
						}
						as = &syntax.Assign{Naked: true, Name: &syntax.Lit{ValuePos: as.Name.ValuePos, ValueEnd: as.Name.ValueEnd, Value: val}}
						name = val
					}
				}
				if _, last := r.lookupVar(name).Resolve(r.writeEnv); as.Naked && last.Kind == expand.NameRef && last.Str == "" && (v == "export" && !unexport || v == "readonly" && slices.Contains(modes, "-r")) {
					// a nameref without a value (declare -n r), or
					// one naming it, names nothing: bash's
					// set_or_show_attributes says so and goes on, its
					// status unchanged (the attribute was set on the
					// nameref)
					r.errf("%s: `': not a valid identifier\n", v)
					continue
				}
				// jaiph-go patch: export and readonly of a nameref
				// naming an array element assign a value to the
				// element, then refuse the attribute (status 0), as
				// bash; they made a variable named "a[1]".
				n, _ := r.lookupVar(name).Resolve(r.writeEnv)
				if !syntax.ValidName(n) && internal.ValidElemRef(n) && r.writeEnv.Get(n).Declared() {
					// A local that a declaration through the nameref
					// made, named "a[1]", is the variable they assign
					// and mark, as bash's find_variable finds it.
					name = n
				} else if !syntax.ValidName(n) && internal.ValidElemRef(n) {
					if !as.Naked {
						val, err := expand.AssignLiteral(r.ecfg, as.Value)
						r.expandErr(err)
						if r.exit.exiting {
							break assignLoop
						}
						failed := false
						if err := (HandlerContext{runner: r}).SetVar(n, val); errors.Is(err, expand.ErrBadSubscript) {
							// a nameref to a[@]: bash's
							// assign_array_element reports it (under
							// errexit the shell ends there) and the
							// builtin fails
							if r.reportError(err) != nil {
								break assignLoop
							}
							failed = true
						} else if r.arithAssignFatal(err, v, &r.exit) {
							break assignLoop
						} else if err != nil {
							// a readonly array: reported (the end of
							// the shell under errexit, bash's
							// err_readonly), then the attribute
							// refused, status 1
							r.errf("%v\n", err)
							r.exit.code = 1
							if errors.Is(err, errReadOnly) {
								r.readonlyFailed(&r.exit)
							}
							if r.exit.exiting {
								break assignLoop
							}
							r.errf("%s: `%s': not a valid identifier\n", v, n)
							continue
						}
						r.heldExitTrap = false // the declaration goes on
						if failed {
							r.errf("%s: `%s': not a valid identifier\n", v, n)
							r.exit.code = 1
							continue
						}
					}
					r.errf("%s: `%s': not a valid identifier\n", v, n)
					continue
				}
			}
			if (!local || global) && cm.Variant.Value != "export" && cm.Variant.Value != "readonly" && valType == "" && !as.Naked && as.Index == nil && as.Array == nil && r.declaredRef(name, global).Kind == expand.NameRef {
				n, _ := r.declaredRef(name, global).Resolve(r.writeEnv)
				declared := r.writeEnv.Get(n).Declared()
				arr, idx := elemRef(n)
				if _, all := allElemsIndex(idx); all && !declared {
					// jaiph-go patch: through a nameref to a[@] or
					// a[*], bash's declare goes on as with declare
					// a[@]=v written (its nameref resolution makes the
					// name the element): a made an array with the
					// declaration's attributes, an associative one's
					// key @ assigned (an assignment through the
					// nameref refuses it)
					elem := *as
					elem.Name = &syntax.Lit{ValuePos: as.Name.ValuePos, ValueEnd: as.Name.ValueEnd, Value: arr}
					elem.Index = idx
					as, name = &elem, arr
				} else if len(modes) == 0 && !declared && !syntax.ValidName(n) && internal.ValidElemRef(n) {
					// jaiph-go patch: declare NAME=v (outside a
					// function, or -g) through a nameref to an array
					// element assigns the element, as bash's assignment
					// through the nameref (it made a variable named
					// "a[1]").
					val, err := expand.AssignLiteral(r.ecfg, as.Value)
					r.expandErr(err)
					if r.exit.exiting {
						break assignLoop
					}
					if err := (HandlerContext{runner: r}).SetVar(n, val); errors.Is(err, expand.ErrBadSubscript) {
						if r.reportError(err) != nil {
							break assignLoop
						}
						r.exit.code = 1
					} else if r.arithAssignFatal(err, cm.Variant.Value, &r.exit) {
						break assignLoop
					} else if errors.Is(err, errReadOnly) {
						r.errf("%s: %v\n", cm.Variant.Value, err)
						r.exit.code = 1
					} else if err != nil {
						r.errf("%v\n", err)
						r.exit.code = 1
					}
					r.heldExitTrap = false // the declaration goes on
					continue
				}
			}
			if local && !global && as.Index == nil && as.Array == nil && valType != "-n" && (as.Naked || valType != "-a" && valType != "-A") && r.lookupVar(name).Kind == expand.NameRef {
				// jaiph-go patch: in a function, a declaration through
				// a nameref to an array element, with a value or not,
				// makes a local named as the element (bash's
				// make_local_variable takes the nameref's value as it
				// is): $r then reads it, ${a[1]} does not see it.
				if n, _ := r.lookupVar(name).Resolve(r.writeEnv); !syntax.ValidName(n) && internal.ValidElemRef(n) {
					name = n
				}
			}
			if as.Naked && as.Index == nil && valType != "-n" && r.lookupVar(name).Kind == expand.NameRef && r.declSameScope(name, local, global) && !(global && r.callerNameref(name)) {
				// jaiph-go patch: a nameref named without a value
				// declares the variable it names (declare -u r,
				// readonly r, export r), as bash.
				if n, _ := r.lookupVar(name).Resolve(r.writeEnv); syntax.ValidName(n) {
					name = n
				}
			}
			// jaiph-go patch: declare -g in a function declares the
			// global, whatever local of the name a caller has (an
			// element, declare -g a[1]=v, is the visible array's, as
			// bash's assign_array_element).
			var globalEnv *overlayEnviron
			localElem := false   // see declGlobalArray
			var elemZero *string // the value of an array's element (key) 0
			if global && (as.Index == nil || as.Array != nil) {
				globalEnv = r.globalEnv()
				if globalEnv != nil && (globalEnv.localBelow(name) || globalEnv.ownLocals[globalEnv.normalize(name)]) {
					// a subshell's declare -g of a name a function
					// below the subshell has a local of: bash sets
					// the subshell's copy of the global, which that
					// local hides for as long as the subshell lives;
					// bound where nothing sees it, over the global
					// as the subshell has it (not the local: a
					// readonly local does not refuse it); so too
					// when the local is the subshell's own (declared
					// in it), which shares the subshell's scope
					globalEnv = &overlayEnviron{parent: globalScope(globalEnv)}
				}
			}
			if local && !global && valType == "" && as.Array == nil && as.Index == nil && !as.Naked && r.chainEndsOutside(name) {
				// jaiph-go patch: bash's declare_internal follows a
				// function's own nameref only when the last nameref
				// of its chain is the function's too; otherwise the
				// value is the nameref's own, the name it refers to
				// (local r=x of r naming a calling scope's nameref
				// re-points r to x), checked as such.
				flagsValType = valType
				valType, chainWord = "-n", true
			}
			vr := r.lookupVar(name)
			if local && !global && as.Array != nil && vr.Kind == expand.NameRef && r.declSameScope(name, local, global) {
				// jaiph-go patch: a list declared through a function's
				// own nameref to a variable of a calling scope makes
				// a new local of that name, which takes nothing of the
				// outer variable but its export (not its kind, -i or
				// elements), as bash's make_local_variable.
				if n, t := vr.Resolve(r.writeEnv); syntax.ValidName(n) && !t.ReadOnly && r.declNewLocal(n, local, global) {
					name, vr = n, expand.Variable{Exported: t.Exported}
				}
			}
			if globalEnv != nil {
				saved := r.writeEnv
				r.writeEnv = globalEnv
				vr = r.lookupVar(name)
				r.writeEnv = saved
			}
			if valType == "-n" && (vr.Kind == expand.Indexed || vr.Kind == expand.Associative) && r.declSameScope(name, local, global) {
				// jaiph-go patch: bash refuses to make an array a
				// nameref (status 1; it became one).
				r.errf("%s: %s: reference variable cannot be an array\n", cm.Variant.Value, name)
				r.exit.code = 1
				continue
			}
			convKind := vr.Kind
			if vr.Kind == expand.NameRef && (valType == "-a" || valType == "-A") && r.declSameScope(name, local, global) {
				// jaiph-go patch: with a value, through a nameref
				// of this scope to a variable of this scope, the
				// kind is its target's (in a function, an outer
				// target gets a new local, as bash).
				if n, t := vr.Resolve(r.writeEnv); n != "" && r.declSameScope(n, local, global) {
					convKind = t.Kind
				}
			}
			if from, to, bad := arrayConversion(convKind, valType); bad && cm.Variant.Value != "export" && cm.Variant.Value != "readonly" && r.declSameScope(name, local, global) {
				// jaiph-go patch: bash refuses to change the kind of
				// an array its declaration reaches (declare -A on an
				// indexed array, -a on an associative one): the
				// variable is left as it was, status 1 (declare.def;
				// export and readonly give such a name only their
				// own attribute).
				if as.Array != nil {
					// With a list value bash reports it twice:
					// first as it expands the declaration's words
					// (without the builtin's name; eval's under eval),
					// where stderr was before the redirections.
					// It names the command before, as the
					// readonly error below (this_command_name:
					// `[[: A1: cannot convert …` after a [[ ]]).
					prefix := ""
					if thisCommand != "" {
						prefix = thisCommand + ": "
					}
					fmt.Fprintf(expandStderr, "%s%s: cannot convert %s to %s array\n", prefix, as.Name.Value, from, to)
					if !r.inFunc {
						// jaiph-go patch: outside a function the
						// failed internal declaration discards the
						// command (bash's DISCARD: status 1, the
						// next line goes on, errexit or not); in
						// one it is not fatal (W_FORCELOCAL).
						r.exit = exitStatus{code: 1, exiting: true, discard: true}
						return
					}
				}
				// named as written, a nameref too
				r.errf("%s: %s: cannot convert %s to %s array\n", cm.Variant.Value, as.Name.Value, from, to)
				r.exit.code = 1
				continue
			}
			if !vr.ReadOnly && r.declNewLocal(name, local, global) {
				// jaiph-go patch: a new local takes none of the
				// outer variable's attributes but its export, as
				// bash's make_local_variable (local K=1+1 over a
				// global declare -i K is the string 1+1).
				vr = expand.Variable{Exported: vr.Exported}
			}
			if globalEnv != nil && (vr.Kind == expand.Indexed && valType == "" || valType == "-a" && vr.Kind != expand.Associative) && !vr.ReadOnly && !as.Naked && as.Index == nil && as.Array == nil {
				if visible := r.lookupVar(name); visible.Local && !visible.ReadOnly {
					r.declGlobalArrayUnderLocal(cm.Variant.Value, name, visible, as, globalEnv, modes, unexport)
					if r.exit.exiting {
						break assignLoop
					}
					if tracingEnabled {
						op := "="
						if as.Append {
							op = "+="
						}
						traceArgs = append(traceArgs, as.Name.Value+op+r.assignWord)
					}
					continue
				}
			}
			if as.Naked {
				fresh := false
				if (valType == "-a" || valType == "-A") && r.declNewLocal(name, local, global) {
					fresh = true
					// jaiph-go patch: in a function, declare -a/-A
					// NAME over an outer variable makes a new, unset
					// local array, as bash (it copied the outer one);
					// as every new local it keeps the export.
					vr = expand.Variable{Exported: vr.Exported}
				}
				if as.Index != nil && valType == "" {
					// jaiph-go patch: `declare x[2]` (no value) makes
					// x an indexed array without elements, as bash
					// (a scalar's value goes); an associative array
					// stays as it is.
					switch same := r.declSameScope(name, local, global); {
					case vr.Kind == expand.Associative, same && vr.Kind == expand.Indexed:
						vr.Kind = expand.KeepValue
					case same && vr.IsSet() && vr.Kind == expand.String && vr.Local:
						// a function's own scalar local becomes an
						// empty array (bash: declare -a s=())
						vr.Kind, vr.List, vr.Str = expand.Indexed, []string{}, ""
					case same && vr.IsSet() && vr.Kind == expand.String:
						// a global's value becomes element 0
						vr.Kind, vr.List, vr.Str = expand.Indexed, []string{vr.Str}, ""
					default:
						vr = expand.Variable{Kind: expand.Indexed}
					}
				} else if v := cm.Variant.Value; (v == "export" || v == "readonly") && (valType == "-a" || valType == "-A") {
					// jaiph-go patch: bash's export and readonly
					// give a name without a value only their own
					// attribute, never -a or -A (setattr.def).
					vr.Kind = expand.KeepValue
				} else if o, ok := r.writeEnv.(*overlayEnviron); ok && (valType == "-a" || valType == "-A") && vr.ReadOnly &&
					(vr.Kind == expand.String || vr.Kind == expand.Unknown) && r.declSameScope(name, local, global) &&
					o.replaceHeld(name, readonlyToArray(vr, valType, local && !global && vr.Local)) {
					// jaiph-go patch: bash changes a readonly scalar's
					// kind all the same (declare -r v=x; declare -a v
					// leaves declare -ar v=()); the attributes follow.
					vr.Kind = expand.KeepValue
				} else if valType == "-A" && vr.Kind == expand.Associative {
					// jaiph-go patch: an associative array declared
					// again only takes the attributes given, readonly
					// or not (declare -rA m; declare -Ai m)
					vr.Kind = expand.KeepValue
				} else if valType == "-A" && vr.Kind == expand.String && vr.IsSet() && r.declSameScope(name, local, global) {
					// jaiph-go patch: declare -A of a scalar makes it
					// an associative array as -a makes an indexed one:
					// a function's own local becomes an empty one, a
					// global keeps its value as element 0 (bash's
					// convert_var_to_assoc); it was always emptied.
					str := vr.Str
					vr.Kind, vr.Str, vr.Map, vr.MapSeq = expand.Associative, "", map[string]string{}, nil
					if !local || global || !vr.Local {
						vr.SetAssoc("0", str)
					}
				} else if valType == "-A" {
					vr.Kind = expand.Associative
				} else if valType == "-a" && (fresh || !vr.Declared()) {
					// jaiph-go patch: declare -a x declares an
					// (unset) indexed array, as declare -p shows.
					vr.Kind = expand.Indexed
				} else if valType == "-a" && !vr.IsSet() && (vr.Kind == expand.String || vr.Kind == expand.Unknown) && r.declSameScope(name, local, global) {
					// jaiph-go patch: so does a declared, unset
					// scalar (declare -l x; declare -a x), keeping
					// its attributes: declare -al x.
					vr.Kind = expand.Indexed
				} else if valType == "-a" && vr.Kind == expand.String && vr.IsSet() && r.declSameScope(name, local, global) {
					// jaiph-go patch: declare -a of a scalar makes
					// it an array: a function's own local becomes
					// an empty one (bash's make_local_array_variable
					// drops the value), a global keeps its value as
					// element 0 (convert_var_to_array).
					if local && !global && vr.Local {
						vr.Kind, vr.List, vr.Str = expand.Indexed, []string{}, ""
					} else {
						vr.Kind, vr.List, vr.Str = expand.Indexed, []string{vr.Str}, ""
					}
				} else if o, _ := r.writeEnv.(*overlayEnviron); valType == "-n" && (!vr.IsSet() || local && !global && o != nil && !o.ownsLocal(name)) {
					// jaiph-go patch: declare -n r without a value
					// (a new local in a function) is a nameref naming
					// nothing yet, as bash's: r=x then gives it x.
					vr = expand.Variable{Kind: expand.NameRef}
				} else if valType == "-n" && vr.Kind == expand.String {
					// jaiph-go patch: r=x; declare -n r makes r a
					// nameref to x. As bash's declare, a value that
					// names no variable (nor element) cannot be made
					// one, nor can a readonly variable.
					if base, _, ok := cutElemSubscript(vr.Str); vr.IsSet() && !syntax.ValidName(vr.Str) && (!ok || !syntax.ValidName(base)) {
						r.errf("%s: `%s': invalid variable name for name reference\n", cm.Variant.Value, vr.Str)
						r.exit.code = 1
						continue
					}
					if vr.ReadOnly {
						r.errf("%s: %s: readonly variable\n", cm.Variant.Value, name)
						r.exit.code = 1
						continue
					}
					vr.Kind = expand.NameRef
				} else if globalEnv != nil && !vr.Declared() {
					// jaiph-go patch: declare -g NAME in a function
					// declares the global, unset (declare -p: declare
					// -- NAME), as bash; there was nothing to keep.
					vr.Kind = expand.String
				} else {
					vr.Kind = expand.KeepValue
				}
			} else {
				if as.Append && r.declNewLocal(name, local, global) {
					// jaiph-go patch: in a function, declare/local
					// name+=… of a variable that is not yet a local of
					// this function appends to a new, empty local, as
					// bash's make_local_variable (the outer value is
					// not the start).
					plain := *as
					plain.Append = false
					as = &plain
					vr = expand.Variable{}
				}
				kindNow := vr.Kind
				if n, t := vr.Resolve(r.writeEnv); n != "" {
					kindNow = t.Kind // through a nameref, its target's
				}
				if as.Append && as.Array != nil && local && !global && kindNow != expand.Indexed && kindNow != expand.Associative {
					// jaiph-go patch: in a function, declare/local
					// name+=(…) of a variable that is no array yet
					// assigns the list alone, as bash (the scalar's
					// value is dropped).
					plain := *as
					plain.Append = false
					as = &plain
				}
				if o, ok := r.writeEnv.(*overlayEnviron); ok && valType == "-a" && vr.ReadOnly && vr.Kind == expand.String && local && !global {
					// jaiph-go patch: bash empties a readonly scalar
					// local into an array before it finds it readonly
					// (local -a r=4 leaves declare -ar r=()).
					o.localToEmptyArray(name)
				}
				if o, ok := r.writeEnv.(*overlayEnviron); as.Array != nil && vr.ReadOnly && (!local || global || ok && o.ownsLocal(name)) {
					// jaiph-go patch: a list assigned to a readonly
					// variable outside a function's scope, or to the
					// function's own readonly local, is bash's
					// err_readonly in its array assignment, which
					// discards the command as a bare r=(…) does.
					r.errf("%s: readonly variable\n", name)
					r.exit = exitStatus{code: 1, exiting: true, discard: true, assignFailed: true, popScopes: !r.errexitOn()}
					r.jumpInverts = elemJumpInverts
					if r.errexitOn() {
						// report_error exits in place under errexit
						r.exitTrapInPlace(&r.exit)
					}
					return
				}
				if vr.ReadOnly && local && !global && !r.readonlyHere(name, expand.Variable{Local: true}) {
					// jaiph-go patch: a new local shadowing a calling
					// function's readonly local starts without its
					// attributes (declare -a n=(…) is no readonly
					// array).
					vr = expand.Variable{}
				}
				if as.Array != nil && vr.ReadOnly {
					// jaiph-go patch: in a function, bash's array
					// assignment reports it first too, after the name
					// of the command before (its this_command_name: the
					// function just called); the builtin's error
					// follows. It is said while the words expand,
					// before the redirections.
					prefix := ""
					if thisCommand != "" {
						prefix = thisCommand + ": "
					}
					fmt.Fprintf(expandStderr, "%s%s: readonly variable\n", prefix, name)
				}
				if (valType == "-a" || valType == "-A") && as.Array == nil && as.Value != nil && as.Index == nil {
					// jaiph-go patch: with -a or -A, a value that
					// expands to "(…)" is a compound assignment, as in
					// bash (declare -a c='(3 4)', local -a l=$list).
					as = r.declArrayValue(as)
				}
				if valType == "-n" && !as.Naked && as.Array == nil && as.Index == nil && appendWritten {
					// jaiph-go patch: declare -n r+=v appends v to the
					// name the nameref holds in this scope (a new one
					// holds none) and checks the name made, naming v
					// in its error as bash does; it was ignored.
					add := ""
					if as.Value != nil {
						add = r.literal(as.Value)
					}
					old := ""
					if vr.Kind == expand.NameRef && r.declSameScope(name, local, global) {
						old = vr.Str
					}
					s := old + add
					if base, _, ok := cutElemSubscript(s); !syntax.ValidName(s) && (!ok || !syntax.ValidName(base)) {
						if local && !global && r.newLocalHere(name) {
							_ = r.writeEnv.Set(name, expand.Variable{Kind: expand.KeepValue, Local: true})
						}
						r.errf("%s: `%s': not a valid identifier\n", cm.Variant.Value, add)
						r.exit.code = 1
						continue
					}
					plain := *as
					plain.Append = false
					plain.Value = &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Left: as.Pos(), Right: as.Pos(), Value: s}}}
					as = &plain
				}
				if valType != "-n" && !as.Naked && as.Array == nil && as.Index == nil && !as.Append &&
					vr.Kind == expand.NameRef && vr.Str == "" && r.declSameScope(name, local, global) {
					// jaiph-go patch: a nameref without a value takes
					// the value as the name it refers to, which bash
					// checks (declare -n r; declare r=1x)
					s := ""
					if as.Value != nil {
						s = r.literal(as.Value)
					}
					if !internal.ValidNameOrElem(s) {
						switch v := cm.Variant.Value; {
						case v == "export" || v == "readonly":
							r.errf("%s: `%s': not a valid identifier\n%s: `': not a valid identifier\n", v, s, v)
						case r.inFunc:
							r.errf("%s: `%s': invalid variable name for name reference\n", v, s)
						default:
							// at the top level bash's declare unsets
							// the nameref it could not assign
							r.errf("%s: `%s': not a valid identifier\n", v, s)
							assignErr = true
							r.delVar(name)
						}
						r.exit.code = 1
						continue
					}
				}
				if valType == "-n" && !as.Naked && as.Array == nil && as.Index == nil && !as.Append {
					// jaiph-go patch: bash's declare checks a
					// nameref's value: a name or an array element,
					// never the nameref itself, never empty.
					s := ""
					if as.Value != nil {
						s = r.literal(as.Value)
					}
					if s == "" && !chainWord {
						if local && !global && r.newLocalHere(name) {
							// bash made the local first
							_ = r.writeEnv.Set(name, expand.Variable{Kind: expand.KeepValue, Local: true})
						}
						r.errf("%s: `': not a valid identifier\n", cm.Variant.Value)
						r.exit.code = 1
						continue
					}
					if s == name && chainWord {
						// through a chain (chainEndsOutside) bash
						// only warns, and the nameref refers to itself
						r.errf("warning: %s: circular name reference\n", name)
					} else if s == name && r.inFunc {
						// in a function too (check_selfref warns
						// where variable_context is not 0), and once
						// more as the value is bound
						r.errf("%s: warning: %s: circular name reference\n", cm.Variant.Value, name)
						r.errf("warning: %s: circular name reference\n", name)
					} else if s == name {
						r.errf("%s: %s: nameref variable self references not allowed\n", cm.Variant.Value, name)
						r.exit.code = 1
						assignErr = true
						continue
					}
					if base, _, ok := cutElemSubscript(s); (s != "" || chainWord) && !syntax.ValidName(s) && (!ok || !syntax.ValidName(base)) {
						r.errf("%s: `%s': invalid variable name for name reference\n", cm.Variant.Value, s)
						r.exit.code = 1
						assignErr = true
						continue
					}
				}
				if as.Index != nil && as.Array == nil && vr.Kind == expand.NameRef && local && !global {
					if n, t := vr.Resolve(r.writeEnv); n != "" {
						// jaiph-go patch: NAME[SUB]=v through a
						// function's nameref sets an element of the
						// variable it names, of a new local of that
						// name when it is a calling scope's (as the
						// value does below); the subscript was lost
						name, vr = n, t
						if r.declNewLocal(n, local, global) {
							vr = expand.Variable{}
						}
					}
				}
				if as.Index != nil && as.Array == nil && vr.Kind != expand.NameRef && slices.Contains(modes, "-r") {
					// jaiph-go patch: bash gives NAME its attributes
					// before it assigns the element, which then fails
					// as readonly: declare -r i[1]=2 leaves an array
					// without the element (a new global one set and
					// empty, a new local one unset, a scalar's value as
					// element 0), the builtin's status 0, and errexit
					// exits there (report_error).
					if !r.declSameScope(name, local, global) {
						vr = expand.Variable{}
					}
					switch {
					case vr.Kind == expand.Indexed || vr.Kind == expand.Associative:
					case vr.Kind == expand.String && vr.IsSet():
						vr.Kind, vr.List, vr.Str = expand.Indexed, []string{vr.Str}, ""
					case local && !global:
						vr = expand.Variable{Kind: expand.Indexed}
					default:
						vr = expand.Variable{Set: true, Kind: expand.Indexed, List: []string{}}
					}
					roElem = true
				} else if as.Index != nil && as.Array == nil && vr.Kind != expand.NameRef {
					// jaiph-go patch: declare NAME[SUB]=v sets an
					// element of NAME, as bash (it made NAME the
					// string v); in a function a new local array.
					base := vr
					if o, ok := r.writeEnv.(*overlayEnviron); ok && local && !global && r.declSameScope(name, local, global) &&
						vr.Kind != expand.Indexed && vr.Kind != expand.Associative && o.localToEmptyArray(name) {
						// bash's make_local_array_variable: the
						// function's scalar local becomes an empty
						// array before the subscript is evaluated
						// (local u=5; local u[u]=Q sets u[0])
						base = r.lookupVar(name)
					}
					if !r.declSameScope(name, local, global) {
						base = expand.Variable{}
						if local && !global && r.newLocalHere(name) {
							// bash makes the local before it
							// evaluates the subscript, which
							// then sees and sets the local
							// (q[q[0]=2]=P)
							_ = r.writeEnv.Set(name, expand.Variable{Kind: expand.KeepValue, Local: true})
						}
					}
					// jaiph-go patch: bash's declare -g NAME[SUB]=v
					// under a local NAME makes the global NAME an
					// array with the declaration's attributes; the
					// element is the local's, which takes none.
					g := r.globalEnv()
					localElem = global && g != nil && r.lookupVar(name).Local
					elemModes := modes
					if localElem {
						elemModes = nil
					}
					var ok, made bool
					outer := r.redirCommand
					r.redirCommand = cm.Variant.Value // an element's arithmetic names the builtin, as bash's this_command_name
					vr, ok, made = r.declElem(name, base, as, valType, elemModes)
					r.redirCommand = outer
					if !ok {
						r.exit.code = 1
						assignErr = true // assign_array_element failed
						if !made || r.exit.exiting {
							continue
						}
						// bash made NAME an array with the
						// declaration's attributes before the element
						// failed: a new global one set and empty, a new
						// local one unset; it is bound below.
						if !base.Declared() && !(local && !global) {
							vr.Set = true
						}
					}
					if localElem {
						declGlobalArray(g, name, valType, modes)
					}
				} else {
					orig, attrs := vr, vr
					if as.Append && as.Array == nil && slices.Contains(modes, "-i") {
						// jaiph-go patch: the declaration's -i is the
						// variable's before its += (declare -i x+=5 of
						// x=4 adds: 9), as bash sets attributes first.
						attrs.Integer = true
					}
					if as.Array != nil && (valType == "-A" || vr.Kind == expand.Associative) {
						// jaiph-go patch: an associative list's values
						// take the declaration's -i/-l/-u as they are
						// bound (assignVal), a new local's no others.
						if local && !r.declSameScope(name, local, global) {
							attrs.Integer, attrs.Lower, attrs.Upper = false, false, false
						}
						attrs = withCaseAttrs(attrs, modes)
					}
					assignName := name
					if n, t := vr.Resolve(r.writeEnv); n != "" && local && !global && as.Array == nil &&
						(valType == "-a" || valType == "-A" || as.Append || valType == "" && !as.Naked && syntax.ValidName(n) && !t.ReadOnly) && as.Index == nil && r.declNewLocal(n, local, global) {
						// jaiph-go patch: through a function's own
						// nameref to a variable of a calling scope, a
						// value is a new local's element (key) 0,
						// which takes nothing of that variable (local
						// -a r=x of r naming a=(1 2) is the local
						// a=(x)), as the list's (expandDeclList); a
						// scalar value a new local's, which takes
						// only the export (local r=1+1 of r naming a
						// declare -i a: the local a=1+1)
						assignName, attrs = n, expand.Variable{}
						if valType == "" && !as.Append {
							attrs.Exported = t.Exported
						}
						if as.Append {
							// += appends to the new, empty local
							// (make_local_variable), as above
							plain := *as
							plain.Append = false
							as = &plain
						}
					}
					var appendIndex syntax.ArithmExpr
					if as.Append && attrs.Integer {
						// jaiph-go patch: the += of an integer is the
						// builtin's arithmetic: its error names it, as
						// bash's this_command_name (declare: 1/0: …).
						outer := r.redirCommand
						r.redirCommand = cm.Variant.Value
						name, vr, appendIndex = r.assignVal(assignName, attrs, as, valType)
						r.redirCommand = outer
					} else {
						name, vr, appendIndex = r.assignVal(assignName, attrs, as, valType)
					}
					if orig.Kind == expand.NameRef && !as.Append && as.Array == nil {
						// jaiph-go patch: through a nameref, the
						// array it names (export r=x of r naming
						// a=(1 2) sets a[0], as bash's bind_variable;
						// a became the scalar x)
						if target := r.lookupVar(name); target.Kind == expand.Indexed || target.Kind == expand.Associative {
							orig = target
						}
					}
					// a+=v on an array gave element 0's value
					// (assignVal), set below as a=v's
					appendElem := appendIndex != nil
					if vr.Kind == expand.String && as.Array == nil && (appendElem || !as.Append && valType == "" && r.declSameScope(name, local, global)) && (orig.Kind == expand.Indexed || orig.Kind == expand.Associative) {
						// jaiph-go patch: as bash's bind_variable, a
						// value given to an array sets its element (key)
						// 0 (export b=y of b=(1 2) keeps b an array).
						s := vr.Str
						vr = orig
						if orig.Kind == expand.Indexed {
							vr.List, vr.Indexes = internal.SetIndexedElem(slices.Clone(orig.List), slices.Clone(orig.Indexes), 0, s)
						} else {
							vr.SetAssoc("0", s)
						}
						vr.Set = true
						elemZero = &s
					} else if (valType == "-a" || valType == "-A") && as.Array == nil && as.Value != nil && !as.Append {
						// declare -ai n=1+2: the value is element
						// (key) 0's (scalarToArray), transformed alone
						s := r.assignWord
						elemZero = &s
					}
				}
			}
			if global {
				vr.Local = false
			} else if local {
				vr.Local = true
			} else {
				// jaiph-go patch: export and readonly (and declare
				// outside a function) act on the variable the name
				// resolves to, a calling function's local included,
				// as a plain assignment does; vr came from lookupVar
				// with that local's flag, which made Set create a new
				// local in the current function instead.
				vr.Local = false
			}
			if !localElem {
				if valType == "-n" && vr.Kind == expand.NameRef {
					// jaiph-go patch: as bash's declare (ksh93's),
					// turning a nameref on turns -i, -l and -u off
					// (declare -l a; declare -n a showed -nl); the
					// declaration's own ones stay.
					vr.Integer, vr.Lower, vr.Upper = false, false, false
				}
				vr = withDeclAttrs(vr, modes, unexport)
			}
			if tracingEnabled {
				if as.Naked || vr.Kind != expand.String && vr.Kind != expand.NameRef {
					traceArgs = append(traceArgs, name)
				} else if appendWord {
					// jaiph-go patch: the word as expanded, x+=v (it
					// showed the value made, x=av)
					traceArgs = append(traceArgs, as.Name.Value+"+="+r.assignWord)
					if cm.Variant.Value == "export" || cm.Variant.Value == "readonly" {
						traceAssigns = append(traceAssigns, as.Name.Value+"+="+traceAssignQuote(r.assignWord))
					}
				} else {
					traceArgs = append(traceArgs, name+"="+vr.Str)
					if cm.Variant.Value == "export" || cm.Variant.Value == "readonly" {
						traceAssigns = append(traceAssigns, name+"="+traceAssignQuote(vr.Str)) // jaiph-go patch: the value quoted, as bash
					}
				}
			}
			if vr.Integer && vr.Local && vr.Kind == expand.String && vr.Set && r.newLocalHere(name) && !r.readonlyHere(name, vr) {
				// jaiph-go patch: bash's make_local_variable comes
				// before the value is evaluated, so a new local's
				// arithmetic sees it, empty (declare -i n="-n" in a
				// function is 0, not minus the caller's n).
				_ = r.writeEnv.Set(name, expand.Variable{Kind: expand.KeepValue, Local: true})
			}
			if v := cm.Variant.Value; name == "PATH" && v != "export" && v != "readonly" {
				r.hashFlush() // jaiph-go patch: declare and local PATH forget the paths, as bash's
			}
			if local && !global {
				// the local bound: through a nameref, the
				// variable it names (see declaredLocal)
				declaredLocal = name
			}
			if err := r.declBind(name, vr, globalEnv, elemZero); err != nil {
				// jaiph-go patch: declare, local and typeset name
				// themselves in the message, as bash's builtins do
				// (export and readonly do not).
				switch v := cm.Variant.Value; {
				case errors.Is(err, errReported):
					// jaiph-go patch: said, and r.exit set, where the
					// value's arithmetic met it (a bad subscript); the
					// sentinel's text was printed
				case r.arithAssignFatal(err, v, &r.exit):
				case errors.Is(err, errReadOnly) && v != "export" && v != "readonly":
					// the name as written: declare v of a nameref v
					// to a readonly A1 says v (export and readonly
					// say A1), but a function's own local nameref to a
					// variable that is not a local of the function is
					// followed first, as bash's declare_internal does
					// (make_local_variable of A1 fails): it says A1
					shown := as.Name.Value
					if nv := r.writeEnv.Get(shown); r.inFunc && nv.Kind == expand.NameRef && nv.Local && nv.Str != "" {
						// unless the variable is a local of this
						// function: make_local_variable returns it,
						// and the assignment's error says the name
						if o, ok := r.writeEnv.(*overlayEnviron); !ok || !o.ownsLocal(nv.Str) {
							shown = nv.Str
						}
					}
					r.errf("%s: %s: %v\n", v, shown, errReadOnly)
					r.exit.code = 1
					// a new local's failure is make_local_variable's
					assignErr = assignErr || !local || global
				default:
					r.errf("%v\n", err)
					r.exit.code = 1
					assignErr = assignErr || errors.Is(err, errReadOnly)
					if errors.Is(err, errReadOnly) {
						// bash's err_readonly (export, readonly):
						// fatal under errexit; export still exports
						// the variable, as bash (export r=2 of a
						// readonly r).
						if v == "export" && !r.errexitOn() {
							ex := r.lookupVar(name)
							ex.Kind, ex.Exported = expand.KeepValue, true
							_ = r.writeEnv.Set(name, ex)
						}
						r.readonlyFailed(&r.exit)
					}
				}
				if r.exit.exiting {
					break assignLoop // the names after it are not assigned
				}
			} else if roElem {
				r.errf("%s: readonly variable\n", name)
				if r.errexitOn() {
					r.exit = exitStatus{code: cmp.Or(r.lastExit.code, 1), exiting: true}
					r.exitTrapInPlace(&r.exit)
					break assignLoop
				}
			}
		}
	case *syntax.TimeClause:
		// jaiph-go patch: `time time cmd` times the pipeline once, as
		// bash's flag on it (with -p if either has it).
		posix, inner := cm.PosixFormat, cm.Stmt
		for inner != nil && !inner.Negated && !inner.Background && len(inner.Redirs) == 0 {
			tc, ok := inner.Cmd.(*syntax.TimeClause)
			if !ok {
				break
			}
			posix, inner = posix || tc.PosixFormat, tc.Stmt
		}
		cm = &syntax.TimeClause{Time: cm.Time, PosixFormat: posix, Stmt: inner}
		start := time.Now()
		if cm.Stmt != nil {
			r.stmt(ctx, cm.Stmt)
		}
		// jaiph-go patch: the report goes to the shell's stderr, as in
		// bash (it was written to stdout, so $(time cmd) captured it).
		if tf := r.lookupVar("TIMEFORMAT"); tf.IsSet() && !cm.PosixFormat {
			r.timeFormat(tf.String(), time.Since(start))
			break
		}
		format := "%s\t%s\n"
		if cm.PosixFormat {
			format = "%s %s\n"
		} else {
			r.errf("\n")
		}
		real := time.Since(start)
		r.errf(format, "real", elapsedString(real, cm.PosixFormat))
		// TODO: can we do these?
		r.errf(format, "user", elapsedString(0, cm.PosixFormat))
		r.errf(format, "sys", elapsedString(0, cm.PosixFormat))
	default:
		// Should only happen if we forgot a case above.
		r.errf("unhandled command node: %T\n", cm)
		r.exit.code = 1
	}
}

// returnTrap runs a RETURN trap as bash does (jaiph-go patch): $? is the
// status before a `return` (or of the last command), errexit applies inside
// it whatever the caller's context, and the returned status is kept unless
// the trap ends the shell.
func (r *Runner) returnTrap(ctx context.Context, cb string) {
	saved := r.exit
	if r.exit.returning {
		r.exit.code = r.statusBeforeReturn
	}
	r.exit.returning = false
	oldNoErrExit := r.noErrExit
	r.noErrExit = r.comsubIgnoreReturn // jaiph-go patch: see comsubIgnoreReturn
	r.trapCallback(ctx, cb, "return")
	r.noErrExit = oldNoErrExit
	if r.exit.exiting {
		return
	}
	r.exit = saved
}

func (r *Runner) trapCallback(ctx context.Context, callback, name string) {
	if callback == "" {
		return // nothing to do
	}
	bit := trapBit(name)
	if r.handlingTraps&bit != 0 {
		return // don't recurse, as that could lead to cycles
	}
	r.handlingTraps |= bit
	defer func() { r.handlingTraps &^= bit }()

	p := syntax.NewParser()
	if r.trapLine > 0 {
		p = syntax.NewParser(syntax.StartLine(r.trapLine)) // jaiph-go patch: see trapLine
	}
	// TODO: do this parsing when "trap" is called?
	file, err := p.Parse(strings.NewReader(callback), name+" trap")
	if err != nil {
		r.errf(name+"trap: %v\n", err)
		// ignore errors in the callback
		return
	}
	oldExit, oldLastExit := r.exit, r.lastExit
	r.lastExit = r.exit
	// jaiph-go patch: bash's trap_saved_exit_value, which `return`
	// without a status gives back anywhere inside the trap
	oldTrapSaved, oldInTrap, oldInExitTrap := r.trapSaved, r.inTrap, r.inExitTrap
	r.trapSaved, r.inTrap, r.inExitTrap = r.exit.code, true, name == "exit"
	defer func() { r.trapSaved, r.inTrap, r.inExitTrap = oldTrapSaved, oldInTrap, oldInExitTrap }()
	// jaiph-go patch: run the trap with a clear status, and let `exit` in
	// it end the shell with its status, as bash does.
	r.exit = exitStatus{}
	// jaiph-go patch: as bash's _run_trap_internal and run_error_trap,
	// PIPESTATUS is the interrupted command's again after the trap
	// (trap 'true | false' ERR; false | false leaves 1 1).
	pipeStatus := r.writeEnv.Get("PIPESTATUS")
	r.stmts(ctx, file.Stmts)
	if r.exit.exiting || r.exit.returning && r.inFunc {
		return // and `return` in a trap run inside a function returns from it
	}
	if pipeStatus.IsSet() {
		r.writeEnv.Set("PIPESTATUS", pipeStatus)
	}
	r.exit, r.lastExit = oldExit, oldLastExit // traps on EXIT or ERR should not modify the result
}

// trapBit is a trap's bit in [Runner.handlingTraps]: signal traps share one.
func trapBit(name string) uint8 {
	switch name {
	case "exit":
		return 1
	case "error":
		return 2
	case "return":
		return 4
	}
	return 8
}

// declArrayValue is as with its value expanded once: a compound
// assignment when the value is "(…)" (parsed as bash re-reads it), else
// the value as a quoted word.
func (r *Runner) declArrayValue(as *syntax.Assign) *syntax.Assign {
	val := r.literal(as.Value)
	plain := *as
	plain.Value = &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Value: val}}}
	if len(val) >= 2 && val[0] == '(' && val[len(val)-1] == ')' {
		f, err := syntax.NewParser().Parse(strings.NewReader("x="+val), "")
		if err == nil && len(f.Stmts) == 1 {
			if cm, ok := f.Stmts[0].Cmd.(*syntax.CallExpr); ok && len(cm.Args) == 0 && len(cm.Assigns) == 1 && cm.Assigns[0].Array != nil {
				plain.Value, plain.Array = nil, cm.Assigns[0].Array
			}
		}
	}
	return &plain
}

func (r *Runner) flattenAssigns(args []*syntax.Assign) iter.Seq[*syntax.Assign] {
	return func(yield func(*syntax.Assign) bool) {
		for _, as := range args {
			// Convert "declare $x" into "declare value".
			// Don't use syntax.Parser here, as we only want the basic
			// splitting by '='.
			if as.Name != nil {
				if !yield(as) {
					return
				}
				continue
			}
			for _, field := range r.fields(as.Value) {
				as := &syntax.Assign{}
				name, val, ok := strings.Cut(field, "=")
				if n, plus := strings.CutSuffix(name, "+"); ok && plus && syntax.ValidName(n) {
					// jaiph-go patch: declare "x+=v" appends, as bash
					// (typeset s${dyn}+=v was an invalid name).
					name, as.Append = n, true
				}
				elem, plus := name, false
				if ok {
					elem, plus = strings.CutSuffix(name, "+")
				}
				if i := strings.IndexByte(elem, '['); i > 0 && strings.HasSuffix(elem, "]") && syntax.ValidName(elem[:i]) {
					// jaiph-go patch: an element made by an expansion
					// (declare "x[$i]=v", local 'y'[2]+=w) is one, as in
					// bash: the subscript text is evaluated as written
					// ("1+1") or taken as the key of an associative array.
					as.Index = &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: elem[i+1 : len(elem)-1]}}}
					name, as.Append = elem[:i], plus
				}
				as.Name = &syntax.Lit{Value: name}
				if !ok {
					as.Naked = true
				} else {
					// jaiph-go patch: the value is already expanded, so
					// it is quoted to keep its backslashes (unquoted
					// literals now lose them, as in bash).
					as.Value = &syntax.Word{Parts: []syntax.WordPart{
						&syntax.SglQuoted{Value: val},
					}}
				}
				if !yield(as) {
					return
				}
			}
		}
	}
}

// expandDeclArgs expands the words of a declaration builtin (names made by
// expansions split into several, values expanded as assignments' are, each
// kept as a single-quoted word); list values are left to the assignment.
func (r *Runner) expandDeclArgs(variant string, args []*syntax.Assign) []*syntax.Assign {
	var out []*syntax.Assign
	for as := range r.flattenAssigns(args) {
		if w := braceDeclWord(as); w != nil {
			// jaiph-go patch: a declaration builtin's word with a brace
			// expansion is expanded as any word is, as in bash (braces,
			// then splitting and globbing, no tilde after the `=`), and
			// each field is an argument: `local v={a,b}` is `local v=a
			// v=b`. A plain assignment's value is not brace-expanded.
			out = slices.AppendSeq(out, r.flattenAssigns([]*syntax.Assign{{Value: w}}))
			continue
		}
		if as.Value != nil && as.Array == nil {
			var val string
			var err error
			// jaiph-go patch: a declaration builtin's argument
			// (expand.Config.DeclArg)
			r.ecfg.DeclArg = true
			if as.Append && as.Index != nil {
				val, err = expand.JoinedLiteral(r.ecfg, as.Value)
			} else {
				val, err = expand.AssignLiteral(r.ecfg, as.Value)
			}
			r.ecfg.DeclArg = false
			r.expandErr(err)
			as2 := *as
			as2.Value = &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{
				Left: as.Value.Pos(), Right: as.Value.End(), Value: val,
			}}}
			as = &as2
		} else if as.Array != nil {
			// jaiph-go patch: a list value's words too, before the
			// redirections (`declare -a a=($(f)) 2>/dev/null` keeps f's
			// stderr), each element's subscript and value in turn, as
			// bash's expansion of a declaration's words.
			as2 := *as
			as2.Array = r.expandDeclList(variant, as, out)
			as = &as2
		}
		out = append(out, as)
	}
	return out
}

// declListAttrs are the attributes a declaration's list value takes as
// its elements are bound (jaiph-go patch): an integer array's values are
// evaluated then, with declare -i or the variable's own attribute (not a
// calling scope's, under a new local); -l and -u change the new values'
// case alone.
func (r *Runner) declListAttrs(variant string, as *syntax.Assign, before []*syntax.Assign, prev expand.Variable) expand.Variable {
	local := r.declLocal(variant, before)
	removed := func(flag string) bool {
		return slices.ContainsFunc(before, func(a *syntax.Assign) bool {
			return a.Naked && strings.HasPrefix(a.Name.Value, "+") && strings.Contains(a.Name.Value, flag)
		})
	}
	own := !local || r.declSameScope(as.Name.Value, local, false)
	var attrs expand.Variable
	attrs.Integer = !removed("i") && (declFlag(before, "i") || prev.Integer && own)
	if lower, upper := declFlag(before, "l"), declFlag(before, "u"); lower || upper {
		attrs.Lower, attrs.Upper = lower && !upper, upper && !lower
	} else if own {
		attrs.Lower, attrs.Upper = prev.Lower && !removed("l"), prev.Upper && !removed("u")
	}
	return attrs
}

// expandDeclList expands the elements of as's list value (a declaration's
// word, after the flags in before) into an equal list of quoted literals,
// with an indexed list's subscripts evaluated, and traces it as bash does
// (`+ a=('1' 'x y')`, `+ m=(['k']='v')`).
func (r *Runner) expandDeclList(variant string, as *syntax.Assign, before []*syntax.Assign) *syntax.ArrayExpr {
	elems := as.Array.Elems
	prev := r.lookupVar(as.Name.Value)
	if local := r.declLocal(variant, before); prev.Kind == expand.NameRef && r.declNewLocal(as.Name.Value, local, false) {
		// jaiph-go patch: a calling scope's nameref is not followed:
		// bash's internal declaration first makes a new local of the
		// name, whose list this is (declare -ai r=(1+1) is (2), even
		// where r names an associative local).
		prev = expand.Variable{}
	} else if n, v := prev.Resolve(r.writeEnv); n != "" {
		prev = v
		if r.declNewLocal(n, local, false) {
			// jaiph-go patch: through a function's own nameref to
			// a variable of a calling scope, the list is a new
			// local's, which takes nothing of that variable (not
			// its kind, -i or elements)
			prev = expand.Variable{}
		}
	}
	if local := r.declLocal(variant, before); as.Append && r.declNewLocal(as.Name.Value, local, false) {
		// jaiph-go patch: a function's declare/local name+=(…) of a
		// variable not yet its local appends to a new, empty local,
		// as bash's make_local_variable.
		prev = expand.Variable{}
	}
	assoc := assocDecl(before) || prev.Kind == expand.Associative
	quoted := func(s string, at syntax.Node) *syntax.Word {
		return &syntax.Word{Parts: []syntax.WordPart{&syntax.SglQuoted{Left: at.Pos(), Right: at.End(), Value: s}}}
	}
	var traced []string
	arr := &syntax.ArrayExpr{Lparen: as.Array.Lparen, Rparen: as.Array.Rparen}
	attrs := r.declListAttrs(variant, as, before, prev)
	if assoc {
		// a first word without a subscript makes the words key-value
		// pairs (bash 5.1+), a later [k]=v word's text included
		subscripted := len(elems) > 0 && elems[0].Index != nil
		var unsubscripted []*syntax.Word
		for _, e := range elems {
			if r.exit.exiting {
				break
			}
			switch {
			case subscripted && e.Index != nil:
				k, err := expand.AssocKeyRaw(r.ecfg, e.Index, e.IndexRaw)
				r.expandErr(err)
				if r.exit.exiting {
					break
				}
				var val string
				if e.Value != nil {
					val = r.assocListLiteral(e.Value)
				}
				if attrs.Integer && prev.Kind != expand.Indexed && !(prev.Kind == expand.Associative && declFlag(before, "a")) {
					// evaluated as it is bound, while the words
					// expand (before the redirections), as the
					// indexed list's in placeList (a conversion,
					// declare -A of an indexed array or -a of an
					// associative one, fails first: nothing is
					// bound)
					s, err := r.attrValue(attrs, val)
					if err != nil {
						r.expandErr(intValueError{err})
						r.exit.expDiscard = false
						break
					}
					val = s
				}
				arr.Elems = append(arr.Elems, &syntax.ArrayElem{Index: quoted(k, e.Index), Value: quoted(val, e.Index)})
				traced = append(traced, "["+singleQuote(k)+"]="+singleQuote(val))
			case subscripted:
				// A word without a subscript among ones with is left
				// out, unexpanded, with bash's warning naming it as
				// written, once the others are expanded.
				unsubscripted = append(unsubscripted, e.Value)
			default:
				// Key-value words (A=(k v)): each is one word.
				val := r.assocPairWord(e)
				arr.Elems = append(arr.Elems, &syntax.ArrayElem{Value: quoted(val, e)})
				traced = append(traced, singleQuote(val))
			}
		}
		for _, w := range unsubscripted {
			if r.exit.exiting {
				break
			}
			r.reportError(fmt.Errorf("%s: '%s': must use subscript when assigning associative array", as.Name.Value, printNode(w)))
		}
	} else {
		// Every word is expanded, then the subscripts are evaluated and
		// the values placed as the assignment will (placeList): what it
		// is given has every index explicit and in range.
		words := r.listWords(elems)
		for _, w := range words {
			if w.explicit {
				traced = append(traced, "["+singleQuote(w.text)+"]="+singleQuote(w.vals[0]))
				continue
			}
			for _, v := range w.vals {
				traced = append(traced, singleQuote(v))
			}
		}
		var base []string
		var baseIndexes []int
		if as.Append {
			switch prev.Kind {
			case expand.Indexed:
				base, baseIndexes = slices.Clone(prev.List), slices.Clone(prev.Indexes)
			case expand.String:
				// In a function, declare/local name+=(…) of a scalar
				// assigns the list alone (see the assignment).
				local := r.declLocal(variant, before)
				if prev.IsSet() && !local {
					base = []string{prev.Str}
				}
			}
		}
		if !r.exit.exiting {
			_, _, placed := r.placeList(words, base, baseIndexes, r.declListShow(variant, as, before, prev), attrs)
			for _, p := range placed {
				arr.Elems = append(arr.Elems, &syntax.ArrayElem{Index: indexLiteral(p.index), Value: quoted(p.val, as.Array)})
			}
		}
	}
	if t := r.tracer(); t != nil && !r.exit.exiting {
		op := "="
		if as.Append {
			op = "+="
		}
		t.string(as.Name.Value + op + "(" + strings.Join(traced, " ") + ")")
		t.newLineFlush()
	}
	return arr
}

// declBind is setVarErr for a declaration, into globalEnv when that is
// not nil (declare -g in a function): a string value is transformed by
// its declare -i/-l/-u where the function sees its locals, as bash's
// make_variable_value, then bound (jaiph-go patch). elemZero, when not
// nil, is the value given to an array's element (key) 0, transformed
// alone; a list's elements were transformed as they were placed
// (placeList), the others are as they were.
func (r *Runner) declBind(name string, vr expand.Variable, globalEnv *overlayEnviron, elemZero *string) error {
	if globalEnv == nil && elemZero == nil {
		return r.setVarErr(name, vr)
	}
	inTarget := func(f func()) {
		if globalEnv != nil {
			saved := r.writeEnv
			defer func() { r.writeEnv = saved }()
			r.writeEnv = globalEnv
		}
		f()
	}
	var readonly bool
	inTarget(func() { readonly = r.readonlyHere(name, vr) })
	bind := func(vr expand.Variable) (err error) {
		inTarget(func() { err = r.bindValue(name, vr) })
		return err
	}
	if readonly {
		return bind(vr) // refused before it is evaluated
	}
	var err error
	switch {
	case elemZero != nil:
		var v string
		if v, err = r.attrValue(vr, *elemZero); err != nil {
			return err
		}
		if vr.Kind == expand.Indexed {
			vr.List, vr.Indexes = internal.SetIndexedElem(vr.List, vr.Indexes, 0, v)
		} else {
			vr.SetAssoc("0", v)
		}
	case vr.Kind == expand.String && vr.Set:
		r.whileBinding(name, func() { vr.Str, err = r.attrValue(vr, vr.Str) })
		if err != nil {
			return err
		}
	}
	return bind(vr)
}

// declGlobalArrayUnderLocal is declare -g NAME=v in a function where the
// global NAME is an indexed array, or declare -ga NAME=v where it is no
// associative one, and a function's local NAME is visible (jaiph-go
// patch), as bash: its bind_array_variable sets element 0 of
// the visible variable, the local, which becomes an indexed array (a
// scalar's value its element 0, an associative array's lost) and
// transforms the value by its own -i/-l/-u; the global takes the
// declaration's attributes alone (with -a, made an indexed array).
func (r *Runner) declGlobalArrayUnderLocal(variant, name string, local expand.Variable, as *syntax.Assign, global *overlayEnviron, modes []string, unexport bool) {
	val, err := expand.AssignLiteral(r.ecfg, as.Value)
	r.expandErr(err)
	if !r.exit.ok() {
		return
	}
	r.assignWord = val
	target := name
	if n, t := local.Resolve(r.writeEnv); n != "" {
		// the local is a nameref: the value goes to the variable it
		// names (the global takes the attributes alone all the same)
		target, local = n, t
	}
	var list []string
	var indexes []int
	switch local.Kind {
	case expand.String:
		if local.IsSet() {
			list = []string{local.Str}
		}
	case expand.Indexed:
		list, indexes = slices.Clone(local.List), slices.Clone(local.Indexes)
	}
	if as.Append {
		old, _ := expand.Variable{Kind: expand.Indexed, List: list, Indexes: indexes}.IndexedValue(0)
		if local.Integer {
			val, err = r.integerAppend(old, val)
		} else {
			val = old + val
		}
	}
	if err == nil {
		val, err = r.attrValue(local, val)
	}
	if err != nil {
		if !r.arithAssignFatal(err, variant, &r.exit) { // named as bash's builtin
			r.setVarFailed(err)
		}
		return
	}
	local.Kind, local.Set, local.Str, local.Map, local.MapSeq = expand.Indexed, true, "", nil, nil
	local.List, local.Indexes = internal.SetIndexedElem(list, indexes, 0, val)
	local.Local = false // the visible local is the one written
	r.setVar(target, local)
	g := global.Get(name)
	if g.Kind != expand.Indexed {
		// declare -ga: the global becomes an indexed array first, a
		// scalar's value its element 0, an unset name an empty one
		list := []string{}
		if g.Kind == expand.String && g.IsSet() {
			list = []string{g.Str}
		}
		g.Kind, g.Set, g.Str, g.List, g.Indexes = expand.Indexed, true, "", list, nil
	}
	_ = global.Set(name, withDeclAttrs(g, modes, unexport))
}

// withDeclAttrs is vr with the attributes a declaration's modes give
// (jaiph-go patch); unexport: +x.
func withDeclAttrs(vr expand.Variable, modes []string, unexport bool) expand.Variable {
	for _, mode := range modes {
		switch mode {
		case "-x":
			vr.Exported = true
		case "-r":
			vr.ReadOnly = true
		}
	}
	if unexport {
		vr.Exported = false
	}
	return withCaseAttrs(vr, modes)
}

// declGlobalArray makes the global name, in g, an array with the
// attributes of a declaration's modes, as bash's declare -g NAME[SUB]=v
// does before it assigns the element to the variable it sees (jaiph-go
// patch): a scalar becomes element 0, an unset variable an empty array.
func declGlobalArray(g *overlayEnviron, name, valType string, modes []string) {
	gv := g.Get(name)
	if gv.Kind != expand.Indexed && gv.Kind != expand.Associative {
		var list []string
		if gv.Kind == expand.String && gv.IsSet() {
			list = []string{gv.Str}
		}
		if valType == "-A" {
			gv.Kind, gv.Map, gv.MapSeq = expand.Associative, map[string]string{}, map[string]uint64{}
			for _, s := range list {
				gv.SetAssoc("0", s)
			}
		} else {
			gv.Kind, gv.List, gv.Indexes = expand.Indexed, append([]string{}, list...), nil
		}
		gv.Str = ""
	}
	gv.Set, gv.Local = true, false
	_ = g.Set(name, withDeclAttrs(gv, modes, false))
}

// withCaseAttrs is vr with the -i, -l and -u among a declaration's modes
// (jaiph-go patch); as in bash, -l and -u together cancel out.
func withCaseAttrs(vr expand.Variable, modes []string) expand.Variable {
	lower, upper := false, false
	for _, mode := range modes {
		switch mode {
		case "-i":
			vr.Integer = true
		case "-l":
			lower = true
		case "-u":
			upper = true
		}
	}
	if lower || upper {
		vr.Lower, vr.Upper = lower && !upper, upper && !lower
	}
	return vr
}

// declListShow makes the array a declaration's list has placed so far the
// variable's value before a subscript that may read it is evaluated, as
// bash's assign_array_var_from_string binds each element in turn
// (jaiph-go patch: `declare -a b=([0]=6 [b[0]]=x)` sets b[6]; see
// placeList). A declaration of a new local shows a new local. Nil for a
// readonly variable or a nameref (the declaration fails or goes through
// it).
func (r *Runner) declListShow(variant string, as *syntax.Assign, before []*syntax.Assign, prev expand.Variable) func([]string, []int) {
	name := as.Name.Value
	local := r.declLocal(variant, before)
	if r.lookupVar(name).Kind == expand.NameRef && r.declNewLocal(name, local, false) {
		// jaiph-go patch: a calling scope's nameref is not followed,
		// the list is a new local's (see expandDeclList)
		prev = expand.Variable{Local: true}
	} else if n, _ := r.lookupVar(name).Resolve(r.writeEnv); n != "" {
		name = n
	}
	if local && !r.declSameScope(name, local, false) {
		prev = expand.Variable{Local: true}
	}
	if prev.ReadOnly || prev.Kind == expand.NameRef || declFlag(before, "n") {
		return nil
	}
	return func(list []string, indexes []int) {
		// unset until an element is placed, as in bash (set -u)
		cur := prev
		cur.Kind, cur.Set = expand.Indexed, prev.IsSet() || len(list) > 0
		cur.List, cur.Indexes = slices.Clone(list), slices.Clone(indexes)
		if list == nil {
			cur.List = []string{}
		}
		cur.Local = cur.Local || local
		r.setVar(name, cur)
	}
}

// indexLiteral is an arithmetic expression for the number i, negative ones
// too (a literal word "-1" is not a number to the arithmetic).
func indexLiteral(i int) syntax.ArithmExpr {
	lit := func(n int) *syntax.Word {
		return &syntax.Word{Parts: []syntax.WordPart{&syntax.Lit{Value: strconv.Itoa(n)}}}
	}
	if i < 0 {
		return &syntax.UnaryArithm{Op: syntax.Minus, X: lit(-i)}
	}
	return lit(i)
}

// singleQuote quotes s in single quotes whatever it holds, as bash's
// xtrace prints the elements of a list value.
func singleQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// braceDeclWord is the word `name=value` (`name+=value`) of a declaration
// builtin's assignment whose value holds a brace expansion, or nil.
func braceDeclWord(as *syntax.Assign) *syntax.Word {
	if as.Name == nil || as.Naked || as.Value == nil || as.Array != nil || as.Index != nil {
		return nil
	}
	if w := *as.Value; !syntax.SplitBraces(&w) {
		return nil
	}
	op := "="
	if as.Append {
		op = "+="
	}
	name := &syntax.Lit{ValuePos: as.Name.Pos(), ValueEnd: as.Value.Pos(), Value: as.Name.Value + op}
	return &syntax.Word{Parts: append([]syntax.WordPart{name}, as.Value.Parts...)}
}

// assocDecl says the declaration's flags so far make an associative array
// (-A, alone or among others).
func assocDecl(args []*syntax.Assign) bool { return declFlag(args, "A") }

// declFlag says the declaration's flags so far hold the letter flag.
func declFlag(args []*syntax.Assign, flag string) bool {
	for _, as := range args {
		if v := as.Name.Value; as.Naked && strings.HasPrefix(v, "-") && strings.Contains(v, flag) {
			return true
		}
	}
	return false
}

// letArgString reproduces one expression of a let clause as bash would print it
// when tracing, that is, as the single quoted word that bash's let receives.
func (r *Runner) letArgString(printer *syntax.Printer, expr syntax.ArithmExpr) string {
	if word, ok := expr.(*syntax.Word); ok {
		return quoteBash(r.literal(word))
	}
	// The printer only prints an arithmetic expression as part of a parent node,
	// so print a let clause holding just this expression and drop the keyword.
	// The keyword borrows the expression's position to stay on the same line.
	// TODO: drop this workaround if [syntax.Printer.Print] learns to print
	// an arithmetic expression on its own.
	var sb strings.Builder
	if err := printer.Print(&sb, &syntax.LetClause{
		Let:   expr.Pos(),
		Exprs: []syntax.ArithmExpr{expr},
	}); err != nil { // should never happen
		panic(err)
	}
	return strings.TrimPrefix(sb.String(), "let ")
}

// match reports whether name matches pat; extGlob is off for a case
// pattern without shopt -s extglob (bash's [[ ]] always has it).
func (r *Runner) match(pat, name string, extGlob bool) bool {
	mode := pattern.EntireString
	if extGlob {
		mode |= pattern.ExtendedOperators
	}
	if r.opts[optNoCaseMatch] {
		mode |= pattern.NoGlobCase // jaiph-go patch: "shopt -s nocasematch" for case and [[ ]]
	}
	if n := len(pat) - len(strings.TrimRight(pat, `\`)); n%2 == 1 {
		// jaiph-go patch: a backslash ending the pattern is a literal
		// one (bash's strmatch: [[ '\' == $bs ]] with bs='\')
		pat += `\`
	}
	matcher, err := internal.ExtendedPatternMatcher(pat, mode, r.ecfg.Done)
	if err != nil {
		// A malformed pattern simply does not match, like in bash.
		// Any other error, such as an unsupported extended pattern, is reported.
		if _, ok := errors.AsType[*pattern.SyntaxError](err); !ok {
			r.expandErr(err)
		}
		return false
	}
	matched := matcher(name)
	if err := r.ectx.Err(); err != nil {
		// jaiph-go patch: the match gave up (see expand.Config.Done);
		// nothing more runs, as in bash.
		r.exit.fatal(err)
		return false
	}
	return matched
}

// timeFormat prints the report of `time` as TIMEFORMAT says (jaiph-go
// patch: TIMEFORMAT was ignored): %% is %, %[p][l]R, U and S the real, user
// and system times with p decimals (default 3; l: minutes too), %[p]P the
// CPU percentage; a newline ends a non-empty report. User and system times
// are 0 (as in the default report). An invalid character after % is bash's
// warning and no report.
func (r *Runner) timeFormat(tf string, real time.Duration) {
	if tf == "" {
		return
	}
	var sb strings.Builder
	for i := 0; i < len(tf); i++ {
		if tf[i] != '%' {
			sb.WriteByte(tf[i])
			continue
		}
		if i+1 >= len(tf) {
			sb.WriteByte('%')
			break
		}
		i++
		if tf[i] == '%' {
			sb.WriteByte('%')
			continue
		}
		prec, long := 3, false
		if tf[i] >= '0' && tf[i] <= '9' {
			prec = min(int(tf[i]-'0'), 3)
			i++
		}
		if i < len(tf) && tf[i] == 'l' {
			long = true
			i++
		}
		if i >= len(tf) { // bash shows the string's terminating NUL
			r.errf("TIMEFORMAT: `\x00': invalid format character\n")
			return
		}
		var d time.Duration
		switch tf[i] {
		case 'R':
			d = real
		case 'U', 'S':
		case 'P':
			sb.WriteString(strconv.FormatFloat(0, 'f', 2, 64))
			continue
		default:
			r.errf("TIMEFORMAT: `%c': invalid format character\n", tf[i])
			return
		}
		secs := d.Seconds()
		if long {
			mins := int(secs / 60)
			fmt.Fprintf(&sb, "%dm", mins)
			secs -= float64(mins * 60)
			sb.WriteString(strconv.FormatFloat(secs, 'f', prec, 64))
			sb.WriteByte('s')
		} else {
			sb.WriteString(strconv.FormatFloat(secs, 'f', prec, 64))
		}
	}
	r.errf("%s\n", sb.String())
}

func elapsedString(d time.Duration, posix bool) string {
	if posix {
		return fmt.Sprintf("%.2f", d.Seconds())
	}
	mins := int(d.Minutes())
	sec := math.Mod(d.Seconds(), 60.0)
	return fmt.Sprintf("%dm%.3fs", mins, sec)
}

func (r *Runner) stmts(ctx context.Context, stmts []*syntax.Stmt) {
	for _, stmt := range stmts {
		r.stmt(ctx, stmt)
	}
}

func (r *Runner) hdocReader(rd *syntax.Redirect) (stdinFile, error) {
	pr, pw, err := newPipe()
	if err != nil {
		return nil, err
	}
	hdoc := r.hdocString(rd)
	// We write to the pipe in a new goroutine,
	// as pipe writes may block once the buffer gets full.
	// We still construct and buffer the entire heredoc first,
	// as doing it concurrently would lead to different semantics and be racy.
	if len(hdoc) <= 4096 {
		// jaiph-go patch: a small document fits in the pipe buffer, so
		// write it now, as bash has it ready before the command starts
		// (read -t 0 sees it).
		io.WriteString(pw, hdoc)
		pw.Close()
		return pr, nil
	}
	go func() {
		io.WriteString(pw, hdoc)
		pw.Close()
	}()
	return pr, nil
}

// hdocQuotedDelim reports whether a here-document delimiter word is quoted,
// as in "<<'EOF'" or "<<\EOF", which makes its body literal.
func hdocQuotedDelim(word *syntax.Word) bool {
	for _, wp := range word.Parts {
		switch wp := wp.(type) {
		case *syntax.Lit:
			if strings.Contains(wp.Value, "\\") {
				return true
			}
		case *syntax.SglQuoted, *syntax.DblQuoted:
			return true
		}
	}
	return false
}

// hdocWord returns a here-document body, or one of its lines, as a string.
// A quoted delimiter, as in "<<'EOF'", makes the body literal,
// in which case the parser only gives us literal parts.
// Note that a partly quoted delimiter, such as "<<'A'B",
// is not spotted by the parser either, so we still expand its body.
func (r *Runner) hdocWord(word *syntax.Word, quoted bool) string {
	if quoted {
		if lit := word.Lit(); lit != "" {
			return lit
		}
	}
	return r.document(word)
}

// hdocString returns the body of a here-document as a string.
func (r *Runner) hdocString(rd *syntax.Redirect) string {
	if rd.Hdoc == nil {
		return "" // an empty here-document
	}
	quoted := hdocQuotedDelim(rd.Word)
	if rd.Op != syntax.DashHdoc {
		return r.hdocWord(rd.Hdoc, quoted)
	}
	// Strip the leading tabs from each line. jaiph-go patch: a line is
	// kept when it expands to nothing (bash keeps it empty; the newline
	// was written only after a non-empty text), and only tabs that start
	// a line are stripped ("$u\tx" keeps its tab).
	var buf strings.Builder
	var cur []syntax.WordPart
	lines := 0
	flushLine := func() {
		if lines > 0 {
			buf.WriteByte('\n')
		}
		lines++
		if !r.exit.exiting { // an error in a line ends the expansion, as the body's one word
			buf.WriteString(r.hdocWord(&syntax.Word{Parts: cur}, quoted))
		}
		cur = cur[:0]
	}
	for _, wp := range rd.Hdoc.Parts {
		lit, ok := wp.(*syntax.Lit)
		if !ok {
			cur = append(cur, wp)
			continue
		}
		first := true
		for part := range strings.SplitSeq(lit.Value, "\n") {
			if !first {
				flushLine()
			}
			first = false
			if len(cur) == 0 {
				part = strings.TrimLeft(part, "\t")
			}
			cur = append(cur, &syntax.Lit{Value: part})
		}
	}
	flushLine()
	return buf.String()
}

func (r *Runner) redir(ctx context.Context, rd *syntax.Redirect) (cl io.Closer, err error) {
	// jaiph-go patch: redirections work on any file descriptor number, as
	// in bash: 3>file, 3<file, 3>>file, 3<>file, {var}>file, N>&M, N<&M,
	// N>&- and N<&-; descriptors 3 and up live in r.fds, which external
	// commands receive through [HandlerContext.ExtraFiles]. Upstream only
	// knew 0, 1 and 2, with M limited to 1, 2 and "-".
	// Note that Hdoc is nil for an empty here-document. Its body is
	// expanded before a {var} descriptor is allocated, as in bash.
	var hdoc stdinFile
	if rd.Op == syntax.Hdoc || rd.Op == syntax.DashHdoc {
		pr, err := r.hdocReader(rd)
		if err != nil {
			return nil, err
		}
		hdoc = pr
	}
	n := 1
	switch rd.Op {
	case syntax.RdrIn, syntax.DplIn, syntax.RdrInOut, syntax.WordHdoc, syntax.Hdoc, syntax.DashHdoc:
		n = 0
	}
	closing := (rd.Op == syntax.DplIn || rd.Op == syntax.DplOut) && rd.Word != nil && rd.Word.Lit() == "-"
	if rd.N != nil {
		if name, ok := strings.CutPrefix(rd.N.Value, "{"); ok {
			name = strings.TrimSuffix(name, "}")
			if closing {
				// jaiph-go patch: as bash's redir_varvalue, an unset
				// or empty variable is an ambiguous redirect named
				// after it; a value that is no number is descriptor
				// 0 (legal_number's result), closed as it is.
				val := r.envGet(name)
				if val == "" {
					return nil, fmt.Errorf("%s: ambiguous redirect", name)
				}
				fd, err := strconv.Atoi(strings.TrimSpace(val))
				if err != nil {
					fd = 0
				}
				n = fd
			} else {
				n = 10
				for r.fds[n] != nil {
					n++
				}
				if r.lookupVar(name).ReadOnly {
					// jaiph-go patch: as bash, the file is opened,
					// the variable refuses the descriptor, which is
					// closed, and the redirection fails.
					r.errf("%s: readonly variable\n", name)
					fd := n
					defer func() {
						if err == nil {
							r.setFd(fd, nil)
							if cl != nil {
								cl.Close()
							}
							cl, err = nil, fmt.Errorf("%s: cannot assign fd to variable", name)
						}
					}()
				} else {
					r.setVarString(name, strconv.Itoa(n))
				}
			}
		} else {
			fd, err := strconv.Atoi(rd.N.Value)
			if err != nil {
				if hdoc != nil {
					hdoc.Close()
				}
				return nil, fmt.Errorf("unsupported redirect fd: %v", rd.N.Value)
			}
			n = fd
		}
	}
	if hdoc != nil {
		// jaiph-go patch: the document goes to the descriptor the
		// redirection names (3<<EOF), as in bash; it always went to stdin.
		r.setFd(n, &fdEntry{r: hdoc})
		return hdoc, nil
	}
	arg, err := r.redirWord(rd) // jaiph-go patch: bash's "ambiguous redirect"
	if err != nil {
		return nil, err
	}
	open := arg // jaiph-go patch: what is opened, when not the word (jaiph_devfd.go)
	if fd, ok := devFdNumber(arg); ok && opensFile(rd.Op) {
		path, done, err := r.devFdOpen(rd, n, fd, arg)
		if done || err != nil {
			return nil, err
		}
		open = path
	}
	switch rd.Op {
	case syntax.WordHdoc:
		pr, pw, err := newPipe()
		if err != nil {
			return nil, err
		}
		r.setFd(n, &fdEntry{r: pr})
		if len(arg) < 4096 {
			// jaiph-go patch: small enough for the pipe buffer, so
			// ready before the command starts, as in bash.
			io.WriteString(pw, arg+"\n")
			pw.Close()
			return pr, nil
		}
		// We write to the pipe in a new goroutine,
		// as pipe writes may block once the buffer gets full.
		go func() {
			io.WriteString(pw, arg)
			io.WriteString(pw, "\n")
			pw.Close()
		}()
		return pr, nil
	case syntax.DplOut, syntax.DplIn:
		if arg == "-" {
			r.setFd(n, nil)
			return nil, nil
		}
		move := false
		if d, ok := strings.CutSuffix(arg, "-"); ok && d != "" && strings.Trim(d, "0123456789") == "" {
			// jaiph-go patch: N>&M- moves descriptor M to N (dup, then
			// close M), as in bash.
			arg, move = d, true
		}
		m, err := strconv.Atoi(arg)
		if err != nil || m < 0 {
			if rd.Op == syntax.DplOut && n == 1 && (rd.N == nil || rd.N.Value == "1") {
				// >&file is &>file; jaiph-go patch: 1>&file too,
				// as in bash.
				break
			}
			return nil, fmt.Errorf("%s: ambiguous redirect", redirErrName(rd, arg))
		}
		if m == n {
			// jaiph-go patch: N>&N and N>&N- change nothing, open
			// or not, as in bash (no dup2 is made).
			return nil, nil
		}
		// jaiph-go patch: bash dups whatever M is open for (1<&2 is
		// dup2(2, 1)); a write to a descriptor open for reading fails
		// when it is made. The error names the word as written ($fd);
		// a move's is bash's two lines, the second naming N.
		e := r.getFd(m)
		if e == nil {
			if move {
				return nil, fmt.Errorf("redirection error: cannot duplicate fd: Bad file descriptor\n%d: Bad file descriptor", n)
			}
			var sb strings.Builder
			newWordPrinter().Print(&sb, rd.Word)
			return nil, fmt.Errorf("%s: Bad file descriptor", sb.String())
		}
		if rd.Op == syntax.DplIn {
			in := e.r
			if f, ok := e.w.(*os.File); ok && in == nil {
				// jaiph-go patch: bash dups a descriptor open for
				// writing as input too: reading it fails (cat <&3
				// after 3>f: "cat: -: Bad file descriptor")
				in = f
			}
			e = &fdEntry{r: in, w: e.w, own: e.own}
		}
		r.setFd(n, e)
		if move && m != n {
			r.setFd(m, nil)
		}
		return nil, nil
	case syntax.RdrIn, syntax.RdrOut, syntax.AppOut, syntax.ClbOut, syntax.RdrInOut,
		syntax.RdrAll, syntax.AppAll:
		// done further below
	default:
		return nil, fmt.Errorf("unhandled redirect op: %v", rd.Op)
	}
	mode := os.O_RDONLY
	switch rd.Op {
	case syntax.AppOut, syntax.AppAll:
		mode = os.O_WRONLY | os.O_CREATE | os.O_APPEND
	case syntax.RdrOut, syntax.RdrAll, syntax.DplOut, syntax.ClbOut:
		mode = os.O_WRONLY | os.O_CREATE | os.O_TRUNC
		if r.opts[optNoClobber] && rd.Op != syntax.ClbOut {
			// jaiph-go patch: set -C refuses to truncate an
			// existing regular file; >| overrides it.
			if info, err := r.stat(ctx, open); err == nil && info.Mode().IsRegular() {
				return nil, fmt.Errorf("%s: cannot overwrite existing file", redirErrName(rd, arg))
			}
		}
	case syntax.RdrInOut:
		mode = os.O_RDWR | os.O_CREATE
	}
	f, err := r.open(ctx, open, mode, 0o644, false)
	if err != nil {
		return nil, redirOpenError(arg, err) // jaiph-go patch: bash's text
	}
	switch rd.Op {
	case syntax.RdrIn:
		stdin, err := newStdinFile(f)
		if err != nil {
			return nil, err
		}
		r.setFd(n, &fdEntry{r: stdin, own: f})
	case syntax.RdrInOut:
		stdin, err := newStdinFile(f)
		if err != nil {
			return nil, err
		}
		r.setFd(n, &fdEntry{r: stdin, w: f, own: f})
	case syntax.RdrOut, syntax.AppOut, syntax.ClbOut:
		r.setFd(n, &fdEntry{w: f, own: f})
	case syntax.RdrAll, syntax.AppAll, syntax.DplOut:
		r.stdout = f
		r.stderr = f
	}
	return f, nil
}

// fdEntry is an open file descriptor of the shell (jaiph-go patch): r is
// set when it can be read, w when it can be written, and own is the file
// the shell opened for it, if any.
type fdEntry struct {
	r   stdinFile
	w   io.Writer
	own io.Closer
}

// getFd returns file descriptor n, or nil if it is not open.
func (r *Runner) getFd(n int) *fdEntry {
	switch n {
	case 0:
		if r.stdin == nil {
			return nil
		}
		return &fdEntry{r: r.stdin}
	case 1, 2:
		w := r.stdout
		if n == 2 {
			w = r.stderr
		}
		if _, closed := w.(closedWriter); closed {
			return nil // jaiph-go patch: closed (1>&- 2>&1 fails)
		}
		return &fdEntry{w: w}
	}
	return r.fds[n]
}

// setFd points file descriptor n at e, closing it if e is nil. r.fds is
// copied first, as [Runner.stmtSync] restores the previous table.
func (r *Runner) setFd(n int, e *fdEntry) {
	switch n {
	case 0:
		if e == nil {
			r.stdin, r.stdinClosed = nil, true
		} else {
			r.stdin, r.stdinClosed = e.r, false
		}
		return
	case 1, 2:
		// jaiph-go patch: writes to a closed stdout or stderr fail with
		// EBADF, as in bash (`echo x >&-` fails; it used to succeed).
		var w io.Writer = closedWriter{}
		if e != nil && e.w != nil {
			w = e.w
		}
		if n == 1 {
			r.stdout = w
		} else {
			r.stderr = w
		}
		return
	}
	fds := make(map[int]*fdEntry, len(r.fds)+1)
	for k, v := range r.fds {
		fds[k] = v
	}
	if e == nil {
		delete(fds, n)
	} else {
		fds[n] = e
	}
	r.fds = fds
}

// extraFiles lists the files of descriptors 3 and up for external commands.
func (r *Runner) extraFiles() []*os.File {
	max := 0
	for n := range r.fds {
		max = maxInt(max, n)
	}
	if max < 3 {
		return nil
	}
	files := make([]*os.File, max-2)
	for n, e := range r.fds {
		if f, ok := e.w.(*os.File); ok {
			files[n-3] = f
		} else if f, ok := any(e.r).(*os.File); ok && f != nil {
			files[n-3] = f
		}
	}
	return files
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

// closeDroppedFds closes the files the shell opened for descriptors that
// an exec redirection like "exec 3>&-" (or "exec 3<<< x" over another)
// dropped from the table. A subshell closes only the files it opened
// itself (jaiph-go patch: [Runner.closeDroppedExecFile]); its parent's
// are the parent's.
func (r *Runner) closeDroppedFds(old map[int]*fdEntry) {
	for _, e := range old {
		r.closeDroppedExecFile(e.r) // a here-document's pipe
		if r.bashPID == 0 && e.own != nil && !r.refersTo(e.own) && !r.jobHolds(e.own) {
			e.own.Close()
			r.forgetExecFile(e.own)
			continue
		}
		r.closeDroppedExecFile(e.own)
	}
}

// redirFds are the descriptors redirections name, as bash's undo list
// holds them (jaiph-go patch): N or the operator's default (0 for input, 1
// for output, 1 and 2 for &> and >&file); a {var} redirection opening a
// descriptor is left to stmtSync's varFds.
func (r *Runner) redirFds(rds []*syntax.Redirect) map[int]bool {
	touched := make(map[int]bool, len(rds)+1)
	for _, rd := range rds {
		n := 1
		switch rd.Op {
		case syntax.RdrIn, syntax.DplIn, syntax.RdrInOut, syntax.WordHdoc, syntax.Hdoc, syntax.DashHdoc:
			n = 0
		case syntax.RdrAll, syntax.AppAll:
			touched[2] = true
		case syntax.DplOut:
			// >&file and 1>&file (jaiph-go patch: a word that is not a
			// plain literal, >&"x y" or >&$f, may name a file too).
			if w := rd.Word.Lit(); (rd.N == nil || rd.N.Value == "1") && w != "-" && (w == "" || strings.Trim(strings.TrimSuffix(w, "-"), "0123456789") != "") {
				touched[2] = true
			}
		}
		if rd.N != nil {
			if name, ok := strings.CutPrefix(rd.N.Value, "{"); ok {
				if _, opens := varRedirName(rd); opens {
					continue
				}
				name = strings.TrimSuffix(name, "}")
				var err error
				if n, err = strconv.Atoi(r.envGet(name)); err != nil {
					continue
				}
			} else if fd, err := strconv.Atoi(rd.N.Value); err == nil {
				n = fd
			}
		}
		touched[n] = true
	}
	return touched
}

// restoreFds is the descriptor table (3 and up) after a statement with
// redirections (jaiph-go patch): cur, with the descriptors in touched as
// they were in old. It is old itself when nothing else changed.
func restoreFds(old, cur map[int]*fdEntry, touched map[int]bool) map[int]*fdEntry {
	same := true
	for k, v := range cur {
		if !touched[k] && old[k] != v {
			same = false
		}
	}
	for k := range old {
		if !touched[k] && cur[k] == nil {
			same = false
		}
	}
	if same {
		return old
	}
	fds := make(map[int]*fdEntry, len(cur))
	for k, v := range cur {
		if !touched[k] {
			fds[k] = v
		}
	}
	for k, v := range old {
		if touched[k] {
			fds[k] = v
		}
	}
	return fds
}

// fileInUse tells whether the shell's descriptors still use c (jaiph-go
// patch).
func (r *Runner) fileInUse(c io.Closer) bool {
	for _, e := range r.fds {
		if e.own == c || any(e.r) == any(c) || any(e.w) == any(c) {
			return true
		}
	}
	return any(r.stdin) == any(c) || any(r.stdout) == any(c) || any(r.stderr) == any(c)
}

// varRedirName is the NAME of a {NAME} redirection that opens a
// descriptor (not {NAME}>&-), jaiph-go patch.
func varRedirName(rd *syntax.Redirect) (string, bool) {
	if rd.N == nil || !strings.HasPrefix(rd.N.Value, "{") {
		return "", false
	}
	if (rd.Op == syntax.DplIn || rd.Op == syntax.DplOut) && rd.Word != nil && rd.Word.Lit() == "-" {
		return "", false
	}
	return strings.TrimSuffix(rd.N.Value[1:], "}"), true
}

// redirErrName is what bash's redirection_error names in an error of its
// own (an ambiguous redirect, set -C's refusal): a {NAME} redirection's
// variable, else the word (jaiph-go patch).
func redirErrName(rd *syntax.Redirect, word string) string {
	if name, ok := varRedirName(rd); ok {
		return name
	}
	return word
}

// forkedLoopLevel is the loop level of a subshell that runs cmd as a
// pipeline element or a job (jaiph-go patch): bash forks a simple command
// as it is, so `break | cat` in a loop is no error (and leaves nothing), but
// runs a compound command through its subshell code, which leaves every
// loop: `{ break; echo x; } | cat` complains and goes on.
func (r *Runner) forkedLoopLevel(cm syntax.Command) {
	if _, simple := cm.(*syntax.CallExpr); !simple {
		r.loopLevel = 0
	}
}

func (r *Runner) loopStmtsBroken(ctx context.Context, stmts []*syntax.Stmt) bool {
	r.loopLevel++
	defer func() { r.loopLevel-- }()
	for _, stmt := range stmts {
		r.stmt(ctx, stmt)
		if r.contnEnclosing > 0 {
			r.contnEnclosing--
			return r.contnEnclosing > 0
		}
		if r.breakEnclosing > 0 {
			r.breakEnclosing--
			return true
		}
	}
	return false
}

func (r *Runner) call(ctx context.Context, pos syntax.Pos, args []string) {
	if r.stop(ctx) {
		return
	}
	if r.callHandler != nil {
		var err error
		args, err = r.callHandler(r.handlerCtx(ctx, handlerKindCall, pos), args)
		if err != nil {
			// handler's custom fatal error
			r.exit.fatal(err)
			return
		}
	}
	name := args[0]
	noFork := r.callNoFork
	r.callNoFork = false
	if body := r.Funcs[name]; body != nil {
		if r.funcNestExceeded(name) { // jaiph-go patch: FUNCNEST
			return
		}
		if noFork && r.noForkAllowed() {
			// jaiph-go patch: see jaiph_nofork.go
			r.noForkCall, r.noForkChosen = functionTail(body), true
		}
		// stack them to support nested func calls
		oldParams := r.Params
		r.Params = args[1:]
		oldInFunc := r.inFunc
		r.inFunc = true
		// jaiph-go patch: as in bash, a function body is in no loop of
		// its caller's (`break` there is an error, not the caller's).
		oldLoopLevel := r.loopLevel
		r.loopLevel = 0
		// jaiph-go patch: FUNCNAME is the call stack, innermost last
		// (appending costs no copy of the stack per call).
		r.funcStack = append(r.funcStack, name)
		defer func() { r.funcStack = r.funcStack[:len(r.funcStack)-1] }()

		// Functions run in a nested scope.
		// Note that [Runner.exec] below does something similar.
		origEnv := r.writeEnv
		r.writeEnv = &overlayEnviron{parent: r.writeEnv, funcScope: true}

		// jaiph-go patch: as in bash without errtrace, a function does
		// not inherit the ERR trap; the caller's is restored on return.
		// With errtrace (set -E) it does, as in bash.
		errTrap, hadErrTrap := r.traps[trapErr]
		if r.opts[optErrTrace] {
			hadErrTrap = false
		}
		if hadErrTrap {
			delete(r.traps, trapErr)
			// kept for a jump to the top level (see topErrTrap)
			r.savedErrTraps = append(r.savedErrTraps, errTrap)
			defer func() { r.savedErrTraps = r.savedErrTraps[:len(r.savedErrTraps)-1] }()
		}
		// jaiph-go patch: nor the RETURN trap; one the function sets runs
		// when it returns and stays set after it, as in bash.
		retTrap, hadRetTrap := r.traps[trapReturn]
		if hadRetTrap {
			delete(r.traps, trapReturn)
		}

		r.thisCommand = name // jaiph-go patch: see thisCommand
		r.stmt(ctx, body)
		if r.exit.exiting && r.exit.popScopes {
			r.exit.leftFuncs = true // jaiph-go patch: see exitStatus.leftFuncs
		}

		if _, set := r.traps[trapErr]; hadErrTrap && !set && (!r.exit.exiting || r.exit.popScopes) {
			// One the function set stays (traps are global), as in
			// bash (uw_maybe_set_error_trap). A shell exiting from
			// inside the function (errexit, exit) does not get it back:
			// bash's restore is an unwind-protect that only a jump to
			// its top level runs (exitStatus.popScopes), so a command
			// failing in the EXIT trap then runs no ERR trap.
			r.traps[trapErr] = errTrap
		}
		if cb, ok := r.traps[trapReturn]; ok && !r.exit.exiting {
			// jaiph-go patch: $LINENO in the trap counts from the
			// line the function's body starts on (bash's
			// function_line_number, the trap's text not reset)
			r.trapLine = body.Pos().Line()
			r.returnTrap(ctx, cb)
			r.trapLine = 0
		} else if !ok && hadRetTrap {
			r.traps[trapReturn] = retTrap
		}
		if fe, ok := r.writeEnv.(*overlayEnviron); ok && fe.holds("PATH") {
			r.hashFlush() // jaiph-go patch: a local PATH ends, see jaiph_hash.go
		}
		r.writeEnv = origEnv

		r.Params = oldParams
		r.inFunc = oldInFunc
		r.loopLevel = oldLoopLevel
		r.exit.returning = false
		r.forked = false // jaiph-go patch: see Runner.forked
		return
	}
	if IsBuiltin(name) {
		r.exit = r.builtin(ctx, pos, name, args[1:])
		r.forked = false
		return
	}
	r.exec(ctx, pos, args)
	r.forked = !r.isHandlerFunc(ctx, name) // jaiph-go patch: see Runner.forked
	if noFork && r.forked {
		r.execTail() // jaiph-go patch: see jaiph_nofork.go
	}
}

func (r *Runner) exec(ctx context.Context, pos syntax.Pos, args []string) {
	r.exit.fromHandlerError(r.execHandler(r.handlerCtx(ctx, handlerKindExec, pos), args))
	r.runHeldExitTrap(&r.exit)
}

func (r *Runner) open(ctx context.Context, path string, flags int, mode os.FileMode, print bool) (io.ReadWriteCloser, error) {
	// If we are opening a FIFO temporary file created by the interpreter itself,
	// don't pass this along to the open handler as it will not work at all
	// unless [os.OpenFile] is used directly with it.
	// Matching by directory and basename prefix isn't perfect, but works.
	//
	// If we want FIFOs to use a handler in the future, they probably
	// need their own separate handler API matching Unix-like semantics.
	dir, name := filepath.Split(path)
	dir = strings.TrimSuffix(dir, "/")
	if dir == r.tempDir && strings.HasPrefix(name, fifoNamePrefix) {
		return os.OpenFile(path, flags, mode)
	}

	f, err := r.openHandler(r.handlerCtx(ctx, handlerKindOpen, todoPos), path, flags, mode)
	// TODO: support wrapped PathError returned from openHandler.
	switch err.(type) {
	case nil:
		return f, nil
	case *os.PathError:
		if print {
			r.errf("%v\n", err)
		}
	default: // handler's custom fatal error
		r.exit.fatal(err)
	}
	return nil, err
}

func (r *Runner) stat(ctx context.Context, name string) (fs.FileInfo, error) {
	path := osPath(r.Dir, name)
	return r.statHandler(r.handlerCtx(ctx, handlerKindStat, todoPos), path, true)
}

func (r *Runner) lstat(ctx context.Context, name string) (fs.FileInfo, error) {
	path := osPath(r.Dir, name)
	return r.statHandler(r.handlerCtx(ctx, handlerKindStat, todoPos), path, false)
}

func (r *Runner) access(ctx context.Context, name string, mode AccessMode) error {
	path := osPath(r.Dir, name)
	return r.accessHandler(r.handlerCtx(ctx, handlerKindAccess, todoPos), path, mode)
}

// subshellElem: a pipeline element that is a `( … )` runs in bash's child
// for the element itself, not in one more (jaiph-go patch): BASH_SUBSHELL
// there is 1, not 2.
func (r2 *Runner) subshellElem(st *syntax.Stmt) {
	if _, ok := st.Cmd.(*syntax.Subshell); ok {
		r2.subshellLevel--
	}
}

// topErrTrap is the ERR trap a jump to bash's top level leaves set (jaiph-go
// patch): the one set now, or else the one the innermost function that
// took one away gives back as its unwinding runs (bash's
// uw_maybe_set_error_trap sets it only where none is set).
func (r *Runner) topErrTrap() (string, bool) {
	if cb, ok := r.traps[trapErr]; ok {
		return cb, true
	}
	if n := len(r.savedErrTraps); n > 0 {
		return r.savedErrTraps[n-1], true
	}
	return "", false
}

// jaiph-go patch: pipeline runs a pipeline as bash does: every element in its
// own subshell (the last one in the current shell under "shopt -s lastpipe"),
// recording each element's status in PIPESTATUS.
// armElemExitTrap gives a pipeline's element that is a simple command
// the shell's EXIT trap for its expansions (elemExitTrap).
func (r2 *Runner) armElemExitTrap(r *Runner, st *syntax.Stmt) {
	if _, ok := st.Cmd.(*syntax.CallExpr); ok {
		r2.elemExitTrap = r.traps[trapExit]
		// the child's traps are the shell's until they are reset,
		// its ERR trap too, and its BASH_SUBSHELL the shell's
		r2.elemErrTrap, r2.elemHasErrTrap = r.traps[trapErr]
		r2.elemSubshellLevel = r.subshellLevel
	}
}

func (r *Runner) pipeline(ctx context.Context, cm *syntax.BinaryCmd) {
	// "a | b | c" parses as ((a | b) | c); flatten it.
	var elems []*syntax.Stmt
	var ops []syntax.BinCmdOperator
	var walk func(b *syntax.BinaryCmd)
	walk = func(b *syntax.BinaryCmd) {
		x, ok := b.X.Cmd.(*syntax.BinaryCmd)
		if ok && (x.Op == syntax.Pipe || x.Op == syntax.PipeAll) &&
			!b.X.Negated && !b.X.Background && !b.X.Coprocess && len(b.X.Redirs) == 0 {
			walk(x)
		} else {
			elems = append(elems, b.X)
		}
		ops = append(ops, b.Op)
		elems = append(elems, b.Y)
	}
	walk(cm)
	n := len(elems)
	statuses := make([]exitStatus, n)
	in := r.stdin
	var wg sync.WaitGroup
	for i, st := range elems[:n-1] {
		pr, pw, err := newPipe()
		if err != nil {
			r.exit.fatal(err) // not being able to create a pipe is rare but critical
			return
		}
		r2 := r.subshell(true)
		r2.forkedLoopLevel(st.Cmd)
		r2.armElemExitTrap(r, st)
		r2.inheritJumpInverts(r, st)
		r2.childStmt = st
		r2.noSignalReport = true // jaiph-go patch: the pipeline reports
		r2.subshellElem(st)
		r2.stdin = in
		r2.stdout = pw
		if ops[i] == syntax.PipeAll {
			r2.stderr = pw
		}
		ownIn := in
		if i == 0 {
			ownIn = nil // the pipeline's own stdin is not ours to close
		}
		wg.Go(func() {
			r2.stmt(ctx, st)
			r2.invertElemJump()
			r2.killedExitTrap(ctx)  // jaiph-go patch: see jaiph_sigpipe.go
			r2.undoKeptRedirs()     // jaiph-go patch: no EXIT trap runs here
			r2.exit.leaveSubshell() // subshells don't exit (or return from) the parent shell
			pw.Close()
			if ownIn != nil {
				ownIn.Close()
			}
			statuses[i] = r2.exit
		})
		in = pr
	}
	last := elems[n-1]
	if r.opts[optLastPipe] {
		oldIn := r.stdin
		r.stdin = in
		r.stmt(ctx, last)
		r.stdin = oldIn
		statuses[n-1] = r.exit
	} else {
		r2 := r.subshell(false)
		r2.forkedLoopLevel(last.Cmd)
		r2.armElemExitTrap(r, last)
		r2.inheritJumpInverts(r, last)
		r2.childStmt = last
		r2.noSignalReport = true // jaiph-go patch: the pipeline reports
		r2.subshellElem(last)
		r2.stdin = in
		r2.stmt(ctx, last)
		r2.invertElemJump()
		r2.killedExitTrap(ctx)  // jaiph-go patch: see jaiph_sigpipe.go
		r2.undoKeptRedirs()     // jaiph-go patch: no EXIT trap runs here
		r2.exit.leaveSubshell() // subshells don't exit (or return from) the parent shell
		statuses[n-1] = r2.exit
		// jaiph-go patch: bash's child for a last element that is a
		// failed `( … )` runs the shell's ERR trap too, at the shell's
		// BASH_SUBSHELL, before the pipeline's own (where errexit is
		// off and not ignored): `true | (false)` runs it twice.
		if cb, ok := r.traps[trapErr]; ok && !r2.exit.ok() && !r.opts[optErrExit] && !r.noErrExit {
			if _, sub := last.Cmd.(*syntax.Subshell); sub {
				r2.trapLine = last.Pos().Line()
				r2.trapCallback(ctx, cb, "error")
				r2.trapLine = 0
			}
		}
	}
	in.Close()
	wg.Wait()
	r.exit = statuses[n-1]
	if r.opts[optPipeFail] && r.exit.ok() {
		for i := n - 2; i >= 0; i-- {
			if !statuses[i].ok() {
				r.exit = statuses[i]
				break
			}
		}
	}
	for _, st := range statuses {
		if st.fatalExit {
			r.exit.fatal(st.err) // surface fatal errors immediately
		}
	}
	list := make([]string, n)
	for i, st := range statuses {
		list[i] = strconv.Itoa(int(st.code))
	}
	r.writeEnv.Set("PIPESTATUS", expand.Variable{Set: true, Kind: expand.Indexed, List: list})
}

// jaiph-go patch: setPipeStatus sets PIPESTATUS after a command that bash
// counts as a pipeline of its own: a simple command, a subshell, or a
// test/arithmetic command; compound commands keep that of their last pipeline.
// A negated simple command or subshell leaves its status from before the
// `!`, but bash sets a `[[ … ]]`'s or `(( … ))`'s after inverting it
// (execute_command_internal's set_pipestatus_from_exit for cm_cond and
// cm_arith): `! [[ -n x ]]` leaves 1.
func (r *Runner) setPipeStatus(cm syntax.Command, negated bool) {
	code := r.exit.code
	switch cm.(type) {
	case *syntax.TestClause, *syntax.ArithmCmd:
		if negated && code == 0 {
			code = 1
		} else if negated {
			code = 0
		}
	case *syntax.CallExpr, *syntax.Subshell, *syntax.DeclClause, *syntax.LetClause:
	case *syntax.BinaryCmd:
		return // pipelines set it themselves; && and || lists are compound
	default:
		return
	}
	r.writeEnv.Set("PIPESTATUS", expand.Variable{Set: true, Kind: expand.Indexed, List: []string{strconv.Itoa(int(code))}})
}

// jaiph-go patch: declFuncQuery reports "-f" or "-F" for a declare command
// whose only arguments are that flag.
func declFuncQuery(args []*syntax.Assign) string {
	if len(args) != 1 {
		return ""
	}
	v := ""
	if as := args[0]; as.Name != nil && as.Naked {
		v = as.Name.Value
	} else if as.Name == nil && as.Value != nil {
		v = as.Value.Lit()
	}
	if v == "-f" || v == "-F" {
		return v
	}
	return ""
}

// jaiph-go patch: funcDefinition prints a function as "declare -f" does in
// bash: "name () ", then the body as a brace group, its statements indented
// by four spaces and laid out as bash's print_cmd.c does for the common
// compound commands. Simple commands are printed by the syntax printer, so
// their spacing may differ from bash's in places (e.g. "> file").
func (r *Runner) funcDefinition(name string, body *syntax.Stmt) string {
	fp := &funcPrinter{printer: syntax.NewPrinter(syntax.Indent(4))}
	fp.printer.BashTests()
	if fd := r.funcDecls[name]; fd != nil && fd.Body == body && fd.Source != "" {
		// jaiph-go patch: words bash prints as written (UseSource)
		fp.printer.UseSource(fd.Source, fd.SourceBase, r.ansiCQuoted)
	}
	fp.sb.WriteString(name + " () \n")
	if _, ok := body.Cmd.(*syntax.Block); ok && len(body.Redirs) == 0 && !body.Negated {
		fp.stmt(body, 0)
	} else {
		fp.sb.WriteString("{ \n")
		fp.list([]*syntax.Stmt{body}, 1, false)
		fp.sb.WriteString("}")
	}
	fp.sb.WriteString("\n")
	return fp.sb.String()
}

type funcPrinter struct {
	sb      strings.Builder
	printer *syntax.Printer
	// pending: the here-documents of the statement just printed, whose
	// bodies bash prints after the connector that follows it (or at
	// once when none does); wasHeredoc: bodies were printed, so the next
	// ";" connector is not (print_cmd.c's deferred_heredocs and
	// was_heredoc)
	pending    []*syntax.Redirect
	wasHeredoc bool
}

func (fp *funcPrinter) indent(n int) { fp.sb.WriteString(strings.Repeat("    ", n)) }

// list prints statements one per line; bash ends each with ";" inside
// if/while/for bodies (semi), and all but the last elsewhere.
func (fp *funcPrinter) list(stmts []*syntax.Stmt, ind int, semi bool) {
	joined := false // after a `&`, the next statement goes on its line
	for i, st := range stmts {
		if !joined {
			fp.indent(ind)
		}
		fp.stmt(st, ind)
		joined = false
		if st.Background && fp.pending == nil {
			// jaiph-go patch: bash's connector & is " & ", the next
			// command on the same line, and no ";" after a last one
			if i < len(stmts)-1 {
				fp.sb.WriteString(" ")
				joined = true
			} else {
				fp.sb.WriteString("\n")
			}
			continue
		}
		switch {
		case fp.pending != nil:
			// the bodies come after the connector, whose ";" is not
			// printed; bash's lists nest to the left, so only the
			// first statement's bodies also take the next ";" away
			// (the others' are printed as their connection ends)
			fp.heredocBodies()
			fp.wasHeredoc = i == 0 || i == len(stmts)-1
		case i < len(stmts)-1 && fp.wasHeredoc:
			fp.wasHeredoc = false // this connector's ";" is not printed
		case i < len(stmts)-1 || semi:
			fp.sb.WriteString(";")
		}
		fp.sb.WriteString("\n")
	}
}

// inline prints statements on one line, separated by "; ".
func (fp *funcPrinter) inline(stmts []*syntax.Stmt) string {
	parts := make([]string, len(stmts))
	for i, st := range stmts {
		parts[i] = fp.plain(st)
	}
	return strings.Join(parts, "; ")
}

func (fp *funcPrinter) plain(n syntax.Node) string {
	var buf bytes.Buffer
	fp.printer.Print(&buf, n)
	return strings.TrimRight(buf.String(), "\n")
}

func (fp *funcPrinter) stmt(st *syntax.Stmt, ind int) {
	pad := strings.Repeat("    ", ind)
	if st.Negated {
		fp.sb.WriteString("! ")
	}
	switch cm := st.Cmd.(type) {
	case *syntax.Block:
		fp.sb.WriteString("{ \n")
		fp.list(cm.Stmts, ind+1, false)
		fp.sb.WriteString(pad + "}")
	case *syntax.Subshell:
		parts := make([]string, len(cm.Stmts))
		for i, s := range cm.Stmts {
			parts[i] = fp.plain(s)
		}
		fp.sb.WriteString("( " + strings.Join(parts, ";\n"+pad) + " )")
	case *syntax.IfClause:
		fp.ifClause(cm, ind)
	case *syntax.WhileClause:
		kw := "while "
		if cm.Until {
			kw = "until "
		}
		fp.sb.WriteString(kw + fp.inline(cm.Cond) + "; do\n")
		fp.list(cm.Do, ind+1, true)
		fp.sb.WriteString(pad + "done")
	case *syntax.ForClause:
		switch loop := cm.Loop.(type) {
		case *syntax.WordIter:
			words := []string{`"$@"`}
			if loop.InPos.IsValid() {
				words = words[:0]
				for _, w := range loop.Items {
					words = append(words, fp.plain(w))
				}
			}
			fp.sb.WriteString("for " + loop.Name.Value + " in " + strings.Join(words, " ") + ";")
		case *syntax.CStyleLoop:
			// The minified header "for((i=0;i<3;i++))" becomes bash's
			// "for ((i=0; i<3; i++))".
			var buf bytes.Buffer
			syntax.NewPrinter(syntax.Minify(true)).Print(&buf, &syntax.ForClause{Loop: loop})
			head := strings.ReplaceAll(buf.String(), "\\\n", "")
			if i, j := strings.Index(head, "(("), strings.Index(head, "))"); i >= 0 && j > i {
				parts := strings.Split(head[i+2:j], ";")
				for k := range parts {
					parts[k] = strings.TrimSpace(parts[k])
				}
				head = strings.Join(parts, "; ")
			}
			fp.sb.WriteString("for ((" + head + "))")
		}
		fp.sb.WriteString("\n" + pad + "do\n")
		fp.list(cm.Do, ind+1, true)
		fp.sb.WriteString(pad + "done")
	case *syntax.CaseClause:
		fp.sb.WriteString("case " + fp.plain(cm.Word) + " in \n")
		for _, ci := range cm.Items {
			pats := make([]string, len(ci.Patterns))
			for i, w := range ci.Patterns {
				pats[i] = fp.plain(w)
			}
			fp.indent(ind + 1)
			fp.sb.WriteString(strings.Join(pats, " | ") + ")\n")
			fp.list(ci.Stmts, ind+2, false)
			fp.indent(ind + 1)
			fp.sb.WriteString(ci.Op.String() + "\n")
		}
		fp.sb.WriteString(pad + "esac")
	case *syntax.FuncDecl:
		// jaiph-go patch: a nested definition is printed as bash's
		// print_cmd does, "function NAME () " and its body on the next
		// lines, a body that is no brace group wrapped in one.
		fp.sb.WriteString("function " + cm.Name.Value + " () \n" + pad)
		if _, ok := cm.Body.Cmd.(*syntax.Block); ok && len(cm.Body.Redirs) == 0 && !cm.Body.Negated {
			fp.stmt(cm.Body, ind)
		} else {
			fp.sb.WriteString("{ \n")
			fp.list([]*syntax.Stmt{cm.Body}, ind+1, false)
			fp.sb.WriteString(pad + "}")
		}
	case *syntax.ArithmCmd:
		if text, ok := fp.printer.SourceOf(cm); ok {
			fp.sb.WriteString(text) // jaiph-go patch: as written, as bash
			break
		}
		x := strings.ReplaceAll(fp.plain(&syntax.ArithmCmd{X: cm.X}), "\\\n", "")
		x = strings.TrimSpace(strings.TrimSuffix(strings.TrimPrefix(x, "(("), "))"))
		fp.sb.WriteString("(( " + x + " ))")
	default:
		st2 := *st
		st2.Negated, st2.Background = false, false
		if bc, ok := st.Cmd.(*syntax.BinaryCmd); ok && len(st.Redirs) == 0 && simpleLeaves(bc) {
			// jaiph-go patch: a list or pipeline of simple commands,
			// each printed as one (bashRedir), |& as bash's 2>&1 |
			fp.binaryCmd(bc)
			if st.Background {
				fp.sb.WriteString(" &")
			}
			return
		}
		_, simple := st.Cmd.(*syntax.CallExpr)
		if simple && slices.ContainsFunc(st.Redirs, isHeredoc) && !st.Background {
			fp.heredocStmt(&st2)
			return
		}
		if !simple || slices.ContainsFunc(st.Redirs, isHeredoc) {
			fp.sb.WriteString(strings.ReplaceAll(fp.plain(&st2), "\n", "\n"+pad))
			if st.Background {
				fp.sb.WriteString(" &")
			}
			return
		}
		// a simple command: its words, then its redirections as bash
		// prints them (bashRedir), after the words whatever their place
		st2.Redirs = nil
		// (a newline there is inside a word: bash prints it as is)
		fp.sb.WriteString(fp.plain(&st2))
	}
	for _, rd := range st.Redirs {
		fp.sb.WriteString(" " + fp.bashRedir(rd))
	}
	if st.Background {
		fp.sb.WriteString(" &")
	}
}

func isHeredoc(rd *syntax.Redirect) bool { return rd.Op == syntax.Hdoc || rd.Op == syntax.DashHdoc }

// simpleLeaves reports whether a list or pipeline joins simple commands
// only (negated or not, with redirections other than here-documents).
func simpleLeaves(bc *syntax.BinaryCmd) bool {
	for _, st := range []*syntax.Stmt{bc.X, bc.Y} {
		if st.Background {
			return false
		}
		switch cm := st.Cmd.(type) {
		case *syntax.CallExpr, *syntax.TestClause, *syntax.ArithmCmd:
		case *syntax.BinaryCmd:
			if len(st.Redirs) > 0 || st.Negated || !simpleLeaves(cm) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// binaryCmd prints a list or pipeline of simple commands on one line.
func (fp *funcPrinter) binaryCmd(bc *syntax.BinaryCmd) {
	for i, st := range []*syntax.Stmt{bc.X, bc.Y} {
		if i == 1 {
			// the connector, then the bodies of the here-documents
			// before it, as bash's print_deferred_heredocs
			conn := " " + bc.Op.String()
			if bc.Op == syntax.PipeAll {
				conn = " 2>&1 |"
			}
			pipe := bc.Op == syntax.Pipe || bc.Op == syntax.PipeAll
			if !pipe {
				conn += " "
			}
			fp.sb.WriteString(conn)
			if len(fp.pending) > 0 {
				fp.heredocBodies()
				fp.sb.WriteString(" ")
			}
			if pipe {
				fp.sb.WriteString(" ")
			}
		}
		if st.Negated {
			fp.sb.WriteString("! ")
		}
		if inner, ok := st.Cmd.(*syntax.BinaryCmd); ok {
			fp.binaryCmd(inner)
			continue
		}
		if slices.ContainsFunc(st.Redirs, isHeredoc) {
			words := *st
			words.Negated = false
			fp.heredocStmt(&words)
			continue
		}
		words := *st
		words.Redirs, words.Negated = nil, false
		fp.sb.WriteString(fp.plain(&words))
		for _, rd := range st.Redirs {
			fp.sb.WriteString(" " + fp.bashRedir(rd))
		}
	}
}

// heredocStmt prints a simple command with here-documents as bash does:
// its words, its redirections in order (a here-document's operator and
// word as written), then each body, a <<- one without its leading tabs,
// and its delimiter, on lines of their own.
func (fp *funcPrinter) heredocStmt(st *syntax.Stmt) {
	words := *st
	words.Redirs = nil
	fp.sb.WriteString(fp.plain(&words))
	for _, rd := range st.Redirs {
		if !isHeredoc(rd) {
			fp.sb.WriteString(" " + fp.bashRedir(rd))
			continue
		}
		fd := ""
		if rd.N != nil && rd.N.Value != "0" {
			fd = rd.N.Value
		}
		fp.sb.WriteString(" " + fd + rd.Op.String() + fp.plain(rd.Word))
	}
	for _, rd := range st.Redirs {
		if isHeredoc(rd) {
			fp.pending = append(fp.pending, rd)
		}
	}
}

// heredocBodies prints the pending here-documents' bodies, each followed by
// its delimiter line.
func (fp *funcPrinter) heredocBodies() {
	fp.sb.WriteString("\n")
	for _, rd := range fp.pending {
		if rd.Hdoc != nil {
			var buf bytes.Buffer
			fp.printer.Print(&buf, rd.Hdoc)
			body := buf.String()
			if rd.Op == syntax.DashHdoc {
				lines := strings.SplitAfter(body, "\n")
				for i, l := range lines {
					lines[i] = strings.TrimLeft(l, "\t")
				}
				body = strings.Join(lines, "")
			}
			fp.sb.WriteString(body)
		}
		delim, _ := expand.Literal(nil, rd.Word)
		fp.sb.WriteString(delim + "\n")
	}
	fp.pending = nil
	fp.wasHeredoc = true
}

// bashRedir is a redirection as bash's print_redirection writes it
// (jaiph-go patch): a blank between the operator and its file, the file
// descriptor shown unless it is the operator's default (always for a
// duplication or a close: 1>&2, 0<&3, 1>&-, and <&- as 0>&-; <> shows its
// default 0).
func (fp *funcPrinter) bashRedir(rd *syntax.Redirect) string {
	word := fp.plain(rd.Word)
	fd := ""
	if rd.N != nil {
		fd = rd.N.Value
	}
	shown := func(dflt, omit string) string {
		if fd == "" {
			fd = dflt
		}
		if fd == omit {
			return ""
		}
		return fd
	}
	number := func() bool { _, err := strconv.Atoi(word); return err == nil }
	switch rd.Op {
	case syntax.RdrOut, syntax.AppOut, syntax.ClbOut:
		return shown("1", "1") + rd.Op.String() + " " + word
	case syntax.RdrIn, syntax.WordHdoc:
		return shown("0", "0") + rd.Op.String() + " " + word
	case syntax.RdrInOut:
		return shown("0", "1") + "<> " + word
	case syntax.RdrAll, syntax.AppAll:
		return rd.Op.String() + " " + word
	case syntax.DplOut:
		if word == "-" || number() {
			return shown("1", "") + ">&" + word
		}
		return shown("1", "1") + ">&" + word
	case syntax.DplIn:
		if word == "-" {
			return shown("0", "") + ">&-"
		}
		if number() {
			return shown("0", "") + "<&" + word
		}
		return shown("0", "0") + "<&" + word
	}
	return fd + rd.Op.String() + word
}

// ifClause prints "if ...; then", its body, and "elif" as bash does: as an
// "else" holding a nested if.
func (fp *funcPrinter) ifClause(ic *syntax.IfClause, ind int) {
	pad := strings.Repeat("    ", ind)
	fp.sb.WriteString("if " + fp.inline(ic.Cond) + "; then\n")
	fp.list(ic.Then, ind+1, true)
	if el := ic.Else; el != nil {
		fp.sb.WriteString(pad + "else\n")
		if len(el.Cond) > 0 { // elif
			fp.indent(ind + 1)
			fp.ifClause(el, ind+1)
			fp.sb.WriteString(";\n")
		} else {
			fp.list(el.Then, ind+1, true)
		}
	}
	fp.sb.WriteString(pad + "fi")
}

// errRedirReported is a failed redirection whose error has been reported
// (jaiph-go patch).
var errRedirReported = errors.New("redirection error reported")

// jaiph-go patch: redirWord expands a redirection's word as bash does: with
// word splitting and globbing, where anything but one field is an
// "ambiguous redirect" named by the word as written. A here-string's word
// is not split.
func (r *Runner) redirWord(rd *syntax.Redirect) (string, error) {
	switch rd.Op {
	case syntax.WordHdoc:
		// jaiph-go patch: joined as an assignment's value is.
		s, err := expand.JoinedLiteral(r.ecfg, rd.Word)
		r.expandErr(err)
		return s, nil
	}
	// jaiph-go patch: the word of N>&M and N<&M is globbed too (bash's
	// `>& 1*` with a file 10 is `>&10`). A failglob failure is reported
	// once, without "ambiguous redirect".
	fields, err := expand.Fields(r.ecfg, rd.Word)
	if err != nil {
		r.expandErr(err)
		return "", errRedirReported
	}
	if len(fields) != 1 {
		var sb strings.Builder
		newWordPrinter().Print(&sb, rd.Word)
		return "", fmt.Errorf("%s: ambiguous redirect", redirErrName(rd, sb.String()))
	}
	return fields[0], nil
}

// jaiph-go patch: redirOpenError is bash's "FILE: Strerror text".
func redirOpenError(arg string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return fmt.Errorf("%s: %s", arg, strerror(pe.Err))
	}
	return err
}

// strerror capitalises Go's errno text like C's strerror.
func strerror(err error) string {
	s := err.Error()
	if s != "" && s[0] >= 'a' && s[0] <= 'z' {
		s = string(s[0]-'a'+'A') + s[1:]
	}
	return s
}

// bashDeclQuote quotes s as bash's declare -p does: $'…' when s holds a
// control character (if ansic), else double quotes escaping " $ ` and \.
// hasControl says s holds what bash's declare -p shows in $'…': a control
// character, another character that is not printable or a byte that is
// no UTF-8 (ansic_shouldquote).
func hasControl(s string) bool { return expand.ANSICShouldQuote(s) }

// jaiph-go patch.
func bashDeclQuote(s string, ansic bool) string {
	if ansic && hasControl(s) {
		return expand.ANSICQuote(s)
	}
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '$', '`', '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// isArithmErr reports an arithmetic error, which bash treats as fatal in an
// expansion like $((1/0)) (jaiph-go patch).
func isArithmErr(err error) bool {
	_, ok := errors.AsType[expand.ArithmError](err)
	return ok
}

// isDefaultAssignErr says err is the assignment ${v:=w} made failing
// (jaiph-go patch).
func isDefaultAssignErr(err error) bool {
	_, ok := errors.AsType[expand.DefaultAssignError](err)
	return ok
}

// closedWriter is a closed descriptor 1 or 2 (jaiph-go patch).
type closedWriter struct{}

func (closedWriter) Write([]byte) (int, error) { return 0, syscall.EBADF }

// keepsIgnoredFail reports whether a command's status may be a failure that
// errexit ignored inside it (jaiph-go patch): the compound commands run in
// the shell itself, not subshells, functions or other simple commands.
func keepsIgnoredFail(cmd syntax.Command) bool {
	switch cmd.(type) {
	case *syntax.Block, *syntax.IfClause, *syntax.WhileClause, *syntax.ForClause, *syntax.CaseClause:
		return true
	}
	return false
}

// isDeclClause reports whether cm is a declaration builtin's clause, whose
// words are expanded before its redirections as a simple command's are.
func isDeclClause(cm syntax.Command) bool {
	_, ok := cm.(*syntax.DeclClause)
	return ok
}

// arrayConversion says a declaration with valType ("-a", "-A") would
// change an existing array of kind to the other kind, which bash refuses
// (jaiph-go patch).
func arrayConversion(kind expand.ValueKind, valType string) (from, to string, bad bool) {
	switch {
	case valType == "-A" && kind == expand.Indexed:
		return "indexed", "associative", true
	case valType == "-a" && kind == expand.Associative:
		return "associative", "indexed", true
	}
	return "", "", false
}

// declSameScope says a declaration of name reaches the variable it sees:
// outside a function or with -g any, in a function only its own local
// (bash's declare makes a new local otherwise) (jaiph-go patch).
func (r *Runner) declSameScope(name string, local, global bool) bool {
	if !local || global {
		return true
	}
	o, ok := r.writeEnv.(*overlayEnviron)
	return ok && o.ownsLocal(name)
}

// chainEndsOutside says name is a function's own nameref whose chain of
// namerefs ends with one that is not the function's (jaiph-go patch: a
// declaration then acts on name itself, as bash's declare_internal, which
// follows find_variable_last_nameref only to a nameref of its scope).
func (r *Runner) chainEndsOutside(name string) bool {
	vr := r.lookupVar(name)
	if vr.Kind != expand.NameRef || !r.declSameScope(name, true, false) {
		return false
	}
	last := name
	for range 8 { // bash's NAMEREF_MAX
		next := vr.Str
		if !syntax.ValidName(next) {
			break
		}
		nv := r.lookupVar(next)
		if nv.Kind != expand.NameRef {
			break
		}
		last, vr = next, nv
	}
	return last != name && !r.declSameScope(last, true, false)
}

// assignReadonly is the bare assignment as=… of prev, a readonly variable
// named roName in bash's message (jaiph-go patch).
func (r *Runner) assignReadonly(as *syntax.Assign, prev expand.Variable, roName string) {
	// jaiph-go patch: as in bash, assigning to a readonly variable in a
	// bare assignment discards the top-level command (bash's DISCARD): the
	// shell goes on with the next line of the script, an eval string or a
	// sourced file (evalStmts), and a subshell ends.
	if as.Value != nil && as.Array == nil && as.Index == nil {
		// bash expands the value first: its substitutions run, its
		// status is the one errexit exits with, and its fatal error wins.
		r.literal(as.Value)
		if r.exit.exiting {
			return
		}
	}
	if as.Index != nil && prev.Kind != expand.Associative {
		// bash expands the value, then evaluates an indexed subscript
		// before it binds: the subscript's error comes first
		// (A1['x y']=v of a readonly A1)
		if as.Value != nil {
			r.literal(as.Value)
		}
		if !r.exit.exiting {
			r.arithmTrail(as.Index, as.IndexRaw)
		}
		if r.exit.exiting {
			return
		}
	}
	r.errf("%s: readonly variable\n", roName)
	r.exit = exitStatus{code: cmp.Or(r.lastExit.code, 1), exiting: true, discard: true, assignFailed: true, popScopes: !r.errexitOn()}
	if r.errexitOn() {
		// report_error exits in place under errexit
		r.exitTrapInPlace(&r.exit)
	}
}

// restoreVar is a variable a command's prefix binding sets, with the
// value to put back (jaiph-go patch).
type restoreVar struct {
	name string
	vr   expand.Variable
}

// assigned is the value bound (or put back) as an assignment binds it,
// where the variable is: a calling function's local stays that function's
// (it became a new local of the running function, which hid the caller's
// from then on: found by the soak, seed 221).
func (rv restoreVar) assigned() expand.Variable {
	vr := rv.vr
	vr.Local = false
	return vr
}

// putBack gives a variable a prefix binding set its value before the
// command back (jaiph-go patch): a local (the running function's or a
// calling one's, set or declared without a value) in the scope that holds
// it, anything else as an assignment puts it (an unset through Set would
// uncover what a calling function's local hides).
func (r *Runner) putBack(rv restoreVar) {
	if o, ok := r.writeEnv.(*overlayEnviron); ok && rv.vr.Local && o.replaceHeld(rv.name, rv.vr) {
		return
	}
	r.setVarFailed(r.bindChecked(rv.name, rv.assigned()))
}

// isDeclBuiltin says name is a declaration builtin (jaiph-go patch).
func isDeclBuiltin(name string) bool {
	switch name {
	case "declare", "typeset", "local", "export", "readonly":
		return true
	}
	return false
}

// readonlyToArray is the readonly scalar vr as declare -a (valType -a)
// or -A makes it an array: a function's own local emptied (bash's
// make_local_array_variable), another's value its element (key) 0
// (convert_var_to_array), unset if it was (jaiph-go patch).
func readonlyToArray(vr expand.Variable, valType string, ownLocal bool) expand.Variable {
	elems := []string{}
	if vr.IsSet() && !ownLocal {
		elems = []string{vr.Str}
	}
	vr.Str = ""
	if valType == "-A" {
		vr.Kind, vr.Map, vr.MapSeq = expand.Associative, nil, nil
		for _, e := range elems {
			vr.SetAssoc("0", e)
		}
		return vr
	}
	vr.Kind, vr.List, vr.Indexes = expand.Indexed, elems, nil
	return vr
}

// declElem is base with the element of `declare NAME[SUB]=v` set (+=
// appended to), an indexed array unless base is associative or valType
// is -A; false after an error (jaiph-go patch). made says the error was
// bash's for a subscript before the start, which comes after NAME was
// made an array: the variable is then base as that array.
func (r *Runner) declElem(name string, base expand.Variable, as *syntax.Assign, valType string, modes []string) (_ expand.Variable, ok, made bool) {
	val, err := expand.AssignLiteral(r.ecfg, as.Value)
	r.expandErr(err)
	if !r.exit.ok() {
		return base, false, false
	}
	r.assignWord = val
	if expand.EmptyParamsIndex(r.ecfg, as.Index) {
		// jaiph-go patch: bash's declare reads the word once expanded:
		// a subscript of empty parameters is NAME[], a bad subscript;
		// the variable is made an array all the same
		r.errf("%s[]: bad array subscript\n", name)
		switch {
		case valType == "-A" || base.Kind == expand.Associative:
			if base.Kind != expand.Associative {
				base.Map, base.MapSeq = nil, nil
			}
			base.Kind = expand.Associative
		case base.Kind != expand.Indexed:
			list := []string(nil)
			if base.Kind == expand.String && base.IsSet() {
				list = []string{base.Str}
			}
			base.Kind, base.List, base.Indexes, base.Str = expand.Indexed, list, nil, ""
			base.Set = true
		}
		return base, false, true
	}
	// jaiph-go patch: the element alone takes the array's -i/-l/-u and
	// the declaration's (bash's bind_array_element); += of an integer
	// one adds.
	attrs := withCaseAttrs(base, modes)
	elemValue := func(old string) (string, bool) {
		if !(attrs.Integer || attrs.Lower || attrs.Upper) || r.readonlyHere(name, base) {
			if as.Append {
				return old + val, true
			}
			return val, true
		}
		v := val
		var s string
		var err error
		if attrs.Integer && as.Append {
			s, err = r.integerAppend(old, val)
		} else {
			if as.Append {
				v = old + val
			}
			s, err = r.attrValue(attrs, v)
		}
		if err != nil {
			r.expandErr(intValueError{err})
			return "", false
		}
		return s, true
	}
	if valType == "-A" || base.Kind == expand.Associative {
		base.Set = true
		k, err := expand.AssocKeyRaw(r.ecfg, as.Index, as.IndexRaw)
		r.expandErr(err)
		if !r.exit.ok() {
			return base, false, false
		}
		if base.Kind != expand.Associative {
			base.Map, base.MapSeq = nil, nil
		}
		base.Kind = expand.Associative
		v, ok := elemValue(base.Map[k])
		if !ok {
			return base, false, false
		}
		base.SetAssoc(k, v)
		return base, true, false
	}
	if sub, all := allElemsIndex(as.Index); all {
		// jaiph-go patch: bash's bad subscript, NAME made an array
		// first (see below); a readonly NAME is refused as such
		// before (declare's own check)
		if !base.ReadOnly {
			r.errf("%s[%s]: bad array subscript\n", name, sub)
			if r.errexitOn() {
				r.exit = exitStatus{code: 1, exiting: true}
			}
		}
		list, indexes := []string(nil), []int(nil)
		switch base.Kind {
		case expand.String:
			if base.IsSet() {
				list = []string{base.Str}
			}
		case expand.Indexed:
			list, indexes = base.List, base.Indexes
		}
		base.Kind, base.List, base.Indexes, base.Str = expand.Indexed, list, indexes, ""
		return base, false, true
	}
	k := r.arithm(as.Index)
	if !r.exit.ok() {
		return base, false, false
	}
	if cur := r.lookupVar(name); cur.Kind == expand.Indexed {
		// jaiph-go patch: the element goes into the array as the
		// subscript left it (q[q[0]=2]=P keeps q[0]), as bash binds it
		// after evaluating the subscript.
		base.Kind, base.List, base.Indexes = expand.Indexed, cur.List, cur.Indexes
	}
	var list []string
	var indexes []int
	switch base.Kind {
	case expand.String:
		if base.IsSet() {
			list = []string{base.Str}
		}
	case expand.Indexed:
		list, indexes = slices.Clone(base.List), slices.Clone(base.Indexes)
	}
	if k < 0 {
		if k += internal.IndexedMax(list, indexes) + 1; k < 0 {
			r.errf("%s[%s]: bad array subscript\n", name, printNode(as.Index))
			if r.errexitOn() {
				// bash's errexit ends the shell here even where a
				// condition ignores errexit (declare h[-9]=v || …).
				r.exit = exitStatus{code: 1, exiting: true}
			}
			base.Kind, base.List, base.Indexes, base.Str = expand.Indexed, list, indexes, ""
			return base, false, true
		}
	}
	old := ""
	for i, v := range list {
		if i == k && indexes == nil || indexes != nil && indexes[i] == k {
			old = v
			break
		}
	}
	v, ok := elemValue(old)
	if !ok {
		return base, false, false
	}
	base.Kind, base.Set = expand.Indexed, true
	base.List, base.Indexes = internal.SetIndexedElem(list, indexes, k, v)
	return base, true, false
}

// declNewLocal says a declaration of name makes a new local of this
// function, as bash's make_local_variable: in a function, without -g,
// name is neither its own local nor a call's prefix binding (jaiph-go
// patch).
func (r *Runner) declNewLocal(name string, local, global bool) bool {
	return !r.declSameScope(name, local, global) && !r.declTempBound(name)
}

// declLocal says a declaration builtin's variant, with the flags before
// its word, declares locals: local, or declare/typeset in a function
// without -g (jaiph-go patch).
func (r *Runner) declLocal(variant string, before []*syntax.Assign) bool {
	return variant == "local" || (variant == "declare" || variant == "typeset") && r.inFunc && !declFlag(before, "g")
}

// declTempBound says name's nearest binding is a function call's prefix
// binding (jaiph-go patch).
func (r *Runner) declTempBound(name string) bool {
	o, ok := r.writeEnv.(*overlayEnviron)
	return ok && o.tempBound(name)
}
