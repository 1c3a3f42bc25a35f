package serve

// This file answers: how are runs kept when the service runs them itself
// (served.Backend on one machine: this process, its files)?

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/jaiph-go/jaiph/internal/served"
	"github.com/jaiph-go/jaiph/internal/store/chain"
	"github.com/jaiph-go/jaiph/internal/store/inbox"
	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/jaiph-go/jaiph/runtime"
)

// local is the backend of a service that runs its runs in its own
// process: the registry (runs.go) and the executor (exec.go); events and
// artifacts are read from the runs' directories.
type local struct {
	runs      *registry
	exec      *executor
	workflows map[string]workflow
	maxActive int
	lane      *lane // the order runs start executing in (lane.go)
}

func (l *local) Start(_ context.Context, st served.Start) (Run, bool, error) {
	w, ok := l.workflows[st.Workflow]
	if !ok {
		return Run{}, false, served.ErrNotFound
	}
	rec := record{Run: Run{RunID: newUUID(), Workflow: st.Workflow, Status: statusRunning, StartedAt: time.Now().UTC(),
		Principal: st.Principal, CorrelationID: st.CorrelationID}, IdempotencyKey: st.IdempotencyKey, ArgsHash: argsHash(st.Args)}
	ctx, cancel := context.WithCancelCause(context.Background())
	e, fresh, err := l.runs.admit(rec, l.maxActive, cancel)
	switch {
	case errors.Is(err, errTooMany):
		cancel(nil)
		return Run{}, false, fmt.Errorf("the server runs %d runs already (JAIPH_SERVE_MAX_CONCURRENT); retry later: %w", l.maxActive, errTooMany)
	case err != nil:
		cancel(nil)
		return Run{}, false, err
	case !fresh:
		cancel(nil)
		return e.snapshot(), false, nil
	}
	go l.execute(ctx, e, w, st.Args)
	return e.snapshot(), true, nil
}

func (l *local) Get(_ context.Context, id string) (Run, error) {
	if e := l.runs.get(id); e != nil {
		return e.snapshot(), nil
	}
	return Run{}, served.ErrNotFound
}

func (l *local) List(_ context.Context, principal string, all bool, limit, offset int) ([]Run, int, error) {
	page, total := l.runs.list(principal, all, limit, offset)
	return page, total, nil
}

func (l *local) Cancel(_ context.Context, id string) error {
	e := l.runs.get(id)
	if e == nil {
		return served.ErrNotFound
	}
	e.cancel(cancelCause())
	return nil
}

// Signal stores the message as `jaiph send` does: the run's waiting
// receive wakes, or a later one takes it.
func (l *local) Signal(_ context.Context, id, channel, key, payload string) error {
	e := l.runs.get(id)
	if e == nil {
		return served.ErrNotFound
	}
	run := e.snapshot()
	if served.Terminal(run.Status) {
		return fmt.Errorf("%w (%s)", served.ErrTerminal, run.Status)
	}
	if run.RunDir == "" || !inbox.ReceivesOn(run.RunDir, channel) {
		return fmt.Errorf("%w: %q", served.ErrNotReceiving, channel)
	}
	_, err := inbox.PutReceived(run.RunDir, channel, key, payload, nil)
	return err
}

func (l *local) Waiting(_ context.Context, channel, key string) ([]Run, error) {
	var out []Run
	l.runs.mu.Lock()
	entries := append([]*entry(nil), l.runs.order...)
	l.runs.mu.Unlock()
	for _, e := range entries {
		if r := e.snapshot(); r.Waiting != nil && r.Waiting.Channel == channel && r.Waiting.Key == key && !served.Terminal(r.Status) {
			out = append(out, r)
		}
	}
	return out, nil
}

func (l *local) Verify(_ context.Context, id string) error {
	e := l.runs.get(id)
	if e == nil {
		return served.ErrNotFound
	}
	dir := e.snapshot().RunDir
	if dir == "" {
		return nil
	}
	if v := runs.Verify(dir, chain.Store{Dir: l.exec.keys}); v.Status == chain.Tampered {
		return fmt.Errorf("%w: %s", served.ErrTampered, v.String())
	}
	return nil
}

// interruptAll interrupts every run in progress when the server's stop
// context ends, with its signal (one watcher for all runs: a per-run
// context.AfterFunc on the shared context made every run start and end
// wait on its lock).
func (l *local) interruptAll(stop context.Context) {
	<-stop.Done()
	var cause error = &runtime.Interrupted{Signal: syscall.SIGTERM}
	if in := runtime.Interruption(stop); in != nil {
		cause = in
	}
	l.runs.mu.Lock()
	l.runs.stopping = cause
	list := append([]*entry{}, l.runs.order...)
	l.runs.mu.Unlock()
	for _, e := range list {
		if !e.isTerminal() {
			e.cancel(cause)
		}
	}
}

func (l *local) Close(ctx context.Context) {
	// The runs were interrupted with the server's signal (interruptAll):
	// let them end and record it.
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = time.Now().Add(30 * time.Second)
	}
	l.runs.waitIdle(time.Until(deadline))
	l.runs.close()
}

func (l *local) Changed(_ context.Context, id string) (<-chan struct{}, func(), error) {
	e := l.runs.get(id)
	if e == nil {
		return nil, nil, served.ErrNotFound
	}
	return e.watch(), func() {}, nil
}

// Follow reads the run's summary file from its start.
func (l *local) Follow(_ context.Context, id string) (served.Follower, error) {
	e := l.runs.get(id)
	if e == nil {
		return nil, served.ErrNotFound
	}
	return &fileFollower{e: e}, nil
}

// fileFollower reads a run's summary file as it grows.
type fileFollower struct {
	e      *entry
	f      *os.File
	offset int64
}

func (f *fileFollower) Changed() <-chan struct{} { return f.e.watch() }

func (f *fileFollower) Next(context.Context) ([][]byte, error) {
	if f.f == nil {
		dir := f.e.snapshot().RunDir
		if dir == "" {
			return nil, nil
		}
		file, err := os.Open(summaryPath(dir))
		if os.IsNotExist(err) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		f.f = file
	}
	var lines [][]byte
	n := copyLines(lineSink(func(line []byte) { lines = append(lines, append([]byte{}, line...)) }),
		io.NewSectionReader(f.f, f.offset, 1<<62))
	f.offset += n
	return lines, nil
}

func (f *fileFollower) Close() {
	if f.f != nil {
		f.f.Close()
	}
}

// lineSink takes the lines copyLines writes, one per Write.
type lineSink func([]byte)

func (s lineSink) Write(b []byte) (int, error) {
	s(b)
	return len(b), nil
}

// artifactsDir is the run's published files ($JAIPH_ARTIFACTS_DIR), ""
// before its first step.
func artifactsDir(run Run) string {
	if run.RunDir == "" {
		return ""
	}
	return filepath.Join(run.RunDir, runtime.ArtifactsDir)
}

// Artifacts lists the regular files under the run's artifacts directory
// (a symlink is listed when it stays inside and names one).
func (l *local) Artifacts(_ context.Context, id string) ([]served.Artifact, error) {
	e := l.runs.get(id)
	if e == nil {
		return nil, served.ErrNotFound
	}
	list := []served.Artifact{}
	dir := artifactsDir(e.snapshot())
	if dir == "" {
		return list, nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return list, nil
	}
	defer root.Close()
	fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		// Stat through the root: a symlink that leaves it fails here.
		fi, err := root.Stat(p)
		if err != nil || !fi.Mode().IsRegular() {
			return nil
		}
		list = append(list, served.Artifact{Path: p, Size: fi.Size(), MTime: fi.ModTime().UTC()})
		return nil
	})
	return list, nil
}

// Open opens one published file. A path that is absolute, has a ..
// segment, or leaves the directory through a symlink is ErrNotFound
// without touching its target.
func (l *local) Open(_ context.Context, id, rel string) (served.File, error) {
	e := l.runs.get(id)
	if e == nil {
		return nil, served.ErrNotFound
	}
	dir := artifactsDir(e.snapshot())
	if dir == "" || !cleanPath(rel) {
		return nil, served.ErrNotFound
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, served.ErrNotFound
	}
	defer root.Close()
	f, err := root.Open(rel)
	if err != nil {
		return nil, served.ErrNotFound
	}
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil, served.ErrNotFound
	}
	return osFile{f, fi}, nil
}

// cleanPath: rel is a relative path without . or .. segments.
func cleanPath(rel string) bool {
	return rel != "" && !strings.HasPrefix(rel, "/") && fs.ValidPath(rel) && path.Clean(rel) == rel
}

type osFile struct {
	*os.File
	fi os.FileInfo
}

func (f osFile) Size() int64        { return f.fi.Size() }
func (f osFile) ModTime() time.Time { return f.fi.ModTime() }
