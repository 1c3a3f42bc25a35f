package runtime

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/store/runs"
)

// ErrRunLive is returned by Reopen when a live process holds the run dir.
var ErrRunLive = errors.New("the run is still running")

// reattach makes the existing run directory dir rt's again (resume,
// redrive): it takes the run's lock (ErrRunLive when a live process holds
// it), takes the run id from its records, drops the lines a kill cut short
// at the end of its summary and journal, numbers steps after the run's
// last, appends to its summary and opens its journal. It returns the steps
// the summary left open (a killed attempt's).
func (rt *Runtime) reattach(dir string) ([]*event.Event, error) {
	lock, err := runs.Lock(dir)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		return nil, ErrRunLive
	}
	if err != nil {
		return nil, fmt.Errorf("cannot lock run directory %s: %w", dir, err)
	}
	rt.lock = lock
	meta, err := runs.ReadMeta(dir)
	if err != nil {
		return nil, err
	}
	rt.runDir, rt.runID, rt.records = dir, meta.RunID, runs.RecordsDir(dir)
	if err := runs.TakeOver(rt.records, meta, rt.pid); err != nil {
		return nil, fmt.Errorf("cannot record the run's new process in %s: %w", rt.records, err)
	}
	// Opening the summary and the journal again drops what a kill cut
	// short at their ends (chain.Continue), before they are read.
	if err := rt.openFiles(dir, true); err != nil {
		return nil, err
	}
	// .seq holds the last step number when the run ended; the summary's
	// events tell it when the run was killed.
	maxSeq, open := scanOpenSteps(filepath.Join(dir, runs.SummaryFile))
	data, _ := os.ReadFile(filepath.Join(dir, ".seq"))
	last, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	rt.seq.Store(int64(max(maxSeq, last)))
	runs.RemoveTmp(rt.records) // the killed attempt's
	return open, rt.makeTmp()
}
