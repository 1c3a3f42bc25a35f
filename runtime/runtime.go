package runtime

// This file answers: what is a run (options, run directory, event
// emission, the root call)?

import (
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/exec/procgroup"
	"github.com/jaiph-go/jaiph/internal/exec/shellbuiltin"
	"github.com/jaiph-go/jaiph/internal/redact"
	"github.com/jaiph-go/jaiph/internal/store/chain"
	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/jaiph-go/jaiph/lowered"
)

// Options configure one run.
type Options struct {
	Modules    []*lowered.Module // every module of the program
	Entry      *lowered.Module
	Workspace  string   // workspace root W (also the working directory)
	SourceFile string   // JAIPH_SOURCE_FILE (basename of the entry)
	Env        []string // KEY=VALUE environment of the run
	Stdin      io.Reader
	// StrayStderr receives what reaches the run's stderr outside any step
	// artifact (the root step's bubbled stderr).
	StrayStderr io.Writer
	Observer    event.Observer
	// TestMode enables test-runner semantics (docs/language.md#workflow-runs-in-tests).
	TestMode bool
	// Locals are the evaluated module locals (env name → value).
	Locals map[string][]Local
	// PromptMock, when set (test mode), may answer prompts instead of the
	// agent (runtime/prompt.go).
	PromptMock PromptMock
	// Overrides replace bodies by symbol for this run (test mocks,
	// lowered.MockBody).
	Overrides map[string]*lowered.Body
	// Environ is the caller's environment, whose JAIPH_* settings the
	// run's metadata records (runmeta.go).
	Environ []string
	// Resume is the run directory of an interrupted or failed run to
	// continue (replay.go); "" creates a new one.
	Resume string
	// Workflow is the entry module's workflow Run calls; "" is "default"
	// (jaiph mcp calls the others).
	Workflow string
	// Inbox opens the queues of the run's orchestrators (transport.go):
	// the file inbox, whose deliveries run in this process. Without one a
	// workflow with routes fails.
	Inbox Transport
	// Transport, when set, carries the run's first orchestrator's messages
	// beyond this process instead (a broker); nested orchestrators keep
	// Inbox (D6).
	Transport Transport
	// Received opens the keeper of the messages of the channels the
	// program receives on (receive.go); without it a receive fails.
	Received ReceiverOpener
	// Ephemeral runs keep no records for later commands (no run.json,
	// lock or journal): a worker's delivery, whose run lives elsewhere.
	Ephemeral bool
	// Scratch, for an ephemeral run, is an existing directory to use as
	// its run directory, written in place: a worker's slot reuses one for
	// every delivery, because creating a directory and its files and
	// removing them again per delivery was most of a no-op delivery's
	// cost on ext4. Its owner empties it between runs.
	Scratch string
	// KeyDir is the key store that chains the summary and the journal
	// (internal/store/chain); "" leaves them unchained, with a warning.
	KeyDir string
	// Records, when set, takes the summary's and the journal's lines
	// instead of the files (chain.go): a sandboxed run's host writes them.
	Records RecordSink
	// Notices receives the runtime's own warnings (nil: os.Stderr).
	Notices io.Writer
	// RunID names a new run ("" makes a fresh UUID): jaiph serve answers
	// with the run's id before its first step made the run directory.
	RunID string
	// OnRunDir, when set, learns the run directory once it is made.
	OnRunDir func(dir string)
	// Mirror, when set, gets each batch of lines once it is in the run's
	// summary (runs.SummaryFile) or journal (runs.JournalFile): a served
	// run on a broker copies them there, so another worker can continue
	// it. An error fails the write as the file's own would.
	Mirror func(file string, lines []byte) error
}

// Local is an evaluated module-level local: its shell name and value.
type Local struct {
	Name, EnvName, Value string
}

// Runtime is the state of one run.
type Runtime struct {
	opts    Options
	bodies  map[string]*lowered.Body   // by symbol
	modules map[string]*lowered.Module // by module symbol
	pid     int
	// redriving: a redrive reopened the run (Reopen); deliveries its
	// Ctrl-C stops become dead letters, since no resume will run them.
	redriving bool

	parseMu sync.Mutex
	parsed  map[string]*syntax.File

	dirOnce sync.Once
	dirErr  error
	runDir  string
	runID   string
	seq     atomic.Int64
	summary summaryWriter
	rvDir   string
	rvSeq   atomic.Int64
	// runPaths: the paths every call exports under runDir (runDirPaths).
	runPaths atomic.Pointer[runDirPaths]
	// remoteOpened: the transport's queue went to the first orchestrator.
	remoteOpened atomic.Bool
	limits       limits       // run.timeout, run.max_steps (limits.go)
	steps        atomic.Int64 // managed calls made, for run.max_steps
	// lingering counts the bodies whose background jobs still run after
	// the body returned (runBody).
	lingering sync.WaitGroup

	obsMu sync.Mutex
	// FirstFailure is the first STEP_END with a non-zero status.
	firstFailure *event.Event
	// steps4fail: the steps FailureArtifacts reads when the summary is
	// another process's to write (Options.Records).
	steps4fail stepLog

	args  []string // the root call's arguments, for the metadata
	value string   // the root call's return value
	lock  *os.File // the run dir's lock, held while the run is live

	// The channels receive steps name (by symbol), and their messages'
	// keeper once the run directory is made (receive.go).
	recvOnce sync.Once
	received map[string]bool
	receiver Receiver

	journal *journal // nil in test mode
	records string   // the run's records (runs.RecordsDir); "" in test mode
	chained *chain.Records

	faultMu    sync.Mutex
	faults     int
	firstFault error

	// redact masks the run environment's credentials in what the run
	// writes and shows about itself (events, journal); nil: none.
	redact *redact.Redactor
}

// New prepares a run.
func New(opts Options) *Runtime {
	rt := &Runtime{
		opts:    opts,
		bodies:  map[string]*lowered.Body{},
		modules: map[string]*lowered.Module{},
		parsed:  map[string]*syntax.File{},
		pid:     os.Getpid(),
		redact:  redact.FromEnv(opts.Env),
	}
	for _, m := range opts.Modules {
		rt.modules[m.Symbol] = m
		for _, b := range m.Order {
			rt.bodies[b.Symbol] = b
		}
	}
	for sym, b := range opts.Overrides {
		rt.bodies[sym] = b
	}
	if opts.StrayStderr == nil {
		rt.opts.StrayStderr = io.Discard
	}
	return rt
}

// RunDir returns the run directory ("" before the first managed call).
func (rt *Runtime) RunDir() string { return rt.runDir }

// RunID returns the run's UUID ("" before the first managed call).
func (rt *Runtime) RunID() string { return rt.runID }

// RecordsDir returns the directory of the run's records
// (runs.RecordsDir; "" before the first managed call, and for a run that
// keeps none: jaiph test, a worker's delivery).
func (rt *Runtime) RecordsDir() string { return rt.records }

// Redactor returns what masks the run environment's credentials in what
// the run writes (nil when it holds none, and in test mode, whose
// artifacts are raw): the inbox masks its message files with it.
func (rt *Runtime) Redactor() *redact.Redactor {
	if rt.opts.TestMode {
		return nil
	}
	return rt.redact
}

// FirstFailure returns the first failed STEP_END event, or nil.
func (rt *Runtime) FirstFailure() *event.Event {
	rt.obsMu.Lock()
	defer rt.obsMu.Unlock()
	return rt.firstFailure
}

// Close records the last step number in .seq and removes the run's private
// temporary files.
func (rt *Runtime) Close() {
	if rt.runDir != "" {
		if rt.opts.Scratch == "" {
			_ = os.WriteFile(filepath.Join(rt.runDir, ".seq"), []byte(fmt.Sprint(rt.seq.Load())), 0o644)
		}
		if c, ok := rt.opts.Inbox.(io.Closer); ok {
			c.Close()
		}
	}
	if rt.rvDir != "" && rt.opts.Scratch == "" {
		os.RemoveAll(rt.rvDir)
	}
	if rt.journal != nil {
		rt.journal.close()
	}
	if c, ok := rt.opts.Transport.(io.Closer); ok {
		c.Close()
	}
	rt.closeFiles()
	rt.unlock()
}

func (rt *Runtime) env(key string) string {
	for i := len(rt.opts.Env) - 1; i >= 0; i-- {
		if k, v, ok := strings.Cut(rt.opts.Env[i], "="); ok && k == key {
			return v
		}
	}
	return ""
}

// ensureRunDir creates the run directory on the first managed call
// (docs/run-directory.md#where-runs-go).
func (rt *Runtime) ensureRunDir() error {
	rt.dirOnce.Do(func() {
		rt.openRunDir()
		if rt.dirErr == nil {
			rt.dirErr = rt.makeArtifacts()
		}
		if rt.dirErr == nil {
			rt.dirErr = rt.declareReceived()
		}
		if rt.dirErr == nil && rt.opts.OnRunDir != nil {
			rt.opts.OnRunDir(rt.runDir)
		}
	})
	return rt.dirErr
}

// ArtifactsDir is the directory inside the run directory where a workflow
// publishes files ($JAIPH_ARTIFACTS_DIR; jaiph serve offers them for
// download).
const ArtifactsDir = "artifacts"

// makeArtifacts makes the run directory's artifacts/ (there already when
// the run is resumed or the scratch directory reused).
func (rt *Runtime) makeArtifacts() error {
	err := os.Mkdir(filepath.Join(rt.runDir, ArtifactsDir), 0o755)
	if os.IsExist(err) {
		return nil
	}
	return err
}

// openRunDir makes (or reopens) the run directory and its files.
func (rt *Runtime) openRunDir() {
	if rt.opts.Resume != "" {
		rt.dirErr = rt.reopenRunDir(rt.opts.Resume)
		return
	}
	if dir := rt.opts.Scratch; dir != "" {
		rt.runDir, rt.runID = dir, rt.newRunID()
		if rt.dirErr = rt.openFiles(dir, false); rt.dirErr != nil {
			return
		}
		tmp := filepath.Join(dir, ScratchTmp)
		if err := os.Mkdir(tmp, 0o700); err != nil && !os.IsExist(err) {
			rt.dirErr = err
			return
		}
		rt.rvDir = tmp
		return
	}
	root := runs.Root(rt.opts.Workspace, rt.env("JAIPH_RUNS_DIR"))
	now := time.Now()
	src := rt.opts.SourceFile
	if src == "" {
		src = "run"
	}
	base := filepath.Join(root, now.Format("2006-01-02"), now.Format("15-04-05")+"-"+src)
	if err := os.MkdirAll(filepath.Dir(base), 0o755); err != nil {
		rt.dirErr = err
		return
	}
	dir, err := makeRunDir(base)
	if err != nil {
		rt.dirErr = err
		return
	}
	rt.runDir = dir
	rt.runID = rt.newRunID()
	if err := rt.startRecord(dir, now); err != nil {
		rt.dirErr = err
		return
	}
	// .seq is written when the run ends (Close), not created with 0
	// here: nothing reads it during a run, and a file creation is
	// the dearest system call a run makes (docs/differences.md).
	if rt.dirErr = rt.openFiles(dir, false); rt.dirErr != nil {
		return
	}
	rt.dirErr = rt.makeTmp()
}

// runDirNext remembers, per base name, the suffix after the last one this
// process took: runs started in the same second (jaiph serve starts
// hundreds) take base, base-2, base-3, … without each trying every name
// taken before it — that was quadratic, and the failed mkdirs queued on
// the parent directory's lock (a served run's p99 went from 6 ms to
// 260 ms). A base is a second's: the map is emptied when it grows.
var (
	runDirMu   sync.Mutex
	runDirNext = map[string]int{}
)

// makeRunDir makes base, else the first base-N that is free.
func makeRunDir(base string) (string, error) {
	runDirMu.Lock()
	n := runDirNext[base]
	runDirMu.Unlock()
	for {
		dir := base
		if n >= 2 {
			dir = fmt.Sprintf("%s-%d", base, n)
		}
		err := os.Mkdir(dir, 0o755)
		if err != nil && !os.IsExist(err) {
			return "", err
		}
		n = max(n+1, 2)
		if err == nil {
			runDirMu.Lock()
			if len(runDirNext) > 64 {
				clear(runDirNext)
			}
			runDirNext[base] = max(runDirNext[base], n)
			runDirMu.Unlock()
			return dir, nil
		}
	}
}

// newRunID is the id the caller chose (Options.RunID), else a new UUID.
func (rt *Runtime) newRunID() string {
	if rt.opts.RunID != "" {
		return rt.opts.RunID
	}
	return newUUID()
}

// ScratchTmp is the temporary directory (return values, rules' TMPDIR)
// inside a Scratch run directory; the owner empties it between runs.
const ScratchTmp = ".tmp"

// makeTmp makes the run's temporary directory (return values, rules'
// TMPDIR): the records' runs.TmpFile, which a later resume, redrive or
// prune removes when a SIGKILL kept Close from doing so. Among the records
// it costs one directory and no file naming it; `jaiph test` keeps no
// records and takes one under $TMPDIR.
func (rt *Runtime) makeTmp() error {
	if rt.records == "" {
		dir, err := os.MkdirTemp("", "jaiph-rv-")
		rt.rvDir = dir
		return err
	}
	dir := filepath.Join(rt.records, runs.TmpFile)
	if err := os.Mkdir(dir, 0o700); err != nil {
		return err
	}
	rt.rvDir = dir
	return nil
}

// emit appends an event to the summary and tells the observer.
func (rt *Runtime) emit(e *event.Event) {
	rt.stamp(e)
	rt.summary.write(e)
	rt.observe(e)
}

// emitAll is emit of events that go to the summary in one write.
func (rt *Runtime) emitAll(es []*event.Event) {
	for _, e := range es {
		rt.stamp(e)
	}
	rt.summary.writeAll(es)
	for _, e := range es {
		rt.observe(e)
	}
}

// stamp makes e the run's, masked.
func (rt *Runtime) stamp(e *event.Event) {
	e.RunID = rt.runID
	if rt.redact != nil {
		redactEvent(rt.redact, e)
	}
}

// observe shows a written event to the run's observers.
func (rt *Runtime) observe(e *event.Event) {
	rt.obsMu.Lock()
	defer rt.obsMu.Unlock()
	if e.Type == event.StepEnd && *e.Status != 0 && rt.firstFailure == nil {
		rt.firstFailure = e
	}
	if rt.opts.Records != nil {
		rt.steps4fail.add(e)
	}
	if rt.opts.Observer != nil {
		rt.opts.Observer.Event(e)
	}
}

// nextSeq allocates the next step number (D21: unique even for concurrent
// calls). The counter lives in memory; .seq gets its final value when the
// run closes, which saves a file write per step.
func (rt *Runtime) nextSeq() int {
	return int(rt.seq.Add(1))
}

// body returns the parsed source of a body (parsed once).
func (rt *Runtime) body(b *lowered.Body) (*syntax.File, error) {
	rt.parseMu.Lock()
	defer rt.parseMu.Unlock()
	if f, ok := rt.parsed[b.Symbol]; ok {
		return f, nil
	}
	// Numbered from the declaration's line: positions and $LINENO are .jh lines.
	f, err := b.Parser().Parse(strings.NewReader(b.Source), b.Symbol)
	if err != nil {
		return nil, err
	}
	rt.parsed[b.Symbol] = f
	return f, nil
}

func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// Run calls the entry module's `default` workflow (or Options.Workflow)
// with args as the root step and returns its exit status.
func (rt *Runtime) Run(ctx context.Context, args []string) (int, error) {
	name := rt.opts.Workflow
	if name == "" {
		name = "default"
	}
	b := rt.opts.Entry.Bodies[name]
	switch {
	case (b == nil || b.Kind != lowered.Workflow) && name == "default":
		return 1, ErrNoDefault
	case b == nil || b.Kind != lowered.Workflow:
		return 1, fmt.Errorf("no workflow %q in %s", name, rt.opts.SourceFile)
	}
	rt.args = args
	ctx, disarm := rt.withLimits(ctx)
	defer disarm()
	root := &frame{rt: rt, env: envFromList(rt.opts.Env)}
	status, value, err := rt.rootCall(ctx, root, callSpec{body: b, args: args, stdin: rt.opts.Stdin,
		stdout: io.Discard, stderr: rt.opts.StrayStderr, dir: rt.opts.Workspace})
	rt.value = value
	return status, err
}

// Returned is the return value of the root call once Run returned.
func (rt *Runtime) Returned() string { return rt.value }

// rootCall makes the first managed call of a run: everything it starts is
// in one process group (internal/exec/procgroup), and it returns once the jobs
// its bodies never waited for have ended and their steps closed, as the
// reference's run ends when the last of them lets go of its output. The
// run fails when the system refused something along the way (a fault),
// whatever the step's status.
func (rt *Runtime) rootCall(ctx context.Context, root *frame, spec callSpec) (int, string, error) {
	return rt.asRoot(ctx, func(ctx context.Context) (int, string, error) { return rt.call(ctx, root, spec) })
}

// asRoot runs run as the run's root step runs: its processes in a group
// that a signal to the run reaches, faults reported, lingering jobs
// waited for; a fault fails a run that passed.
func (rt *Runtime) asRoot(ctx context.Context, run func(context.Context) (int, string, error)) (int, string, error) {
	group := procgroup.New(ctx, func(cause error) syscall.Signal {
		var in *Interrupted
		if errors.As(cause, &in) {
			return in.Signal
		}
		return syscall.SIGINT
	})
	defer group.Close()
	// A job a body started ends with the run (or by kill), not when its
	// body or the job that made the call ends.
	ctx = interp.WithJobRoot(procgroup.WithGroup(ctx, group))
	ctx = shellbuiltin.WithFaultReporter(ctx, func(err error) { rt.fault(err, false) })
	status, value, err := run(ctx)
	rt.lingering.Wait()
	if ferr := rt.faultErr(); ferr != nil && err == nil {
		err, status = ferr, max(status, 1)
	}
	return status, value, err
}

// ErrNoDefault is returned when the entry module has no default workflow.
var ErrNoDefault = fmt.Errorf("jaiph run requires workflow 'default' in the input file")
