package runtime

import (
	"os"
	"sync"
)

// artifact is a step's .out or .err file, created on the first write so
// that the many steps that print nothing cost no file system work (their
// empty artifacts would be removed at the end anyway). Once created it is
// written live under its final name (D1).
type artifact struct {
	path string

	mu   sync.Mutex
	f    *os.File
	err  error
	done bool
}

func newArtifact(path string) *artifact { return &artifact{path: path} }

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
	}
	return a.f, a.err
}

func (a *artifact) Write(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	f, err := a.openLocked()
	if err != nil {
		return 0, err
	}
	return f.Write(p)
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
	if st, err := a.f.Stat(); err == nil && st.Size() == 0 {
		os.Remove(a.path)
	}
	a.f.Close()
}
