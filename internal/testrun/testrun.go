package testrun

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/codegen"
	"github.com/jaiph-go/jaiph/internal/envflag"
	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/fileinbox"
	"github.com/jaiph-go/jaiph/internal/observe/progress"
	"github.com/jaiph-go/jaiph/internal/store/inbox"
	"github.com/jaiph-go/jaiph/lowered"
	"github.com/jaiph-go/jaiph/runtime"
	"github.com/jaiph-go/jaiph/validate"
)

// Options configure the runs of one test file.
type Options struct {
	// Program is the test file and the modules it imports
	// (validate.LoadTestFile; D19).
	Program *validate.Program
	// Workspace is W: the blocks' working directory and the root of module
	// symbols.
	Workspace string
	Env       []string // environment of the jaiph process
	Stdin     io.Reader
	// Stdout receives the stdout of the blocks' shell lines.
	Stdout io.Writer
	// Style colours the two sides of a failed expectEqual.
	Style *progress.Style
	// FailedStepStderr: a run that fails a test also prints its first
	// failed step's stderr (D25). Only for a person at a terminal: the
	// report off a terminal is the reference's, line for line.
	FailedStepStderr bool
}

// Result is the outcome of one test block.
type Result struct {
	Description string
	Failed      bool
	// Stderr is what the block wrote to stderr: its shell lines' stderr and
	// the runner's failure messages, in order.
	Stderr  string
	Elapsed time.Duration
}

// File is a test file ready to run: its modules lowered, their locals
// evaluated once, the blocks' environment prepared.
type File struct {
	opts   Options
	mods   []*lowered.Module
	entry  *lowered.Module // the test file's imports, as a module without bodies
	locals map[string][]runtime.Local
	env    []string
}

// Prepared is what engine.PrepareTest assembles for a test file: its
// modules lowered, the test file's imports as a module without bodies, the
// evaluated module locals and the environment the blocks run in.
type Prepared struct {
	Modules []*lowered.Module
	Entry   *lowered.Module
	Locals  map[string][]runtime.Local
	Env     *runtime.Env
}

// New makes a test file ready to run from what engine prepared. The
// blocks' environment (docs/environment.md#set-by-jaiph) is the run's minus the variables of
// an enclosing run, plus JAIPH_TEST_MODE=1 and JAIPH_TEST_FILE.
func New(opts Options, p Prepared) *File {
	env := p.Env
	for _, k := range []string{"JAIPH_SOURCE_FILE", "JAIPH_RUN_ID", "JAIPH_RETURN_VALUE_FILE",
		"JAIPH_DISPATCH_CHANNEL", "JAIPH_DISPATCH_SENDER", "JAIPH_INBOX_DIR"} {
		env.Unset(k)
	}
	env.Set("JAIPH_TEST_MODE", "1")
	env.Set("JAIPH_TEST_FILE", filepath.Base(opts.Program.Entry.Path))
	return &File{opts: opts, mods: p.Modules, entry: p.Entry, locals: p.Locals, env: env.List()}
}

// Tests returns the file's test blocks in order.
func (f *File) Tests() []*ast.Test { return f.opts.Program.Entry.Tests }

// Run runs one test block in isolation (D15).
func (f *File) Run(ctx context.Context, t *ast.Test) Result {
	start := time.Now()
	b := &block{file: f, test: t, overrides: map[string]*lowered.Body{}}
	for _, s := range t.Stmts {
		if d, ok := s.(*ast.MockDispatcher); ok {
			b.dispatcher = d // with a dispatcher the queue is ignored
			break
		}
	}
	var stderr lockedBuffer
	status, err := runtime.RunTestShell(ctx, codegen.LowerTest(t), runtime.ShellOptions{
		Name: f.opts.Program.Entry.Path, Env: f.env, Dir: f.opts.Workspace, Stdin: f.opts.Stdin, Stdout: f.opts.Stdout, Stderr: &stderr,
		Builtins: map[string]runtime.ShellBuiltin{
			codegen.TestCommand:     b.stmt,
			codegen.TestStopCommand: func(context.Context, runtime.Shell, []string) (int, bool) { return 1, true },
		},
	})
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(&stderr, "jaiph: %v\n", err)
	}
	return Result{
		Description: t.Description,
		Failed:      b.failed || status != 0 || err != nil,
		Stderr:      stderr.String(),
		Elapsed:     time.Since(start),
	}
}

// block is the state of one running test block.
type block struct {
	file *File
	test *ast.Test

	mu         sync.Mutex
	queue      []string // queued prompt responses
	dispatcher *ast.MockDispatcher
	overrides  map[string]*lowered.Body // symbol mocks so far
	failed     bool
}

// stmt executes statement `jaiph::test <index>` of the block.
func (b *block) stmt(ctx context.Context, sh runtime.Shell, args []string) (int, bool) {
	i := -1
	if len(args) == 1 {
		i, _ = strconv.Atoi(args[0])
	}
	if i < 0 || i >= len(b.test.Stmts) {
		fmt.Fprintf(sh.Stderr(), "jaiph: internal error: no test statement %q\n", strings.Join(args, " "))
		return 1, true
	}
	switch s := b.test.Stmts[i].(type) {
	case *ast.MockPrompt:
		b.mu.Lock()
		b.queue = append(b.queue, s.Response)
		b.mu.Unlock()
	case *ast.MockDispatcher:
		// Set up before the block runs (the first one wins).
	case *ast.MockSymbol:
		sym := b.mockSymbol(s.Ref)
		b.mu.Lock()
		b.overrides[sym] = codegen.MockBody(lowered.Kind(s.Kind), sym, s.Body)
		b.mu.Unlock()
	case *ast.Expect:
		if msg, ok := b.expect(s, sh.Var(s.Var)); !ok {
			_, _ = io.WriteString(sh.Stderr(), msg)
			b.fail()
			return 1, true
		}
	case *ast.TestRun:
		return b.run(ctx, sh, s)
	}
	return 0, false
}

func (b *block) fail() {
	b.mu.Lock()
	b.failed = true
	b.mu.Unlock()
}

// mockSymbol resolves a mock's REF; a single segment names a symbol of the
// first import's module (docs/language.md#mocks).
func (b *block) mockSymbol(r ast.Ref) string {
	if r.Alias == "" {
		if deps := b.file.entry.Deps; len(deps) > 0 {
			return deps[0] + "::" + r.Name
		}
	}
	return codegen.Ref(b.file.entry, r)
}

// run performs a workflow run of the test (docs/language.md#workflow-runs-in-tests) in a run of its
// own. A capture prints its value: the return value, else the call's
// output; a failure without allow_failure fails the test and stops it.
func (b *block) run(ctx context.Context, sh runtime.Shell, s *ast.TestRun) (int, bool) {
	b.mu.Lock()
	overrides := make(map[string]*lowered.Body, len(b.overrides))
	for k, v := range b.overrides {
		overrides[k] = v
	}
	b.mu.Unlock()
	env := sh.Environ()
	rt := runtime.New(runtime.Options{
		Modules: b.file.mods, Workspace: b.file.opts.Workspace, Env: env,
		TestMode: true, Locals: b.file.locals, PromptMock: b.prompt, Overrides: overrides,
		Inbox: fileinbox.New(inbox.New(envflag.True(runtime.NewEnv(env).Get("JAIPH_INBOX_FSYNC")))),
	})
	defer rt.Close()
	var args []string
	if s.HasArg {
		args = []string{s.Arg}
	}
	var out bytes.Buffer
	status, value, err := rt.CallTest(ctx, sh, codegen.Ref(b.file.entry, s.Ref), args, &out)
	if err != nil && ctx.Err() == nil {
		fmt.Fprintf(sh.Stderr(), "jaiph: %v\n", err)
		if status == 0 {
			status = 1
		}
	}
	if s.Capture != "" {
		if value == "" {
			value = out.String()
		}
		_, _ = io.WriteString(sh.Stdout(), value)
	}
	if status != 0 && !s.AllowFailure {
		fmt.Fprintf(sh.Stderr(), "jaiph: workflow exited with status %d\n", status)
		if b.file.opts.FailedStepStderr {
			failedStepStderr(sh.Stderr(), rt.FirstFailure())
		}
		b.fail()
		// An uncaptured run stops the block here; a capture runs in a
		// command substitution, so the lowered `|| jaiph::test_stop` does.
		return status, s.Capture == ""
	}
	return 0, false
}

// failedStepStderr writes the stderr of the run's first failed step (its
// last 30 lines, as the FAIL block of jaiph run cuts it) under a line that
// names the step: the status alone does not say why a test failed, and
// the step's stderr is in its artifact, not in the test's stderr. The
// reference printed the status only (D25).
func failedStepStderr(w io.Writer, e *event.Event) {
	if e == nil || e.ErrContent == nil {
		return
	}
	text := strings.TrimRight(*e.ErrContent, " \t\r\n")
	if text == "" {
		return
	}
	lines := strings.Split(text, "\n")
	if len(lines) > 30 {
		lines = lines[len(lines)-30:]
	}
	status := 0
	if e.Status != nil {
		status = *e.Status
	}
	fmt.Fprintf(w, "stderr of %s %s (status %d):\n%s\n", e.Kind, e.Name, status, strings.Join(lines, "\n"))
}

// prompt answers a prompt from the block's mocks (docs/language.md#mocks): the
// dispatcher if there is one, else the head of the queue; an empty queue
// or an empty queued response leaves the prompt to the real backend.
func (b *block) prompt(text string) (string, bool, error) {
	if d := b.dispatcher; d != nil {
		for _, br := range d.Branches {
			if !br.Else && strings.Contains(text, br.Pattern) {
				return br.Response, true, nil
			}
		}
		for _, br := range d.Branches {
			if br.Else {
				return br.Response, true, nil
			}
		}
		return "", false, fmt.Errorf("jaiph: no mock matched prompt (no branch matched). Prompt preview: %s...", firstRunes(text, 80))
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.queue) == 0 {
		return "", false, nil
	}
	r := b.queue[0]
	b.queue = b.queue[1:]
	return r, r != "", nil
}

// expect checks an expectation against the variable's value; on failure it
// returns the message (docs/language.md#expectations). An empty substring always passes,
// for expectNotContain too, as in the reference.
func (b *block) expect(e *ast.Expect, v string) (string, bool) {
	switch e.Kind {
	case "expectEqual":
		if v == e.Expected {
			return "", true
		}
		s := b.file.opts.Style
		return "expectEqual failed:\n" + s.Grey("- "+e.Expected) + "\n" + s.Red("+ "+v) + "\n", false
	case "expectNotContain":
		if e.Expected == "" || !strings.Contains(v, e.Expected) {
			return "", true
		}
		return containMessage("jaiph: expectNotContain failed: did not expect to find:", e.Expected, v), false
	default:
		if strings.Contains(v, e.Expected) {
			return "", true
		}
		return containMessage("jaiph: expectContain failed: expected to find:", e.Expected, v), false
	}
}

func containMessage(head, expected, v string) string {
	lines := strings.Split(v, "\n")
	if len(lines) > 100 {
		lines = lines[:100]
	}
	return fmt.Sprintf("%s\n---\n%s\n---\nin output (%d chars):\n---\n%s\n---\n",
		head, expected, len([]rune(v)), strings.Join(lines, "\n"))
}

func firstRunes(s string, n int) string {
	r := []rune(s)
	if len(r) > n {
		r = r[:n]
	}
	return string(r)
}

// lockedBuffer collects a block's stderr; background jobs of the block may
// write concurrently.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}
