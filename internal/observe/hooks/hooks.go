package hooks

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/jaiph-go/jaiph/internal/envflag"
	"github.com/jaiph-go/jaiph/internal/event"
)

// Hooks fires the configured commands of one `jaiph run`. Its methods are
// safe for concurrent use and return at once: commands are started in event
// order by a background goroutine, and Wait lets the CLI give them a bounded
// time to finish before it exits.
type Hooks struct {
	cfg    Config
	stderr *lockedWriter // jaiph's own "jaiph hooks: …" messages
	// childStderr is where hook commands write their stderr: jaiph's stderr
	// file itself when it is one, else the serialised writer.
	childStderr io.Writer
	env         []string
	dir         string

	mu                 sync.Mutex
	runPath, workspace string
	queue              []job
	dispatching        bool
	pending            int           // queued or running commands
	idle               chan struct{} // closed when pending drops to 0
}

type job struct {
	cmd     string
	payload []byte
}

// Load reads <home>/.jaiph/hooks.json and <workspace>/.jaiph/hooks.json
// (an empty home or workspace skips that file) and merges them per event,
// the project's non-empty list winning. The project's file runs host
// commands that came with the sources (a cloned repository), so it is read
// only when the operator trusts the workspace (Trusted); otherwise a
// present one is named on stderr, once, and left out. Problems with
// either file are reported on stderr and leave that file out. Commands
// later run with the environment and working directory the process has
// now.
func Load(home, workspace string, trusted bool, stderr io.Writer) *Hooks {
	h := New(nil, stderr)
	var global, project Config
	if home != "" {
		global = readConfig(GlobalPath(home), h.stderr)
	}
	if workspace != "" {
		if trusted {
			project = readConfig(ProjectPath(workspace), h.stderr)
		} else if _, err := os.Stat(ProjectPath(workspace)); err == nil {
			fmt.Fprintf(h.stderr, "jaiph: %s not run: a workspace's own hooks run only when the operator trusts it (JAIPH_TRUST_HOOKS=true, or its path in %s)\n",
				ProjectPath(workspace), TrustFile(home))
		}
	}
	h.cfg = Merge(global, project)
	h.workspace = workspace
	return h
}

// New returns hooks running cfg's commands, reporting on stderr, with the
// current environment and working directory.
func New(cfg Config, stderr io.Writer) *Hooks {
	if stderr == nil {
		stderr = io.Discard
	}
	h := &Hooks{cfg: cfg, stderr: &lockedWriter{w: stderr}, env: os.Environ()}
	h.childStderr = h.stderr
	if f, ok := stderr.(*os.File); ok {
		h.childStderr = f
	}
	if wd, err := os.Getwd(); err == nil {
		h.dir = wd
	}
	return h
}

// WorkflowStart fires workflow_start; call it after compilation, before
// execution. runPath (the absolute entry file) and workspace are also used
// by the step payloads that follow.
func (h *Hooks) WorkflowStart(runPath, workspace string) {
	if h == nil {
		return
	}
	h.mu.Lock()
	h.runPath, h.workspace = runPath, workspace
	h.mu.Unlock()
	if len(h.cfg[WorkflowStartEvent]) == 0 {
		return
	}
	p := &payload{}
	p.str("event", WorkflowStartEvent).
		str("workflow_id", "").
		str("timestamp", isoMillis(time.Now())).
		str("run_path", runPath).
		str("workspace", workspace)
	h.fire(WorkflowStartEvent, p.bytes())
}

// WorkflowEnd fires workflow_end with the run's id, its resolved status and
// duration, and its run directory and summary file (left out when empty);
// call it before the PASS/FAIL result is printed.
func (h *Hooks) WorkflowEnd(runID string, status int, elapsed time.Duration, runDir, summaryFile string) {
	if h == nil || len(h.cfg[WorkflowEndEvent]) == 0 {
		return
	}
	h.mu.Lock()
	runPath, workspace := h.runPath, h.workspace
	h.mu.Unlock()
	p := &payload{}
	p.str("event", WorkflowEndEvent).
		str("workflow_id", runID).
		num("status", int64(status)).
		num("elapsed_ms", elapsed.Milliseconds()).
		str("timestamp", isoMillis(time.Now())).
		str("run_path", runPath).
		str("workspace", workspace).
		optStr("run_dir", runDir).
		optStr("summary_file", summaryFile)
	h.fire(WorkflowEndEvent, p.bytes())
}

// Event implements event.Observer: STEP_START and STEP_END (the root step
// included) fire step_start and step_end; other events are ignored.
func (h *Hooks) Event(e *event.Event) {
	if h == nil || e == nil {
		return
	}
	var ev string
	switch e.Type {
	case event.StepStart:
		ev = StepStartEvent
	case event.StepEnd:
		ev = StepEndEvent
	default:
		return
	}
	if len(h.cfg[ev]) == 0 {
		return
	}
	h.mu.Lock()
	runPath, workspace := h.runPath, h.workspace
	h.mu.Unlock()
	p := &payload{}
	p.str("event", ev).
		str("workflow_id", e.RunID).
		str("step_id", e.ID).
		str("step_kind", e.Kind).
		str("step_name", e.Name)
	if ev == StepEndEvent {
		status, elapsed := int64(1), int64(0)
		if e.Status != nil {
			status = int64(*e.Status)
		}
		if e.ElapsedMS != nil {
			elapsed = *e.ElapsedMS
		}
		p.num("status", status).num("elapsed_ms", elapsed)
	}
	ts := isoMillis(time.Now())
	if !e.Time.IsZero() {
		// The event's own ts, as run_summary.jsonl writes it.
		ts = e.Time.UTC().Format("2006-01-02T15:04:05Z")
	}
	p.str("timestamp", ts).str("run_path", runPath).str("workspace", workspace)
	if ev == StepEndEvent {
		p.optStr("out_file", e.OutFile).optStr("err_file", e.ErrFile)
	}
	h.fire(ev, p.bytes())
}

// Wait blocks until every command fired so far has finished or timeout has
// passed, and reports whether all finished. Commands still running are left
// running.
func (h *Hooks) Wait(timeout time.Duration) bool {
	if h == nil {
		return true
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	for {
		h.mu.Lock()
		if h.pending == 0 {
			h.mu.Unlock()
			return true
		}
		idle := h.idle
		h.mu.Unlock()
		select {
		case <-idle:
		case <-timer.C:
			return false
		}
	}
}

// fire queues one job per command of the event and makes sure the
// dispatcher runs; it never waits for a process.
func (h *Hooks) fire(event string, payload []byte) {
	cmds := h.cfg[event]
	if len(cmds) == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.pending == 0 {
		h.idle = make(chan struct{})
	}
	for _, c := range cmds {
		h.queue = append(h.queue, job{cmd: c, payload: payload})
	}
	h.pending += len(cmds)
	if !h.dispatching {
		h.dispatching = true
		go h.dispatch()
	}
}

// dispatch starts queued jobs in order until the queue is empty.
func (h *Hooks) dispatch() {
	for {
		h.mu.Lock()
		if len(h.queue) == 0 {
			h.dispatching = false
			h.queue = nil
			h.mu.Unlock()
			return
		}
		j := h.queue[0]
		h.queue[0] = job{}
		h.queue = h.queue[1:]
		h.mu.Unlock()
		h.start(j)
	}
}

// start launches one command; a goroutine waits for it and reports a
// non-zero exit.
func (h *Hooks) start(j job) {
	cmd := exec.Command("sh", "-c", j.cmd)
	cmd.Stdin = bytes.NewReader(j.payload)
	cmd.Stderr = h.childStderr
	cmd.Env = h.env
	cmd.Dir = h.dir
	cmd.WaitDelay = time.Second
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(h.stderr, "jaiph hooks: error running %s: %s\n", j.cmd, err)
		h.done()
		return
	}
	go func() {
		defer h.done()
		_ = cmd.Wait()
		// ExitCode is -1 for a command killed by a signal: like the
		// reference, only a real non-zero exit code is reported.
		if ps := cmd.ProcessState; ps != nil && ps.ExitCode() > 0 {
			fmt.Fprintf(h.stderr, "jaiph hooks: command exited with %d: %s\n", ps.ExitCode(), j.cmd)
		}
	}()
}

func (h *Hooks) done() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.pending--
	if h.pending == 0 {
		close(h.idle)
	}
}

// isoMillis formats like JavaScript's Date.prototype.toISOString.
func isoMillis(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// SetMessageWriter sends jaiph's own "jaiph hooks: …" messages to w from
// now on (the CLI draws them above its live RUNNING line). When jaiph's
// stderr is a file the commands keep writing to it; otherwise their stderr
// follows the messages.
func (h *Hooks) SetMessageWriter(w io.Writer) {
	if h == nil {
		return
	}
	h.stderr.mu.Lock()
	h.stderr.w = w
	h.stderr.mu.Unlock()
}

// lockedWriter serialises writes from concurrent hook goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// TrustFile lists the workspaces whose own hooks.json may run, one
// absolute path a line: <home>/.jaiph/trusted-workspaces.
func TrustFile(home string) string { return filepath.Join(home, ".jaiph", "trusted-workspaces") }

// Trusted tells whether the operator trusts workspace's own hooks: trust
// is JAIPH_TRUST_HOOKS=true in the environment, or the workspace listed in
// TrustFile(home). A workflow file cannot grant it.
func Trusted(trustEnv, home, workspace string) bool {
	if envflag.True(trustEnv) {
		return true
	}
	b, err := os.ReadFile(TrustFile(home))
	if err != nil || home == "" {
		return false
	}
	for _, line := range strings.Split(string(b), "\n") {
		if p := strings.TrimSpace(line); p != "" && filepath.Clean(p) == filepath.Clean(workspace) {
			return true
		}
	}
	return false
}
