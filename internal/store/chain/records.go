package chain

// This file answers: how does a run (or a resume of it) open its chained
// files, and how does it seal them?

import (
	"encoding/hex"
	"errors"
	"os"
)

// Records are a run's two chained files, open for appending, and the key
// store entry that seals them. Without a key (Unchained says why) the
// lines are appended unchained and the run is unverifiable.
type Records struct {
	store            Store
	kf               *keyFile // nil: unchained
	Summary, Journal *File
	// Unchained is why the run's lines are not chained: no key store, a
	// key that could not be made, or (resuming) none to go on with.
	Unchained error
}

// Start opens a new run's files (created, or appended to when they exist
// already) with a new key for run id. A key that cannot be made leaves the
// run unchained (Unchained), not failed; the error is a file's. fsync:
// the journal's writes are synced (JAIPH_INBOX_FSYNC).
func Start(store Store, runID string, files Files, fsync bool) (*Records, error) {
	r := &Records{store: store}
	r.kf, r.Unchained = store.create(runID)
	var c [2]*chainer
	if r.kf != nil {
		k := &Key{b: r.kf.key}
		c = [2]*chainer{newChainer(k, []byte(SummaryDomain)), newChainer(k, []byte(JournalDomain))}
	}
	return r, r.open(files, c, [2]int{}, fsync)
}

func (r *Records) open(files Files, c [2]*chainer, lines [2]int, fsync bool) error {
	var err error
	if r.Summary, err = openChained(files.Summary, files.SummaryMAC, c[0], lines[0], false); err != nil {
		return err
	}
	if r.Journal, err = openChained(files.Journal, files.JournalMAC, c[1], lines[1], fsync); err != nil {
		r.Summary.Close()
		return err
	}
	return nil
}

func openChained(path, sidecar string, c *chainer, lines int, fsync bool) (*File, error) {
	f, err := appendTo(path)
	if err != nil {
		return nil, err
	}
	out := &File{f: f, c: c, lines: lines, fsync: fsync}
	if c != nil {
		if out.side, err = appendTo(sidecar); err != nil {
			f.Close()
			return nil, err
		}
	}
	return out, nil
}

// Continue reopens the files of run id for a resume or a redrive, which
// append to them. The chain goes on from the sidecars' MACs, never from
// MACs computed again over what the files hold now (that would bless a
// change). The files are checked first: when they are what the run
// wrote, what a kill cut short is dropped (a partial last line, MACs
// whose lines were never written) and each chain goes on after its last
// line; otherwise (the caller went on with --force) only partial lines
// and entries are dropped, each chain goes on after its sidecar's last
// entry, so what was wrong stays wrong, and the verdict is kept in the key
// store (a seal that told it is taken away now). The seal is taken away
// until Seal. Without a key the files are appended unchained (Unchained
// says why).
func Continue(store Store, runID string, files Files, fsync bool) (*Records, error) {
	r := &Records{store: store}
	kf, err := store.load(runID)
	if err != nil {
		r.Unchained = err
		if errors.Is(err, ErrNoKey) {
			r.Unchained = errors.New("no key for run " + runID + " in " + store.Dir)
		}
		for _, p := range []string{files.Summary, files.Journal} {
			if err := cutPartial(p, -1); err != nil {
				return nil, err
			}
		}
		return r, r.open(files, [2]*chainer{}, [2]int{}, fsync)
	}
	res, s, j := verify(store, kf, files)
	trusted := res.Trusted()
	if !trusted && kf.Forced == nil {
		kf.Forced = &res
	}
	kf.Seal = nil
	if err := store.write(kf); err != nil {
		return nil, err
	}
	r.kf = kf
	k := &Key{b: kf.key}
	var c [2]*chainer
	var lines [2]int
	for i, fc := range []struct {
		check         *check
		path, sidecar string
		domain        string
	}{{s, files.Summary, files.SummaryMAC, SummaryDomain}, {j, files.Journal, files.JournalMAC, JournalDomain}} {
		entries, prev := fc.check.lines, fc.check.lastKept
		end := fc.check.linesEnd
		if !trusted { // the check stopped at the first fault: keep every line
			fi, err := os.Stat(fc.sidecar)
			if err == nil {
				entries = int(fi.Size() / entrySize)
			}
			prev, _ = lastEntry(fc.sidecar, entries)
			end = -1
		}
		if entries == 0 {
			prev = []byte(fc.domain)
		}
		if err := cutPartial(fc.path, end); err != nil {
			return nil, err
		}
		if err := truncate(fc.sidecar, int64(entries)*entrySize); err != nil {
			return nil, err
		}
		c[i], lines[i] = newChainer(k, append([]byte(nil), prev...)), entries
	}
	return r, r.open(files, c, lines, fsync)
}

// lastEntry reads entry n (1-based) of sidecar.
func lastEntry(sidecar string, n int) ([]byte, error) {
	f, err := os.Open(sidecar)
	if err != nil || n == 0 {
		return nil, err
	}
	defer f.Close()
	buf := make([]byte, entrySize)
	if _, err := f.ReadAt(buf, int64(n-1)*entrySize); err != nil {
		return nil, err
	}
	return hex.DecodeString(string(buf[:entrySize-2]))
}

// cutPartial truncates path to end, or after its last newline (end < 0):
// a line a kill cut short would otherwise run into the next one appended.
func cutPartial(path string, end int64) error {
	if end >= 0 {
		return truncate(path, end)
	}
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	return truncate(path, int64(lastNewline(data)+1))
}

func lastNewline(data []byte) int {
	for i := len(data) - 1; i >= 0; i-- {
		if data[i] == '\n' {
			return i
		}
	}
	return -1
}

func truncate(path string, size int64) error {
	fi, err := os.Stat(path)
	if errors.Is(err, os.ErrNotExist) || (err == nil && fi.Size() <= size) {
		return nil
	}
	if err != nil {
		return err
	}
	return os.Truncate(path, size)
}

// Chained tells whether the run's lines are chained.
func (r *Records) Chained() bool { return r.kf != nil }

// Close closes both files.
func (r *Records) Close() error {
	err := r.Summary.Close()
	if jerr := r.Journal.Close(); err == nil {
		err = jerr
	}
	return err
}

// Seal records in the key store where both files end: the run ended
// normally. The files must not be appended to afterwards. Files a write
// failed on are not sealed: where they end is not known.
func (r *Records) Seal() error {
	if r.kf == nil {
		return nil
	}
	for _, f := range []*File{r.Summary, r.Journal} {
		if f.Err() != nil {
			return f.Err()
		}
	}
	r.kf.seal(r.Summary.Mark(), r.Journal.Mark())
	return r.store.sealAppend(r.kf)
}
