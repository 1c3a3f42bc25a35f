package engine

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/codegen"
	"github.com/jaiph-go/jaiph/internal/bashcheck"
	"github.com/jaiph-go/jaiph/internal/envflag"
	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/fileinbox"
	"github.com/jaiph-go/jaiph/internal/store/chain"
	"github.com/jaiph-go/jaiph/internal/store/inbox"
	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/jaiph-go/jaiph/internal/testrun"
	"github.com/jaiph-go/jaiph/lowered"
	"github.com/jaiph-go/jaiph/parser"
	"github.com/jaiph-go/jaiph/runtime"
	"github.com/jaiph-go/jaiph/validate"
)

// Program is an entry file that passed every check, lowered.
type Program struct {
	Path      string // the entry file, absolute
	Workspace string // workspace root W (docs/cli.md#jaiph-run)
	Source    string // the entry's base name (JAIPH_SOURCE_FILE)
	Checked   *validate.Program
	Modules   []*lowered.Module
	Entry     *lowered.Module
}

// Open compiles the file `jaiph run FILE` names, which must be an existing
// .jh or .jph file (the errors say so as the reference does).
func Open(file string) (*Program, error) {
	abs, err := filepath.Abs(file)
	if err != nil {
		return nil, err
	}
	st, err := os.Stat(abs)
	switch {
	case os.IsNotExist(err) && parser.IsSourceFile(abs):
		return nil, fmt.Errorf("jaiph run: no such file: %s", file)
	case err != nil || !st.Mode().IsRegular() || !parser.IsSourceFile(abs):
		return nil, errors.New("jaiph run expects a single .jh or .jph file")
	}
	return Load(abs)
}

// Load compiles the entry file at path: the first diagnostic (validation,
// then the lowered shell) is returned as the error.
func Load(path string) (*Program, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	prog, err := validate.LoadEntry(abs)
	if err != nil {
		return nil, err
	}
	mods := codegen.LowerProgram(prog.Modules, codegen.RootOf(abs), prog.Loader.Resolved)
	if ds := bashcheck.Lowered(prog, mods); len(ds) > 0 {
		return nil, ds[0]
	}
	p := &Program{Path: abs, Workspace: runs.WorkspaceRoot(filepath.Dir(abs)), Source: filepath.Base(abs),
		Checked: prog, Modules: mods}
	for _, m := range mods {
		if m.Path == prog.Entry.Path {
			p.Entry = m
		}
	}
	return p, nil
}

// RunOptions are what a run takes from its caller.
type RunOptions struct {
	Environ []string // the process environment
	Args    []string // the workflow's arguments ($1, …)
	// Stdin is the body's standard input. A reader that is no *os.File
	// costs the interpreter a pipe and a goroutine copying into it, and
	// only Go's collector closes the pipe: a long-lived process running
	// many runs gives a file (/dev/null), as the broker's worker does.
	Stdin       io.Reader
	StrayStderr io.Writer // the root step's bubbled stderr
	Observer    event.Observer
	Resume      string // a run directory to continue (resume.go)
	Workflow    string // the entry's workflow to call; "" is default (jaiph mcp)
	// Workspace replaces the program's workspace (a worker runs
	// delivered sources with its own directory as the working directory).
	Workspace string
	// Ephemeral: no records for later commands (runtime.Options.Ephemeral).
	Ephemeral bool
	// Scratch: the ephemeral run's reused run directory
	// (runtime.Options.Scratch).
	Scratch string
	// KeyDir is the key store that chains the run's summary and journal
	// (internal/store/chain); "" is the one Environ names (chain.StoreDir).
	KeyDir string
	// Records takes the summary's and journal's lines instead of the
	// files (a sandboxed run: runtime.RecordSink).
	Records runtime.RecordSink
	// Notices receives jaiph's own warnings during the run (nil: stderr).
	Notices io.Writer
	// RunID names the new run ("" makes one: runtime.Options.RunID).
	RunID string
	// OnRunDir learns the run directory once it is made (jaiph serve
	// follows the run's summary there).
	OnRunDir func(dir string)
	// Mirror gets the summary's and journal's lines as they are written
	// (runtime.Options.Mirror).
	Mirror func(file string, lines []byte) error
	// Received keeps the messages of the channels the run receives on
	// (default: the run directory's files; a served run on the broker: the
	// broker's).
	Received runtime.ReceiverOpener
}

// Prepare builds the run's environment (config defaults, evaluated module
// locals) and the runtime that runs its default workflow in this process.
// A run planned for the sandbox has no runtime here: it runs through
// Execute.
func (r *Run) Prepare(ctx context.Context, o RunOptions) (*runtime.Runtime, *runtime.Env, error) {
	rt, env, _, err := r.prepare(ctx, o)
	return rt, env, err
}

// prepare is Prepare, which also returns the run's inbox files: the file
// inbox writes them, and a broker transport stores its messages there too.
func (r *Run) prepare(ctx context.Context, o RunOptions) (*runtime.Runtime, *runtime.Env, *inbox.Files, error) {
	if r.box != nil {
		return nil, nil, nil, errSandboxPrepare
	}
	p := r.Program
	ws := p.Workspace
	if o.Workspace != "" {
		ws = o.Workspace
	}
	files := inbox.New(envflag.True(lastValue(o.Environ, "JAIPH_INBOX_FSYNC")))
	tr, err := p.transport(ctx, o.Environ, files)
	if err != nil {
		return nil, nil, nil, err
	}
	env, locals, err := runtime.PrepareEnv(ctx, o.Environ, p.Entry, p.Modules, ws, p.Source, o.Args)
	if err != nil {
		return nil, nil, nil, err
	}
	if o.KeyDir == "" {
		o.KeyDir = keyStore("", o.Environ).Dir
	}
	fileInbox := fileinbox.New(files)
	var received runtime.ReceiverOpener = fileInbox
	if o.Received != nil {
		received = o.Received
	}
	rt := runtime.New(runtime.Options{
		Modules: p.Modules, Entry: p.Entry, Workspace: ws, SourceFile: p.Source,
		Env: env.List(), Environ: o.Environ, Stdin: o.Stdin, StrayStderr: o.StrayStderr, Observer: o.Observer, Locals: locals,
		Resume: o.Resume, Workflow: o.Workflow, Inbox: fileInbox, Received: received, Transport: tr, Ephemeral: o.Ephemeral, Scratch: o.Scratch,
		KeyDir: o.KeyDir, Records: o.Records, Notices: o.Notices, RunID: o.RunID, OnRunDir: o.OnRunDir, Mirror: o.Mirror,
	})
	// Message files hold payloads masked; the real ones go to the run's
	// records (docs/inbox-files.md "Credentials").
	files.Mask(rt.Redactor(), rt.RecordsDir)
	return rt, env, files, nil
}

// lastValue is key's value in environ, the last one when it is there
// twice, as the run's environment takes it (without building the map
// runtime.NewEnv does: a run start pays for every step).
func lastValue(environ []string, key string) string {
	for i := len(environ) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(environ[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// LoadTest compiles a test file and the modules it imports (D19) for the
// workspace.
func LoadTest(path, workspace string) (*validate.Program, error) {
	prog, err := validate.LoadTestFile(path)
	if err != nil {
		return nil, err
	}
	if ds := bashcheck.Program(prog, workspace); len(ds) > 0 {
		return nil, ds[0]
	}
	return prog, nil
}

// PrepareTest lowers a compiled test file (opts.Program, from LoadTest)
// and the modules it imports, evaluates their config defaults and locals,
// and returns its blocks ready to run.
func PrepareTest(ctx context.Context, opts testrun.Options) (*testrun.File, error) {
	prog := opts.Program
	mods := codegen.LowerProgram(prog.Modules, opts.Workspace, prog.Loader.Resolved)
	// The test file is not compiled as a module (its other declarations
	// never run); only its imports matter, for aliases and load order.
	shell := &ast.File{Path: prog.Entry.Path, IsTest: true, Imports: prog.Entry.Imports}
	entry := codegen.LowerProgram([]*ast.File{shell}, opts.Workspace, prog.Loader.Resolved)[0]
	env, locals, err := runtime.PrepareEnv(ctx, opts.Env, entry, mods, opts.Workspace, filepath.Base(prog.Entry.Path), nil)
	if err != nil {
		return nil, err
	}
	return testrun.New(opts, testrun.Prepared{Modules: mods, Entry: entry, Locals: locals, Env: env}), nil
}

// keyStore is the key store dir names, or when dir is "" the one environ
// names (chain.StoreDir; none without HOME).
func keyStore(dir string, environ []string) chain.Store {
	if dir == "" {
		dir, _ = chain.StoreDir(runtime.NewEnv(environ).Get)
	}
	return chain.Store{Dir: dir}
}

// ReceivedChannels are the declared names of the channels the program's
// receive steps name, sorted: a send from outside to any other is refused.
func (p *Program) ReceivedChannels() []string {
	seen := map[string]bool{}
	var names []string
	for _, m := range p.Modules {
		for _, b := range m.Order {
			for _, st := range b.Steps {
				if st.Kind != lowered.StepReceive {
					continue
				}
				if n := lowered.ChannelName(st.Channel); !seen[n] {
					seen[n] = true
					names = append(names, n)
				}
			}
		}
	}
	sort.Strings(names)
	return names
}
