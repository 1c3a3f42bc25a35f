// Copyright (c) 2017, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

// Package interp implements an interpreter to execute shell programs
// parsed by the [syntax] package as either [syntax.LangBash]
// or [syntax.LangPOSIX], behaving like Bash as a result.
//
// The interpreter currently aims to behave like a non-interactive shell,
// which is how most shells run scripts, and is more useful to machines.
// In the future, it may gain an option to behave like an interactive shell.
package interp

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// A Runner interprets shell programs. It can be reused, but it is not safe for
// concurrent use. Use [New] to build a new Runner.
//
// Note that writes to Stdout and Stderr may be concurrent if background
// commands are used. If you plan on using an [io.Writer] implementation that
// isn't safe for concurrent use, consider a workaround like hiding writes
// behind a mutex.
//
// Runner's exported fields are meant to be configured via [RunnerOption];
// once a Runner has been created, the fields should be treated as read-only.
type Runner struct {
	// Env specifies the initial environment for the interpreter, which must
	// not be nil. It can only be set via [Env].
	//
	// If it includes a TMPDIR variable describing an absolute directory,
	// it is used as the directory in which to create temporary files needed
	// for the interpreter's use, such as named pipes for process substitutions.
	// Otherwise, [os.TempDir] is used.
	Env expand.Environ

	// writeEnv overlays [Runner.Env] so that we can write environment variables
	// as an overlay.
	writeEnv expand.WriteEnviron

	// Dir specifies the working directory of the command, which must be an
	// absolute path. It can only be set via [Dir].
	Dir string

	// tempDir is either $TMPDIR from [Runner.Env], or [os.TempDir].
	tempDir string

	// Params are the current shell parameters, e.g. from running a shell
	// file or calling a function. Accessible via the $@/$* family of vars.
	// It can only be set via [Params].
	Params []string

	// Separate maps - note that bash allows a name to be both a var and a
	// func simultaneously.
	// Vars is mostly superseded by Env at this point.
	// TODO(v4): remove these

	Vars  map[string]expand.Variable
	Funcs map[string]*syntax.Stmt

	alias map[string]alias

	// callHandler is a function allowing to replace a simple command's
	// arguments. It may be nil.
	callHandler CallHandlerFunc

	// builtinHandlers replace builtins' implementations (jaiph-go patch).
	builtinHandlers map[string]ExecHandlerFunc

	// handlerFuncs tells whether a name the exec handlers run is a
	// function to the shell (jaiph-go patch, [HandlerFunctions]).
	handlerFuncs func(ctx context.Context, name string) (string, bool)

	// noFinalVars: Run does not copy the environment into Vars at its end
	// (jaiph-go patch, NoFinalVars).
	noFinalVars bool

	// execHandler is responsible for executing programs. It must not be nil.
	execHandler ExecHandlerFunc

	// execMiddlewares grows with calls to [ExecHandlers],
	// and is used to construct execHandler when Reset is first called.
	// The slice is needed to preserve the relative order of middlewares.
	execMiddlewares []func(ExecHandlerFunc) ExecHandlerFunc

	// openHandler is a function responsible for opening files. It must not be nil.
	openHandler OpenHandlerFunc

	// readDirHandler is a function responsible for reading directories during
	// glob expansion. It must be non-nil.
	readDirHandler ReadDirHandlerFunc2

	// statHandler is a function responsible for getting file stat. It must be non-nil.
	statHandler StatHandlerFunc

	// accessHandler is a function responsible for checking file access. It must be non-nil.
	accessHandler AccessHandlerFunc

	stdin  stdinFile // e.g. the read end of a pipe
	stdout io.Writer
	stderr io.Writer

	ecfg *expand.Config
	ectx context.Context // just so that Runner.Subshell can use it again

	// didReset remembers whether the runner has ever been reset. This is
	// used so that Reset is automatically called when running any program
	// or node for the first time on a Runner.
	didReset bool

	usedNew bool

	filename string // only if Node was a File

	// jaiph-go patch: bashRand is the generator behind the RANDOM
	// variable, bash's (jaiph_random.go); randomUnset: RANDOM was unset
	// and is an ordinary variable since.
	bashRand    *bashRandom
	randomUnset bool
	// randomLast is RANDOM's value as bash keeps it, for RANDOM+=v: the
	// number drawn last or the value assigned last (jaiph-go patch).
	randomLast string
	// jaiph-go patch: SECONDS as bash's (jaiph_random.go): secondsUnset,
	// unset and an ordinary variable since; secondsRead, read once
	// (only then is it declare -i); secondsLast, its value as bash keeps
	// it (read or assigned last).
	secondsUnset, secondsRead bool
	secondsLast               string
	// linenoUnset: LINENO was unset and is an ordinary variable since
	// (jaiph-go patch).
	linenoUnset bool

	// >0 to break or continue out of N enclosing loops
	breakEnclosing, contnEnclosing int

	// jaiph-go patch: bash's loop_level, the number of loops that
	// `break`/`continue` can leave here: a function call, a subshell
	// `( … )` and a compound command forked for a pipeline or `&` start
	// at 0; a command or process substitution, `eval`, `source` and a
	// simple command in a pipeline keep the caller's.
	loopLevel int
	inFunc    bool
	inSource  bool
	// handlingTraps are the traps whose callbacks are running (trapBit):
	// jaiph-go patch: bash runs no trap inside its own callback, but the
	// ERR trap does run inside the EXIT trap (its SIG_INPROGRESS is per
	// trap).
	handlingTraps uint8

	// track if a sourced script set positional parameters
	sourceSetParams bool

	// noErrExit prevents failing commands from triggering [optErrExit],
	// such as the condition in a [syntax.IfClause].
	noErrExit bool
	// thisCommand is bash's this_command_name as far as the messages
	// that show it do (a list declared over a readonly variable, see the
	// DeclClause case; a declare -i value's arithmetic error while words
	// expand, see expandErr): the simple command running (a function, an
	// eval) and, after it, `[[` or `((` after one ran, empty after any
	// other simple command and while prefix assignments expand (jaiph-go
	// patch).
	thisCommand string
	// redirCommand is the name of the simple command whose redirections
	// are being expanded: bash's this_command_name then, which its
	// arithmetic names in a declare -i value's error (jaiph-go patch).
	redirCommand string
	// childRedirs: the redirections being expanded are an external
	// command's, which bash performs in the child it forked, so a fatal
	// error there ends that child only and runs no EXIT trap of the
	// shell's (jaiph-go patch, see exitTrapInPlace)
	childRedirs bool
	// comsubNoErrExit is noErrExit while the words of a simple command
	// or the operands of a [[ ]] expand, false elsewhere: the only
	// expansions whose command substitutions ignore errexit and the ERR
	// trap with the command, as bash's comsub_ignore_return (for words,
	// redirections, here-documents and arithmetic are not among them).
	// jaiph-go patch.
	comsubNoErrExit bool
	// comsubIgnoreReturn: this shell is a command substitution started
	// with comsubNoErrExit, so a trap's commands ignore errexit and the
	// ERR trap too (bash parses them with CMD_IGNORE_RETURN there).
	// jaiph-go patch.
	comsubIgnoreReturn bool
	// errExitIgnored is [ErrExitIgnored]: noErrExit at the start of each
	// Run (jaiph-go patch).
	errExitIgnored bool
	// noErrExitOnce exempts the status of the command just run from
	// errexit (jaiph-go patch: bash's `for - in …` fails with status 1
	// without ending the shell).
	noErrExitOnce bool

	// redirLevel counts the statements with redirections being run;
	// simpleRedirLevels are the levels of those that are simple commands;
	// exitUndo undoes the redirections kept in force for the EXIT trap
	// (jaiph-go patch: see [Runner.keepOnExit]).
	redirLevel int
	// trapLine is the line the ERR trap's commands are numbered from
	// ($LINENO: the failed command's), 0 for none (jaiph-go patch).
	trapLine uint
	// cmdLine is the line of the last simple command started (jaiph-go
	// patch: bash's line_number, see trapLine).
	cmdLine uint
	// cmdEndLine is the line the last simple command started ends on:
	// bash's line_number once it read it, which an eval string's first
	// line takes (jaiph-go patch).
	cmdEndLine uint
	// childStmt is the statement a child runs as a whole: a pipeline's
	// element or a `&` job, whose own failure neither runs the ERR trap
	// nor ends the child (jaiph-go patch).
	childStmt *syntax.Stmt
	// jumpInverts: the innermost `( … )` of this process has one negated
	// command, whose status bash's execute_in_subshell inverts after a
	// jump to its top level too; a pipeline's simple command forks with
	// no frame of its own and lands there as well (jaiph-go patch, see
	// jaiph_subshellnot.go).
	jumpInverts       bool
	simpleRedirLevels []int
	exitUndo          []func()
	// execFiles are the files this shell's `exec` redirections opened
	// (jaiph-go patch: jaiph_execfiles.go).
	execFiles []io.Closer
	// byExec: the exec builtin is running its program (jaiph-go patch).
	byExec bool

	// unsetFailed: unsetElem met a bad subscript (jaiph-go patch).
	unsetFailed bool
	// stdPathExec: the command being run is `command -p`'s, looked up in
	// StandardPath (jaiph-go patch).
	stdPathExec bool
	// hashed is bash's table of command paths, shared with subshells
	// until either writes (hashedShared); prefixPath: PATH is the
	// running command's prefix binding (jaiph-go patch, jaiph_hash.go).
	hashed       map[string]hashEntry
	hashedShared bool
	prefixPath   bool

	// unnamedFailure: an array subscript's arithmetic failed
	// (subscriptErr), or set -u stopped a declare -i value's
	// (arithAssignFatal): an error bash names after no builtin, for
	// SetVar's FatalAssignError (jaiph-go patch).
	unnamedFailure bool
	// reportedFailure: the failure was bash's report_error under
	// errexit (reportError; arithAssignFatal for a declare -i value's
	// arithmetic, where a $(< file) that fails may be its cause too),
	// named after no builtin, the shell ending with the status r.exit
	// holds, for SetVar's FatalAssignError (jaiph-go patch).
	reportedFailure bool
	// holdExitTrap: SetVar is running an assignment whose messages it
	// holds for its caller to print; an EXIT trap due in place
	// (exitTrapInPlace) waits until they are printed (heldExitTrap, run
	// by runHeldExitTrap when the builtin returns), as bash prints the
	// message before its report_error exits (jaiph-go patch).
	holdExitTrap, heldExitTrap bool
	// errexitOff: an eval or source run where errexit is ignored runs
	// with bash's exit_immediately_on_error off (see errexitOn).
	errexitOff bool

	// statusBeforeReturn is $? when the last `return` ran: what a RETURN
	// trap sees as $? (jaiph-go patch).
	statusBeforeReturn uint8

	// The current and last exit statuses. They can only be different if
	// the interpreter is in the middle of running a statement. In that
	// scenario, 'exit' is the status for the current statement being run,
	// and 'lastExit' corresponds to the previous statement that was run.
	exit     exitStatus
	lastExit exitStatus

	// jaiph-go patch: pipeKilled is set by a builtin's write into a pipe
	// whose reader is gone; beforeKill is $? for the EXIT trap of a shell
	// that died of it (jaiph_sigpipe.go).
	pipeKilled bool
	beforeKill uint8
	// jaiph-go patch: stdinClosed: a redirection closed standard input
	// (<&-), which a program the shell runs then has no descriptor 0 for
	// (jaiph_closedfd.go); a nil stdin otherwise reads as /dev/null.
	stdinClosed bool
	// jaiph-go patch: noSignalReport: this shell does not report the
	// commands a signal killed (jaiph_sigreport.go).
	noSignalReport bool
	// jaiph-go patch: inTrap is set while a trap's commands run, and
	// trapSaved is $? before they did (bash's running_trap and
	// trap_saved_exit_value: `return` alone gives it back, and so does
	// `exit` alone in the EXIT trap, inExitTrap).
	inTrap, inExitTrap bool
	trapSaved          uint8
	// jaiph-go patch: outErr is the first write error of the builtin
	// running (jaiph_chkwrite.go).
	outErr error

	lastExpandExit exitStatus // used to surface exit statuses while expanding fields
	// jaiph-go patch: substsDone counts the command substitutions run,
	// for a command without a name, whose status is that of the last
	// one, in its redirections too.
	substsDone int
	// assignWord is the last assignment's value word, expanded, as
	// xtrace prints it (jaiph-go patch).
	assignWord string
	// binding is the scalar whose declare -i value is being evaluated:
	// visible, empty when unset, as bash's bind_variable makes it
	// before it evaluates the value (jaiph-go patch, whileBinding).
	binding string

	// bgProcs holds all background shells spawned by this runner.
	// jaiph-go patch: their PIDs are numbers above Linux's PID_MAX_LIMIT
	// (see jaiph_jobs.go), so that $! is a number as in bash yet never
	// names a real process.
	//
	// Note that each shell only tracks its direct children;
	// subshells do not share nor inherit the background PIDs they can wait for.
	bgProcs []*bgProc
	// parentJobs are the jobs of the shells this subshell was forked
	// from: bash's `jobs -p` in a subshell (`jobs -p | wc -l`) still lists
	// them (jaiph-go patch).
	parentJobs []*bgProc

	opts runnerOpts

	origDir    string
	origParams []string
	origOpts   runnerOpts
	origStdin  stdinFile
	origStdout io.Writer
	origStderr io.Writer

	// Most scripts don't use pushd/popd, so make space for the initial PWD
	// without requiring an extra allocation.
	dirStack     []string
	dirBootstrap [1]string

	optState getopts

	// keepRedirs is set by "exec" so that its statement's redirections
	// apply to the current shell, and not just the command.
	// It is consumed by the enclosing statement once it finishes.
	keepRedirs bool

	// jaiph-go patch: traps by signal number (0 is EXIT, trapErr is ERR; ""
	// ignores the signal), the parent's traps that trap -p shows in a
	// subshell until it sets one, and the ignored and trapped signals as bit
	// masks that kill reads from other goroutines. See jaiph_jobs.go.
	traps                  map[int]string
	shownTraps             map[int]string
	sigIgnored, sigTrapped atomic.Uint64
	inSubshell             bool
	// shellSigs carries the signals the shell's subshells and jobs send to
	// $$ (kill -USR1 $$ in a job), which the shell (not a subshell) takes
	// between commands and in wait, as bash runs a trap when it gets to
	// it (jaiph-go patch, jaiph_jobs.go).
	shellSigs  chan int
	inShellSig bool
	// jaiph-go patch: funcStack holds the names of the running shell
	// functions, innermost first, for FUNCNAME; bashPID is BASHPID in a
	// subshell (0 in the main shell, where it is the process id).
	funcStack []string
	// funcnameMain: FUNCNAME is ["main"] with no function running, what
	// bash leaves after a jump to its top level out of a function
	// (jaiph-go patch, see exitStatus.leftFuncs).
	funcnameMain bool
	bashPID      int
	// jaiph-go patch: subshellFuncs is len(funcStack) when this subshell
	// started: a `return` at that depth ends the subshell (returnEnds).
	subshellFuncs int
	// jaiph-go patch: sourceFrames counts the "source" entries of
	// funcStack (bash pushes one per sourced file; they are no function
	// for FUNCNEST, and FUNCNAME shows only within a function).
	sourceFrames int
	// jaiph-go patch: running counts the background jobs and process
	// substitutions still running, of this shell and of every subshell
	// forked from it, so the embedder can wait for jobs a script never
	// waited for (WaitBackground, jaiph_jobs.go).
	running *jobCount
	// jaiph-go patch: jobRoot is the context whose end cancels background
	// jobs (jaiph_jobs.go, WithJobRoot); a job's end does not cancel the
	// jobs it started, as a bash job's exit leaves its children running.
	jobRoot context.Context

	// subshellLevel is BASH_SUBSHELL, the subshell nesting depth
	// (jaiph-go patch).
	subshellLevel int

	// noSplitStar is bash's expand_no_split_dollar_star as this shell
	// started: set in a command substitution begun while a word that is
	// not split expanded, and for its whole life (jaiph-go patch, see
	// expand.Config.NoSplitStar).
	noSplitStar bool

	// declFromCall is set while a declaration builtin reached as a
	// call (not parsed as a DeclClause) runs: the call was traced.
	declFromCall bool // jaiph-go patch

	// fds holds the open file descriptors 3 and up (jaiph-go patch).
	// It is replaced, never modified, so that it can be restored.
	fds map[int]*fdEntry

	// traceDepth counts nested command substitutions, for xtrace's
	// "++" prefixes (jaiph-go patch).
	traceDepth int

	// elemExitTrap is, in a pipeline's element that is a simple command,
	// the shell's EXIT trap: bash's child runs it when a fatal error
	// (${u:?}, a division by 0) ends it while the command's words and
	// assignments expand, before the child's traps are reset
	// (`trap 'echo T' EXIT; echo $((1/0)) | cat` prints T twice).
	// Set while those expand only (jaiph-go patch).
	elemExitTrap string
	// elemErrTrap and elemSubshellLevel are the shell's ERR trap (if
	// elemHasErrTrap) and BASH_SUBSHELL for that trap (jaiph-go patch).
	elemErrTrap       string
	elemHasErrTrap    bool
	elemSubshellLevel int
	// savedErrTraps are the ERR traps the functions running took away
	// as they were called, innermost last (jaiph-go patch, topErrTrap).
	savedErrTraps []string
	// funcDecls are the definitions of the functions defined, for
	// declare -f (jaiph-go patch): replaced, never changed (setFuncDecl).
	funcDecls map[string]*syntax.FuncDecl

	// pendingRedirs applies the redirections of the simple command being
	// run once its words are expanded (jaiph-go patch).
	pendingRedirs func() bool
	// forked is set by call when the command it ran is one bash would
	// fork to run (an external program, not a function, builtin or
	// handler function), for the {var} redirections of its statement
	// (jaiph-go patch, stmtSync).
	forked bool
	// noForkCall is the simple command bash would run without forking
	// in a command substitution (jaiph-go patch, see jaiph_nofork.go);
	// callNoFork says the call running now is it; execedTail that an
	// external command so run has ended the substitution, whose EXIT
	// trap bash's exec took away.
	noForkCall                           *syntax.CallExpr
	noForkChosen, callNoFork, execedTail bool

	// lastArg is $_, the last argument of the previous simple command;
	// startTime is when the shell started, for SECONDS (jaiph-go patch).
	lastArg   string
	startTime time.Time
}

// exitStatus holds the state of the shell after running one command.
// Beyond the exit status code, it also holds whether the shell should return or exit,
// as well as any Go error values that should be given back to the user.
//
// TODO(v4): consider replacing ExitStatus with a struct like this,
// so that an [ExecHandlerFunc] can e.g. mimic `exit 0` or fatal errors
// with specific exit codes.
type exitStatus struct {
	// code is the exit status code.
	// When code is zero, err must be nil.
	code uint8

	// TODO: consider an enum, as only one of these should be set at a time
	returning bool // whether the current function `return`ed
	exiting   bool // whether the current shell is exiting
	fatalExit bool // whether the current shell is exiting due to a fatal error; err below must not be nil
	discard   bool // jaiph-go patch: with exiting, only to the next top-level command (FUNCNEST)
	// badUsage: the discard leaves EX_BADUSAGE (2), which bash's
	// reader_loop keeps, where others leave 1: a failed ${v:=w}
	// (jaiph-go patch).
	badUsage bool
	// undoFrom is 1 + the redirection level from which the redirections
	// are undone while exiting, 0 for none (jaiph-go patch: see
	// [Runner.keepOnExit]).
	undoFrom int
	killed   bool // jaiph-go patch: with exiting, the shell died of SIGPIPE (jaiph_sigpipe.go)
	// jaiph-go patch: the discard is a failed assignment's (readonly,
	// bad subscript), which errexit turns into the shell's exit.
	assignFailed bool
	// undoAll: the shell exits by a jump to bash's top level after
	// top_level_cleanup, which undoes every redirection in force before
	// the EXIT trap runs: an arithmetic error (evalexp's), or an
	// expansion error bash reports without errexit (jaiph-go patch: see
	// [Runner.keepOnExit]).
	undoAll bool
	// expDiscard: with exiting, the error is one bash's expansion
	// discards the command for (DISCARD: an arithmetic error outside a
	// subscript, a bad substitution, a failed glob, …; not set -u's or
	// ${u:?}'s, which end the shell): an eval string or a sourced file
	// goes on with its next line (jaiph-go patch, see evalStmts).
	expDiscard bool
	// popScopes: the jump to bash's top level pops every function's
	// scope before the EXIT trap runs, which then sees no local (jaiph-go
	// patch, see [Runner.exitTraps]): after an arithmetic error (in
	// $((…)), a substring's length, a value for a declare -i variable)
	// or too many arguments to a builtin always; after another fatal
	// expansion error or a readonly assignment only with errexit off
	// (under errexit bash's report_error exits in place).
	popScopes bool
	// errexitFuncs: the functions running when errexit ended the shell,
	// innermost last; bash's FUNCNAME still lists them in the EXIT trap,
	// whose variables are the globals (jaiph-go patch, see
	// [Runner.exitTraps]).
	errexitFuncs *[]string // a pointer: exitStatus stays comparable
	// leftFuncs: a popScopes jump left at least one function; bash's
	// FUNCNAME is then ["main"], in the EXIT trap and after (jaiph-go
	// patch, see [Runner.exitTraps]).
	leftFuncs bool

	// err holds the error information for a non-zero exit status code or fatal error.
	// Used so that running a single statement with a custom handler
	// which returns a non-fatal Go error, such as a Go error wrapping [NewExitStatus],
	// can be returned by [Runner.Run] without being lost entirely.
	err error
}

// clear sets the exit status code and error to zero, as long as the exit status
// was not set by `return`, `exit`, or a fatal error.
func (e *exitStatus) clear() {
	if e.returning || e.exiting || e.fatalExit {
		return
	}
	e.code = 0
	e.err = nil
}

func (e *exitStatus) ok() bool { return e.code == 0 }

// leaveSubshell is the status a subshell hands its parent (jaiph-go
// patch): an `exit` in it ends the subshell only, and so does a `return`
// (a subshell of a function, `( return 3 )`), as bash's subshell is a
// child process; the parent function goes on.
func (e *exitStatus) leaveSubshell() {
	e.exiting = false
	e.returning = false
	e.killed = false // jaiph-go patch: nor die of its SIGPIPE
	e.undoAll = false
	e.popScopes = false
}

// oneIf sets the exit status code to 1 if b is true.
// Note that it assumes the exit status hasn't been set yet,
// meaning that [exitStatus.code] and [exitStatus.err] are zero values.
func (e *exitStatus) oneIf(b bool) {
	if b {
		e.code = 1
	}
}

func (e *exitStatus) fatal(err error) {
	if e.fatalExit || err == nil {
		return
	}
	e.exiting = true
	e.fatalExit = true
	e.err = err
	if e.code == 0 {
		e.code = 1
	}
}

func (e *exitStatus) fromHandlerError(err error) {
	if err == nil {
		return
	}
	if exit, ok := errors.AsType[errBuiltinExitStatus](err); ok {
		*e = exitStatus(exit)
	} else if fa, ok := errors.AsType[FatalAssignError](err); ok {
		e.code, e.exiting = cmp.Or(fa.code, 1), true // jaiph-go patch: see FatalAssignError
	} else if es, ok := errors.AsType[ExitStatus](err); ok {
		e.err = err
		e.code = uint8(es)
	} else {
		e.fatal(err) // handler's custom fatal error
	}
}

type bgProc struct {
	// closed when the background process finishes,
	// after which point the result fields below are set.
	done chan struct{}

	exit *exitStatus

	// jaiph-go patch: job control (see jaiph_jobs.go).
	pid      int                     // what $! expands to
	job      int                     // job number for %N; 0 for a process substitution
	cancel   context.CancelCauseFunc // kill cancels with the signal as cause
	runner   *Runner                 // the job's shell, for its ignored signals
	disowned bool
	running  *jobCount     // the Runner's running count (WaitBackground)
	reaped   bool          // reported by wait
	gone     bool          // finished before a later foreground process ended
	texts    []jobProcText // its processes' command texts, for %name (jaiph_jobspec.go)
	// specWaited: wait reported it by job spec; bash deletes it from the
	// table when it makes the next job
	specWaited bool
	// holds are the files the job's descriptors referred to when it
	// started: the shell closing its own copy leaves the job's open, as
	// a forked process's are (jaiph-go patch: jaiph_execfiles.go).
	holds []any
}

type alias struct {
	args  []*syntax.Word
	blank bool
	src   string // jaiph-go patch: the value as written, as bash shows it
}

// New creates a new Runner, applying a number of options. If applying any of
// the options results in an error, it is returned.
//
// Any unset options fall back to their defaults. For example, not supplying the
// environment falls back to the process's environment, and not supplying the
// standard output writer means that the output will be discarded.
func New(opts ...RunnerOption) (*Runner, error) {
	r := &Runner{
		usedNew:        true,
		openHandler:    DefaultOpenHandler(),
		readDirHandler: DefaultReadDirHandler2(),
		statHandler:    DefaultStatHandler(),
		accessHandler:  DefaultAccessHandler(),
		running:        new(jobCount), // jaiph-go patch: WaitBackground
	}
	r.dirStack = r.dirBootstrap[:0]
	// turn "on" the default Bash options
	for i, opt := range bashOptsTable {
		r.opts[len(posixOptsTable)+i] = opt.defaultState
	}

	for _, opt := range opts {
		if err := opt(r); err != nil {
			return nil, err
		}
	}

	// Set the default fallbacks, if necessary.
	if r.Env == nil {
		Env(nil)(r)
	}
	if r.Dir == "" {
		if err := Dir("")(r); err != nil {
			return nil, err
		}
	}
	if r.stdout == nil || r.stderr == nil {
		StdIO(r.stdin, r.stdout, r.stderr)(r)
	}
	return r, nil
}

// RunnerOption can be passed to [New] to alter a [Runner]'s behaviour.
// It can also be applied directly on an existing Runner,
// such as interp.Params("-e")(runner) or interp.StdIO(nil, w, w)(runner).
//
// Note that [Env] and [Dir] only take effect the next time that the runner is
// reset, as [Runner.Reset] derives state from them, such as the variables and
// the value of PWD. Since running a node only resets a runner the first time
// around, applying either option after a run requires an explicit reset.
type RunnerOption func(*Runner) error

// TODO(v4): consider making [Env] and [Dir] fail when applied after a reset,
// rather than being silently held back until the next one.

// Env sets the interpreter's environment. If nil, a copy of the current
// process's environment is used.
func Env(env expand.Environ) RunnerOption {
	return func(r *Runner) error {
		if env == nil {
			env = expand.ListEnviron(os.Environ()...)
		}
		r.Env = env
		return nil
	}
}

// Dir sets the interpreter's working directory. If empty, the process's current
// directory is used.
func Dir(path string) RunnerOption {
	return func(r *Runner) error {
		if path == "" {
			path, err := os.Getwd()
			if err != nil {
				if runtime.GOOS == "js" {
					// js/wasm has no working directory; virtual
					// filesystems set Runner.Dir themselves
					r.Dir = "/"
					return nil
				}
				return fmt.Errorf("could not get current dir: %w", err)
			}
			r.Dir = path
			return nil
		}
		path, err := filepath.Abs(path)
		if err != nil {
			return fmt.Errorf("could not get absolute dir: %w", err)
		}
		info, err := os.Stat(path)
		if err != nil {
			return fmt.Errorf("could not stat: %w", err)
		}
		if !info.IsDir() {
			return fmt.Errorf("%s is not a directory", path)
		}
		r.Dir = path
		return nil
	}
}

// Interactive configures the interpreter to behave like an interactive shell,
// akin to Bash. Currently, this only enables the expansion of aliases,
// but later on it should also change other behavior.
func Interactive(enabled bool) RunnerOption {
	return func(r *Runner) error {
		r.opts[optExpandAliases] = enabled
		return nil
	}
}

// TODO(v4): split the "set" options into [PosixOpts], mirroring [BashOpts],
// leaving Params for the positional parameters alone. Accepting both means that
// Params with user-supplied arguments can set options by accident.

// Params populates the shell options and parameters. For example, Params("-e",
// "--", "foo") will set the "-e" option and the parameters ["foo"], and
// Params("+e") will unset the "-e" option and leave the parameters untouched.
//
// This is similar to what the interpreter's "set" builtin does.
// See [BashOpts] for the Bash options which "set" cannot change.
func Params(args ...string) RunnerOption {
	return func(r *Runner) error {
		fp := flagParser{remaining: args}
		for fp.more() {
			flag := fp.flag()
			if flag == "+" {
				// jaiph-go patch: as bash's set_builtin, a lone "+"
				// is a flag word with no flags, ignored (`set + -`
				// leaves the parameters alone; it ended the options).
				continue
			}
			if flag == "-" {
				// Bash turns off the -x and -v options; note that
				// we don't support the -v option at all.
				r.opts[optXTrace] = false
				if args := fp.args(); len(args) > 0 {
					r.Params = args
				}
				return nil
			}
			enable := flag[0] == '-'
			if flag == "+m" {
				continue // jaiph-go patch: job control is always off
			}
			if flag[1] != 'o' {
				opt := r.posixOptByFlag(flag[1])
				if opt == nil && enable && (flag[1] == 'B' || flag[1] == 'h') {
					continue // jaiph-go patch: on already (fixedSetOpt)
				}
				if opt == nil {
					return fmt.Errorf("%s: invalid option", flag)
				}
				*opt = enable
				continue
			}
			// jaiph-go patch: as bash's set_builtin, each o of a flag
			// word takes the next word as its option name (`set -oo
			// errexit noglob`; the rest of "-oo" was taken as the
			// name); a next word that is missing, empty or starts with
			// - or + is not taken, and the options are listed.
			value := ""
			if len(fp.remaining) > 0 {
				if v := fp.remaining[0]; v != "" && v[0] != '-' && v[0] != '+' {
					value = v
					fp.remaining = fp.remaining[1:]
				}
			}
			if value == "" && enable {
				for _, o := range r.setOptStates() { // jaiph-go patch: bash's list
					r.printOptLine(o.name, o.on, true)
				}
				continue
			}
			if value == "" && !enable {
				for _, o := range r.setOptStates() {
					setFlag := "+o"
					if o.on {
						setFlag = "-o"
					}
					r.outf("set %s %s\n", setFlag, o.name)
				}
				continue
			}
			opt := r.posixOptByName(value)
			if on, listed := fixedSetOpt(value); opt == nil && listed && on == enable {
				// jaiph-go patch: an option the interpreter does not
				// run set to the value it lists (eval "$(set +o)"
				// restoring the options) changes nothing
				continue
			}
			if opt == nil {
				return fmt.Errorf("%s: invalid option name", value) // jaiph-go patch: bash's text
			}
			*opt = enable
		}
		if args := fp.args(); args != nil {
			// If "--" wasn't given and there were zero arguments,
			// we don't want to override the current parameters.
			r.Params = args

			// Record whether a sourced script sets the parameters.
			if r.inSource {
				r.sourceSetParams = true
			}
		}
		return nil
	}
}

// BashOpts sets or unsets Bash shell options. For example,
// BashOpts("-s", "extglob", "globstar") sets both the "extglob" and "globstar"
// options, and BashOpts("-u", "extglob") unsets "extglob" alone.
//
// Just like the builtin, "-o" restricts the names to the POSIX options,
// which [Params] can set as well.
//
// This is similar to what the interpreter's "shopt" builtin does, except that
// no arguments is a no-op rather than printing all options.
func BashOpts(args ...string) RunnerOption {
	return func(r *Runner) error {
		mode := ""
		posixOpts := false
		fp := flagParser{remaining: args}
		for fp.more() {
			switch flag := fp.flag(); flag {
			case "-s", "-u":
				mode = flag
			case "-o":
				posixOpts = true
			default:
				return fmt.Errorf("invalid option: %q", flag)
			}
		}
		names := fp.args()
		if len(names) > 0 && mode == "" {
			return fmt.Errorf("either -s or -u must be given to set or unset options")
		}
		for _, name := range names {
			opt, supported := (*bool)(nil), true
			if posixOpts {
				opt = r.posixOptByName(name)
			} else {
				opt, supported = r.bashOptByName(name)
			}
			if opt == nil {
				return fmt.Errorf("invalid option name: %q", name)
			}
			if !supported {
				return fmt.Errorf("unsupported option: %q", name)
			}
			*opt = mode == "-s"
		}
		if r.didReset {
			// Some options affect expansion; before the first reset,
			// the reset itself takes care of this.
			r.updateExpandOpts()
		}
		return nil
	}
}

// CallHandler sets the call handler. See [CallHandlerFunc] for more info.
func CallHandler(f CallHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.callHandler = f
		return nil
	}
}

// BuiltinHandler replaces the implementation of the builtin name with f
// (jaiph-go patch). Unlike an [ExecHandlerFunc] or a [CallHandlerFunc]
// rewrite, f runs only where the builtin would: after shell functions, and
// for "builtin name" and "command name". f gets the builtin's name as
// args[0]; its context includes a [HandlerContext], whose [HandlerContext.SetVar]
// and [HandlerContext.BashOpt] serve builtins like "printf -v" and "echo".
func BuiltinHandler(name string, f ExecHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		if !IsBuiltin(name) {
			return fmt.Errorf("%s is not a builtin", name)
		}
		if r.builtinHandlers == nil {
			r.builtinHandlers = make(map[string]ExecHandlerFunc)
		}
		r.builtinHandlers[name] = f
		return nil
	}
}

// HandlerFunctions (jaiph-go patch) names the commands that the exec
// handlers implement as functions of the program (a host's own callable
// units): "command -v", "command -V", "type" and "declare -F/-f NAME" report
// a name for which f returns true as a shell function (after the runner's
// own functions, which take precedence), where they would otherwise look it
// up on PATH. f gets the builtin's context and returns the one command its
// printed definition holds ("declare -f NAME", "type NAME").
func HandlerFunctions(f func(ctx context.Context, name string) (string, bool)) RunnerOption {
	return func(r *Runner) error {
		r.handlerFuncs = f
		return nil
	}
}

// ErrExitIgnored makes the runner start in a context where bash ignores
// errexit, as the body of a function called in an `&&`/`||` list, an `if`
// or `while` condition or after `!` runs (jaiph-go patch): a failing
// command neither exits nor runs the ERR trap, even after `set -e`, while
// the options themselves (errexit, pipefail, $-) stay as set. See
// [HandlerContext.ErrExitIgnored] for the caller's side.
func ErrExitIgnored() RunnerOption {
	return func(r *Runner) error {
		r.errExitIgnored = true
		return nil
	}
}

// NoFinalVars makes Run leave Vars alone at its end, instead of copying
// every variable of the environment into it (jaiph-go patch): an embedder
// that never reads Vars saves a copy of the whole environment per Run.
func NoFinalVars() RunnerOption {
	return func(r *Runner) error {
		r.noFinalVars = true
		return nil
	}
}

// isHandlerFunc reports whether name is a function of the exec handlers
// ([HandlerFunctions]) that no shell function shadows.
func (r *Runner) isHandlerFunc(ctx context.Context, name string) bool {
	// As handlerFunc, without building the definition (this runs after
	// every external command).
	if r.handlerFuncs == nil || r.Funcs[name] != nil {
		return false
	}
	_, ok := r.handlerFuncs(ctx, name)
	return ok
}

// handlerFunc is name's definition as a function of the exec handlers.
func (r *Runner) handlerFunc(ctx context.Context, name string) (string, bool) {
	if r.handlerFuncs == nil || r.Funcs[name] != nil {
		return "", false
	}
	cmd, ok := r.handlerFuncs(ctx, name)
	if !ok {
		return "", false
	}
	return name + " () \n{ \n    " + cmd + "\n}\n", true
}

// ExecHandler sets one command execution handler,
// which replaces [DefaultExecHandler](2 * time.Second).
//
// Deprecated: use [ExecHandlers] instead, which allows chaining handlers more easily
// like middleware functions.
func ExecHandler(f ExecHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.execHandler = f
		return nil
	}
}

// ExecHandlers appends middlewares to handle command execution.
// The middlewares are chained from first to last, and the first is called by the runner.
// Each middleware is expected to call the "next" middleware at most once.
//
// For example, a middleware may implement only some commands.
// For those commands, it can run its logic and avoid calling "next".
// For any other commands, it can call "next" with the original parameters.
//
// Another common example is a middleware which always calls "next",
// but runs custom logic either before or after that call.
// For instance, a middleware could change the arguments to the "next" call,
// or it could print log lines before or after the call to "next".
//
// The last exec handler is always [DefaultExecHandler](2 * time.Second).
func ExecHandlers(middlewares ...func(next ExecHandlerFunc) ExecHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.execMiddlewares = append(r.execMiddlewares, middlewares...)
		return nil
	}
}

// TODO: consider porting the middleware API in [ExecHandlers] to [OpenHandler],
// [ReadDirHandler2], and [StatHandler].

// TODO(v4): now that [ExecHandlers] allows calling a next handler with changed
// arguments, one of the two advantages of [CallHandler] is gone. The other is the
// ability to work with builtins; if we make [ExecHandlers] work with builtins, we
// could join both APIs.

// OpenHandler sets file open handler. See [OpenHandlerFunc] for more info.
func OpenHandler(f OpenHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.openHandler = f
		return nil
	}
}

// ReadDirHandler sets the read directory handler. See [ReadDirHandlerFunc] for more info.
//
// Deprecated: use [ReadDirHandler2].
func ReadDirHandler(f ReadDirHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.readDirHandler = func(ctx context.Context, path string) ([]fs.DirEntry, error) {
			infos, err := f(ctx, path)
			if err != nil {
				return nil, err
			}
			entries := make([]fs.DirEntry, len(infos))
			for i, info := range infos {
				entries[i] = fs.FileInfoToDirEntry(info)
			}
			return entries, nil
		}
		return nil
	}
}

// ReadDirHandler2 sets the read directory handler. See [ReadDirHandlerFunc2] for more info.
func ReadDirHandler2(f ReadDirHandlerFunc2) RunnerOption {
	return func(r *Runner) error {
		r.readDirHandler = f
		return nil
	}
}

// StatHandler sets the stat handler. See [StatHandlerFunc] for more info.
func StatHandler(f StatHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.statHandler = f
		return nil
	}
}

// AccessHandler sets the file access handler. See [AccessHandlerFunc] for more info.
func AccessHandler(f AccessHandlerFunc) RunnerOption {
	return func(r *Runner) error {
		r.accessHandler = f
		return nil
	}
}

// StdIO configures an interpreter's standard input, standard output, and
// standard error. If out or err are nil, they default to a writer that discards
// the output.
//
// Note that providing a non-nil standard input other than [*os.File] will require
// an [os.Pipe] and spawning a goroutine to copy into it,
// as an [os.File] is the only way to share a reader with subprocesses.
// This may cause the interpreter to consume the entire reader.
// See [os/exec.Cmd.Stdin].
//
// When providing an [*os.File] as standard input, consider using an [os.Pipe]
// as it has the best chance to support cancellable reads via [os.File.SetReadDeadline],
// so that cancelling the runner's context can stop a blocked standard input read.
//
// On js/wasm, where there are no subprocesses nor OS pipes, any reader is used
// directly, and read deadlines are not supported: cancelling the runner's
// context cannot stop a blocked standard input read.
func StdIO(in io.Reader, out, err io.Writer) RunnerOption {
	return func(r *Runner) error {
		stdin, _err := newStdinFile(in)
		if _err != nil {
			return _err
		}
		r.stdin, r.stdinClosed = stdin, false
		if out == nil {
			out = io.Discard
		}
		r.stdout = out
		if err == nil {
			err = io.Discard
		}
		r.stderr = err
		return nil
	}
}

func (r *Runner) posixOptByName(name string) *bool {
	for i, opt := range &posixOptsTable {
		if opt.name == name {
			return &r.opts[i]
		}
	}
	return nil
}

// posixOptFlags returns the one-character flags of the enabled POSIX options,
// as held by the "$-" special parameter.
func (r *Runner) posixOptFlags() string {
	// Note that some options, such as pipefail, have no one-character flag.
	flags := make([]byte, 0, len(posixOptsTable))
	for i, opt := range &posixOptsTable {
		if opt.flag != ' ' && r.opts[i] {
			flags = append(flags, opt.flag)
		}
	}
	// jaiph-go patch: like bash, list hashall (h) and braceexpand (B),
	// which are always on here, and order lowercase before uppercase.
	flags = append(flags, 'h', 'B')
	slices.SortFunc(flags, func(a, b byte) int {
		if (a >= 'a') != (b >= 'a') {
			if a >= 'a' {
				return -1
			}
			return 1
		}
		return int(a) - int(b)
	})
	return string(flags)
}

// optsList is the value of SHELLOPTS (posix: the set -o options that are
// on, with braceexpand, hashall and interactive-comments, always on here)
// or BASHOPTS (the shopt options that are on; an unsupported one keeps its
// bash default), sorted and joined by ':' as bash's (jaiph-go patch).
func (r *Runner) optsList(posix bool) string {
	var on []string
	if posix {
		on = append(on, "braceexpand", "hashall", "interactive-comments")
		for i, opt := range &posixOptsTable {
			if r.opts[i] {
				on = append(on, opt.name)
			}
		}
	} else {
		for i, opt := range &bashOptsTable {
			if r.opts[len(posixOptsTable)+i] {
				on = append(on, opt.name)
			}
		}
	}
	slices.Sort(on)
	return strings.Join(on, ":")
}

func (r *Runner) posixOptByFlag(flag byte) *bool {
	for i, opt := range &posixOptsTable {
		if opt.flag == flag {
			return &r.opts[i]
		}
	}
	return nil
}

func (r *Runner) bashOptByName(name string) (status *bool, supported bool) {
	for i, opt := range bashOptsTable {
		if opt.name == name {
			index := len(posixOptsTable) + i
			return &r.opts[index], opt.supported
		}
	}
	return nil, false
}

// runnerOpts contains all POSIX Shell and Bash options as one contiguous table.
type runnerOpts [len(posixOptsTable) + len(bashOptsTable)]bool

type posixOpt struct {
	flag byte   // one-character flag form for this option; a space if none exists
	name string // full name of the option
}

type bashOpt struct {
	name         string
	defaultState bool // Bash's default value for this option
	supported    bool // whether we support the option's non-default state
}

var posixOptsTable = [...]posixOpt{
	// sorted alphabetically by name
	{'a', "allexport"},
	{'e', "errexit"},
	{'n', "noexec"},
	{'f', "noglob"},
	{'u', "nounset"},
	{'x', "xtrace"},
	{' ', "pipefail"},
	{'C', "noclobber"}, // jaiph-go patch; kept last so indexes above stay
	{'E', "errtrace"},  // jaiph-go patch: functions and subshells keep the ERR trap
	{' ', "nolog"},     // jaiph-go patch: bash's option that does nothing, set and listed
}

var bashOptsTable = [...]bashOpt{
	// supported options, sorted alphabetically by name
	{
		name:         "dotglob",
		defaultState: false,
		supported:    true,
	},
	{
		name:         "expand_aliases",
		defaultState: false,
		supported:    true,
	},
	{
		name:         "extglob",
		defaultState: false,
		supported:    true,
	},
	{
		name:         "globstar",
		defaultState: false,
		supported:    true,
	},
	{
		name:         "nocaseglob",
		defaultState: false,
		supported:    true,
	},
	{
		name:         "nullglob",
		defaultState: false,
		supported:    true,
	},
	// jaiph-go patch: options implemented for bash parity; the
	// const block below lists them in this same order.
	{name: "failglob", supported: true},
	{name: "inherit_errexit", supported: true},
	{name: "lastpipe", supported: true},
	{name: "nocasematch", supported: true},
	{name: "xpg_echo", supported: true},
	{name: "patsub_replacement", defaultState: true, supported: true},
	{name: "globskipdots", defaultState: true, supported: true},
	// jaiph-go patch: the options marked supported below only change
	// what an interactive shell does (history, completion, job and mail
	// checks, spelling, autocd): a script sets them and lists them, as
	// bash, and they do nothing there. The others are unsupported,
	// sorted alphabetically by name.
	{name: "assoc_expand_once"},
	{name: "autocd", supported: true},
	{name: "cdable_vars"},
	{name: "cdspell", supported: true},
	{name: "checkhash"},
	{name: "checkjobs", supported: true},
	{
		name:         "checkwinsize",
		defaultState: true,
	},
	{
		name:         "cmdhist",
		defaultState: true,
		supported:    true,
	},
	{name: "compat31"},
	{name: "compat32"},
	{name: "compat40"},
	{name: "compat41"},
	{name: "compat42"},
	{name: "compat43"},
	{name: "compat44"},
	{
		name:         "complete_fullquote",
		defaultState: true,
		supported:    true,
	},
	{name: "direxpand", supported: true},
	{name: "dirspell", supported: true},
	{name: "execfail"},
	{name: "extdebug"},
	{
		name:         "extquote",
		defaultState: true,
	},
	{
		name:         "force_fignore",
		defaultState: true,
		supported:    true,
	},
	{name: "globasciiranges", defaultState: true}, // jaiph-go patch: bash 5.2's default
	{name: "gnu_errfmt"},
	{name: "histappend", supported: true},
	{name: "histreedit", supported: true},
	{name: "histverify", supported: true},
	{
		name:         "hostcomplete",
		defaultState: true,
		supported:    true,
	},
	{name: "huponexit", supported: true},
	{
		name:         "interactive_comments",
		defaultState: true,
	},
	{name: "lithist", supported: true},
	{name: "localvar_inherit"},
	{name: "localvar_unset"},
	{name: "login_shell"},
	{name: "mailwarn", supported: true},
	{name: "no_empty_cmd_completion", supported: true},
	{name: "noexpand_translation"}, // jaiph-go patch: listed by bash 5.2
	{
		name:         "progcomp",
		defaultState: true,
		supported:    true,
	},
	{name: "progcomp_alias", supported: true},
	{
		name:         "promptvars",
		defaultState: true,
	},
	{name: "restricted_shell"},
	{name: "shift_verbose"},
	{name: "varredir_close"}, // jaiph-go patch: listed by bash 5.2
	{
		name:         "sourcepath",
		defaultState: true,
	},
}

// To access the shell options arrays without a linear search when we
// know which option we're after at compile time. First come the shell options,
// then the bash options.
const (
	// These correspond to indexes in [shellOptsTable]
	optAllExport = iota
	optErrExit
	optNoExec
	optNoGlob
	optNoUnset
	optXTrace
	optPipeFail
	optNoClobber
	optErrTrace // jaiph-go patch
	optNoLog    // jaiph-go patch

	// These correspond to indexes (offset by the above eight items) of
	// supported options in [bashOptsTable]
	optDotGlob
	optExpandAliases
	optExtGlob
	optGlobStar
	optNoCaseGlob
	optNullGlob
	optFailGlob       // jaiph-go patch
	optInheritErrExit // jaiph-go patch
	optLastPipe       // jaiph-go patch
	optNoCaseMatch    // jaiph-go patch
	optXpgEcho        // jaiph-go patch
	optPatsubRepl     // jaiph-go patch
	optGlobSkipDots   // jaiph-go patch
)

// Reset returns a runner to its initial state, right before the first call to
// Run or Reset.
//
// Typically, this function only needs to be called if a runner is reused to run
// multiple programs non-incrementally. Not calling Reset between each run will
// mean that the shell state will be kept, including variables, options, and the
// current directory.
func (r *Runner) Reset() {
	if !r.usedNew {
		panic("use interp.New to construct a Runner")
	}
	if !r.didReset {
		r.origDir = r.Dir
		r.origParams = r.Params
		r.origOpts = r.opts
		r.origStdin = r.stdin
		r.origStdout = r.stdout
		r.origStderr = r.stderr

		if r.execHandler != nil && len(r.execMiddlewares) > 0 {
			panic("interp.ExecHandler should be replaced with interp.ExecHandlers, not mixed")
		}
		if r.execHandler == nil {
			r.execHandler = DefaultExecHandler(2 * time.Second)
		}
		// Middlewares are chained from first to last, and each can call the
		// next in the chain, so we need to construct the chain backwards.
		for _, mw := range slices.Backward(r.execMiddlewares) {
			r.execHandler = mw(r.execHandler)
		}
		// Fill tempDir; only need to do this once given that Env will not change.
		if dir := r.Env.Get("TMPDIR").String(); filepath.IsAbs(dir) {
			r.tempDir = dir
		} else {
			r.tempDir = os.TempDir()
		}
		// Clean it as we will later do a string prefix match.
		r.tempDir = filepath.Clean(r.tempDir)
	}
	// reset the internal state
	*r = Runner{
		Env:             r.Env,
		tempDir:         r.tempDir,
		callHandler:     r.callHandler,
		builtinHandlers: r.builtinHandlers, // jaiph-go patch
		handlerFuncs:    r.handlerFuncs,    // jaiph-go patch
		noFinalVars:     r.noFinalVars,     // jaiph-go patch
		errExitIgnored:  r.errExitIgnored,  // jaiph-go patch
		noErrExit:       r.errExitIgnored,  // jaiph-go patch
		execHandler:     r.execHandler,
		openHandler:     r.openHandler,
		readDirHandler:  r.readDirHandler,
		statHandler:     r.statHandler,
		accessHandler:   r.accessHandler,
		running:         r.running,          // jaiph-go patch: WaitBackground
		shellSigs:       make(chan int, 64), // jaiph-go patch: kill $$ from a job

		// These can be set by functions like [Dir] or [Params], but
		// builtins can overwrite them; reset the fields to whatever the
		// constructor set up.
		Dir:    r.origDir,
		Params: r.origParams,
		opts:   r.origOpts,
		stdin:  r.origStdin,
		stdout: r.origStdout,
		stderr: r.origStderr,

		origDir:    r.origDir,
		origParams: r.origParams,
		origOpts:   r.origOpts,
		origStdin:  r.origStdin,
		origStdout: r.origStdout,
		origStderr: r.origStderr,

		// emptied below, to reuse the space
		Vars: r.Vars,

		dirStack: r.dirStack[:0],
		usedNew:  r.usedNew,
	}
	// Ensure we stop referencing any pointers before we reuse bgProcs.
	clear(r.bgProcs)
	r.bgProcs = r.bgProcs[:0]

	if r.Vars == nil {
		r.Vars = make(map[string]expand.Variable)
	} else {
		clear(r.Vars)
	}
	// TODO(v4): Use the supplied Env directly if it implements enough methods.
	r.writeEnv = &overlayEnviron{parent: r.Env}
	if !r.writeEnv.Get("HOME").IsSet() {
		home, _ := os.UserHomeDir()
		r.setVarString("HOME", home)
	}
	{
		// jaiph-go patch: like bash starting up, SHLVL is the inherited
		// level plus one (1 when unset or not a number), exported.
		lvl, err := strconv.Atoi(r.writeEnv.Get("SHLVL").String())
		if err != nil || lvl < 0 {
			lvl = 0
		}
		r.setVar("SHLVL", expand.Variable{Set: true, Kind: expand.String, Exported: true, Str: strconv.Itoa(lvl + 1)})
	}
	if !r.writeEnv.Get("UID").IsSet() {
		r.setVar("UID", expand.Variable{
			Set:      true,
			Kind:     expand.String,
			ReadOnly: true,
			Str:      strconv.Itoa(processIDs().uid),
		})
	}
	if !r.writeEnv.Get("EUID").IsSet() {
		r.setVar("EUID", expand.Variable{
			Set:      true,
			Kind:     expand.String,
			ReadOnly: true,
			Str:      strconv.Itoa(processIDs().euid),
		})
	}
	if !r.writeEnv.Get("GID").IsSet() {
		r.setVar("GID", expand.Variable{
			Set:      true,
			Kind:     expand.String,
			ReadOnly: true,
			Str:      strconv.Itoa(processIDs().gid),
		})
	}
	// jaiph-go patch: bash's set_pwd exports PWD and declares OLDPWD
	// exported without a value, so commands see both (cd keeps the
	// attribute); PPID is readonly (bash's set_ppid), and an unset SHELL
	// becomes the user's login shell, not exported (set_shell_var).
	r.setVar("PWD", expand.Variable{Set: true, Kind: expand.String, Exported: true, Str: r.Dir})
	if !r.writeEnv.Get("OLDPWD").Declared() {
		r.setVar("OLDPWD", expand.Variable{Exported: true})
	}
	if !r.writeEnv.Get("PPID").IsSet() {
		r.setVar("PPID", expand.Variable{Set: true, Kind: expand.String, ReadOnly: true, Str: strconv.Itoa(os.Getppid())})
	}
	if !r.writeEnv.Get("SHELL").IsSet() {
		r.setVarString("SHELL", loginShell())
	}
	// jaiph-go patch: a runner given a shell's variables (jaiph runs each
	// managed call, a subshell of its caller, in a runner of its own)
	// keeps that shell's IFS, OPTIND and OPTERR, as a bash subshell does;
	// jaiph drops an IFS imported from the process environment, which bash
	// ignores.
	// PS4 too (jaiph-go patch: the xtrace prefix, see tracer.prefix).
	for _, v := range [...]struct{ name, def string }{{"IFS", " \t\n"}, {"OPTIND", "1"}, {"OPTERR", "1"}, {"PS4", "+ "}} { // no map to make for every runner
		if !r.writeEnv.Get(v.name).IsSet() {
			r.setVarString(v.name, v.def)
		}
	}
	r.setVarString("OSTYPE", bashOSType())
	r.setVarString("MACHTYPE", bashMachType())
	r.setVarString("HOSTTYPE", bashHostType())
	if !r.writeEnv.Get("HOSTNAME").IsSet() {
		if h := hostname(); h != "" {
			r.setVarString("HOSTNAME", h)
		}
	}
	if path := bashPath(); path != "" {
		r.setVarString("BASH", path)
		r.lastArg = path
	}
	r.startTime = time.Now()

	r.dirStack = append(r.dirStack, r.Dir)

	r.didReset = true
}

// ExitStatus is a non-zero status code resulting from running a shell node.
type ExitStatus uint8

func (s ExitStatus) Error() string { return fmt.Sprintf("exit status %d", s) }

// NewExitStatus creates an error which contains the specified exit status code.
//
// Deprecated: use [ExitStatus] directly.
//
//go:fix inline
func NewExitStatus(status uint8) error {
	return ExitStatus(status)
}

// IsExitStatus checks whether error contains an exit status and returns it.
//
// Deprecated: use [errors.As] with [ExitStatus] directly.
//
//go:fix inline
func IsExitStatus(err error) (status uint8, ok bool) {
	if es, ok := errors.AsType[ExitStatus](err); ok {
		return uint8(es), true
	}
	return 0, false
}

// Run interprets a node, which can be a [*File], [*Stmt], or [Command]. If a non-nil
// error is returned, it will typically contain a command's exit status, which
// can be retrieved with [IsExitStatus].
//
// Run can be called multiple times synchronously to interpret programs
// incrementally. To reuse a [Runner] without keeping the internal shell state,
// call Reset.
//
// Calling Run on an entire [*File] implies an exit, meaning that an exit trap may
// run.
func (r *Runner) Run(ctx context.Context, node syntax.Node) error {
	if !r.didReset {
		r.Reset()
	}
	r.fillExpandConfig(ctx)
	r.jobRoot = jobRootOf(ctx) // jaiph-go patch
	r.exit = exitStatus{}
	r.filename = ""
	switch node := node.(type) {
	case *syntax.File:
		r.filename = node.Name
		r.topStmts(ctx, node.Stmts) // jaiph-go patch: FUNCNEST discards one command
	case *syntax.Stmt:
		r.stmt(ctx, node)
	case syntax.Command:
		r.cmd(ctx, node)
		r.comsubNoErrExit = false // jaiph-go patch: as stmt does
	default:
		return fmt.Errorf("node can only be File, Stmt, or Command: %T", node)
	}
	// jaiph-go patch: a signal a job or subshell sent to $$ while the
	// last command ran (jaiph_jobs.go).
	if !r.exit.exiting && !r.exit.returning {
		r.takeShellSignals(ctx)
	}
	// A bare Command bypasses stmt, which normally updates lastExit.
	r.lastExit = r.exit
	// Running an entire file implies an exit; a statement or command
	// only exits the shell via the exit builtin, errexit, and so on.
	// jaiph-go patch: a context cancelled with a signal runs that signal's
	// trap and the EXIT trap, and ends with 128+signal (jaiph_jobs.go).
	_, isFile := node.(*syntax.File)
	r.exitTraps(ctx, isFile)
	if !r.noFinalVars { // jaiph-go patch
		maps.Insert(r.Vars, r.writeEnv.Each)
	}
	// Return the first of: a fatal error, a non-fatal handler error, or the exit code.
	if err := r.exit.err; err != nil {
		if r.exit.code == 0 {
			// This should never happen; too much code relies on checking [exitStatus.code]
			// to see if the last command succeeded or failed. [exitStatus.err] should only be
			// additional information, so fail loudly if the invariant is broken.
			panic("ended up with a non-nil exitStatus.err but a zero exitStatus.code")
		}
		return err
	}
	if code := r.exit.code; code != 0 {
		return ExitStatus(code)
	}
	return nil
}

// Exited reports whether the last Run call should exit an entire shell. This
// can be triggered by the "exit" built-in command, for example.
//
// Note that this state is overwritten at every Run call, so it should be
// checked immediately after each Run call.
func (r *Runner) Exited() bool {
	return r.exit.exiting
}

// Subshell makes a copy of the given [Runner], suitable for use concurrently
// with the original. The copy will have the same environment, including
// variables and functions, but they can all be modified without affecting the
// original.
//
// Subshell is not safe to use concurrently with [Run]. Orchestrating this is
// left up to the caller; no locking is performed.
//
// To replace e.g. stdin/out/err, do [StdIO](r.stdin, r.stdout, r.stderr)(r) on
// the copy.
func (r *Runner) Subshell() *Runner {
	return r.subshell(true)
}

// fakeSubshellPID numbers subshells for BASHPID (jaiph-go patch): Go cannot
// fork, so a subshell has no process id of its own; bash's BASHPID there is
// a number different from $$, which is all scripts can rely on.
var fakeSubshellPID = func() *atomic.Int64 {
	var n atomic.Int64
	n.Store(int64(os.Getpid()) + 100000)
	return &n
}()

// subshell is like [Runner.subshell], but allows skipping some allocations and copies
// when creating subshells which will not be used concurrently with the parent shell.
// TODO(v4): we should expose this, e.g. SubshellForeground and SubshellBackground.
func (r *Runner) subshell(background bool) *Runner {
	if !r.didReset {
		r.Reset()
	}
	// Keep in sync with the Runner type. Manually copy fields, to not copy
	// sensitive ones like [errgroup.Group], and to do deep copies of slices.
	r2 := &Runner{
		Dir:         r.Dir,
		tempDir:     r.tempDir,
		Params:      r.Params,
		callHandler: r.callHandler,
		execHandler: r.execHandler,
		openHandler: r.openHandler,
		// jaiph-go patch: replaced builtins apply in subshells too.
		builtinHandlers: r.builtinHandlers,
		handlerFuncs:    r.handlerFuncs,
		readDirHandler:  r.readDirHandler,
		statHandler:     r.statHandler,
		accessHandler:   r.accessHandler,
		stdin:           r.stdin,
		stdinClosed:     r.stdinClosed,  // jaiph-go patch
		randomUnset:     r.randomUnset,  // jaiph-go patch: the generator itself starts afresh
		randomLast:      r.randomLast,   // jaiph-go patch
		secondsUnset:    r.secondsUnset, // jaiph-go patch
		secondsRead:     r.secondsRead,  // jaiph-go patch
		secondsLast:     r.secondsLast,  // jaiph-go patch
		linenoUnset:     r.linenoUnset,  // jaiph-go patch
		stdout:          r.stdout,
		stderr:          r.stderr,
		filename:        r.filename,
		opts:            r.opts,
		usedNew:         r.usedNew,
		exit:            r.exit,
		lastExit:        r.lastExit,
		// jaiph-go patch: as in bash, errexit stays ignored inside a
		// subshell run as part of an && or || list or a condition.
		noErrExit:   r.noErrExit,
		inSubshell:  true,          // jaiph-go patch: kill $$ refuses in subshells
		thisCommand: r.thisCommand, // jaiph-go patch
		shellSigs:   r.shellSigs,   // jaiph-go patch: kill $$ reaches the shell
		// jaiph-go patch: a subshell of a function may `return` (it
		// ends the subshell with that status), as in bash.
		inFunc:     r.inFunc,
		inSource:   r.inSource,
		loopLevel:  r.loopLevel, // jaiph-go patch: see Runner.loopLevel
		running:    r.running,
		jobRoot:    r.jobRoot,
		parentJobs: append(slices.Clip(r.parentJobs), r.bgProcs...),

		origStdout: r.origStdout, // used for process substitutions
	}
	r2.writeEnv = newOverlayEnviron(r.writeEnv, background)
	// Funcs are copied, since they might be modified.
	r2.Funcs = maps.Clone(r.Funcs)
	r2.Vars = make(map[string]expand.Variable)
	r2.alias = maps.Clone(r.alias)

	r2.dirStack = append(r2.dirBootstrap[:0], r.dirStack...)
	r2.inheritTraps(r) // jaiph-go patch: bash's trap inheritance
	if cb, ok := r.traps[trapErr]; ok && r.opts[optErrTrace] {
		// jaiph-go patch: with errtrace (set -E) a subshell and a
		// command substitution keep the ERR trap, as in bash.
		r2.setTrap(trapErr, cb, true)
	}
	// jaiph-go patch: FUNCNAME carries into subshells; BASHPID differs.
	r2.funcStack = slices.Clone(r.funcStack)
	r2.savedErrTraps = slices.Clone(r.savedErrTraps)
	r2.funcDecls = r.funcDecls
	r2.subshellFuncs = len(r.funcStack)
	r2.sourceFrames = r.sourceFrames
	r2.fds = r.fds
	r2.traceDepth = r.traceDepth
	r2.lastArg = r.lastArg
	r.shareHash(r2) // jaiph-go patch: see jaiph_hash.go
	r2.errexitOff = r.errexitOff
	r2.prefixPath = r.prefixPath
	r2.startTime = r.startTime
	r2.bashPID = int(fakeSubshellPID.Add(1))
	r2.subshellLevel = r.subshellLevel + 1
	r2.noSplitStar = r.ecfg.NoSplitStar // jaiph-go patch: bash's fork keeps it
	r2.fillExpandConfig(r.ectx)
	r2.didReset = true
	return r2
}

// bashHostType, bashOSType and bashMachType are bash's HOSTTYPE, OSTYPE and
// MACHTYPE for the platform, as Debian's bash 5.2 reports them (jaiph-go
// patch).
func bashHostType() string {
	switch runtime.GOARCH {
	case "amd64":
		return "x86_64"
	case "arm64":
		return "aarch64"
	case "386":
		return "i686"
	}
	return runtime.GOARCH
}

func bashOSType() string {
	if runtime.GOOS == "linux" {
		return "linux-gnu"
	}
	return runtime.GOOS
}

func bashMachType() string {
	vendor := "unknown"
	if runtime.GOARCH == "amd64" || runtime.GOARCH == "386" {
		vendor = "pc"
	}
	return bashHostType() + "-" + vendor + "-" + bashOSType()
}

// hostname is HOSTNAME, looked up once per process (jaiph-go patch).
var hostname = sync.OnceValue(func() string {
	h, _ := os.Hostname()
	return h
})

// bashPath is BASH: the bash found in the process's PATH, as the program
// that bash would be (jaiph-go patch).
var bashPath = sync.OnceValue(func() string {
	path, err := exec.LookPath("bash")
	if err != nil {
		return ""
	}
	return path
})

// processIDs are the process's user and group ids, read once (jaiph
// patch): every Reset read them again, three system calls for each of
// the many runners a jaiph run makes; the process never changes them.
var processIDs = sync.OnceValue(func() struct{ uid, euid, gid int } {
	return struct{ uid, euid, gid int }{os.Getuid(), os.Geteuid(), os.Getgid()}
})

// loginShell is the current user's shell from /etc/passwd, or /bin/sh, as
// bash's get_current_user_info (jaiph-go patch).
func loginShell() string {
	data, err := os.ReadFile("/etc/passwd")
	if err == nil {
		uid := strconv.Itoa(os.Getuid())
		for _, line := range strings.Split(string(data), "\n") {
			f := strings.Split(line, ":")
			if len(f) >= 7 && f[2] == uid {
				if f[6] != "" {
					return f[6]
				}
				break
			}
		}
	}
	return "/bin/sh"
}
