package runtime

import (
	"context"
	"io"
	"path/filepath"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"

	"github.com/jaiph-go/jaiph/internal/exec/shellbuiltin"
)

// This file is the one place that builds interpreter runners: bodies, test
// blocks and module locals all get theirs from newRunner, so a builtin or
// handler added here works everywhere.

// runnerConfig is what differs between the runners of a run.
type runnerConfig struct {
	env            expand.Environ
	dir            string
	params         []string // shell options and positional parameters (interp.Params)
	stdin          io.Reader
	stdout, stderr io.Writer
	// jaiph handles the Jaiph commands (managed calls, log, send, test
	// statements) before the shell builtins and external programs; nil for
	// plain shell (module locals).
	jaiph func(next interp.ExecHandlerFunc) interp.ExecHandlerFunc
	// funcs tells `command -v`, `type` and `declare -F` which command
	// names jaiph runs as functions (interp.HandlerFunctions); nil: none.
	funcs func(ctx context.Context, name string) (string, bool)
	// readOnlyTmp, when set, isolates a rule: writes are refused except
	// below this directory (readonly.go).
	readOnlyTmp string
	readOnly    bool
	// keepVars: the caller reads the runner's Vars after Run (module
	// locals); other runners skip that copy of the environment.
	keepVars bool
	// errExitIgnored starts the body where bash ignores errexit (a call
	// in an `&&`/`||` list, a condition, after `!`): interp.ErrExitIgnored.
	errExitIgnored bool
}

// dirOption sets a runner's directory. An absolute one is taken as it is:
// it is the workspace or the directory a shell was in, which interp.Dir
// would stat again for every managed call (a bash subshell does not check
// its directory either).
func dirOption(dir string) interp.RunnerOption {
	if !filepath.IsAbs(dir) {
		return interp.Dir(dir)
	}
	return func(r *interp.Runner) error {
		r.Dir = filepath.Clean(dir)
		return nil
	}
}

// newRunner builds a runner: bash's printf and echo (shellbuiltin) as the
// builtins; for other commands jaiph's handlers, then external programs.
func newRunner(c runnerConfig) (*interp.Runner, error) {
	handlers := []func(next interp.ExecHandlerFunc) interp.ExecHandlerFunc{}
	if c.jaiph != nil {
		handlers = append(handlers, c.jaiph)
	}
	var rewrite shellbuiltin.Rewrite
	if c.readOnly {
		tmp := c.readOnlyTmp
		rewrite = func(_ context.Context, path string, args []string) (string, []string) {
			return readOnlyCommand(path, args, tmp)
		}
	}
	handlers = append(handlers, shellbuiltin.Middleware, shellbuiltin.External(rewrite))
	opts := []interp.RunnerOption{
		interp.Env(c.env),
		dirOption(c.dir),
		interp.StdIO(c.stdin, c.stdout, c.stderr),
		interp.ExecHandlers(handlers...),
		// bash's echo and printf replace the interpreter's builtins; shell
		// functions named echo or printf still take precedence.
		interp.BuiltinHandler("echo", shellbuiltin.Echo),
		interp.BuiltinHandler("printf", shellbuiltin.Printf),
	}
	if c.params != nil {
		opts = append(opts, interp.Params(c.params...))
	}
	if c.funcs != nil {
		opts = append(opts, interp.HandlerFunctions(c.funcs))
	}
	if c.readOnly {
		opts = append(opts, interp.OpenHandler(readOnlyOpen(c.readOnlyTmp)))
	}
	if !c.keepVars {
		opts = append(opts, interp.NoFinalVars())
	}
	if c.errExitIgnored {
		opts = append(opts, interp.ErrExitIgnored())
	}
	return interp.New(opts...)
}
