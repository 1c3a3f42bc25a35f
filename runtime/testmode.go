package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"

	"github.com/jaiph-go/jaiph/internal/exec/shellbuiltin"
)

// This file holds what `jaiph test` needs from the runtime (docs/language.md#tests):
// the shell a test block runs in, workflow runs started from it, and the
// test-mode output of managed calls. Mock bodies replace real ones through
// Options.Overrides; prompt mocks answer through Options.PromptMock.

// Shell is the state of a test block's shell at one of its builtin commands.
type Shell struct{ hc interp.HandlerContext }

// Var returns the value of a shell variable ("" when unset).
func (s Shell) Var(name string) string { return s.hc.Env.Get(name).String() }

// Stdout is the command's standard output (for a capture, its value).
func (s Shell) Stdout() io.Writer { return s.hc.Stdout }

// Stderr is the command's standard error.
func (s Shell) Stderr() io.Writer { return s.hc.Stderr }

// Environ returns the exported variables as KEY=VALUE pairs.
func (s Shell) Environ() []string { return shellbuiltin.ExportedList(s.hc.Env) }

// ShellBuiltin implements one command of a test shell. It returns the
// command's status; stop halts the whole shell at once (also from inside a
// command substitution), as a failed expectation does.
type ShellBuiltin func(ctx context.Context, sh Shell, args []string) (status int, stop bool)

// ShellOptions configure RunTestShell.
type ShellOptions struct {
	Name     string   // file name in syntax error positions
	Env      []string // KEY=VALUE, all exported
	Dir      string
	Stdin    io.Reader
	Stdout   io.Writer
	Stderr   io.Writer
	Builtins map[string]ShellBuiltin
}

// errShellStop is the fatal handler error that halts a test shell.
var errShellStop = errors.New("test shell stopped")

// RunTestShell runs src as one fresh top-level shell (D15: nothing is
// shared with other blocks; errexit off) and returns its exit status.
// Commands named in opts.Builtins go to them; every other command runs as
// in bodies. A parse error of src is returned as the error.
func RunTestShell(ctx context.Context, src string, opts ShellOptions) (int, error) {
	file, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), opts.Name)
	if err != nil {
		return 1, err
	}
	builtins := func(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
		return func(ctx context.Context, args []string) error {
			bi, ok := opts.Builtins[args[0]]
			if !ok {
				return next(ctx, args)
			}
			status, stop := bi(ctx, Shell{hc: interp.HandlerCtx(ctx)}, args[1:])
			if stop {
				return errShellStop
			}
			return statusErr(status)
		}
	}
	r, err := newRunner(runnerConfig{
		env: envFromList(opts.Env), dir: opts.Dir,
		stdin: opts.Stdin, stdout: opts.Stdout, stderr: opts.Stderr,
		jaiph: builtins,
	})
	if err != nil {
		return 1, err
	}
	err = r.Run(ctx, file)
	switch {
	case errors.Is(err, errShellStop):
		return 1, nil
	case ctx.Err() != nil:
		if in := Interruption(ctx); in != nil {
			return in.Status(), ctx.Err()
		}
		return 1, ctx.Err()
	}
	return exitStatus(err), nil
}

// CallTest runs the workflow symbol as the root managed call of a test-mode
// run started from a test shell (docs/language.md#workflow-runs-in-tests): the callee sees the shell's
// variables and directory, and out receives what the call prints in test
// mode (its output and, on failure, its stderr). It returns the status and
// the return value ("" when none).
func (rt *Runtime) CallTest(ctx context.Context, sh Shell, symbol string, args []string, out io.Writer) (int, string, error) {
	b := rt.bodies[symbol]
	if b == nil {
		return 1, "", fmt.Errorf("unknown workflow %s", symbol)
	}
	root := &frame{rt: rt, env: snapshotEnv(sh.hc.Env)}
	return rt.rootCall(ctx, root, callSpec{body: b, args: args, stdin: sh.hc.Stdin,
		stdout: out, stderr: io.Discard, dir: sh.hc.Dir})
}

// testModeOutput passes a finished call's output to its caller in test mode
// (docs/language.md#workflow-runs-in-tests): the .out and, on failure, the .err go to the
// statement's stdout — for a capture, whose stdout is the value, to the
// enclosing step's own output.
func testModeOutput(caller *frame, spec callSpec, outPath, errPath string, outKept, errKept bool, status int) {
	w := spec.stdout
	if spec.capture && caller.out != nil {
		w = caller.out
	}
	if w == nil {
		return
	}
	if outKept {
		caller.rt.copyArtifact(w, outPath)
	}
	if status != 0 && errKept {
		caller.rt.copyArtifact(w, errPath)
	}
}
