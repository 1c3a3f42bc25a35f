package report

import (
	"bytes"
	"cmp"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/jaiph-go/jaiph/internal/redact"
	"github.com/jaiph-go/jaiph/internal/store/chain"
	"github.com/jaiph-go/jaiph/internal/store/inbox"
	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/jaiph-go/jaiph/lowered"
)

// previewBytes caps the contents the output endpoint embeds (the
// reference's 64 K characters).
const previewBytes = 64 << 10

// Options configure a Server.
type Options struct {
	Root string // the runs root
	// UI holds the browser UI's static files ("/" serves index.html); nil
	// serves a placeholder page.
	UI fs.FS
	// PollMS is the poll interval /api/config tells the UI (0: unknown).
	PollMS int
	// ScanEvery is the least time between two scans of the runs root for
	// new run directories (the reference's 2 s); known runs are re-read on
	// every request and poll. 0 scans every time.
	ScanEvery time.Duration
	// Warm marks a server whose Run has not finished its first full pass
	// yet: until it has, the unfiltered list is answered from an index of
	// the runs' start times, reading only the page's runs (Run).
	Warm bool
	// Redact masks credentials in the step output and message previews
	// the server reads from artifacts and inboxes (events in summaries
	// are masked when written); nil masks nothing.
	Redact *redact.Redactor
	// Keys is the key store a run's summary and journal are verified
	// against (runs.Verify) once it is not running, and again whenever its
	// summary changes; nil verifies nothing (no integrity in the API).
	Keys *chain.Store
}

// Server is the HTTP handler of `jaiph report`.
type Server struct {
	reg    *registry
	static http.Handler
	pollMS int
	red    *redact.Redactor

	mu   sync.Mutex
	subs map[chan []byte]bool
	sent map[string]int64 // each run's version at the last tick
}

//go:embed placeholder
var placeholder embed.FS

// Handler is the report server over o.Root; Poll keeps its /api/events
// subscribers informed.
func Handler(o Options) *Server {
	ui := o.UI
	if ui == nil {
		ui, _ = fs.Sub(placeholder, "placeholder")
	}
	s := &Server{reg: newRegistry(o.Root, o.ScanEvery), static: http.FileServerFS(ui), pollMS: o.PollMS, red: o.Redact, subs: map[chan []byte]bool{}}
	s.reg.keys = o.Keys
	s.reg.warming.Store(o.Warm)
	return s
}

// Run is one run of the list (field names are the reference's, then ours).
type Run struct {
	ID            string  `json:"id"`
	Path          string  `json:"path"`
	RunID         string  `json:"run_id"`
	Source        string  `json:"source"`
	StartedAt     *string `json:"started_at"`
	EndedAt       *string `json:"ended_at"`
	Status        string  `json:"status"`
	StepCount     int     `json:"step_count"`
	StepCompleted int     `json:"step_completed"`
	StepRunning   int     `json:"step_running"`
	// StepOpen (+) counts the steps a run that is over was stopped in
	// (killed: never ended; interrupted: ended by the signal), which
	// StepCompleted leaves out; Signal (+) names the signal that
	// interrupted it.
	StepOpen int    `json:"step_open,omitempty"`
	Signal   string `json:"signal,omitempty"`
	Failed   bool   `json:"failed"`
	Resumed  bool   `json:"resumed"`
	Version  int64  `json:"version"`
	// DurationMS is the run's duration as jaiph runs computes it (null
	// while it runs); EndUnknown marks a killed run's, which runs to its
	// last event; Note is jaiph runs' NOTE (tampered, unverifiable, dead
	// letters, redriven, killed); Integrity is jaiph verify's verdict
	// (sealed, unsealed, tampered, unverifiable; omitted while it runs).
	DurationMS  *int64 `json:"duration_ms"`
	EndUnknown  bool   `json:"end_unknown,omitempty"`
	DeadLetters int    `json:"dead_letters,omitempty"`
	Redriven    bool   `json:"redriven,omitempty"`
	Note        string `json:"note,omitempty"`
	Integrity   string `json:"integrity,omitempty"`
	// IntegrityNote (+) is the part of Note that is the verdict's own
	// ("unverifiable: no key"), so that a page showing the verdict as a
	// badge does not repeat it in the note.
	IntegrityNote string `json:"integrity_note,omitempty"`
}

// stop is how the run stands for its steps (see summary.counts).
func (s *slot) stop() stop {
	v := stop{live: s.status == "running"}
	if s.status == "interrupted" && s.info.Signal != "" {
		if n := signalNumber(s.info.Signal); n > 0 {
			v.cut = 128 + n
		}
	}
	return v
}

// signalNumber is the number of a signal that interrupts a run by the
// name run.end gives it (runtime/interrupt.go's signalName), 0 for
// another.
func signalNumber(name string) int {
	switch name {
	case "SIGINT":
		return int(syscall.SIGINT)
	case "SIGTERM":
		return int(syscall.SIGTERM)
	case "SIGHUP":
		return int(syscall.SIGHUP)
	}
	return 0
}

func (s *slot) run() *Run {
	if s.entry != nil {
		return s.entry
	}
	sum := s.sum
	c := sum.counts(s.stop())
	e := &Run{ID: encodeURIComponent(s.rel), Path: s.rel, RunID: sum.runID, Source: cmp.Or(sum.source, path.Base(s.rel)),
		StartedAt: strPtr(sum.first), Status: s.status, StepCount: c.total, StepCompleted: c.completed, StepRunning: c.running,
		StepOpen: c.open, Signal: s.info.Signal, Failed: sum.hasFailure, Resumed: sum.resumed, Version: s.version}
	if s.status != "running" {
		e.EndedAt = strPtr(sum.last)
		d := s.info.DurationMS
		e.DurationMS, e.EndUnknown = &d, s.info.EndUnknown
	}
	e.DeadLetters, e.Redriven, e.Note = s.info.DeadLetters, s.info.Redriven != nil, runs.Note(s.info)
	if s.info.Integrity != nil {
		e.Integrity, e.IntegrityNote = string(s.info.Integrity.Status), s.info.Integrity.Note()
	}
	s.entry = e
	return e
}

// encodeURIComponent escapes s as JavaScript's function does (the
// reference's run id): every byte but letters, digits and -_.!~*'().
func encodeURIComponent(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || strings.IndexByte("-_.!~*'()", c) >= 0 {
			b.WriteByte(c)
		} else {
			fmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}

func strPtr(s string) *string {
	if s == "" {
		return nil
	}
	return &s
}

// ServeHTTP answers GET and HEAD only: the server never changes anything.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		w.Header().Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	p := r.URL.EscapedPath()
	switch {
	case p == "/api/runs":
		s.list(w, r)
	case p == "/api/active":
		s.active(w)
	case p == "/api/events":
		s.events(w, r)
	case p == "/api/config":
		writeJSON(w, http.StatusOK, map[string]int{"poll_ms": s.pollMS})
	case strings.HasPrefix(p, "/api/runs/"):
		s.run(w, r, strings.TrimPrefix(p, "/api/runs/"))
	case p == "/api" || strings.HasPrefix(p, "/api/"):
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "not_found"})
	default:
		w.Header().Set("Content-Security-Policy", pageCSP)
		w.Header().Set("X-Content-Type-Options", "nosniff")
		s.static.ServeHTTP(w, r)
	}
}

// pageCSP keeps the UI's pages to this origin and to their own files:
// no inline script or style (a step's colours are classes, or set through
// the CSSOM), nothing from another host, no framing. `jaiph serve` sends
// the same policy for the pages it mounts.
const pageCSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'"

func writeJSON(w http.ResponseWriter, code int, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		code, b = http.StatusInternalServerError, *bytes.NewBufferString(`{"error":"internal"}`)
	}
	h := w.Header()
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("Content-Length", strconv.Itoa(b.Len()))
	w.WriteHeader(code)
	w.Write(b.Bytes())
}

func (s *Server) list(w http.ResponseWriter, r *http.Request) {
	now := time.Now()
	q := r.URL.Query()
	limit := min(200, max(1, atoi(q.Get("limit"), 50)))
	// Bounded before multiplying: a huge page must not overflow.
	page := min(max(1, atoi(q.Get("page"), 1)), 1<<30)
	offset := (page - 1) * limit
	if q.Has("offset") {
		offset = min(max(0, atoi(q.Get("offset"), 0)), 1<<40)
	}
	date, status, needle := q.Get("date"), q.Get("status"), strings.ToLower(q.Get("q"))

	rows, total, ok := []*Run(nil), 0, false
	if s.reg.warming.Load() && date == "" && status == "" && needle == "" {
		rows, total, ok = s.firstPage(offset, limit, now)
	}
	if !ok {
		rows, total = s.filter(date, status, needle, now)
		rows = rows[min(offset, total):min(offset+limit, total)]
	}
	writeJSON(w, http.StatusOK, struct {
		Runs     []*Run `json:"runs"`
		Total    int    `json:"total"`
		Page     int    `json:"page"`
		PageSize int    `json:"page_size"`
		Offset   int    `json:"offset"`
	}{rows, total, offset/limit + 1, limit, offset})
}

// filter is every run that passes the filters, newest first (started_at,
// then path), after a refresh.
func (s *Server) filter(date, status, needle string, now time.Time) ([]*Run, int) {
	s.reg.refresh(now, false)
	s.reg.mu.Lock()
	rows := make([]*Run, 0, len(s.reg.slots))
	for _, sl := range s.reg.slots {
		if sl.fi == nil {
			continue // found by a concurrent scan, not read yet
		}
		e := sl.run()
		switch {
		case date != "" && !strings.HasPrefix(e.Path, date+"/"):
		case status != "" && e.Status != status:
		case needle != "" && !strings.Contains(strings.ToLower(e.Path+" "+e.Source+" "+e.RunID), needle):
		default:
			rows = append(rows, e)
		}
	}
	s.reg.mu.Unlock()
	slices.SortFunc(rows, func(a, b *Run) int {
		return cmp.Or(cmp.Compare(deref(b.StartedAt), deref(a.StartedAt)), cmp.Compare(b.Path, a.Path))
	})
	return rows, len(rows)
}

// firstPage answers the unfiltered list while the warm-up's first pass
// runs (a full pass over 5,000 runs takes seconds): the page is cut from
// the index and only its runs are read in full. ok is false when a page
// run no longer matches the index (gone, or its start changed): then the
// caller does the full pass. Runs that appear (or whose first line
// completes) off the page meanwhile show once the warm-up is over, as new
// run directories show only at the next scan.
func (s *Server) firstPage(offset, limit int, now time.Time) ([]*Run, int, bool) {
	idx := s.reg.started(s.reg.index())
	rows := []*Run{}
	for _, k := range idx[min(offset, len(idx)):min(offset+limit, len(idx))] {
		sl := s.reg.get(k.rel, now)
		if sl == nil {
			return nil, 0, false
		}
		s.reg.mu.Lock()
		e := sl.run()
		s.reg.mu.Unlock()
		if deref(e.StartedAt) != k.first {
			return nil, 0, false
		}
		rows = append(rows, e)
	}
	return rows, len(idx), true
}

func deref(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}

func atoi(s string, def int) int {
	if n, err := strconv.Atoi(s); err == nil {
		return n
	}
	return def
}

// activeRun is one entry of /api/active (the reference's ActiveRunInfo,
// with path beside relPath as the reference sends both).
type activeRun struct {
	Path          string  `json:"path"`
	RelPath       string  `json:"relPath"`
	RunID         string  `json:"run_id"`
	Source        string  `json:"source"`
	Status        string  `json:"status"`
	StepTotal     int     `json:"step_total"`
	StepCompleted int     `json:"step_completed"`
	StepRunning   int     `json:"step_running"`
	Percent       *int    `json:"percent"`
	Current       *string `json:"current_step_label"`
}

func (s *Server) active(w http.ResponseWriter) {
	s.reg.refresh(time.Now(), false)
	out := []activeRun{}
	s.reg.mu.Lock()
	for _, sl := range s.reg.slots {
		if sl.status != "running" {
			continue
		}
		e := sl.run()
		a := activeRun{Path: sl.rel, RelPath: sl.rel, RunID: e.RunID, Source: e.Source, Status: "running",
			StepTotal: e.StepCount, StepCompleted: e.StepCompleted, StepRunning: e.StepRunning}
		if st := sl.sum.innermost(); st != nil {
			a.Current = strPtr(st.Kind + ":" + st.Name)
		}
		if e.StepCount > 0 {
			p := min(99, (e.StepCompleted*200+e.StepCount)/(2*e.StepCount))
			a.Percent = &p
		}
		out = append(out, a)
	}
	s.reg.mu.Unlock()
	slices.SortFunc(out, func(a, b activeRun) int { return cmp.Compare(a.Path, b.Path) })
	writeJSON(w, http.StatusOK, map[string]any{"runs": out})
}

// runPath turns the encoded run segment into "<date>/<run>", or ok false
// when it would leave the runs root (.., absolute, NUL) or is not two
// plain names.
func runPath(seg string) (string, bool) {
	rel, err := url.PathUnescape(seg)
	if err != nil || rel == "" || strings.ContainsAny(rel, "\x00\\") || strings.HasPrefix(rel, "/") {
		return "", false
	}
	parts := strings.Split(rel, "/")
	for _, p := range parts {
		if p == "" || p == "." || p == ".." {
			return "", false
		}
	}
	return rel, true
}

func (s *Server) run(w http.ResponseWriter, r *http.Request, rest string) {
	segs := strings.Split(strings.Trim(rest, "/"), "/")
	if segs[0] == "" {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "not_found"})
		return
	}
	rel, ok := runPath(segs[0])
	if !ok {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "bad_run_id"})
		return
	}
	var sl *slot
	if strings.Count(rel, "/") == 1 {
		sl = s.reg.get(rel, time.Now())
	}
	if sl == nil {
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "run_not_found"})
		return
	}
	switch {
	case len(segs) == 1:
		s.reg.mu.Lock()
		e := sl.run()
		s.reg.mu.Unlock()
		writeJSON(w, http.StatusOK, e)
	case len(segs) == 2 && segs[1] == "tree":
		s.reg.mu.Lock()
		body := struct {
			RunID   string  `json:"run_id"`
			Path    string  `json:"path"`
			Steps   []*Step `json:"steps"`
			Status  string  `json:"status"`
			Version int64   `json:"version"`
			Logs    []Log   `json:"logs"`
		}{sl.sum.runID, rel, sl.sum.tree(sl.stop()), sl.status, sl.version, append([]Log{}, sl.sum.logs...)}
		s.reg.mu.Unlock()
		writeJSON(w, http.StatusOK, body)
	case len(segs) == 2 && segs[1] == "aggregate":
		s.aggregate(w, sl, r.URL.Query().Get("stderr") == "1")
	case len(segs) == 2 && segs[1] == "inbox":
		s.inbox(w, sl)
	case len(segs) == 2 && segs[1] == "files":
		s.listFiles(w, sl)
	case len(segs) > 2 && segs[1] == "files":
		s.getFile(w, r, sl, segs[2:])
	case len(segs) == 4 && segs[1] == "steps" && (segs[3] == "output" || segs[3] == "logs" || segs[3] == "raw"):
		id, _ := url.PathUnescape(segs[2])
		s.reg.mu.Lock()
		st, found := sl.sum.steps[id]
		var step Step
		if found {
			step = *st
		}
		s.reg.mu.Unlock()
		if !found {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "step_not_found"})
			return
		}
		s.liveArtifacts(sl, &step)
		if segs[3] == "output" {
			out, outCut := preview(step.OutContent)
			errc, errCut := preview(step.ErrContent)
			writeJSON(w, http.StatusOK, struct {
				Out    string `json:"out_content"`
				Err    string `json:"err_content"`
				OutCut bool   `json:"out_truncated"`
				ErrCut bool   `json:"err_truncated"`
				OutF   string `json:"out_file"`
				ErrF   string `json:"err_file"`
			}{out, errc, outCut, errCut, step.OutFile, step.ErrFile})
			return
		}
		if segs[3] == "raw" {
			s.raw(w, &step, r.URL.Query().Get("stream"))
			return
		}
		file := step.OutFile
		if r.URL.Query().Get("stream") == "err" {
			file = step.ErrFile
		}
		f := s.open(file)
		if f == nil {
			w.Header().Set("Content-Type", "text/plain; charset=utf-8")
			w.Header().Set("Cache-Control", "no-store")
			w.WriteHeader(http.StatusNotFound)
			return
		}
		defer f.Close()
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("Cache-Control", "no-store")
		s.copy(w, f)
	default:
		writeJSON(w, http.StatusNotFound, map[string]string{"error": "not_found"})
	}
}

// liveArtifacts points a step that has no STEP_END (running, or left open
// by a killed run) at the artifacts the runtime writes live while it runs,
// which its STEP_START does not name: "<seq %06d>-<func, SafeName>.out|.err"
// in the run directory (runtime/call.go). Only those that exist, and the
// first previewBytes of each as the step's contents, for /output.
func (s *Server) liveArtifacts(sl *slot, st *Step) {
	if !st.Running || st.Seq == nil || st.Func == "" {
		return
	}
	base := filepath.Join(sl.dir, fmt.Sprintf("%06d-%s", *st.Seq, lowered.SafeName(st.Func)))
	st.OutFile, st.OutContent = s.head(base + ".out")
	st.ErrFile, st.ErrContent = s.head(base + ".err")
}

// head is p and its first bytes (a little over previewBytes, for preview
// to cut), or "" twice when p cannot be served (see open).
func (s *Server) head(p string) (string, string) {
	f := s.open(p)
	if f == nil {
		return "", ""
	}
	defer f.Close()
	b, _ := io.ReadAll(io.LimitReader(f, previewBytes+utf8.UTFMax))
	return p, s.red.String(string(b))
}

// copy sends an artifact to w with credentials masked.
func (s *Server) copy(w io.Writer, f io.Reader) {
	rw := redact.NewWriter(s.red, w)
	io.Copy(rw, f)
	rw.Flush()
}

// preview cuts s at previewBytes, on a character boundary.
func preview(s string) (string, bool) {
	if len(s) <= previewBytes {
		return s, false
	}
	n := previewBytes
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n], true
}

// open opens an artifact a summary names, only when it is a regular file
// that, through symlinks, lies inside the runs root.
func (s *Server) open(p string) *os.File {
	if p == "" || !filepath.IsAbs(p) || !s.reg.inside(p) {
		return nil
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return nil
	}
	f, err := os.Open(real)
	if err != nil {
		return nil
	}
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		f.Close()
		return nil
	}
	return f
}

// aggregate writes every step's output by seq; withErr (+, ?stderr=1)
// adds each step's stderr after it, under a header of its own, when there
// is any.
func (s *Server) aggregate(w http.ResponseWriter, sl *slot, withErr bool) {
	s.reg.mu.Lock()
	var steps []Step
	for _, st := range sl.sum.bySeq() {
		steps = append(steps, *st)
	}
	s.reg.mu.Unlock()
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	for _, st := range steps {
		seq := "?"
		if st.Seq != nil {
			seq = strconv.Itoa(*st.Seq)
		}
		fmt.Fprintf(w, "\n--- seq %s %s %s (%s) ---\n", seq, st.Kind, st.Name, st.ID)
		if f := s.open(st.OutFile); f != nil {
			s.copy(w, f)
			f.Close()
		} else {
			io.WriteString(w, st.OutContent)
		}
		io.WriteString(w, "\n")
		if !withErr {
			continue
		}
		var stderr []byte
		if f := s.open(st.ErrFile); f != nil {
			stderr, _ = io.ReadAll(f)
			f.Close()
		} else {
			stderr = []byte(st.ErrContent)
		}
		stderr = s.red.Bytes(stderr)
		if len(bytes.TrimSpace(stderr)) > 0 {
			fmt.Fprintf(w, "--- seq %s %s %s (%s) stderr ---\n", seq, st.Kind, st.Name, st.ID)
			w.Write(stderr)
			io.WriteString(w, "\n")
		}
	}
}

func (s *Server) inbox(w http.ResponseWriter, sl *slot) {
	in, err := inbox.Read(sl.dir)
	switch {
	case errors.Is(err, inbox.ErrNoInbox):
		in = &inbox.Inbox{RunDir: sl.dir, Messages: []inbox.Message{}}
	case err != nil:
		if _, statErr := os.Stat(sl.dir); statErr != nil {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "run_not_found"})
			return
		}
		writeJSON(w, http.StatusUnprocessableEntity, map[string]string{"error": "bad_inbox", "message": err.Error()})
		return
	}
	if in.Messages == nil {
		in.Messages = []inbox.Message{}
	}
	in.Mask(s.red)
	writeJSON(w, http.StatusOK, in)
}
