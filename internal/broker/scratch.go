package broker

import (
	"os"
	"path/filepath"

	"github.com/jaiph-go/jaiph/runtime"
)

// scratchPool keeps one run directory per worker slot, reused for every
// delivery (runtime.Options.Scratch): emptied in place between
// deliveries, so a no-op delivery creates no directory or file at all.
// Creating and removing them per delivery cost more than half of a
// worker's CPU on ext4 (docs/performance.md).
type scratchPool struct {
	root string
	free chan string
}

func newScratchPool(root string, slots int) *scratchPool {
	return &scratchPool{root: root, free: make(chan string, slots)}
}

// take returns an empty scratch directory.
func (p *scratchPool) take() (string, error) {
	select {
	case dir := <-p.free:
		return dir, nil
	default:
	}
	if err := os.MkdirAll(p.root, 0o755); err != nil {
		return "", err
	}
	return os.MkdirTemp(p.root, "slot-")
}

// put empties dir for the next delivery and keeps it; a directory that
// cannot be emptied is removed.
func (p *scratchPool) put(dir string) {
	if err := emptyScratch(dir); err == nil {
		select {
		case p.free <- dir:
			return
		default:
		}
	}
	os.RemoveAll(dir)
}

// close removes the kept directories (a directory a fenced delivery left
// is not in the pool: it stays for whoever wants to look).
func (p *scratchPool) close() {
	for {
		select {
		case dir := <-p.free:
			os.RemoveAll(dir)
		default:
			return
		}
	}
}

// emptyScratch removes what a delivery left in dir, keeping the
// temporary directory and artifacts/ (emptied, its mode as made; the
// summary stays in memory, runTarget): rewriting in place is cheap where creating is not (a
// directory made and removed per delivery was a tenth of a worker's CPU
// on ext4, finding a free inode past the ones just deleted).
func emptyScratch(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		switch e.Name() {
		case runtime.ScratchTmp:
			err = emptyDir(p)
		case runtime.ArtifactsDir:
			if err = emptyDir(p); err == nil {
				err = os.Chmod(p, 0o755)
			}
		default:
			err = os.RemoveAll(p)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func emptyDir(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if err := os.RemoveAll(filepath.Join(dir, e.Name())); err != nil {
			return err
		}
	}
	return nil
}
