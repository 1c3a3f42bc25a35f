// jaiph-go patch (see PATCHES.md): traps for real signals, signal delivery
// through the context's cancellation cause, numeric job ids, and the kill,
// disown and jobs -p builtins, all following bash 5.2.

package interp

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
)

// SignalCause is implemented by a context cancellation cause that carries a
// signal, such as jaiph's runtime.Interrupted or the cause kill gives a
// background job. A runner whose context is cancelled with such a cause runs
// the trap for that signal and then the EXIT trap, and ends with status
// 128+signal; an exec handler should forward the signal to its process.
type SignalCause interface{ CauseSignal() os.Signal }

// TrapSkipper is implemented by a cancellation cause that stops a shell
// without its traps: the embedder stops the shell to continue it
// elsewhere later (jaiph suspends a run at a receive on the broker), so
// it has not ended and its EXIT trap must run once, at its real end.
type TrapSkipper interface{ SkipTraps() bool }

// ContextSignal returns the signal carried by ctx's cancellation cause, or
// def if it carries none.
func ContextSignal(ctx context.Context, def os.Signal) os.Signal {
	if s, ok := contextSignal(ctx); ok {
		return syscall.Signal(s)
	}
	return def
}

func contextSignal(ctx context.Context) (int, bool) {
	var sc SignalCause
	if errors.As(context.Cause(ctx), &sc) {
		if s, ok := sc.CauseSignal().(syscall.Signal); ok {
			return int(s), true
		}
	}
	return 0, false
}

// killCause is the cancellation cause with which kill signals a background job.
type killCause struct{ sig int }

func (c *killCause) Error() string { return "killed by SIG" + signalNames[c.sig] }

func (c *killCause) CauseSignal() os.Signal { return syscall.Signal(c.sig) }

// TrapTimeout bounds how long the traps run once a signal ended a runner.
const TrapTimeout = 2 * time.Second

// Trap keys besides the signal numbers 1..64.
const (
	trapExit = 0
	trapErr  = 66 // after all signals, as bash's trap -p orders it
	// trapReturn runs when a function or a sourced script returns; a
	// function does not inherit it (bash without functrace).
	trapReturn = 67
)

// signalNames are Linux's signal names without "SIG", as bash prints them.
var signalNames = func() map[int]string {
	m := map[int]string{}
	for i, n := range strings.Fields("HUP INT QUIT ILL TRAP ABRT BUS FPE KILL USR1 SEGV USR2 PIPE ALRM TERM STKFLT CHLD CONT STOP TSTP TTIN TTOU URG XCPU XFSZ VTALRM PROF WINCH IO PWR SYS") {
		m[i+1] = n
	}
	for i := 34; i <= 64; i++ {
		switch {
		case i == 34:
			m[i] = "RTMIN"
		case i <= 49:
			m[i] = "RTMIN+" + strconv.Itoa(i-34)
		case i < 64:
			m[i] = "RTMAX-" + strconv.Itoa(64-i)
		default:
			m[i] = "RTMAX"
		}
	}
	return m
}()

// trappable are the signals a trap may be set for: those that reach a jaiph
// body (the run's interruption, kill to a job or to $$).
var trappable = map[int]bool{1: true, 2: true, 3: true, 10: true, 12: true, 15: true}

// defaultIgnored are the signals whose default action is to do nothing.
var defaultIgnored = map[int]bool{17: true, 18: true, 23: true, 28: true}

// parseSignal decodes a signal name (any case, with or without SIG) or number.
// EXIT and ERR are accepted only when traps is set.
func parseSignal(spec string, traps bool) (int, bool) {
	if n, err := strconv.Atoi(spec); err == nil {
		if n == 0 && traps || signalNames[n] != "" {
			return n, true
		}
		return 0, false
	}
	up := strings.ToUpper(spec)
	if traps {
		switch up {
		case "EXIT":
			return trapExit, true
		case "ERR":
			return trapErr, true
		case "RETURN":
			return trapReturn, true
		}
	}
	if up == "EXIT" {
		// jaiph-go patch: bash's decode_signal finds signal_names[0],
		// EXIT (without a SIG prefix), for kill too: signal 0.
		return 0, true
	}
	up = strings.TrimPrefix(up, "SIG")
	for n, name := range signalNames {
		if name == up {
			return n, true
		}
	}
	return 0, false
}

func trapName(n int) string {
	switch n {
	case trapExit:
		return "EXIT"
	case trapErr:
		return "ERR"
	case trapReturn:
		return "RETURN"
	}
	return "SIG" + signalNames[n]
}

// signalList prints the table of kill -l and trap -l.
func (r *Runner) signalList() {
	var b strings.Builder
	count := 0
	for n := 1; n <= 64; n++ {
		if signalNames[n] == "" {
			continue
		}
		count++
		fmt.Fprintf(&b, "%2d) SIG%s", n, signalNames[n])
		if count%5 == 0 {
			b.WriteByte('\n')
		} else {
			b.WriteByte('\t')
		}
	}
	if count%5 != 0 {
		b.WriteByte('\n')
	}
	r.out(b.String())
}

// shellQuote quotes s with single quotes, as bash's trap -p does.
func shellQuote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// jobPidBase is Linux's PID_MAX_LIMIT: numbers above it never name a real
// process, so $! and kill can tell interp's jobs from real pids.
const jobPidBase = 4194304

var (
	lastJobPid atomic.Int64
	jobsByPid  sync.Map // int → *bgProc, while the job runs
)

// newBgProc registers a background job (or process substitution) of r.
func (r *Runner) newBgProc(ctx context.Context, job bool) (*bgProc, context.Context) {
	bg := &bgProc{
		done: make(chan struct{}),
		exit: new(exitStatus),
		pid:  jobPidBase + int(lastJobPid.Add(1)),
	}
	if job {
		for _, j := range r.bgProcs {
			if j.specWaited {
				// bash deletes a dead job that wait reported by its
				// job spec when it makes the next one
				j.markReaped()
			}
			if j.inTable() {
				bg.job = max(bg.job, j.job)
			}
		}
		bg.job++
	}
	// The job ends with the run (jobRoot, keeping its cause: the signal of
	// an interruption) or by kill, not with the shell or job that started
	// it; it keeps ctx's values.
	root := r.jobRoot
	if root == nil {
		root = ctx
	}
	ctx, bg.cancel = context.WithCancelCause(context.WithoutCancel(ctx))
	cancel := bg.cancel
	stop := context.AfterFunc(root, func() { cancel(context.Cause(root)) })
	bg.cancel = func(cause error) {
		stop()
		cancel(cause)
	}
	bg.running = r.running
	bg.running.add()
	r.bgProcs = append(r.bgProcs, bg)
	jobsByPid.Store(bg.pid, bg)
	return bg, ctx
}

// inTable reports whether a job is still in the job table that job specs,
// wait -n and jobs -p see. A body runs inside one function call, during
// which bash never cleans its job table: a finished job stays until `wait`
// (without arguments, with its pid, or -n) reported it or it is disowned.
func (bg *bgProc) inTable() bool {
	return bg.job > 0 && !bg.disowned && !bg.reaped && !bg.gone
}

// finish records a finished job's status.
func (bg *bgProc) finish(exit exitStatus) {
	*bg.exit = exit
	jobsByPid.Delete(bg.pid)
	bg.cancel(nil)
	close(bg.done)
	bg.running.done()
}

type jobRootKey struct{}

// WithJobRoot marks ctx as the context whose end cancels the background
// jobs of every Runner run under it (or under contexts derived from it),
// which then keep running when the shell or job that started them ends, as
// in bash. Without it, a Run's own context is its jobs' root.
func WithJobRoot(ctx context.Context) context.Context {
	return context.WithValue(ctx, jobRootKey{}, ctx)
}

func jobRootOf(ctx context.Context) context.Context {
	if root, ok := ctx.Value(jobRootKey{}).(context.Context); ok {
		return root
	}
	return ctx
}

// jobCount counts the running jobs of a Runner and its subshells.
type jobCount struct {
	wg sync.WaitGroup
	n  atomic.Int64
}

func (c *jobCount) add()  { c.n.Add(1); c.wg.Add(1) }
func (c *jobCount) done() { c.n.Add(-1); c.wg.Done() }

// BackgroundRunning reports whether a job or process substitution started
// by the last Run, or by a subshell it forked, is still running; once Run
// returned and this is false, none will start.
func (r *Runner) BackgroundRunning() bool {
	return r.running != nil && r.running.n.Load() > 0
}

// WaitBackground waits until every background job and process
// substitution started by the last Run, or by the subshells it forked, has
// finished. Bash leaves jobs a script never waited for running after the
// script ends; an embedder that owns their output (jaiph's step artifacts)
// waits for them before closing it.
func (r *Runner) WaitBackground() {
	if r.running != nil {
		r.running.wg.Wait()
	}
}

// signal delivers sig to a running job: its runner's context is cancelled
// with the signal as cause, so its traps run and the external commands it
// runs receive the signal from the exec handler.
func (bg *bgProc) signal(sig int) error {
	select {
	case <-bg.done:
		return syscall.ESRCH
	default:
	}
	if sig == 0 {
		return nil
	}
	var mask uint64
	if bg.runner != nil {
		mask = bg.runner.sigIgnored.Load()
	}
	if mask&(1<<sig) != 0 || defaultIgnored[sig] && (bg.runner == nil || bg.runner.sigTrapped.Load()&(1<<sig) == 0) {
		return nil
	}
	bg.cancel(&killCause{sig})
	return nil
}

// findJob resolves a job spec or a $! number among r's jobs; nil unless it
// names exactly one.
func (r *Runner) findJob(spec string) *bgProc {
	bg, _ := r.findJobSpec(spec)
	return bg
}

// findJobSpec resolves a job spec (%N, %%, %+, %-, %name, %?name) or a $!
// number among r's jobs, as bash's get_job_spec reads the spec: after the
// %, digits are a job number, a leading % or + the current job, a leading -
// the previous one (bash ignores what follows them), a leading ? a
// substring search, anything else a prefix of the command.
func (r *Runner) findJobSpec(spec string) (*bgProc, jobSpecResult) {
	var jobs []*bgProc
	for _, bg := range r.bgProcs {
		if bg.inTable() {
			jobs = append(jobs, bg)
		}
	}
	one := func(bg *bgProc) (*bgProc, jobSpecResult) {
		if bg == nil {
			return nil, jobSpecNone
		}
		return bg, jobSpecFound
	}
	if rest, ok := strings.CutPrefix(spec, "%"); ok {
		switch {
		case rest == "" || rest[0] == '%' || rest[0] == '+':
			if len(jobs) > 0 {
				return one(jobs[len(jobs)-1])
			}
		case rest[0] == '-':
			if len(jobs) > 1 {
				return one(jobs[len(jobs)-2])
			} else if len(jobs) == 1 {
				return one(jobs[0])
			}
		case strings.Trim(rest, "0123456789") == "":
			n, err := strconv.Atoi(rest)
			if err != nil {
				return nil, jobSpecNone
			}
			for _, bg := range jobs {
				if bg.job == n {
					return one(bg)
				}
			}
		case rest[0] == '?':
			return r.findJobByName(rest[1:], true)
		default:
			return r.findJobByName(rest, false)
		}
		return nil, jobSpecNone
	}
	n, err := strconv.Atoi(spec)
	if err != nil {
		return nil, jobSpecNone
	}
	for _, bg := range r.bgProcs {
		if bg.pid == n && !bg.disowned {
			return one(bg)
		}
	}
	return nil, jobSpecNone
}

// disownedJob finds a disowned job by its $! number.
func (r *Runner) disownedJob(spec string) *bgProc {
	n, err := strconv.Atoi(spec)
	if err != nil {
		return nil
	}
	for _, bg := range r.bgProcs {
		if bg.pid == n && bg.disowned {
			return bg
		}
	}
	return nil
}

// exitTraps runs when a shell or subshell ends. If ctx was cancelled with a
// signal, the trap for that signal and then the EXIT trap run on a fresh
// context bounded by TrapTimeout, and the status is 128+signal unless a trap
// ran exit. Otherwise the EXIT trap runs if the shell exits (always, or via
// the exit builtin, errexit and so on).
func (r *Runner) exitTraps(ctx context.Context, always bool) {
	// jaiph-go patch: the redirections the shell exited inside were
	// kept for the EXIT trap; undo them after it, and close the files
	// its exec redirections opened, as a process's end does.
	defer func() {
		if always || r.exit.exiting {
			r.closeExecFiles()
		}
	}()
	defer r.undoKeptRedirs()
	if r.exit.killed { // jaiph-go patch: see jaiph_sigpipe.go
		r.killedExitTrap(ctx)
		return
	}
	if sig, ok := contextSignal(ctx); ok && ctx.Err() != nil {
		var ts TrapSkipper
		if errors.As(context.Cause(ctx), &ts) && ts.SkipTraps() {
			r.exit = exitStatus{code: uint8(128 + sig), exiting: true}
			r.lastExit = r.exit
			return
		}
		tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), TrapTimeout)
		defer cancel()
		r.fillExpandConfig(tctx)
		defer r.fillExpandConfig(ctx)
		r.exit = exitStatus{code: uint8(128 + sig), exiting: true}
		r.lastExit = r.exit
		if cb := r.traps[sig]; cb != "" {
			r.trapCallback(tctx, cb, "SIG"+signalNames[sig])
		}
		r.runExitTrap(tctx)
		if r.exit.fatalExit {
			r.exit = exitStatus{code: uint8(128 + sig), exiting: true}
		}
		return
	}
	if always || r.exit.exiting {
		if fs := r.exit.errexitFuncs; r.exit.exiting && fs != nil && len(*fs) > len(r.funcStack) {
			// jaiph-go patch: bash's FUNCNAME in the EXIT trap still
			// lists the functions errexit left (the variable contexts
			// they made are gone).
			saved := r.funcStack
			r.funcStack = *fs
			defer func() { r.funcStack = saved }()
		}
		if r.exit.exiting && r.exit.popScopes && (r.inFunc || r.exit.leftFuncs) {
			// jaiph-go patch: FUNCNAME is bash's leftover ["main"]
			saved, main := r.funcStack, r.funcnameMain
			r.funcStack, r.funcnameMain = nil, true
			defer func() { r.funcStack, r.funcnameMain = saved, main }()
		}
		if r.exit.exiting && r.exit.popScopes && r.inFunc {
			// jaiph-go patch: a jump to bash's top level that pops every
			// function's scope before the EXIT trap runs
			// (exitStatus.popScopes), those a subshell of a function
			// inherited too: the trap sees the global variables, as they
			// stand in this (sub)shell, and no function's locals.
			env, inFunc := r.writeEnv, r.inFunc
			r.writeEnv, r.inFunc = globalScope(r.writeEnv), false
			defer func() { r.writeEnv, r.inFunc = env, inFunc }()
		}
		r.runExitTrap(ctx)
	}
}

// runExitTrap runs the EXIT trap once, as bash does. Its commands obey
// errexit whatever context the shell's commands ran in: bash parses the
// trap's text afresh, without the ignore-errexit flags of an `&&`/`||`
// list, a condition or a `!` around the command that ended the shell (`(
// trap 'false; echo x' EXIT ) || …` ends the subshell with 1 at the
// false), and a function called so has returned when its shell exits.
func (r *Runner) runExitTrap(ctx context.Context) {
	if r.execedTail {
		return // bash's exec took the shell away (jaiph_nofork.go)
	}
	if cb, ok := r.traps[trapExit]; ok {
		delete(r.traps, trapExit)
		noErrExit := r.noErrExit
		r.noErrExit = r.comsubIgnoreReturn // see comsubIgnoreReturn
		saved := r.exit.code
		r.trapCallback(ctx, cb, "exit")
		r.noErrExit = noErrExit
		if r.exit.exiting && r.exit.undoAll && !r.exit.fatalExit {
			// jaiph-go patch: an expansion error that jumps to bash's
			// top level (set -u's or ${v:?}'s without errexit, an
			// arithmetic error) ends the trap, and the shell exits with
			// the status from before the trap (run_exit_trap's
			// trap_saved_exit_value); exit and errexit set their own
			r.exit.code = saved
		}
	}
}

// inheritTraps sets up a subshell's traps: bash resets caught signals and
// keeps ignored ones; trap -p still shows the parent's until one is set.
func (r2 *Runner) inheritTraps(r *Runner) {
	r2.shownTraps = r.trapView() // a copy: a background job reads it concurrently
	for sig, cb := range r.traps {
		if cb == "" && sig != trapExit && sig != trapErr {
			r2.setTrap(sig, "", true)
		}
	}
}

// ignoreJobSignals makes a background job ignore SIGINT and SIGQUIT, as bash
// does without job control; trap -p shows only the former, as in bash.
func (r *Runner) ignoreJobSignals() {
	r.setTrap(2, "", true)
	r.sigIgnored.Store(r.sigIgnored.Load() | 1<<3)
}

// trapView is what trap -p shows: the runner's traps over those inherited
// for display (shownTraps).
func (r *Runner) trapView() map[int]string {
	if len(r.shownTraps) == 0 && len(r.traps) == 0 {
		return nil
	}
	view := maps.Clone(r.shownTraps)
	if view == nil {
		view = map[int]string{}
	}
	maps.Copy(view, r.traps)
	return view
}

func (r *Runner) setTrap(sig int, cb string, set bool) {
	if r.traps == nil {
		r.traps = map[int]string{}
	}
	if set {
		r.traps[sig] = cb
	} else {
		delete(r.traps, sig)
	}
	if sig >= 1 && sig <= 64 {
		bit := uint64(1) << sig
		ign, trp := r.sigIgnored.Load()&^bit, r.sigTrapped.Load()&^bit
		if set && cb == "" {
			ign |= bit
		} else if set {
			trp |= bit
		}
		r.sigIgnored.Store(ign)
		r.sigTrapped.Store(trp)
	}
}

func (r *Runner) trapBuiltin(args []string) exitStatus {
	var exit exitStatus
	list, print := false, false
	for len(args) > 0 && strings.HasPrefix(args[0], "-") && args[0] != "-" {
		flag := args[0]
		args = args[1:]
		if flag == "--" {
			break
		}
		for _, c := range flag[1:] {
			switch c {
			case 'l':
				list = true
			case 'p':
				print = true
			default:
				r.errf("trap: -%c: invalid option\n", c) // bash names the letter
				r.errf("trap: usage: trap [-lp] [[arg] signal_spec ...]\n")
				exit.code = 2
				return exit
			}
		}
	}
	if list {
		r.signalList()
		return exit
	}
	if print || len(args) == 0 {
		shown := r.trapView()
		if len(args) == 0 {
			keys := slices.Sorted(func(yield func(int) bool) {
				for k := range shown {
					if !yield(k) {
						return
					}
				}
			})
			for _, k := range keys {
				r.outf("trap -- %s %s\n", shellQuote(shown[k]), trapName(k))
			}
			return exit
		}
		for _, arg := range args {
			sig, ok := parseSignal(arg, true)
			if !ok {
				r.errf("trap: %s: invalid signal specification\n", arg)
				exit.code = 1
				continue
			}
			if cb, ok := shown[sig]; ok {
				r.outf("trap -- %s %s\n", shellQuote(cb), trapName(sig))
			}
		}
		return exit
	}
	cb, reset := args[0], false
	if len(args) == 1 {
		// trap SIG: restore the default; a lone argument that is no
		// signal (an action without one, `-`) is bash's usage error.
		if _, ok := parseSignal(cb, true); !ok && strings.ToUpper(cb) != "DEBUG" || cb == "-" {
			r.errf("trap: usage: trap [-lp] [[arg] signal_spec ...]\n")
			exit.code = 2
			return exit
		}
		reset = true
	} else {
		args = args[1:]
		reset = cb == "-"
		if _, err := strconv.Atoi(cb); err == nil {
			// bash: a first argument that is a number is a signal to reset
			reset = true
			args = append([]string{cb}, args...)
		}
	}
	for _, arg := range args {
		sig, ok := parseSignal(arg, true)
		if up := strings.ToUpper(arg); up == "DEBUG" {
			r.errf("trap: %s: jaiph does not support DEBUG traps\n", arg)
			exit.code = 2
			continue
		}
		if !ok {
			r.errf("trap: %s: invalid signal specification\n", arg)
			exit.code = 1
			continue
		}
		if sig == 9 || sig == 19 {
			// jaiph-go patch: as bash, a trap of KILL or STOP is kept
			// (and listed) but can never run: no delivery bit is set.
			if r.traps == nil {
				r.traps = map[int]string{}
			}
			if reset {
				delete(r.traps, sig)
			} else {
				r.traps[sig] = cb
			}
			r.shownTraps = nil
			continue
		}
		if !reset && sig != trapExit && sig != trapErr && sig != trapReturn && !trappable[sig] {
			r.errf("trap: %s: jaiph traps only EXIT, ERR, HUP, INT, QUIT, TERM, USR1 and USR2\n", arg)
			exit.code = 2
			continue
		}
		r.setTrap(sig, cb, !reset)
		r.shownTraps = nil
	}
	return exit
}

const killUsage = "kill: usage: kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]\n"

func (r *Runner) killBuiltin(ctx context.Context, args []string) exitStatus {
	var exit exitStatus
	fail := func(format string, a ...any) {
		r.errf(format, a...)
		exit.code = 1
	}
	sig := 15
	sigSet := false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		flag := args[0]
		args = args[1:]
		switch flag {
		case "--":
		case "-l", "-L":
			if len(args) == 0 {
				r.signalList()
				return exit
			}
			for _, arg := range args {
				if n, err := strconv.Atoi(arg); err == nil {
					if n == 0 {
						r.outf("EXIT\n")
						continue
					}
					if n > 128 {
						n -= 128
					}
					if name := signalNames[n]; name != "" {
						r.outf("%s\n", name)
						continue
					}
				} else if n, ok := parseSignal(arg, false); ok {
					r.outf("%d\n", n)
					continue
				} else if i := slices.Index([]string{"DEBUG", "ERR", "RETURN"}, strings.ToUpper(arg)); i >= 0 {
					// jaiph-go patch: bash numbers its pseudo-signals
					// after the real ones (NSIG, 65 on Linux).
					r.outf("%d\n", 65+i)
					continue
				}
				fail("kill: %s: invalid signal specification\n", arg)
			}
			return exit
		case "-s", "-n":
			if len(args) == 0 {
				fail("kill: %s: option requires an argument\n", flag)
				return exit
			}
			spec := args[0]
			args = args[1:]
			// bash's decode_signal takes a name after -n too
			n, ok := parseSignal(spec, false)
			if !ok && spec != "0" {
				fail("kill: %s: invalid signal specification\n", spec)
				return exit
			}
			sig, sigSet = n, true
			continue
		default:
			if sigSet {
				// a negative number after the signal: a process group
				args = append([]string{flag}, args...)
				break
			}
			spec := flag[1:]
			if len(flag) > 2 && (flag[1] == 's' && isASCIILetter(flag[2]) || flag[1] == 'n' && flag[2] >= '0' && flag[2] <= '9') {
				// bash's -sNAME and -nNUMBER in one word
				spec = flag[2:]
			}
			n, ok := parseSignal(spec, false)
			if !ok && spec != "0" {
				fail("kill: %s: invalid signal specification\n", spec)
				return exit
			}
			sig, sigSet = n, true
			continue
		}
		break
	}
	if len(args) == 0 {
		r.errf(killUsage)
		exit.code = 2
		return exit
	}
	selfSig := -1
	for _, arg := range args {
		if strings.HasPrefix(arg, "%") {
			bg, res := r.findJobSpec(arg)
			if bg == nil {
				r.reportJobSpec("kill", arg, res, false)
				exit.code = 1
				continue
			}
			if bg.signal(sig) != nil && !bg.inTable() {
				// a finished job still in the table: bash's kill succeeds
				fail("kill: %s: no such job\n", arg)
			}
			continue
		}
		// bash's kill: a number as legal_number reads it (blanks
		// around it), anything else but an empty word is no ID
		n, ok := legalNumber(arg)
		if !ok || strings.TrimPrefix(arg, "-") == "" || n != int64(int32(n)) {
			if arg == "" {
				fail("kill: `': not a pid or valid job spec\n")
			} else {
				fail("kill: %s: arguments must be process or job IDs\n", arg)
			}
			continue
		}
		pid := int(n)
		switch {
		case r.bashPID != 0 && pid == r.bashPID:
			// a subshell's own BASHPID: the signal is its own, as
			// the forked child's in bash
			if sig != 0 {
				selfSig = sig
			}
		case pid > jobPidBase:
			v, ok := jobsByPid.Load(pid)
			if !ok || v.(*bgProc).signal(sig) != nil {
				fail("kill: (%d) - No such process\n", pid)
			}
		case pid == os.Getpid():
			if r.inSubshell && sig != 0 {
				if sig == 19 || sig == 20 || sig == 21 || sig == 22 {
					fail("kill: SIG%s: jaiph does not stop the shell\n", signalNames[sig])
					continue
				}
				if r.shellSigs == nil {
					fail("kill: (%d) - jaiph cannot signal the main shell from a subshell or background job\n", pid)
					continue
				}
				// the shell takes it at its next command or in wait
				select {
				case r.shellSigs <- sig:
				default:
				}
				continue
			}
			if sig != 0 {
				selfSig = sig
			}
		case pid <= 0 && sig != 0:
			fail("kill: (%d) - jaiph does not signal process groups\n", pid)
		default:
			if err := killPid(pid, sig); err != nil {
				msg := "No such process"
				if errors.Is(err, syscall.EPERM) {
					msg = "Operation not permitted"
				}
				fail("kill: (%d) - %s\n", pid, msg)
			}
		}
	}
	if selfSig > 0 {
		r.signalSelf(ctx, selfSig, &exit)
	}
	return exit
}

// signalSelf handles kill to the shell's own pid ($$) as bash does: a trapped
// signal runs its trap and the shell goes on, an ignored or harmless one does
// nothing, any other ends the shell with status 128+signal.
func (r *Runner) signalSelf(ctx context.Context, sig int, exit *exitStatus) {
	cb, trapped := r.traps[sig]
	switch {
	case trapped && cb == "":
	case trapped:
		old := r.exit
		r.exit = *exit
		// bash parses the trap's commands afresh: errexit applies in
		// them even where the interrupted command ignores it
		oldNoErrExit := r.noErrExit
		r.noErrExit = r.comsubIgnoreReturn // see comsubIgnoreReturn
		r.trapCallback(ctx, cb, "SIG"+signalNames[sig])
		r.noErrExit = oldNoErrExit
		if r.exit.exiting || r.exit.returning {
			*exit = r.exit
		}
		r.exit = old
	case defaultIgnored[sig]:
	case sig == 19 || sig == 20 || sig == 21 || sig == 22:
		r.errf("kill: SIG%s: jaiph does not stop the shell\n", signalNames[sig])
		exit.code = 1
	default:
		*exit = exitStatus{code: uint8(128 + sig), exiting: true}
		if r.inSubshell {
			// the shell that ran the subshell reports its death
			// (jaiph_sigreport.go)
			exit.err = SignalStatus{Signal: syscall.Signal(sig)}
		}
	}
}

func (r *Runner) disownBuiltin(args []string) exitStatus {
	var exit exitStatus
	all, running := false, false
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		flag := args[0]
		args = args[1:]
		if flag == "--" {
			break
		}
		for _, c := range flag[1:] {
			switch c {
			case 'a':
				all = true
			case 'r':
				running = true
			case 'h':
				// SIGHUP is never sent to jobs at exit; nothing to mark
			default:
				r.errf("disown: %s: invalid option\n", flag)
				r.errf("disown: usage: disown [-h] [-ar] [jobspec ... | pid ...]\n")
				exit.code = 2
				return exit
			}
		}
	}
	if len(args) == 0 && (all || running) {
		for _, bg := range r.bgProcs {
			if !bg.inTable() {
				continue
			}
			if running {
				select {
				case <-bg.done:
					continue
				default:
				}
			}
			bg.disowned = true
		}
		return exit
	}
	if len(args) == 0 {
		bg := r.findJob("%+")
		if bg == nil {
			r.errf("disown: current: no such job\n")
			exit.code = 1
			return exit
		}
		bg.disowned = true
		return exit
	}
	for _, arg := range args {
		spec := arg
		if _, num := legalNumber(arg); !num && !strings.HasPrefix(arg, "%") {
			spec = "%" + arg // bash's get_job_spec: a word is a job spec
		}
		bg, res := r.findJobSpec(spec)
		if bg == nil || bg.job == 0 {
			r.reportJobSpec("disown", arg, res, true)
			exit.code = 1
			continue
		}
		bg.disowned = true
	}
	return exit
}

// waitBuiltin implements wait [-n] [-p var] [id ...].
func (r *Runner) waitBuiltin(ctx context.Context, args []string) exitStatus {
	var exit exitStatus
	next, pvar := false, ""
	for len(args) > 0 && len(args[0]) > 1 && args[0][0] == '-' {
		flag := args[0]
		args = args[1:]
		if flag == "--" {
			break
		}
		switch flag {
		case "-n":
			next = true
		case "-f":
		case "-p":
			if len(args) == 0 {
				r.errf("wait: -p: option requires an argument\n")
				exit.code = 2
				return exit
			}
			pvar, args = args[0], args[1:]
			// jaiph-go patch: bash unsets the variable first; a
			// readonly one fails wait at once.
			if r.lookupVar(pvar).ReadOnly {
				r.errf("wait: %s: cannot unset: readonly variable\n", pvar)
				exit.code = 1
				return exit
			}
		default:
			// bash's getopt names the first letter that is none of
			// its options ("--" for --x)
			bad := flag[:2]
			if i := strings.IndexFunc(flag[1:], func(c rune) bool { return !strings.ContainsRune("fnp", c) }); i >= 0 && !strings.HasPrefix(flag, "--") {
				bad = "-" + string(flag[1+i])
			}
			r.errf("wait: %s: invalid option\n", bad)
			r.errf("wait: usage: wait [-fn] [-p var] [id ...]\n")
			exit.code = 2
			return exit
		}
	}
	var targets []*bgProc
	for _, arg := range args {
		bg, res := r.findJobSpec(arg)
		if bg == nil && !next {
			if bg := r.disownedJob(arg); bg != nil {
				// bash: a disowned job is no longer in the table; waiting
				// for its pid returns 0
				if !r.waitFor(ctx, bg) {
					return r.exit
				}
				exit = exitStatus{}
				continue
			}
		}
		if bg == nil {
			if strings.HasPrefix(arg, "%") {
				r.reportJobSpec("wait", arg, res, next)
			} else if _, err := strconv.Atoi(arg); err != nil {
				r.errf("wait: `%s': not a pid or valid job spec\n", arg)
				exit.code = 1
				continue
			} else {
				r.errf("wait: pid %s is not a child of this shell\n", arg)
			}
			exit.code = 127
			continue
		}
		if !next {
			running := true
			select {
			case <-bg.done:
				running = false
			default:
			}
			if !r.waitFor(ctx, bg) {
				return r.exit
			}
			exit = exitStatus{code: bg.exit.code}
			if strings.HasPrefix(arg, "%") {
				// bash: a job wait saw end leaves the table at once; one
				// that had ended before stays until the next job is made
				if running {
					bg.markReaped()
				} else {
					bg.specWaited = true
				}
			} else {
				// inside a function (a jaiph body) bash drops a job
				// from its table when waited for by pid, not by job spec
				bg.markReaped()
			}
			if pvar != "" {
				r.setVarString(pvar, strconv.Itoa(bg.pid))
			}
			continue
		}
		if !bg.inTable() {
			r.errf("wait: %s: no such job\n", arg)
			exit.code = 127
			continue
		}
		targets = append(targets, bg)
	}
	if !next {
		if len(args) == 0 {
			for _, bg := range r.bgProcs {
				if bg.disowned {
					continue
				}
				if !r.waitFor(ctx, bg) {
					return r.exit
				}
				bg.markReaped()
			}
		}
		return exit
	}
	if len(args) == 0 {
		for _, bg := range r.bgProcs {
			if bg.inTable() {
				targets = append(targets, bg)
			}
		}
	} else {
		targets = slices.DeleteFunc(targets, func(bg *bgProc) bool { return bg.reaped || bg.gone })
	}
	if len(targets) == 0 {
		exit.code = 127
		return exit
	}
	cases := []reflect.SelectCase{
		{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ctx.Done())},
		{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(r.waitSignals())},
	}
	for _, bg := range targets {
		select {
		case <-bg.done:
			return r.reap(bg, pvar)
		default:
		}
		cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(bg.done)})
	}
	for {
		chosen, v, _ := reflect.Select(cases)
		switch chosen {
		case 0:
			r.exit.fatal(ctx.Err())
			return r.exit
		case 1:
			if r.waitSignal(ctx, int(v.Int())) {
				return r.exit
			}
			continue
		}
		return r.reap(targets[chosen-2], pvar)
	}
}

// markReaped records that wait reported a job: it leaves the job table.
func (bg *bgProc) markReaped() { bg.reaped = true }

func (r *Runner) reap(bg *bgProc, pvar string) exitStatus {
	bg.markReaped()
	if pvar != "" {
		r.setVarString(pvar, strconv.Itoa(bg.pid))
	}
	return exitStatus{code: bg.exit.code}
}

// waitFor waits for a job, reporting false if ctx was cancelled first or a
// signal sent to the shell interrupted the wait (r.exit says how).
func (r *Runner) waitFor(ctx context.Context, bg *bgProc) bool {
	for {
		select {
		case <-bg.done:
			return true
		case <-ctx.Done():
			r.exit.fatal(ctx.Err())
			return false
		case sig := <-r.waitSignals():
			if r.waitSignal(ctx, sig) {
				return false
			}
		}
	}
}

// waitSignals is the channel of signals sent to $$ that a wait of the
// shell itself takes; nil (never ready) in a subshell.
func (r *Runner) waitSignals() chan int {
	if r.inSubshell || r.inShellSig {
		return nil
	}
	return r.shellSigs
}

// waitSignal takes a signal sent to $$ during wait, as bash: a trapped
// signal runs its trap and interrupts the wait, which returns 128+signal;
// an ignored one lets the wait go on; any other ends the shell. It reports
// whether the wait ends (r.exit is then its status).
func (r *Runner) waitSignal(ctx context.Context, sig int) bool {
	var exit exitStatus
	r.inShellSig = true
	r.signalSelf(ctx, sig, &exit)
	r.inShellSig = false
	if exit.exiting || exit.returning {
		r.exit = exit
		return true
	}
	if cb, trapped := r.traps[sig]; trapped && cb != "" {
		r.exit = exitStatus{code: uint8(128 + sig)}
		return true
	}
	return false
}

// takeShellSignals runs, in the shell itself, what the signals its
// subshells and jobs sent to $$ do (signalSelf), as bash runs a trap once
// the command it was running has ended; it reports whether one of them
// ended the shell (r.exit is then its status).
func (r *Runner) takeShellSignals(ctx context.Context) bool {
	sigs := r.waitSignals()
	if sigs == nil || len(sigs) == 0 {
		return false
	}
	for {
		select {
		case sig := <-sigs:
			// the trap sees, and `return` in it gives back, the
			// status of the command that has ended
			exit := exitStatus{code: r.lastExit.code}
			r.inShellSig = true
			r.signalSelf(ctx, sig, &exit)
			r.inShellSig = false
			if exit.exiting || exit.returning {
				r.exit = exit
				return true
			}
		default:
			return false
		}
	}
}

// jobsBuiltin implements jobs -p; the listing without -p is not supported.
// jobCount is the number of the shell's own jobs still running, as bash's
// count_all_jobs counts the non-dead ones (jaiph-go patch: the \j of
// ${x@P}; a subshell counts none of its parent's).
func (r *Runner) jobCount() int {
	n := 0
	for _, bg := range r.bgProcs {
		if !bg.inTable() {
			continue
		}
		select {
		case <-bg.done:
		default:
			n++
		}
	}
	return n
}

func (r *Runner) jobsBuiltin(args []string) exitStatus {
	var exit exitStatus
	if len(args) == 0 || args[0] != "-p" {
		r.errf("jobs: jaiph supports only jobs -p\n")
		exit.code = 2
		return exit
	}
	args = args[1:]
	if len(args) == 0 {
		for _, bg := range append(slices.Clip(r.parentJobs), r.bgProcs...) {
			if bg.inTable() {
				r.outf("%d\n", bg.pid)
			}
		}
		return exit
	}
	for _, arg := range args {
		bg, res := r.findJobSpec(arg)
		if bg == nil {
			r.reportJobSpec("jobs", arg, res, true)
			exit.code = 1
			continue
		}
		r.outf("%d\n", bg.pid)
	}
	return exit
}

func isASCIILetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
