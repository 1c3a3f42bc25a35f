package chain

// This file answers: are a run's summary and journal what the run wrote?

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Status is a verdict on a run's files.
type Status string

const (
	// Sealed: the run ended normally and its files are exactly what it
	// wrote, to the last line.
	Sealed Status = "sealed"
	// Unsealed: every line present is what the run wrote, but the run did
	// not end normally (killed, or still running), so lines may be missing
	// at the end: those of its last write (Torn), or any a kill kept from
	// ever being written.
	Unsealed Status = "unsealed"
	// Tampered: a line was changed, added or removed (File, Line), or the
	// seal no longer matches.
	Tampered Status = "tampered"
	// Unverifiable: there is nothing to check against: no key (a run from
	// before the chain, jaiph test, a key store deleted or not writable
	// when the run started) or a key that matches none of the run's MACs
	// (replaced).
	Unverifiable Status = "unverifiable"
)

// Result is the verdict Verify gives.
type Result struct {
	Status Status `json:"status"`
	// File and Line: the first bad line (Tampered), 1-based; File is the
	// file's base name. Line is 0 when the fault is not a line's (the
	// seal).
	File string `json:"file,omitempty"`
	Line int    `json:"line,omitempty"`
	// Reason is the verdict in one line of words (Tampered,
	// Unverifiable).
	Reason string `json:"reason,omitempty"`
	// Cause is why a run is unverifiable, in a word or two.
	Cause string `json:"cause,omitempty"`
	// Lines counts the lines verified in both files; Torn the MACs at the
	// end of an unsealed file whose lines its last write never wrote.
	Lines int `json:"lines"`
	Torn  int `json:"torn,omitempty"`
}

// Trusted tells whether the files are what the run wrote (sealed or
// unsealed).
func (r Result) Trusted() bool { return r.Status == Sealed || r.Status == Unsealed }

// String is the verdict as one line.
func (r Result) String() string {
	switch r.Status {
	case Sealed:
		return fmt.Sprintf("sealed: the run ended and its %d lines verify", r.Lines)
	case Unsealed:
		s := fmt.Sprintf("unsealed: the run did not end (killed, or still running); its %d lines verify", r.Lines)
		if r.Torn > 0 {
			s += fmt.Sprintf(", %d lost by the kill at the end", r.Torn)
		}
		return s
	}
	return string(r.Status) + ": " + r.Reason
}

// Causes of Unverifiable.
const (
	NoKey       = "no key"             // the key store has none for the run
	BadKey      = "unreadable key"     // its key file is not one
	KeyMismatch = "key does not match" // the key matches none of the run's MACs
	NoRecords   = "no run record"      // nothing names the run's key (set by the caller)
)

// Note is the verdict in a few words, for a list of runs: "tampered:
// run_summary.jsonl line 3", "unverifiable: no key"; "" when the files
// verify.
func (r Result) Note() string {
	switch {
	case r.Status == Tampered && r.Line > 0:
		return fmt.Sprintf("tampered: %s line %d", r.File, r.Line)
	case r.Status == Tampered:
		return "tampered: seal"
	case r.Status == Unverifiable && r.Cause != "":
		return "unverifiable: " + r.Cause
	case r.Status == Unverifiable:
		return "unverifiable"
	}
	return ""
}

// Files names a run's chained files and their sidecars (one MAC entry per
// line).
type Files struct {
	Summary, SummaryMAC, Journal, JournalMAC string
	// Live: a process still appends to them. Lines whose MACs were written
	// after Verify read the sidecar are then not checked, rather than
	// called lines without a MAC.
	Live bool
}

// Verify checks run id's files against its key and seal in store.
func Verify(store Store, runID string, files Files) Result {
	kf, err := store.load(runID)
	switch {
	case errors.Is(err, ErrNoKey):
		return Result{Status: Unverifiable, Cause: NoKey, Reason: fmt.Sprintf("no key for run %s in %s", runID, store.Dir)}
	case err != nil:
		return Result{Status: Unverifiable, Cause: BadKey, Reason: err.Error()}
	}
	r, _, _ := verify(store, kf, files)
	return r
}

// verify checks files against kf; the checks tell where each file's
// chain stands.
func verify(store Store, kf *keyFile, files Files) (Result, *check, *check) {
	k := &Key{b: kf.key}
	seal := kf.Seal
	if seal != nil && !k.validSeal(kf.RunID, seal) {
		seal = nil
	}
	var sm, jm *Mark
	if seal != nil {
		sm, jm = &seal.Summary, &seal.Journal
	}
	s := verifyFile(k, files.Summary, files.SummaryMAC, SummaryDomain, sm, files.Live)
	j := verifyFile(k, files.Journal, files.JournalMAC, JournalDomain, jm, files.Live)
	switch {
	case s.checked+j.checked > 0 && s.fails == s.checked && j.fails == j.checked:
		return Result{Status: Unverifiable, Cause: KeyMismatch, Reason: fmt.Sprintf("the key of run %s in %s matches none of its MACs (a replaced key, or every line changed)",
			kf.RunID, store.Dir)}, s, j
	case s.reason != "":
		return Result{Status: Tampered, File: s.name, Line: s.bad, Reason: s.reason}, s, j
	case j.reason != "":
		return Result{Status: Tampered, File: j.name, Line: j.bad, Reason: j.reason}, s, j
	case kf.Seal != nil && seal == nil:
		return Result{Status: Tampered, Reason: "the seal in the key store does not match the run's key"}, s, j
	case kf.Forced != nil:
		f := *kf.Forced
		f.Reason += " (found when the run was resumed or redriven with --force)"
		f.Lines, f.Torn = 0, 0
		return f, s, j
	}
	res := Result{Status: Unsealed, Lines: s.lines + j.lines, Torn: s.torn + j.torn}
	if seal != nil {
		res.Status = Sealed
	}
	return res, s, j
}

// check is what verifying one file found.
type check struct {
	name     string
	lines    int    // complete lines, each with its entry
	linesEnd int64  // offset after the last complete line
	entries  int    // complete sidecar entries
	lastKept []byte // the MAC of the last complete line's entry
	torn     int    // entries after the last complete line
	partial  bool   // a partial entry ends the sidecar
	bad      int    // first bad line (1-based)
	reason   string
	fails    int // lines whose MAC does not match
	checked  int // lines checked against a MAC
}

func (c *check) fault(line int, format string, args ...any) {
	if c.reason == "" {
		c.bad = line
		c.reason = fmt.Sprintf("%s line %d ", c.name, line) + fmt.Sprintf(format, args...)
	}
}

// entryReader reads a sidecar's entries.
type entryReader struct {
	r     *bufio.Reader
	buf   [entrySize]byte
	mac   [32]byte
	flag  byte
	valid bool // the entry read is well formed
	n     int  // complete entries read
}

// next reads the next complete entry; false at the end (a partial entry
// at the end is a kill during its write: partial is set).
func (e *entryReader) next() (ok, partial bool) {
	n, err := io.ReadFull(e.r, e.buf[:])
	if err != nil {
		return false, n > 0
	}
	e.n++
	_, herr := hex.Decode(e.mac[:], e.buf[:entrySize-2])
	e.flag = e.buf[entrySize-2]
	e.valid = herr == nil && e.buf[entrySize-1] == '\n' && (e.flag == flagMore || e.flag == flagLast)
	return true, false
}

// verifyFile checks path's lines against the MACs in sidecar. mark, when
// the run is sealed, is where the file must end. Writes put a line's MAC
// on disk before the line, so without a seal the only lines that may be
// missing are those of the file's last write, whose MACs end the sidecar
// (a kill between the two writes): their count is torn. The sidecar is
// read before the file, so that every line read had its MAC written
// before the sidecar was read, but a live file's lines appended since.
func verifyFile(k *Key, path, sidecar, domain string, mark *Mark, live bool) *check {
	c := &check{name: filepath.Base(path)}
	side := filepath.Base(sidecar)
	entries, _ := os.ReadFile(sidecar)
	f, _ := os.Open(path)
	defer f.Close() // nil-safe: os.(*File).Close of nil returns ErrInvalid
	fr := bufio.NewReaderSize(reader(f), 64<<10)
	er := &entryReader{r: bufio.NewReader(bytes.NewReader(entries))}
	ch := newChainer(k, nil)
	prev := []byte(domain)
	var lastFlag byte
	for {
		line, err := fr.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			// A line longer than the buffer (a step's big out_content):
			// copied before the next read reuses the buffer.
			line = append([]byte(nil), line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				var more []byte
				more, err = fr.ReadSlice('\n')
				line = append(line, more...)
			}
		}
		if len(line) == 0 {
			break
		}
		n := c.lines + 1
		complete := line[len(line)-1] == '\n'
		ok, partial := er.next()
		stop := true
		switch {
		case !ok && live: // appended since the sidecar was read
		case ok && !er.valid:
			c.fault(n, "has a malformed MAC in %s", side)
		case !ok && !complete:
			c.fault(n, "is cut short and has no MAC in %s", side)
		case !ok:
			c.fault(n, "has no MAC in %s (a line added)", side)
		case !complete && mark != nil:
			c.fault(n, "is cut short (the run was sealed with %d lines)", mark.Lines)
		case !complete: // a kill during the last write: its MAC came first
			c.partial, c.torn = partial, 1
			c.tail(er, er.flag, mark, side)
		default:
			stop = false
		}
		if stop {
			return c
		}
		c.lines++
		c.linesEnd += int64(len(line))
		c.checked++
		if !hmac.Equal(ch.mac(prev, er.flag, line[:len(line)-1]), er.mac[:]) {
			c.fails++
			c.fault(n, "does not match its MAC (changed, or moved)")
		}
		prev = append(prev[:0], er.mac[:]...)
		c.lastKept = append(c.lastKept[:0], er.mac[:]...)
		lastFlag = er.flag
	}
	c.tail(er, lastFlag, mark, side)
	return c
}

// tail checks the entries after the file's last line (lastFlag is the
// flag of the entry before them), and the seal's count.
func (c *check) tail(er *entryReader, lastFlag byte, mark *Mark, side string) {
	first := c.lines + 1 // the first line missing
	for {
		ok, partial := er.next()
		if !ok {
			c.partial = c.partial || partial
			break
		}
		if !er.valid {
			c.fault(first, "is missing and %s is malformed after it", side)
			return
		}
		// A missing line whose write ended before the last write's: a
		// whole write is gone, which no kill does.
		if c.torn > 0 && lastFlag == flagLast {
			c.fault(first, "and the lines after it are missing (their MACs are in %s)", side)
			return
		}
		c.torn++
		lastFlag = er.flag
	}
	c.entries = er.n
	if mark == nil {
		return
	}
	var last string
	if c.lines > 0 {
		last = hex.EncodeToString(c.lastKept)
	}
	switch {
	case c.lines < mark.Lines:
		c.fault(first, "is missing (the run was sealed with %d lines)", mark.Lines)
	case c.torn > 0 || c.partial:
		c.fault(first, "has a MAC in %s but is not in the file (the run was sealed with %d lines)", side, mark.Lines)
	case c.lines > mark.Lines:
		c.fault(mark.Lines+1, "was added after the run was sealed with %d lines", mark.Lines)
	case last != mark.MAC:
		c.fault(max(c.lines, 1), "does not end the chain the run was sealed with")
	}
}

// reader reads f, or nothing when it could not be opened.
func reader(f *os.File) io.Reader {
	if f == nil {
		return bytes.NewReader(nil)
	}
	return f
}
