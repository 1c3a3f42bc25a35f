package runtime

// This file answers: where do the lines of a run's summary and journal go,
// and how do they become tamper-evident (internal/store/chain,
// docs/security.md "Tamper evidence")?

import (
	"cmp"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/jaiph-go/jaiph/internal/envflag"
	"github.com/jaiph-go/jaiph/internal/exec/shellbuiltin"
	"github.com/jaiph-go/jaiph/internal/store/chain"
	"github.com/jaiph-go/jaiph/internal/store/runs"
)

// appender takes whole lines for one of the run's files.
type appender interface {
	Append(lines []byte) error
	Close() error
}

// RecordSink takes the lines of a run's summary and journal when another
// process writes those files: the host of a sandboxed run, which holds the
// key that chains them (the sandbox cannot see it).
type RecordSink interface {
	// Opened names the run's directory and id before its first line, for
	// a new run and a resumed one alike.
	Opened(runDir, runID string)
	// Append appends whole lines to runs.SummaryFile or runs.JournalFile.
	Append(file string, lines []byte) error
}

// mirrored is a file whose lines also go to Options.Mirror.
type mirrored struct {
	appender
	file   string
	mirror func(string, []byte) error
}

func (m mirrored) Append(b []byte) error {
	if err := m.appender.Append(b); err != nil {
		return err
	}
	return m.mirror(m.file, b)
}

// sinkFile is one file of a RecordSink.
type sinkFile struct {
	sink RecordSink
	file string
}

func (s sinkFile) Append(b []byte) error { return s.sink.Append(s.file, b) }
func (sinkFile) Close() error            { return nil }

// openFiles opens the run's summary in dir and, when the run keeps
// records, its journal: chained under a new key (chain.Start), or, when
// the run goes on (resume, redrive), after the chain's last MAC
// (chain.Continue, which also drops what a kill cut short). A key that
// cannot be made leaves the run unchained, with one line on stderr; a run
// that keeps no records (jaiph test, a worker's delivery) has no chain.
func (rt *Runtime) openFiles(dir string, resume bool) error {
	sumPath := filepath.Join(dir, runs.SummaryFile)
	var journalOut appender
	switch {
	case rt.opts.Records != nil:
		rt.opts.Records.Opened(dir, rt.runID)
		rt.summary.out, journalOut = sinkFile{rt.opts.Records, runs.SummaryFile}, sinkFile{rt.opts.Records, runs.JournalFile}
	case rt.records == "":
		f, err := chain.Plain(sumPath)
		if err != nil {
			return err
		}
		rt.summary.out = f
	default:
		open := chain.Start
		if resume {
			open = chain.Continue
		}
		store, why := chain.Store{Dir: rt.opts.KeyDir}.Outside(rt.opts.Workspace)
		recs, err := open(store, rt.runID, runs.Chained(dir), envflag.True(rt.env("JAIPH_INBOX_FSYNC")))
		if err != nil {
			return err
		}
		if recs.Unchained != nil {
			fmt.Fprintf(rt.notices(), "jaiph: warning: run %s is not tamper-evident (%v); jaiph verify will call it unverifiable\n",
				rt.runID, cmp.Or(why, recs.Unchained))
		}
		rt.chained = recs
		rt.summary.out, journalOut = recs.Summary, recs.Journal
	}
	if m := rt.opts.Mirror; m != nil {
		rt.summary.out = mirrored{rt.summary.out, runs.SummaryFile, m}
		if journalOut != nil {
			journalOut = mirrored{journalOut, runs.JournalFile, m}
		}
	}
	rt.summary.failed = func(err error) {
		rt.fault(fmt.Errorf("cannot write %s: %s", sumPath, shellbuiltin.ErrnoText(err)), true)
	}
	if rt.records != "" {
		rt.journal = openJournal(filepath.Join(rt.records, runs.JournalFile), journalOut, rt.redact)
	}
	return nil
}

// closeFiles flushes and closes the summary and the journal (Close has
// closed the journal already, before the transport) and, the run having
// ended without being killed, seals them (chain.Records.Seal).
func (rt *Runtime) closeFiles() {
	if rt.journal != nil {
		rt.journal.close() // again: a no-op
	}
	rt.summary.close()
	if rt.chained != nil {
		if err := rt.chained.Seal(); err != nil {
			fmt.Fprintf(rt.notices(), "jaiph: warning: cannot seal run %s: %v\n", rt.runID, err)
		}
		rt.chained = nil
	}
}

// notices is where the runtime's own warnings go.
func (rt *Runtime) notices() io.Writer {
	if rt.opts.Notices != nil {
		return rt.opts.Notices
	}
	return os.Stderr
}
