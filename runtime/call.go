package runtime

// This file answers: what happens when a body calls a rule, function or
// workflow (one runner per managed call, STEP_START/END, the status)?

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/jaiph-go/jaiph/internal/envflag"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/exec/shellbuiltin"
	"github.com/jaiph-go/jaiph/lowered"
)

// MaxCallDepth bounds nested managed calls, so endless recursion ends with
// a clear error instead of exhausting file descriptors and memory.
const MaxCallDepth = 1000

// call runs one managed call and returns its exit status (docs/language.md#managed-calls).
func (rt *Runtime) call(ctx context.Context, caller *frame, spec callSpec) (status int, value string, err error) {
	b := spec.body
	if !rt.countStep() {
		return 1, "", nil // the run is being stopped (limits.go)
	}
	caller.inflight.Add(1)
	defer caller.inflight.Add(-1)
	if caller.stackLen >= MaxCallDepth {
		return 1, "", fmt.Errorf("%s: more than %d nested managed calls (endless recursion?)", b.Symbol, MaxCallDepth)
	}
	if err := rt.ensureRunDir(); err != nil {
		return 1, "", fmt.Errorf("cannot create run directory: %w", err)
	}
	jid := caller.callID(b.Symbol, spec.args)
	if r := rt.journal.begin(caller, jid, string(b.Kind), b.Symbol, spec.args, spec.setEnv != nil); r != nil {
		if spec.replayed != nil {
			*spec.replayed = true
		}
		return rt.replayCall(ctx, caller, spec, jid, r)
	}
	env := spec.env
	if env == nil {
		env = caller.env
	}
	if spec.ownEnv {
		env.keepExported(b.Kind == lowered.Rule || b.Script)
	} else {
		env = env.clone(b.Kind == lowered.Rule || b.Script)
	}
	for _, kv := range spec.setEnv {
		env.setExported(kv[0], kv[1])
	}
	rt.applyScope(env, b)

	seq := rt.nextSeq()
	f := &frame{
		rt:        rt,
		body:      b,
		id:        fmt.Sprintf("%s:%d:%d", rt.runID, rt.pid, seq),
		jid:       jid,
		delivery:  spec.setEnv != nil, // only a dispatch sets the callee's environment
		stackLen:  caller.stackLen + 1,
		noErrExit: b.Kind != lowered.Rule && (spec.noErrExit || caller.noErrExit),
		rvPath:    filepath.Join(rt.rvDir, fmt.Sprint(rt.rvSeq.Add(1))),
		inbox:     caller.inbox,
		readOnly:  caller.readOnly || (b.Kind == lowered.Rule && !b.Script),
		caller:    caller,
	}
	if f.readOnly {
		if dir := rt.ruleTempDir(); dir != "" {
			env.setExported("TMPDIR", dir)
		}
	}
	if !b.Script && !env["PIPESTATUS"].IsSet() {
		// A body is a bash function the reference's script calls after
		// its `set -eo pipefail`, a simple command: PIPESTATUS holds
		// (0) before the body's first pipeline, as in bash (a fresh
		// shell has none). A callee inherits its caller's, as a bash
		// function or subshell does.
		env["PIPESTATUS"] = expand.Variable{Set: true, Kind: expand.Indexed, List: []string{"0"}}
	}
	env.setExported("JAIPH_RETURN_VALUE_FILE", f.rvPath)
	env.setExported("JAIPH_RUN_DIR", rt.runDir)
	env.setExported("JAIPH_RUN_ID", rt.runID)
	paths := rt.runDirPaths()
	env.setExported("JAIPH_ARTIFACTS_DIR", paths.artifacts)
	env.setExported("JAIPH_RUN_SUMMARY_FILE", paths.summary)
	mod := rt.modules[strings.TrimSuffix(b.Symbol, "::"+b.Name)]
	if mod != nil {
		for _, l := range rt.opts.Locals[mod.Symbol] {
			env.setLocal(l.Name, l.Value)
		}
	}

	start := time.Now()
	parentID := ""
	if caller.body != nil {
		parentID = caller.id
	}
	dispatchCh, dispatched := env["JAIPH_DISPATCH_CHANNEL"]
	stepEvent := func(e *event.Event) *event.Event {
		if dispatched && dispatchCh.IsSet() {
			e.Dispatched, e.Channel, e.Sender = true, dispatchCh.String(), env.get("JAIPH_DISPATCH_SENDER")
		}
		rt.emit(e)
		return e
	}
	stepEvent(&event.Event{Type: event.StepStart, Func: b.Symbol, Kind: string(b.Kind), Name: b.Name, Time: start,
		ID: f.id, ParentID: parentID, Seq: seq, Depth: caller.stackLen, Params: positionalParams(spec.args)})
	if b.Kind == lowered.Workflow {
		rt.emit(&event.Event{Type: event.WorkflowStart, Workflow: b.Name, Source: rt.opts.SourceFile, Time: time.Now()})
	}
	var inboxErr error
	if len(b.Routes) > 0 {
		if ib, err := rt.openInbox(ctx, b, f.id, seq, f.stackLen, env); err != nil {
			inboxErr = fmt.Errorf("cannot create inbox: %w", err)
		} else {
			defer ib.queue.Close()
			f.inbox, f.ownsInbox = ib, true
			env.setExported("JAIPH_INBOX_DIR", ib.queue.Dir())
		}
	}

	base := filepath.Join(rt.runDir, fmt.Sprintf("%06d-%s", seq, lowered.SafeName(b.Symbol)))
	outPath, errPath := base+".out", base+".err"
	status, runErr := 1, inboxErr
	if inboxErr == nil {
		bodyCtx, unwatch := rt.watchIdle(ctx, f, outPath, errPath)
		status, runErr = rt.runBody(bodyCtx, f, spec, env, outPath, errPath)
		unwatch()
		if in := Interruption(bodyCtx); in != nil && in.Limit != "" && Interruption(ctx) == nil {
			// Stopped for being idle: the step fails, the run goes on.
			status, runErr = max(status, 1), nil
		}
	}
	if v, ok := f.returned(); ok {
		value = v
	} else if rv, err := os.ReadFile(f.rvPath); err == nil {
		value = string(rv)
		os.Remove(f.rvPath)
	} else if !errors.Is(err, os.ErrNotExist) {
		rt.fault(fmt.Errorf("cannot read the return value of %s: %s", b.Symbol, shellbuiltin.ErrnoText(err)), true)
	}

	end := &event.Event{Type: event.StepEnd, Func: b.Symbol, Kind: string(b.Kind), Name: b.Name, Time: time.Now(),
		ID: f.id, ParentID: parentID, Seq: seq, Depth: caller.stackLen}
	elapsed := time.Since(start).Milliseconds()
	end.Status, end.ElapsedMS = &status, &elapsed
	outKept, errKept := rt.attachArtifacts(end, outPath, errPath, f.out.touched(), f.errOut.touched())
	if b.Kind == lowered.Workflow {
		rt.emit(&event.Event{Type: event.WorkflowEnd, Workflow: b.Name, Source: rt.opts.SourceFile, Time: time.Now(), Status: &status})
	}
	stepEvent(end)
	if Interruption(ctx) == nil { // an interrupted call stays started, not ended
		rt.journal.end(jid, status, value, end.OutFile)
	}
	if rt.opts.TestMode {
		testModeOutput(caller, spec, outPath, errPath, outKept, errKept, status)
	} else if status != 0 && errKept {
		rt.copyArtifact(spec.stderr, errPath)
	}
	return status, value, runErr
}

// runBody executes the callee's lowered source in a fresh runner whose
// stdout/stderr are the step's artifacts, written live (D1).
func (rt *Runtime) runBody(ctx context.Context, f *frame, spec callSpec, env mapEnviron, outPath, errPath string) (int, error) {
	out, errFile := rt.newArtifact(outPath, nil), rt.newArtifact(errPath, rt.opts.StrayStderr)
	f.out, f.errOut = out, errFile
	var stdout io.Writer = out
	if spec.forward && !spec.capture && !rt.opts.TestMode {
		stdout = io.MultiWriter(out, spec.stdout)
	}
	file, err := rt.body(f.body)
	if err != nil {
		fmt.Fprintf(errFile, "jaiph: internal error lowering %s: %v\n", f.body.Symbol, err)
		out.closeAndPrune()
		errFile.closeAndPrune()
		return 1, nil
	}
	// Every body starts with errexit and pipefail on, as a bash function
	// of the reference's script (set -eo pipefail) would; a call where
	// bash ignores errexit starts in that context instead of with the
	// option off, so that a `set -e` in the body changes nothing and
	// pipefail still holds, as in bash.
	params := []string{"-e", "-o", "pipefail"}
	if envflag.True(env.get("JAIPH_DEBUG")) {
		params = append(params, "-x")
	}
	params = append(params, "--")
	params = append(params, spec.args...)
	r, err := newRunner(runnerConfig{
		env: env, dir: spec.dir, params: params,
		stdin: spec.stdin, stdout: stdout, stderr: errFile,
		jaiph:    rt.execMiddleware,
		funcs:    rt.commandFunc,
		readOnly: f.readOnly, readOnlyTmp: rt.rvDir,
		errExitIgnored: f.noErrExit,
	})
	if err != nil {
		out.closeAndPrune()
		errFile.closeAndPrune()
		return 1, err
	}
	err = r.Run(context.WithValue(ctx, frameKey{}, f), file)
	interrupted := Interruption(ctx)
	if interrupted == nil {
		rt.shellFault(ctx, errFile, err)
	}
	// Jobs the body started and never waited for go on writing to its
	// artifacts after it returned, as in bash; the run waits for them, and
	// so do the artifacts of the callers their output may reach. Without
	// such jobs the artifacts close now, before the caller reads them (a
	// body that used up the descriptors leaves the caller none otherwise).
	finish := func() {
		r.WaitBackground()
		f.callees.wait()
		out.closeAndPrune()
		errFile.closeAndPrune()
	}
	if r.BackgroundRunning() || f.callees.busy() {
		rt.lingering.Add(1)
		f.caller.callees.add()
		go func() {
			defer rt.lingering.Done()
			defer f.caller.callees.done()
			finish()
		}()
	} else {
		finish()
	}
	if interrupted != nil {
		return interrupted.Status(), ctx.Err()
	}
	return exitStatus(err), contextErr(ctx)
}

// shellFault writes a runner's fatal error (a pipe it could not create) to
// the step's stderr, which otherwise would only see status 1; for lack of
// resources it is a fault of the run.
func (rt *Runtime) shellFault(ctx context.Context, stderr io.Writer, err error) {
	if _, ok := interp.IsExitStatus(err); ok || err == nil || ctx.Err() != nil {
		return
	}
	msg := err.Error()
	var errno syscall.Errno
	if errors.As(err, &errno) { // bash's capitalised strerror text
		msg = strings.Replace(msg, errno.Error(), shellbuiltin.ErrnoText(errno), 1)
	}
	fmt.Fprintf(stderr, "jaiph: %s\n", msg)
	if shellbuiltin.IsResourceFault(err) {
		rt.fault(err, false)
	}
}

func contextErr(ctx context.Context) error {
	if ctx.Err() != nil {
		return ctx.Err()
	}
	return nil
}

// exitStatus maps a runner error to a shell status.
func exitStatus(err error) int {
	if err == nil {
		return 0
	}
	if st, ok := interp.IsExitStatus(err); ok {
		return int(st)
	}
	return 1
}

// positionalParams pairs call arguments as positional parameters (D16).
func positionalParams(args []string) [][2]string {
	out := make([][2]string, len(args))
	for i, a := range args {
		out[i] = [2]string{fmt.Sprintf("arg%d", i+1), a}
	}
	return out
}

// execMiddleware dispatches the Jaiph builtins and managed calls; every other
// command goes to the default handler (external programs).
func (rt *Runtime) execMiddleware(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
	return func(ctx context.Context, args []string) error {
		f := frameOf(ctx)
		if f == nil {
			return next(ctx, args)
		}
		name := args[0]
		if bi, ok := builtins[name]; ok {
			return statusErr(bi(ctx, f, args[1:]))
		}
		switch name {
		case "log":
			return statusErr(builtinLog(ctx, f, []string{strings.Join(args[1:], " ")}))
		case "logerr":
			return statusErr(builtinLogErr(ctx, f, []string{strings.Join(args[1:], " ")}))
		}
		if b := rt.lookupCommand(f, name); b != nil {
			return statusErr(rt.managedFromShell(ctx, f, b, args[1:], callFlags{}))
		}
		return next(ctx, args)
	}
}

// lookupCommand resolves a command word to a managed body: `<module>::<name>`
// symbols and bare names of functions of the caller's module.
func (rt *Runtime) lookupCommand(f *frame, name string) *lowered.Body {
	if strings.Contains(name, "::") {
		return rt.bodies[name]
	}
	if f.body == nil {
		return nil
	}
	modSym := strings.TrimSuffix(f.body.Symbol, "::"+f.body.Name)
	if b := rt.bodies[modSym+"::"+name]; b != nil && b.Kind == lowered.Function {
		return b
	}
	return nil
}

// commandFunc answers `command -v NAME`, `type NAME` and `declare -F NAME`
// for the names a body calls as managed calls (lookupCommand): they are
// functions, as in the reference, where each function has a shim of its
// bare name (`g () { main::g "$@"; }`) and every rule, workflow and
// function a `<module>::<name>` function.
func (rt *Runtime) commandFunc(ctx context.Context, name string) (string, bool) {
	f := frameOf(ctx)
	if f == nil {
		return "", false
	}
	b := rt.lookupCommand(f, name)
	if b == nil {
		return "", false
	}
	if name != b.Symbol {
		return b.Symbol + ` "$@"`, true
	}
	return b.Symbol + `::impl "$@"`, true
}

// managedFromShell performs a managed call requested by a running body.
func (rt *Runtime) managedFromShell(ctx context.Context, f *frame, b *lowered.Body, args []string, fl callFlags) int {
	hc := interp.HandlerCtx(ctx)
	// The callee ignores errexit where the calling shell does at this
	// command (`run f || …`, `if run f`, `! run f`, `g && …` for a
	// function g called from shell text), as a bash function would.
	spec := callSpec{
		body: b, args: args, stdin: hc.Stdin, stdout: hc.Stdout, stderr: hc.Stderr,
		env: snapshotEnv(hc.Env), ownEnv: true, dir: hc.Dir, capture: fl.capture, noErrExit: hc.ErrExitIgnored,
		forward: hc.Stdout != io.Writer(f.out),
	}
	status, value, err := rt.call(ctx, f, spec)
	if err != nil && !errors.Is(err, context.Canceled) {
		fmt.Fprintf(hc.Stderr, "jaiph: %v\n", err)
	}
	if fl.capture && (status == 0 || fl.always) {
		_, _ = io.WriteString(hc.Stdout, value)
	}
	return status
}

// statusErr turns a status into the error an exec handler returns.
func statusErr(status int) error { return shellbuiltin.Status(status) }

// runDirPaths are the paths under a run directory every managed call
// exports.
type runDirPaths struct {
	dir, artifacts, summary string
}

// runDirPaths returns the run directory's paths, joined once per run
// directory rather than for every call (two filepath.Join a call were
// ~1.4 % of the 100-step run's instructions).
func (rt *Runtime) runDirPaths() *runDirPaths {
	if p := rt.runPaths.Load(); p != nil && p.dir == rt.runDir {
		return p
	}
	p := &runDirPaths{
		dir:       rt.runDir,
		artifacts: filepath.Join(rt.runDir, ArtifactsDir),
		summary:   filepath.Join(rt.runDir, "run_summary.jsonl"),
	}
	rt.runPaths.Store(p)
	return p
}
