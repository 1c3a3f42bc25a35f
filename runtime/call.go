package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unicode/utf8"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/interp"

	"github.com/jaiph-go/jaiph/event"
	"github.com/jaiph-go/jaiph/lowered"
	"github.com/jaiph-go/jaiph/shellbuiltin"
)

// frame is the state of one executing managed call, carried in the context
// of its interpreter runner so builtins know who is calling.
type frame struct {
	rt        *Runtime
	body      *lowered.Body // nil for the virtual caller of the root step
	id        string
	stackLen  int       // open steps including this one
	out       *artifact // the step's own .out artifact
	rvPath    string    // JAIPH_RETURN_VALUE_FILE of this call
	noErrExit bool
	// readOnly is set for rules and everything they call (readonly.go);
	// test mocks of rules run unrestricted, like the reference's mock
	// scripts.
	readOnly bool
	// retValue is the value return, when retSet (the script may also write
	// JAIPH_RETURN_VALUE_FILE itself; that file is the fallback).
	retMu    sync.Mutex
	retValue string
	retSet   bool
	// inbox is the nearest orchestrator's queue (nil outside any);
	// ownsInbox marks the orchestrator itself.
	inbox     *inbox
	ownsInbox bool

	// env is the environment of the run, set only on the virtual root caller.
	env mapEnviron

	caller *frame
	// callees counts the calls made by this one whose bodies' jobs still
	// run: what they print may go to this call's artifacts (a forwarded
	// stdout), so those stay open until the jobs end (runBody).
	callees pendingCount
}

// pendingCount is a WaitGroup that can also tell whether it is zero.
type pendingCount struct {
	wg sync.WaitGroup
	n  atomic.Int64
}

func (c *pendingCount) add()       { c.n.Add(1); c.wg.Add(1) }
func (c *pendingCount) done()      { c.n.Add(-1); c.wg.Done() }
func (c *pendingCount) wait()      { c.wg.Wait() }
func (c *pendingCount) busy() bool { return c.n.Load() > 0 }

type frameKey struct{}

func (f *frame) setReturn(v string) {
	f.retMu.Lock()
	f.retValue, f.retSet = v, true
	f.retMu.Unlock()
}

func (f *frame) returned() (string, bool) {
	f.retMu.Lock()
	defer f.retMu.Unlock()
	return f.retValue, f.retSet
}

func frameOf(ctx context.Context) *frame {
	f, _ := ctx.Value(frameKey{}).(*frame)
	return f
}

// callSpec describes one managed call from the caller's side.
type callSpec struct {
	body      *lowered.Body
	args      []string
	stdin     io.Reader
	stdout    io.Writer // the statement's stdout in the caller
	stderr    io.Writer
	env       mapEnviron // caller's variables
	ownEnv    bool       // env is a fresh copy the callee may keep
	dir       string
	capture   bool // x = run …: never forward stdout
	noErrExit bool
	// forward is set when the caller redirected the statement's stdout.
	forward bool
	// setEnv are exported into the callee's environment (dispatch).
	setEnv [][2]string
}

// Scoped config variables and the keys that feed them (runtime.md §8).
var scopedVars = map[string]string{
	"agent.default_model":     "JAIPH_AGENT_MODEL",
	"agent.command":           "JAIPH_AGENT_COMMAND",
	"agent.backend":           "JAIPH_AGENT_BACKEND",
	"agent.trusted_workspace": "JAIPH_AGENT_TRUSTED_WORKSPACE",
	"agent.cursor_flags":      "JAIPH_AGENT_CURSOR_FLAGS",
	"agent.claude_flags":      "JAIPH_AGENT_CLAUDE_FLAGS",
	"run.logs_dir":            "JAIPH_RUNS_DIR",
	"run.debug":               "JAIPH_DEBUG",
	"run.inbox_parallel":      "JAIPH_INBOX_PARALLEL",
	// (own alignment block: the long key would realign the lines above)
	"run.inbox_max_dispatch_depth": "JAIPH_INBOX_MAX_DISPATCH_DEPTH",
}

// applyScope applies the config scope of a call (runtime.md §8): a workflow
// with its own config sets and locks its keys; otherwise the callee module's
// config sets its keys; locked variables are never touched.
func (rt *Runtime) applyScope(env mapEnviron, b *lowered.Body) {
	cfg, lock := b.Config, b.HasConfig
	if !lock {
		mod := rt.modules[strings.TrimSuffix(b.Symbol, "::"+b.Name)]
		if mod == nil {
			return
		}
		cfg = mod.Config
	}
	for _, e := range cfg {
		v, ok := scopedVars[e.Key]
		if !ok || env.get(v+"_LOCKED") == "1" {
			continue
		}
		env.setExported(v, e.Value)
		if lock {
			env.setExported(v+"_LOCKED", "1")
		}
	}
}

// MaxCallDepth bounds nested managed calls, so endless recursion ends with
// a clear error instead of exhausting file descriptors and memory.
const MaxCallDepth = 1000

// call runs one managed call and returns its exit status (runtime.md §4).
func (rt *Runtime) call(ctx context.Context, caller *frame, spec callSpec) (status int, value string, err error) {
	b := spec.body
	if caller.stackLen >= MaxCallDepth {
		return 1, "", fmt.Errorf("%s: more than %d nested managed calls (endless recursion?)", b.Symbol, MaxCallDepth)
	}
	if err := rt.ensureRunDir(); err != nil {
		return 1, "", fmt.Errorf("cannot create run directory: %w", err)
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
	env.setExported("JAIPH_RETURN_VALUE_FILE", f.rvPath)
	env.setExported("JAIPH_RUN_DIR", rt.runDir)
	env.setExported("JAIPH_RUN_ID", rt.runID)
	env.setExported("JAIPH_RUN_SUMMARY_FILE", filepath.Join(rt.runDir, "run_summary.jsonl"))
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
		ib, err := rt.openInbox(b, seq)
		if err != nil {
			inboxErr = fmt.Errorf("cannot create inbox: %w", err)
		} else {
			defer ib.close()
			f.inbox, f.ownsInbox = ib, true
			env.setExported("JAIPH_INBOX_DIR", rt.inboxes.dir)
		}
	}

	base := filepath.Join(rt.runDir, fmt.Sprintf("%06d-%s", seq, lowered.SafeName(b.Symbol)))
	outPath, errPath := base+".out", base+".err"
	status, runErr := 1, inboxErr
	if inboxErr == nil {
		status, runErr = rt.runBody(ctx, f, spec, env, outPath, errPath)
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
	outKept, errKept := rt.attachArtifacts(end, outPath, errPath)
	if b.Kind == lowered.Workflow {
		rt.emit(&event.Event{Type: event.WorkflowEnd, Workflow: b.Name, Source: rt.opts.SourceFile, Time: time.Now(), Status: &status})
	}
	stepEvent(end)
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
	f.out = out
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
	params := []string{}
	if !f.noErrExit {
		params = append(params, "-e", "-o", "pipefail")
	}
	if env.get("JAIPH_DEBUG") == "true" {
		params = append(params, "-x")
	}
	params = append(params, "--")
	params = append(params, spec.args...)
	r, err := newRunner(runnerConfig{
		env: env, dir: spec.dir, params: params,
		stdin: spec.stdin, stdout: stdout, stderr: errFile,
		jaiph:    rt.execMiddleware,
		readOnly: f.readOnly, readOnlyTmp: rt.rvDir,
	})
	if err != nil {
		out.closeAndPrune()
		errFile.closeAndPrune()
		return 1, err
	}
	err = r.Run(context.WithValue(ctx, frameKey{}, f), file)
	interrupted := interruption(ctx)
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

// attachArtifacts fills a STEP_END's out/err fields from the step's
// artifacts (removing empty ones) and reports which were kept. Only the
// contents' bounded prefixes are read, so a huge output costs no memory.
func (rt *Runtime) attachArtifacts(end *event.Event, outPath, errPath string) (bool, bool) {
	out, outKept := rt.readContent(outPath)
	if outKept {
		end.OutFile = outPath
		end.OutContent = &out
	}
	errOut, errKept := rt.readContent(errPath)
	if errKept {
		end.ErrFile = errPath
		if *end.Status != 0 {
			end.ErrContent = &errOut
		}
	}
	return outKept, errKept
}

// readContent returns an artifact's out_content/err_content (trimContent)
// (an empty artifact counts as absent). At most contentMax runes plus a scan
// of the rest for anything but newlines decide it, in bounded memory.
// An artifact that exists but cannot be opened (no descriptors left) is a
// fault, kept with empty content.
func (rt *Runtime) readContent(path string) (string, bool) {
	fi, err := os.Stat(path) // needs no descriptor
	switch {
	case err != nil:
		return "", false
	case fi.Size() == 0:
		return "", false // removed once the body's jobs are done (runBody)
	}
	unreadable := func(err error) (string, bool) {
		rt.fault(fmt.Errorf("cannot read %s: %s", path, shellbuiltin.ErrnoText(err)), true)
		return "", true
	}
	f, err := os.Open(path)
	if err != nil {
		return unreadable(err)
	}
	defer f.Close()
	// A rune is at most 4 bytes: a longer prefix always holds contentMax runes.
	if fi.Size() < 4*contentMax {
		data := make([]byte, fi.Size())
		n, err := io.ReadFull(f, data)
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
			return unreadable(err)
		}
		return trimContent(string(data[:n])), true
	}
	buf := make([]byte, 4*contentMax)
	if _, err := io.ReadFull(f, buf); err != nil {
		return unreadable(err)
	}
	cut := 0
	for i := 0; i < contentMax; i++ {
		_, size := utf8.DecodeRune(buf[cut:])
		cut += size
	}
	if onlyNewlines(buf[cut:]) && restOnlyNewlines(f) {
		return strings.TrimRight(string(buf[:cut]), "\n"), true
	}
	return validRunes(buf[:cut]) + "\n[truncated]", true
}

func onlyNewlines(b []byte) bool {
	for _, c := range b {
		if c != '\n' {
			return false
		}
	}
	return true
}

// restOnlyNewlines reads the rest of r and reports whether it holds nothing
// but newlines.
func restOnlyNewlines(r io.Reader) bool {
	buf := make([]byte, 64<<10)
	for {
		n, err := r.Read(buf)
		if !onlyNewlines(buf[:n]) {
			return false
		}
		if err != nil {
			return true
		}
	}
}

// validRunes is string([]rune(string(b))) without the 4-byte-per-rune
// copy: each invalid byte becomes U+FFFD, as trimContent's conversion does.
func validRunes(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var s strings.Builder
	s.Grow(len(b))
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		if r == utf8.RuneError && size == 1 {
			s.WriteRune(utf8.RuneError)
		} else {
			s.Write(b[:size])
		}
		b = b[size:]
	}
	return s.String()
}

// copyArtifact streams a kept artifact to w (a failed step's stderr to its
// caller, test-mode output) without holding it in memory.
func (rt *Runtime) copyArtifact(w io.Writer, path string) {
	f, err := os.Open(path)
	if err != nil {
		rt.fault(fmt.Errorf("cannot read %s: %s", path, shellbuiltin.ErrnoText(err)), true)
		return
	}
	defer f.Close()
	_, _ = io.Copy(w, f)
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

type callFlags struct {
	capture   bool
	always    bool // print the captured value even when the call failed
	noErrExit bool
}

// managedFromShell performs a managed call requested by a running body.
func (rt *Runtime) managedFromShell(ctx context.Context, f *frame, b *lowered.Body, args []string, fl callFlags) int {
	hc := interp.HandlerCtx(ctx)
	spec := callSpec{
		body: b, args: args, stdin: hc.Stdin, stdout: hc.Stdout, stderr: hc.Stderr,
		env: snapshotEnv(hc.Env), ownEnv: true, dir: hc.Dir, capture: fl.capture, noErrExit: fl.noErrExit,
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

// mapEnviron is a snapshot of shell variables handed to a callee runner.
type mapEnviron map[string]expand.Variable

func (m mapEnviron) Get(name string) expand.Variable { return m[name] }

func (m mapEnviron) Each(fn func(string, expand.Variable) bool) {
	for k, v := range m {
		if !fn(k, v) {
			return
		}
	}
}

func (m mapEnviron) get(name string) string { return m[name].String() }

func (m mapEnviron) setExported(name, value string) {
	m[name] = expand.Variable{Set: true, Exported: true, Kind: expand.String, Str: value}
}

func (m mapEnviron) setLocal(name, value string) {
	m[name] = expand.Variable{Set: true, Kind: expand.String, Str: value}
}

// clone copies the variables; exportedOnly keeps what a fresh shell would
// inherit (rules).
func (m mapEnviron) clone(exportedOnly bool) mapEnviron {
	out := make(mapEnviron, len(m))
	for k, v := range m {
		if exportedOnly && !v.Exported {
			continue
		}
		v.Local = false
		out[k] = v
	}
	return out
}

// keepExported drops, in place, what clone(exportedOnly) would leave out.
func (m mapEnviron) keepExported(exportedOnly bool) {
	for k, v := range m {
		if exportedOnly && !v.Exported {
			delete(m, k)
		}
	}
}

// snapshotEnv copies the caller's variables (exported or not).
// The callee's runner sets these itself when it starts, whatever it is
// given, so copying them would be wasted work on every managed call.
var setByRunner = map[string]bool{"OSTYPE": true, "MACHTYPE": true, "HOSTTYPE": true, "BASH": true,
	"PWD": true, "UID": true, "EUID": true, "GID": true}

func snapshotEnv(env expand.Environ) mapEnviron {
	out := mapEnviron{}
	env.Each(func(name string, vr expand.Variable) bool {
		if (vr.IsSet() || vr.Exported) && !setByRunner[name] {
			vr.Local = false
			out[name] = vr
		}
		return true
	})
	// A managed call is a subshell of its caller (runtime.md §4), which
	// bash runs at the same SHLVL; the callee's runner adds one as a new
	// shell does, so hand it one less.
	if lvl, err := strconv.Atoi(out.get("SHLVL")); err == nil && lvl > 0 {
		vr := out["SHLVL"]
		vr.Str = strconv.Itoa(lvl - 1)
		out["SHLVL"] = vr
	}
	return out
}

// envFromList builds an environment of exported variables.
func envFromList(list []string) mapEnviron {
	out := mapEnviron{}
	for _, kv := range list {
		if k, v, ok := strings.Cut(kv, "="); ok {
			out.setExported(k, v)
		}
	}
	return out
}
