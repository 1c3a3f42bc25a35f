package engine

// This file answers: who writes a sandboxed run's summary and journal?
// The host: the sandbox sends their lines (sandbox.Job.Append) and the
// host appends them chained under the run's key (internal/store/chain),
// which the container never sees, and seals them when the sandboxed jaiph
// reports how the run ended.

import (
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/jaiph-go/jaiph/internal/envflag"
	"github.com/jaiph-go/jaiph/internal/store/chain"
	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/jaiph-go/jaiph/runtime"
)

// hostFiles are a sandboxed run's chained files on the host. Its methods
// are called from the one goroutine reading the sandbox's records.
type hostFiles struct {
	store   chain.Store
	why     error // the store is not used
	fsync   bool
	notices io.Writer
	recs    *chain.Records
	runDir  string
	err     error // the first write error: the rest of the lines are dropped
}

func newHostFiles(o RunOptions, workspace string, notices io.Writer) *hostFiles {
	h := &hostFiles{fsync: envflag.True(runtime.NewEnv(o.Environ).Get("JAIPH_INBOX_FSYNC")), notices: notices}
	h.store, h.why = keyStore(o.KeyDir, o.Environ).Outside(workspace)
	return h
}

// resume reopens the files of the run at dir before the sandbox starts
// (chain.Continue), so that the sandboxed jaiph reads them as the chain
// left them.
func (h *hostFiles) resume(dir string) error {
	meta, err := runs.ReadMeta(dir)
	if err != nil {
		return err
	}
	if h.recs, err = chain.Continue(h.store, meta.RunID, runs.Chained(dir), h.fsync); err != nil {
		return err
	}
	h.runDir = dir
	h.opened(dir)
	return nil
}

// Opened is the sandbox's first word of a run (sandbox.Job.Opened): a new
// run's files are created with a new key; a resumed run's are open.
func (h *hostFiles) Opened(runDir, runID string) {
	if h.recs != nil || h.err != nil {
		return
	}
	h.recs, h.err = chain.Start(h.store, runID, runs.Chained(runDir), h.fsync)
	if h.err != nil {
		fmt.Fprintf(h.notices, "jaiph: cannot write the run's summary: %v\n", h.err)
		return
	}
	h.runDir = runDir
	h.opened(runDir)
}

// opened warns about an unchained run and gives the files the run
// directory's owner (a root host's run of a workspace owned by another
// user: the files are the workspace owner's, as the rest of the run's).
func (h *hostFiles) opened(runDir string) {
	if h.recs.Unchained != nil {
		why := h.why
		if why == nil {
			why = h.recs.Unchained
		}
		fmt.Fprintf(h.notices, "jaiph: warning: this run is not tamper-evident (%v); jaiph verify will call it unverifiable\n", why)
	}
	fi, err := os.Stat(runDir)
	if err != nil || os.Geteuid() != 0 {
		return
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	files := runs.Chained(runDir)
	for _, p := range []string{files.Summary, files.SummaryMAC, files.Journal, files.JournalMAC} {
		os.Lchown(p, int(st.Uid), int(st.Gid))
	}
}

// Append appends the sandbox's lines (sandbox.Job.Append).
func (h *hostFiles) Append(file string, lines []byte) {
	if h.recs == nil || h.err != nil {
		return
	}
	f := h.recs.Summary
	if file == runs.JournalFile {
		f = h.recs.Journal
	}
	if h.err = f.Append(lines); h.err != nil {
		fmt.Fprintf(h.notices, "jaiph: cannot write %s of %s: %v\n", file, h.runDir, h.err)
	}
}

// close closes the files; ended: the sandboxed jaiph reported how the run
// ended, which seals them.
func (h *hostFiles) close(ended bool) {
	if h.recs == nil {
		return
	}
	h.recs.Close()
	if ended {
		if err := h.recs.Seal(); err != nil {
			fmt.Fprintf(h.notices, "jaiph: warning: cannot seal the run's files: %v\n", err)
		}
	}
}
