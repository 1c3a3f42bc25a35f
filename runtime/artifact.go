package runtime

// This file answers: where does a step's output go, and what of it do the
// summary and the FAIL block get (bounded, read back from the artifact)?

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/exec/shellbuiltin"
	"github.com/jaiph-go/jaiph/internal/redact"
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
//
// When the run's environment holds credentials, what reaches the file is
// masked as it is written (docs/security.md): a run directory may be
// served or copied later, so its files must not depend on the reader
// masking them. The bytes that could begin a credential wait for the next
// write or the close, so one split across writes is masked too.
type artifact struct {
	path     string
	rt       *Runtime
	fallback io.Writer      // nil: the data is lost (and reported)
	mask     *redact.Writer // nil: no credentials, bytes go to the file as they come

	mu     sync.Mutex
	f      *os.File
	err    error
	failed bool
}

func (rt *Runtime) newArtifact(path string, fallback io.Writer) *artifact {
	a := &artifact{path: path, rt: rt, fallback: fallback}
	// A test's capture reads its call's output back from the .out
	// (testModeOutput): masking there would change what the test sees.
	if rt.redact != nil && !rt.opts.TestMode {
		a.mask = redact.NewWriter(rt.redact, rawArtifact{a})
	}
	return a
}

// errMasked keeps external commands off a masked artifact's file.
var errMasked = errors.New("artifact is masked")

// OSFile returns the open file, creating it if needed (external commands get
// the *os.File itself, so their output needs no copying goroutine;
// shellbuiltin.FileWriter). A masked artifact has none to give: the
// command's output must pass through Write.
func (a *artifact) OSFile() (*os.File, error) {
	if a.mask != nil {
		return nil, errMasked
	}
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
	if a.mask != nil {
		return a.mask.Write(p)
	}
	return a.write(p)
}

// rawArtifact is the file side of a masked artifact.
type rawArtifact struct{ a *artifact }

func (r rawArtifact) Write(p []byte) (int, error) { return r.a.write(p) }

// write puts p in the file, creating it on the first byte.
func (a *artifact) write(p []byte) (int, error) {
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
// steps that print nothing leave no artifact (docs/run-directory.md#step-artifacts). It runs once
// the body's jobs are done, since a job may still write after STEP_END.
func (a *artifact) closeAndPrune() {
	if a.mask != nil {
		_ = a.mask.Flush() // nothing more comes: what was held back goes out
	}
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

// touched reports whether the artifact's file was created or tried (a nil
// artifact: unknown, so yes). An untouched one has no file: its step
// printed nothing, and attachArtifacts need not look.
func (a *artifact) touched() bool {
	if a == nil {
		return true
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.f != nil || a.err != nil
}

// attachArtifacts fills a STEP_END's out/err fields from the step's
// artifacts (removing empty ones) and reports which were kept; outMaybe and
// errMaybe false say an artifact was never created, which saves the look
// (a stat per artifact and step). Only the contents' bounded prefixes are
// read, so a huge output costs no memory.
func (rt *Runtime) attachArtifacts(end *event.Event, outPath, errPath string, outMaybe, errMaybe bool) (bool, bool) {
	var out, errOut string
	var outKept, errKept bool
	if outMaybe {
		out, outKept = rt.readContent(outPath)
	}
	if outKept {
		end.OutFile = outPath
		end.OutContent = &out
	}
	if errMaybe {
		errOut, errKept = rt.readContent(errPath)
	}
	if errKept {
		end.ErrFile = errPath
		if *end.Status != 0 {
			end.ErrContent = &errOut
		}
	}
	return outKept, errKept
}

// readContent returns an artifact's out_content/err_content (trimContent)
// (an empty artifact counts as absent). At most contentMax runes plus a scan
// of the rest for anything but newlines decide it, in bounded memory.
// An artifact that exists but cannot be opened (no descriptors left) is a
// fault, kept with empty content.
func (rt *Runtime) readContent(path string) (string, bool) {
	fi, err := os.Stat(path) // needs no descriptor
	switch {
	case err != nil:
		return "", false
	case fi.Size() == 0:
		return "", false // removed once the body's jobs are done (runBody)
	}
	unreadable := func(err error) (string, bool) {
		rt.fault(fmt.Errorf("cannot read %s: %s", path, shellbuiltin.ErrnoText(err)), true)
		return "", true
	}
	f, err := os.Open(path)
	if err != nil {
		return unreadable(err)
	}
	defer f.Close()
	// A rune is at most 4 bytes: a longer prefix always holds contentMax runes.
	if fi.Size() < 4*contentMax {
		data := make([]byte, fi.Size())
		n, err := io.ReadFull(f, data)
		if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
			return unreadable(err)
		}
		return trimContent(string(data[:n])), true
	}
	buf := make([]byte, 4*contentMax)
	if _, err := io.ReadFull(f, buf); err != nil {
		return unreadable(err)
	}
	cut := 0
	for i := 0; i < contentMax; i++ {
		_, size := utf8.DecodeRune(buf[cut:])
		cut += size
	}
	if onlyNewlines(buf[cut:]) && restOnlyNewlines(f) {
		return strings.TrimRight(string(buf[:cut]), "\n"), true
	}
	return event.ValidRunes(buf[:cut]) + "\n[truncated]", true
}

func onlyNewlines(b []byte) bool {
	for _, c := range b {
		if c != '\n' {
			return false
		}
	}
	return true
}

// restOnlyNewlines reads the rest of r and reports whether it holds nothing
// but newlines.
func restOnlyNewlines(r io.Reader) bool {
	buf := make([]byte, 64<<10)
	for {
		n, err := r.Read(buf)
		if !onlyNewlines(buf[:n]) {
			return false
		}
		if err != nil {
			return true
		}
	}
}

// copyArtifact streams a kept artifact to w (a failed step's stderr to its
// caller, test-mode output) without holding it in memory.
func (rt *Runtime) copyArtifact(w io.Writer, path string) {
	f, err := os.Open(path)
	if err != nil {
		rt.fault(fmt.Errorf("cannot read %s: %s", path, shellbuiltin.ErrnoText(err)), true)
		return
	}
	defer f.Close()
	_, _ = io.Copy(w, f)
}

// FailureArtifacts returns the .out and .err the FAIL block names: the
// lexicographically last among the artifacts of the first failed step,
// of the steps inside it and of every other step that failed. The
// reference names the run directory's last ones, which can be a step that
// passed after the failure (`run w || true` then `run ok`, a later
// delivery): D24. Without a failed step, or when the summary cannot be
// read, they are the run directory's last (LastArtifacts).
func (rt *Runtime) FailureArtifacts() (out, errFile string) {
	first := rt.FirstFailure()
	if first == nil || rt.runDir == "" {
		return rt.LastArtifacts()
	}
	var sl stepLog
	if rt.opts.Records != nil {
		// The summary is the host's to write (the Docker sandbox): it may
		// lag behind; this process's own events are complete.
		rt.obsMu.Lock()
		sl = stepLog{parent: maps.Clone(rt.steps4fail.parent), ends: slices.Clone(rt.steps4fail.ends)}
		rt.obsMu.Unlock()
	} else {
		f, err := os.Open(filepath.Join(rt.runDir, "run_summary.jsonl"))
		if err != nil {
			return rt.LastArtifacts()
		}
		defer f.Close()
		err = event.Read(f, event.Filter{Types: []string{event.StepStart, event.StepEnd}, HeadOnly: true}, func(r *event.Record) error {
			parent := ""
			if r.ParentID != nil {
				parent = *r.ParentID
			}
			sl.record(r.Type, r.ID, parent, r.OutFile, r.ErrFile, r.Status != nil && *r.Status != 0)
			return nil
		})
		if err != nil {
			return rt.LastArtifacts()
		}
	}
	inside := func(id string) bool {
		for n := 0; id != "" && n <= len(sl.parent); n++ { // n: a cycle in a forged summary ends
			if id == first.ID {
				return true
			}
			id = sl.parent[id]
		}
		return false
	}
	for _, e := range sl.ends {
		if e.failed || inside(e.id) {
			out, errFile = max(out, e.out), max(errFile, e.err)
		}
	}
	return out, errFile
}

// stepLog is what FailureArtifacts reads of a run's steps: each step's
// parent, and the ends that name artifacts.
type stepLog struct {
	parent map[string]string
	ends   []stepEnd
}

type stepEnd struct {
	id, out, err string
	failed       bool
}

func (l *stepLog) record(typ, id, parent, out, errFile string, failed bool) {
	switch {
	case typ == event.StepStart && parent != "":
		if l.parent == nil {
			l.parent = map[string]string{}
		}
		l.parent[id] = parent
	case typ == event.StepEnd && (out != "" || errFile != ""):
		l.ends = append(l.ends, stepEnd{id, out, errFile, failed})
	}
}

// add records e (under obsMu).
func (l *stepLog) add(e *event.Event) {
	l.record(e.Type, e.ID, e.ParentID, e.OutFile, e.ErrFile, e.Status != nil && *e.Status != 0)
}

// LastArtifacts returns the run directory's lexicographically last .out
// and .err artifacts (the FAIL block names them), "" when none.
func (rt *Runtime) LastArtifacts() (out, errFile string) {
	if rt.runDir == "" {
		return "", ""
	}
	entries, _ := os.ReadDir(rt.runDir) // sorted by name
	for _, e := range entries {
		switch {
		case strings.HasSuffix(e.Name(), ".out"):
			out = filepath.Join(rt.runDir, e.Name())
		case strings.HasSuffix(e.Name(), ".err"):
			errFile = filepath.Join(rt.runDir, e.Name())
		}
	}
	return out, errFile
}

// trimContent is the out_content/err_content rule: trailing newlines removed,
// at most 1,048,576 characters then "\n[truncated]".
const contentMax = 1048576

func trimContent(s string) string {
	s = strings.TrimRight(s, "\n")
	if head, cut := event.CutRunes(s, contentMax); cut {
		s = head + "\n[truncated]"
	}
	return s
}
