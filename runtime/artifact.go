package runtime

import (
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/jaiph-go/jaiph/shellbuiltin"
)

// artifact is a step's .out or .err file, created on the first write so
// that the many steps that print nothing cost no file system work (their
// empty artifacts would be removed at the end anyway). Once created it is
// written live under its final name (D1).
//
// When the file cannot be created or written (no descriptors left, disk
// full) the first error is reported as a fault of the run, so the run fails
// instead of silently losing output; what a .err artifact cannot hold goes
// to its fallback (the run's stderr), so no error text is lost.
type artifact struct {
	path     string
	rt       *Runtime
	fallback io.Writer // nil: the data is lost (and reported)

	mu     sync.Mutex
	f      *os.File
	err    error
	failed bool
}

func (rt *Runtime) newArtifact(path string, fallback io.Writer) *artifact {
	return &artifact{path: path, rt: rt, fallback: fallback}
}

// OSFile returns the open file, creating it if needed (external commands get
// the *os.File itself, so their output needs no copying goroutine;
// shellbuiltin.FileWriter).
func (a *artifact) OSFile() (*os.File, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.openLocked()
}

func (a *artifact) openLocked() (*os.File, error) {
	if a.f == nil && a.err == nil {
		a.f, a.err = os.OpenFile(a.path, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, 0o644)
		if a.err != nil {
			a.failLocked(a.err)
		}
	}
	return a.f, a.err
}

// failLocked reports the artifact's first error.
func (a *artifact) failLocked(err error) {
	if !a.failed && a.rt != nil {
		a.failed = true
		a.rt.fault(fmt.Errorf("cannot write %s: %s", a.path, shellbuiltin.ErrnoText(err)), true)
	}
}

func (a *artifact) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	n := 0
	f, err := a.openLocked()
	if err == nil {
		if n, err = f.Write(p); err == nil {
			return n, nil
		}
		a.failLocked(err)
	}
	if a.fallback != nil {
		m, err := a.fallback.Write(p[n:])
		return n + m, err
	}
	return n, err
}

// closeAndPrune closes the file and removes it when nothing was written:
// steps that print nothing leave no artifact (runtime.md §9). It runs once
// the body's jobs are done, since a job may still write after STEP_END.
func (a *artifact) closeAndPrune() {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.f == nil {
		return
	}
	// Only a regular file: an artifact path may name a device (tests use
	// /dev/full), which must never be removed.
	if st, err := a.f.Stat(); err == nil && st.Mode().IsRegular() && st.Size() == 0 {
		os.Remove(a.path)
	}
	a.f.Close()
}
