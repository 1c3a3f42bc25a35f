package report

import (
	"bufio"
	"bytes"
	"cmp"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/store/chain"
	"github.com/jaiph-go/jaiph/internal/store/runs"
)

// registry keeps every run under the runs root with its summary read so
// far. A run is re-read only from where it was left (its offset) when its
// summary grew, and its status (runs.Read) is asked again only when the
// summary changed or the run was running: an unchanged finished run costs
// one stat per refresh.
type registry struct {
	root      string // as given, for runs.Read's paths
	real      string // root through symlinks, for containment checks
	resolved  bool   // root is absolute and real is its resolution (see firstTS)
	scanEvery time.Duration
	keys      *chain.Store // verifies runs' files (Options.Keys)

	mu       sync.Mutex
	slots    map[string]*slot // by path relative to root, "<date>/<run>"
	lastScan time.Time
	reads    int    // summary reads (tail calls), for tests: unchanged runs cost none
	buf      []byte // tail's, shared: tail runs under mu

	// warming is set from the start (Options.Warm) until the warm-up's
	// first full pass ends; meanwhile the unfiltered list is answered from
	// the index, computed once.
	warming atomic.Bool
	idxOnce sync.Once
	idx     []key
}

// key is what the list orders a run by: its started_at, then its path.
type key struct{ rel, first string }

type slot struct {
	rel, dir string
	// Tail state: the identity and size of the summary at the last read,
	// the offset read up to, and the bytes after the last newline.
	fi      os.FileInfo
	off     int64
	partial []byte
	sum     *summary

	status  string   // the API's status
	info    runs.Run // what runs.Read says of it (duration, notes)
	version int64    // counts the changes seen
	entry   *Run     // cached list entry, nil when stale
}

func newRegistry(root string, scanEvery time.Duration) *registry {
	real, err := filepath.EvalSymlinks(root)
	resolved := err == nil && filepath.IsAbs(root)
	if err != nil {
		real = filepath.Clean(root)
	}
	if abs, err := filepath.Abs(real); err == nil {
		real = abs
	}
	return &registry{root: root, real: real, resolved: resolved, scanEvery: scanEvery, slots: map[string]*slot{}}
}

// refresh brings the registry up to date: the directory scan at most every
// scanEvery (or when force), then every known run's summary and status. A
// run that went away is dropped. The lock is taken per run, not for the
// whole pass, so that a request for one run (and the first page, while
// the warm-up's pass runs) never waits for thousands of others.
func (r *registry) refresh(now time.Time, force bool) {
	r.mu.Lock()
	rescan := force || r.lastScan.IsZero() || now.Sub(r.lastScan) >= r.scanEvery
	if rescan {
		r.lastScan = now
	}
	r.mu.Unlock()
	if rescan {
		found := scan(r.root)
		r.mu.Lock()
		seen := make(map[string]bool, len(found))
		for _, rel := range found {
			seen[rel] = true
			if r.slots[rel] == nil {
				r.slots[rel] = &slot{rel: rel, dir: filepath.Join(r.root, filepath.FromSlash(rel)), sum: newSummary()}
			}
		}
		for rel := range r.slots {
			if !seen[rel] {
				delete(r.slots, rel)
			}
		}
		r.mu.Unlock()
	}
	r.mu.Lock()
	all := make([]*slot, 0, len(r.slots))
	for _, s := range r.slots {
		all = append(all, s)
	}
	r.mu.Unlock()
	for _, s := range all {
		r.mu.Lock()
		if r.slots[s.rel] == s && !r.update(s, now) {
			delete(r.slots, s.rel)
		}
		r.mu.Unlock()
	}
}

// versions are the version of every known run.
func (r *registry) versions() map[string]int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make(map[string]int64, len(r.slots))
	for rel, s := range r.slots {
		if s.fi != nil { // not read yet: a concurrent pass will tell
			out[rel] = s.version
		}
	}
	return out
}

// scan lists the run directories under root: <date>/<run> holding a
// run_summary.jsonl, as the reference finds them.
func scan(root string) []string {
	dirs, _ := runs.Dirs(root)
	out := dirs[:0]
	for _, dir := range dirs {
		if st, err := os.Stat(filepath.Join(root, dir, runs.SummaryFile)); err == nil && st.Mode().IsRegular() {
			out = append(out, dir)
		}
	}
	return out
}

// index is every run a full pass would keep, with its started_at, newest
// first as the list orders them. It is computed once and costs a fraction
// of a full pass: each summary is read only up to its first complete line
// with a ts, and no status is asked.
func (r *registry) index() []key {
	r.idxOnce.Do(func() {
		br := bufio.NewReaderSize(nil, 4<<10)
		days, _ := os.ReadDir(r.root)
		for _, d := range days {
			if !d.IsDir() {
				continue
			}
			entries, _ := os.ReadDir(filepath.Join(r.root, d.Name()))
			for _, e := range entries {
				if !e.IsDir() {
					continue
				}
				if first, ok := r.firstTS(filepath.Join(r.root, d.Name(), e.Name(), runs.SummaryFile), br); ok {
					r.idx = append(r.idx, key{d.Name() + "/" + e.Name(), first})
				}
			}
		}
		sortKeys(r.idx)
	})
	return r.idx
}

func sortKeys(idx []key) {
	slices.SortFunc(idx, func(a, b key) int { return cmp.Or(cmp.Compare(b.first, a.first), cmp.Compare(b.rel, a.rel)) })
}

// started is idx with the runs that had no start yet when it was made
// looked at again: one that was just starting then (its first line not
// complete) has one now, and is the newest. idx itself when none has.
func (r *registry) started(idx []key) []key {
	var out []key
	br := bufio.NewReaderSize(nil, 4<<10)
	for i := len(idx) - 1; i >= 0 && idx[i].first == ""; i-- { // sorted last
		first, _ := r.firstTS(filepath.Join(r.root, filepath.FromSlash(idx[i].rel), runs.SummaryFile), br)
		if first != "" {
			if out == nil {
				out = slices.Clone(idx)
			}
			out[i].first = first
		}
	}
	if out == nil {
		return idx
	}
	sortKeys(out)
	return out
}

// firstTS is the started_at a full read of the summary at p gives (the ts
// of its first complete line that has one, as summary.add takes it), and
// ok false when a full pass would drop the run (scan and update's checks).
// The date and run directories are no symlinks (DirEntry.IsDir), so a
// summary that is a regular file and no symlink lies inside the root;
// only the others are resolved, a stat per path element.
func (r *registry) firstTS(p string, br *bufio.Reader) (string, bool) {
	var f io.ReadCloser
	if r.resolved {
		f = openPlain(p)
	}
	if f == nil {
		fi, err := os.Stat(p)
		if err != nil || !fi.Mode().IsRegular() || !r.inside(p) {
			return "", false
		}
		if f, err = os.Open(p); err != nil {
			return "", false
		}
	}
	defer f.Close()
	br.Reset(f)
	for {
		b, err := br.ReadBytes('\n')
		if err == io.EOF {
			return "", true // a last line without its newline is not read yet
		}
		if err != nil {
			return "", false
		}
		if e, err := event.Decode(b); err == nil && e.TS != "" {
			return e.TS, true
		}
	}
}

// get is the run at rel brought up to date, or nil when there is none
// (never scanned yet: looked up directly, as the reference does).
func (r *registry) get(rel string, now time.Time) *slot {
	r.mu.Lock()
	defer r.mu.Unlock()
	s := r.slots[rel]
	if s == nil {
		s = &slot{rel: rel, dir: filepath.Join(r.root, filepath.FromSlash(rel)), sum: newSummary()}
	}
	if !r.update(s, now) {
		delete(r.slots, rel)
		return nil
	}
	r.slots[rel] = s
	return s
}

// update reads what was appended to s's summary since the last call and
// asks for its status again when needed; s.version grows when anything
// the API shows may have changed. It is false when the run is gone (or its
// summary is not a regular file inside the root).
func (r *registry) update(s *slot, now time.Time) bool {
	p := filepath.Join(s.dir, runs.SummaryFile)
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	grew := s.fi == nil || fi.Size() != s.fi.Size() || !fi.ModTime().Equal(s.fi.ModTime()) || !os.SameFile(fi, s.fi)
	if grew {
		// Checked again on every change, not on every refresh: resolving
		// symlinks costs a stat per path element.
		if !r.inside(p) {
			return false
		}
		if s.fi == nil || !os.SameFile(fi, s.fi) || fi.Size() < s.off {
			// Replaced or truncated: read it again from the start.
			s.off, s.partial, s.sum = 0, nil, newSummary()
		}
		if !r.tail(s, p) {
			return false
		}
		s.fi = fi
	}
	if grew || s.status == "" || s.status == "running" {
		st, info := status(s.dir, now)
		if r.keys != nil && st != "running" {
			v := runs.Verify(s.dir, *r.keys)
			info.Integrity = &v
		}
		if grew || st != s.status || runs.Note(info) != runs.Note(s.info) {
			s.status, s.info = st, info
			s.version++
			s.entry = nil
		}
	}
	return true
}

// tail parses the complete lines appended since s.off (under r.mu: the
// read buffer is the registry's; add copies what it keeps).
func (r *registry) tail(s *slot, p string) bool {
	r.reads++
	f, err := os.Open(p)
	if err != nil {
		return false
	}
	defer f.Close()
	if _, err := f.Seek(s.off, io.SeekStart); err != nil {
		return false
	}
	if r.buf == nil {
		r.buf = make([]byte, 64<<10)
	}
	buf := r.buf
	for {
		n, err := f.Read(buf)
		if n > 0 {
			s.off += int64(n)
			data := buf[:n]
			for {
				i := bytes.IndexByte(data, '\n')
				if i < 0 {
					s.partial = append(s.partial, data...)
					break
				}
				if len(s.partial) > 0 {
					s.partial = append(s.partial, data[:i]...)
					s.sum.add(s.partial)
					s.partial = s.partial[:0]
				} else {
					s.sum.add(data[:i])
				}
				data = data[i+1:]
			}
		}
		if err == io.EOF {
			return true
		}
		if err != nil {
			return false
		}
	}
}

// status is the API's status of the run at dir, from the runs package:
// running while its lock is held, completed or failed from its end record
// (or its root step), otherwise interrupted.
func status(dir string, now time.Time) (string, runs.Run) {
	run, _ := runs.Read(dir, now)
	switch run.Status {
	case runs.Running:
		return "running", run
	case runs.Passed:
		return "completed", run
	case runs.Failed:
		return "failed", run
	}
	return "interrupted", run
}

// inside tells whether p, through symlinks, is within the runs root.
func (r *registry) inside(p string) bool {
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(r.real, real)
	return err == nil && rel != "." && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}
