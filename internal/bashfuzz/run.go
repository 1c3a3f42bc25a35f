package bashfuzz

import (
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/internal/engine"
	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/lazy"
)

// Context is where a body runs: the calls a Jaiph body really has.
type Context int

const (
	// CtxWorkflow: the body of the default workflow.
	CtxWorkflow Context = iota
	// CtxRun: a function called by `run f "$@"`.
	CtxRun
	// CtxRunOr: a function called by `run f "$@" || true` (errexit
	// ignored in the callee, as bash ignores it left of `||`).
	CtxRunOr
	// CtxIfRun: a function called as the condition of `if run f "$@"`.
	CtxIfRun
)

// Contexts are all of them, in order.
var Contexts = []Context{CtxWorkflow, CtxRun, CtxRunOr, CtxIfRun}

func (c Context) String() string {
	return [...]string{"workflow", "run", "run-or", "if-run"}[c]
}

// errexitIgnored: the body runs with errexit ignored in this context.
func (c Context) errexitIgnored() bool { return c == CtxRunOr || c == CtxIfRun }

// Args are the positional parameters both sides get.
var Args = []string{"one", "two words", "three"}

// JaiphSource is main.jh for a body in a context; body line k is file
// line k+1 in every context.
func JaiphSource(body string, c Context) string {
	switch c {
	case CtxWorkflow:
		return "workflow default {\n" + body + "\n}\n"
	case CtxRunOr:
		return "function snippet() {\n" + body + "\n}\n\nworkflow default {\n  run snippet \"$@\" || true\n}\n"
	case CtxIfRun:
		return "function snippet() {\n" + body + "\n}\n\nworkflow default {\n  if run snippet \"$@\"; then\n    true\n  fi\n}\n"
	}
	return "function snippet() {\n" + body + "\n}\n\nworkflow default {\n  run snippet \"$@\"\n}\n"
}

// BashScript is the bash side of a body in a context: the body as a bash
// function named like jaiph's lowered one, line-aligned with main.jh,
// errexit and pipefail on as in a Jaiph body, called as the context calls
// it (left of `||` or as an `if` condition when jaiph ignores errexit),
// its status the script's.
func BashScript(body string, c Context) string {
	name := "main::snippet::impl" // the function of JaiphSource's body
	if c == CtxWorkflow {
		name = "main::default::impl"
	}
	call := name + " \"$@\"\n"
	if c.errexitIgnored() {
		// bash ignores errexit in a function called left of || (and in an
		// if condition), as jaiph does in such a callee.
		call = name + " \"$@\" || exit $?\n"
	}
	// $0 in a jaiph body is the qualified name of what runs it (a body
	// has no script file; docs/differences.md): bash's is set to the
	// same, so that a program reaching $0 through ${!v} (v=$?, 0)
	// compares the rest.
	argv0 := strings.TrimSuffix(name, "::impl")
	return "set -eo pipefail; BASH_ARGV0=" + argv0 + "; " + name + "() {\n" + body + "\n}\n" + call
}

// Side is what one side produced.
type Side struct {
	Stdout, Stderr string
	Status         int
	Files          string // the scratch directory's files, "name: content" lines
	Err            string // the side could not run (a timeout): a divergence
	// bashBug: bash hit a bug of its own (Verdict BashBug), nothing to
	// compare: it printed its "wait_for: No record of process N" (see
	// normalise), after which its status is wait_for's 127, not the
	// script's; or it crashed (SIGSEGV and the like, which no generated
	// program sends).
	bashBug bool
}

// Verdict is the outcome of one body in one context.
type Verdict int

const (
	Agree Verdict = iota
	Refused
	Differ
	// BashBug: bash hit its own bug (its "wait_for: No record of
	// process N", after which its status is 127, or a crash): nothing
	// to compare.
	BashBug
)

func (v Verdict) String() string { return [...]string{"agree", "refused", "differ", "bash-bug"}[v] }

// Result is one comparison.
type Result struct {
	Context      Context
	Verdict      Verdict
	Jaiph, Bash  Side
	Refusal      string // the diagnostic of a refused body
	CheckFailure string // check failed without a located refusal (a Differ)
}

// Diff describes a Differ result for a person.
func (r Result) Diff() string {
	var b strings.Builder
	if r.CheckFailure != "" {
		fmt.Fprintf(&b, "jaiph check failed without a refusal inside the body: %s\n", r.CheckFailure)
		return b.String()
	}
	fmt.Fprintf(&b, "context %s: status jaiph %d, bash %d\n", r.Context, r.Jaiph.Status, r.Bash.Status)
	for _, f := range []struct{ name, j, b string }{
		{"error", r.Jaiph.Err, r.Bash.Err},
		{"stdout", r.Jaiph.Stdout, r.Bash.Stdout},
		{"stderr", r.Jaiph.Stderr, r.Bash.Stderr},
		{"files", r.Jaiph.Files, r.Bash.Files},
	} {
		if f.j != f.b {
			fmt.Fprintf(&b, "--- jaiph %s\n%s--- bash %s\n%s", f.name, show(f.j), f.name, show(f.b))
		}
	}
	return b.String()
}

func show(s string) string {
	if len(s) > 2000 {
		s = s[:2000] + "\n(cut at 2000 bytes)\n"
	}
	switch {
	case s == "":
		return "(empty)\n"
	case !strings.HasSuffix(s, "\n"):
		return s + "\n(no final newline)\n"
	}
	return s
}

// Runner runs bodies on both sides. Jaiph's side runs in this process
// through internal/engine (load, check, run in a scratch run directory),
// which is what `jaiph run` does minus the process start; bash's side is
// one /usr/bin/bash process per body and framing (CtxRunOr and CtxIfRun
// share theirs; CtxWorkflow's function is named as jaiph's workflow, so
// FUNCNAME and caller agree). A Runner is safe for concurrent use.
type Runner struct {
	Bash    string        // the bash to compare with
	Timeout time.Duration // each side's limit
	root    string
	keyDir  string
	n       atomic.Int64
}

// NewRunner makes a runner whose scratch directories live under root
// (which it does not remove).
func NewRunner(root string) (*Runner, error) {
	root, err := filepath.EvalSymlinks(root)
	if err != nil {
		return nil, err
	}
	keys := filepath.Join(root, "keys")
	if err := os.MkdirAll(keys, 0o700); err != nil {
		return nil, err
	}
	return &Runner{Bash: "/usr/bin/bash", Timeout: 10 * time.Second, root: root, keyDir: keys}, nil
}

// Compare runs body in each context on both sides. Bash's run of a
// framing starts as soon as the first context that needs it has passed
// `jaiph check`, and runs while jaiph's side of that context runs in this
// process (the two use their own directories and share nothing), so that
// a worker keeps a core busy while it would otherwise wait for bash.
func (r *Runner) Compare(ctx context.Context, body string, contexts []Context) []Result {
	type pending struct {
		done chan struct{}
		side Side
	}
	bash := map[string]*pending{} // by framing: BashScript
	var out []Result
	for _, c := range contexts {
		res := Result{Context: c}
		l, refusal, checkErr := r.load(body, c)
		switch {
		case refusal != "":
			res.Verdict, res.Refusal = Refused, refusal
			out = append(out, res)
			continue
		case checkErr != "":
			res.Verdict, res.CheckFailure = Differ, checkErr
			out = append(out, res)
			continue
		}
		framing := BashScript(body, c)
		b, ok := bash[framing]
		if !ok {
			b = &pending{done: make(chan struct{})}
			bash[framing] = b
			go func(c Context) {
				defer close(b.done)
				b.side = r.bash(ctx, body, c)
			}(c)
		}
		j := r.jaiph(ctx, body, c, l)
		<-b.done
		res.Jaiph, res.Bash = j, b.side
		if res.Bash.bashBug {
			res.Verdict = BashBug
			res.Bash.bashBug = false
			out = append(out, res)
			continue
		}
		if j != res.Bash {
			res.Verdict = Differ
		}
		out = append(out, res)
	}
	return out
}

// scratch is a fresh directory for one side of one run: the workspace
// marker and main.jh, so that globs and ls see the same entries on both
// sides.
func (r *Runner) scratch(kind, source string) (string, error) {
	dir := filepath.Join(r.root, fmt.Sprintf("%s%d", kind, r.n.Add(1)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return "", err
	}
	if err := os.Mkdir(filepath.Join(dir, ".jaiph"), 0o755); err != nil {
		return dir, err
	}
	return dir, os.WriteFile(filepath.Join(dir, "main.jh"), []byte(source), 0o644)
}

func (r *Runner) environ() []string {
	// HOME is the same path on both sides (`~` expands to it), and not
	// the scratch directory, whose name differs.
	return []string{"PATH=" + os.Getenv("PATH"), "HOME=/home/fuzz", "LC_ALL=C.UTF-8", "TZ=UTC", "NO_COLOR=1"}
}

// stepEnds keeps the STEP_END of the body's step.
type stepEnds struct {
	mu   sync.Mutex
	name string
	kind string
	end  *event.Event
}

func (s *stepEnds) Event(e *event.Event) {
	if e.Type != event.StepEnd || e.Name != s.name || e.Kind != s.kind {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.end == nil {
		c := *e
		s.end = &c
	}
}

// loaded is a body's main.jh in its scratch directory, checked and
// loaded (or why it could not be: the scratch directory is gone then).
type loaded struct {
	dir  string
	prog *engine.Program
	err  string // the directory could not be made: a divergence
}

// load checks the body in a context as `jaiph run` does before it runs
// it: a refusal, a check failure outside the body, or the program.
func (r *Runner) load(body string, c Context) (l loaded, refusal, checkErr string) {
	src := JaiphSource(body, c)
	dir, err := r.scratch("j", src)
	if err != nil {
		os.RemoveAll(dir)
		return loaded{err: err.Error()}, "", ""
	}
	prog, err := engine.Load(filepath.Join(dir, "main.jh"))
	if err != nil {
		os.RemoveAll(dir)
		var d *diag.Diagnostic
		lines := strings.Count(body, "\n") + 1
		if errors.As(err, &d) && (d.Code == "E_VALIDATE" || d.Code == "E_PARSE") && d.Line >= 1 && d.Line <= lines+2 {
			return loaded{}, fmt.Sprintf("line %d: %s %s", d.Line-1, d.Code, d.Message), ""
		}
		return loaded{}, "", strings.ReplaceAll(err.Error(), dir, "$DIR")
	}
	return loaded{dir: dir, prog: prog}, "", ""
}

// jaiph runs a loaded body as jaiph would: what the body's step
// produced. It removes the scratch directory.
func (r *Runner) jaiph(ctx context.Context, body string, c Context, l loaded) (side Side) {
	if l.err != "" {
		return Side{Err: l.err}
	}
	dir, prog := l.dir, l.prog
	defer os.RemoveAll(dir)
	runDir := dir + ".run"
	if err := os.Mkdir(runDir, 0o755); err != nil {
		return Side{Err: err.Error()}
	}
	defer os.RemoveAll(runDir)
	obs := &stepEnds{name: "snippet", kind: "function"}
	if c == CtxWorkflow {
		obs.name, obs.kind = "default", "workflow"
	}
	tctx, cancel := context.WithTimeout(ctx, r.Timeout)
	defer cancel()
	env := r.environ()
	// Bash's side reads /dev/null (exec.Cmd's nil Stdin). A reader that is
	// no file would cost the interpreter a pipe, left for the collector to
	// close: hundreds of them at once in a soak.
	devNull, err := os.Open(os.DevNull)
	if err != nil {
		return Side{Err: err.Error()}
	}
	defer devNull.Close()
	rt, _, err := prog.InProcess().Prepare(tctx, engine.RunOptions{Environ: env, Args: Args, Stdin: devNull,
		StrayStderr: io.Discard, Notices: io.Discard, Observer: obs, Ephemeral: true, Scratch: runDir, KeyDir: r.keyDir})
	if err != nil {
		return Side{Err: err.Error()}
	}
	runErr := func() (err error) {
		// A panic of the interpreter on this goroutine is a divergence
		// (jaiph would die with a stack trace), not the fuzzer's end; one
		// on another goroutine still ends the process.
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("panic: %v", p)
			}
		}()
		_, err = rt.Run(tctx, Args)
		return err
	}()
	rt.Close()
	if runErr != nil && strings.HasPrefix(runErr.Error(), "panic: ") {
		return Side{Err: runErr.Error()}
	}
	if tctx.Err() != nil {
		return Side{Err: "timed out after " + r.Timeout.String()}
	}
	obs.mu.Lock()
	end := obs.end
	obs.mu.Unlock()
	if end == nil || end.Status == nil {
		msg := "no STEP_END for the body"
		if runErr != nil {
			msg += ": " + runErr.Error()
		}
		return Side{Err: msg}
	}
	side = Side{Status: *end.Status, Files: files(dir, func(s string) string { return normalise(s, dir, false) })}
	outFile, errFile := end.OutFile, end.ErrFile
	if outFile == "" || errFile == "" {
		// An artifact empty when the step ended is not named by its
		// STEP_END; a background job the body left may have written
		// it since (the run waits for such jobs).
		out, errPath := stepArtifacts(runDir, obs.name)
		outFile, errFile = cmp.Or(outFile, out), cmp.Or(errFile, errPath)
	}
	for _, a := range []struct {
		path string
		dst  *string
	}{{outFile, &side.Stdout}, {errFile, &side.Stderr}} {
		if a.path == "" {
			continue
		}
		data, err := os.ReadFile(a.path)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return Side{Err: err.Error()}
		}
		*a.dst = normalise(string(data), dir, false)
	}
	return side
}

// stepArtifacts finds the .out and .err artifacts of the step named name
// (module main) under a run's directory, "" for one that does not exist.
func stepArtifacts(runDir, name string) (out, errPath string) {
	_ = filepath.WalkDir(runDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		switch base := d.Name(); {
		case strings.HasSuffix(base, "-main__"+name+".out"):
			out = path
		case strings.HasSuffix(base, "-main__"+name+".err"):
			errPath = path
		}
		return nil
	})
	return out, errPath
}

// bash runs the body under bash with the context's framing.
func (r *Runner) bash(ctx context.Context, body string, c Context) Side {
	dir, err := r.scratch("b", JaiphSource(body, c))
	if err != nil {
		os.RemoveAll(dir)
		return Side{Err: err.Error()}
	}
	defer os.RemoveAll(dir)
	// The script lives outside dir so that globs see the same files.
	script := dir + ".sh"
	if err := os.WriteFile(script, []byte(BashScript(body, c)), 0o644); err != nil {
		return Side{Err: err.Error()}
	}
	defer os.Remove(script)
	tctx, cancel := context.WithTimeout(ctx, r.Timeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, r.Bash, append([]string{script}, Args...)...)
	cmd.Dir = dir
	cmd.Env = r.environ()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error { return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	// What bash wrote with its location prefix may have gone to stdout or
	// a file (`2>&1`, `2>f2`): every line loses it.
	prefixed := func(s string) string { return normalise(strings.ReplaceAll(s, script+": ", "bash: "), dir, true) }
	side := Side{Files: files(dir, prefixed)}
	var ee *exec.ExitError
	switch {
	case tctx.Err() != nil:
		return Side{Err: "timed out after " + r.Timeout.String()}
	case errors.As(err, &ee):
		side.Status = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			side.Status = 128 + int(ws.Signal())
			side.bashBug = crashSignals[ws.Signal()]
		}
	case err != nil:
		return Side{Err: err.Error()}
	}
	side.Stdout = prefixed(stdout.String())
	side.Stderr = prefixed(stderr.String())
	if strings.Contains(stderr.String(), "wait_for: No record of process ") || leaksCtlEsc(stdout.String(), stderr.String(), side.Files) {
		side.bashBug = true
	}
	return side
}

// leaksCtlEsc reports whether bash's output or files hold one of its
// internal quoting bytes, CTLESC (\x01) or CTLNUL (\x7f), raw, as Go
// quotes them (files are compared %q-quoted) or as declare -p quotes
// them ($'\001'), which no generated program writes: bash 5.2 leaves
// CTLESC in the value an operator makes of a nameref to a[@] in an
// unquoted assignment's value or a here-string (declare -n r='a[@]';
// v=${r#x} keeps \x01 before each character of the elements, and the
// pattern does not match), and CTLNUL for each empty element of such a
// list given by ${r-} and the like.
func leaksCtlEsc(stdout, stderr, files string) bool {
	for _, s := range []string{stdout, stderr, files} {
		for _, b := range []string{"\x01", "\x7f", `\x01`, `\x7f`, `\001`, `\177`} {
			if strings.Contains(s, b) {
				return true
			}
		}
	}
	return false
}

// crashSignals are the signals of a crashed bash (bash 5.2.15 segfaults
// on `declare -n r='a[1]'; echo "${r=5}"`); the generator writes no
// kill, so only bash itself sends them.
var crashSignals = map[syscall.Signal]bool{
	syscall.SIGSEGV: true, syscall.SIGBUS: true, syscall.SIGABRT: true,
	syscall.SIGILL: true, syscall.SIGFPE: true,
}

// bashPrefix is the location bash puts before its own diagnostics (`bash:
// line N: `, `bash: `); jaiph's carry none. With a line number it is
// taken anywhere in a line: a diagnostic sent to stdout (`2>&1`) follows
// whatever the line held (`printf '[%s]'; printf %d x` writes `[]bash:
// line 2: printf: …`).
var bashPrefix = lazy.Regexp(`^bash: (line [0-9]+: )?|bash: line [0-9]+: `)

// normalise prepares an output for comparison: the side's directory
// becomes $DIR, and bash's diagnostics lose their location prefix.
// waitForNoise is bash's "wait_for: No record of process N" line.
var waitForNoise = lazy.Regexp(`^wait_for: No record of process [0-9]+\n?$`)

func normalise(s, dir string, fromBash bool) string {
	if fromBash {
		lines := strings.SplitAfter(s, "\n")
		for i, l := range lines {
			l = bashPrefix().ReplaceAllLiteralString(l, "")
			if waitForNoise().MatchString(l) {
				// bash 5.2's own noise, from a bug: a pipeline whose
				// element died of a fatal expansion error sometimes
				// makes it look for a child it already reaped.
				l = ""
			}
			lines[i] = l
		}
		s = strings.Join(lines, "")
	}
	return strings.ReplaceAll(s, dir, "$DIR")
}

// nulRuns are the holes of a file written past its end (an fd whose
// offset ran on after another redirection truncated the file): their
// lengths are left out of the comparison, since bash's diagnostics
// written through such an fd carry its location prefix (`FILE: line N:
// `), which moves its offsets further than jaiph's.
var nulRuns = lazy.Regexp(`\x00+`)

// files lists what the body left in its directory besides the workspace
// marker and main.jh: one "name: content" line per file (content
// normalised, then quoted), "name/" per directory, "name: (type)" for
// anything else, sorted.
func files(dir string, norm func(string) string) string {
	var out []string
	_ = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == dir {
			return nil
		}
		rel, _ := filepath.Rel(dir, path)
		if rel == ".jaiph" || rel == "main.jh" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			out = append(out, rel+"/")
			return nil
		}
		if !d.Type().IsRegular() {
			// a FIFO (mkfifo), a socket or a symbolic link: reading it
			// could block or leave the directory
			out = append(out, fmt.Sprintf("%s: (%v)", rel, d.Type()))
			return nil
		}
		data, _ := os.ReadFile(path)
		out = append(out, fmt.Sprintf("%s: %q", rel, nulRuns().ReplaceAllLiteralString(norm(string(data)), "\x00…")))
		return nil
	})
	sort.Strings(out)
	if len(out) == 0 {
		return ""
	}
	return strings.Join(out, "\n") + "\n"
}
