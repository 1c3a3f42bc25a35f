package serve

// This file answers: how are runs started, listed, read and cancelled?

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"time"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/tools/serve/auth"
)

// workflowInfo is one entry of GET /v1/workflows.
type workflowInfo struct {
	Name        string         `json:"name"`
	Workflow    string         `json:"workflow"`
	File        string         `json:"file"`
	Description string         `json:"description"`
	Arguments   []string       `json:"arguments"`
	Schema      map[string]any `json:"input_schema"`
}

func (s *Server) listWorkflows(w http.ResponseWriter, _ *http.Request, _ auth.Principal) {
	list := []workflowInfo{}
	for _, n := range s.names {
		wf := s.workflows[n]
		list = append(list, workflowInfo{Name: n, Workflow: wf.Workflow, File: wf.File, Description: wf.Description,
			Arguments: append([]string{}, wf.keys()...), Schema: wf.schema()})
	}
	writeJSON(w, http.StatusOK, map[string]any{"workflows": list})
}

// startRun is POST /v1/workflows/{name}/runs: 202 and the run's Location,
// or with ?wait=true the final object once it ended.
func (s *Server) startRun(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	wf, ok := s.workflows[r.PathValue("name")]
	if !ok {
		writeError(w, http.StatusNotFound, codeNotFound, "no workflow "+strconv.Quote(r.PathValue("name"))+" is served (GET /v1/workflows lists them)")
		return
	}
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	args, err := wf.args(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, codeBadArgs, err.Error())
		return
	}
	e, fresh, ok := s.start(w, r, p, wf, args, nil)
	if !ok {
		return
	}
	if fresh {
		s.logf("audit invoke workflow=%s run_id=%s principal=%s correlation_id=%s", wf.Name, e.rec.RunID, p.ID, r.Header.Get("X-Correlation-Id"))
	}
	w.Header().Set("Location", "/v1/runs/"+e.rec.RunID)
	if r.URL.Query().Get("wait") == "true" {
		select {
		case <-e.done:
			writeJSON(w, http.StatusOK, e.snapshot())
		case <-r.Context().Done(): // the client left; the run goes on
		}
		return
	}
	status := http.StatusAccepted
	if !fresh {
		status = http.StatusOK // the key's run: nothing started
	}
	writeJSON(w, status, e.snapshot())
}

// readBody reads a JSON request body: 415 for another media type, 413
// beyond maxBody.
func readBody(w http.ResponseWriter, r *http.Request) ([]byte, bool) {
	if ct := r.Header.Get("Content-Type"); ct != "" || r.ContentLength > 0 {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || mt != "application/json" {
			writeError(w, http.StatusUnsupportedMediaType, codeUnsupportedMedia, "the body must be application/json")
			return nil, false
		}
	}
	body, err := io.ReadAll(r.Body)
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, codeTooLarge, "the body is larger than 1 MiB")
		return nil, false
	case err != nil:
		writeError(w, http.StatusBadRequest, codeBadArgs, "cannot read the body: "+err.Error())
		return nil, false
	}
	return body, true
}

// start admits a run of wf with args for p and starts it (extra observes
// its events): the entry, and whether it is new (false: the idempotency
// key's run). It answered the request when ok is false.
func (s *Server) start(w http.ResponseWriter, r *http.Request, p auth.Principal, wf workflow, args []string, extra event.Observer) (*entry, bool, bool) {
	key := r.Header.Get("Idempotency-Key")
	if len(key) > 255 {
		writeError(w, http.StatusBadRequest, codeBadArgs, "the Idempotency-Key is longer than 255 characters")
		return nil, false, false
	}
	e, fresh, err := s.launch(p, r.Header.Get("X-Correlation-Id"), key, wf, args, extra)
	switch {
	case errors.Is(err, errConflict):
		writeError(w, http.StatusConflict, codeIdempotency, "this Idempotency-Key started a run with other arguments")
	case errors.Is(err, errTooMany):
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusTooManyRequests, codeTooManyRuns, err.Error())
	case err != nil:
		writeError(w, http.StatusServiceUnavailable, codeUnavailable, err.Error())
	default:
		return e, fresh, true
	}
	return nil, false, false
}

// launch admits a run and starts it (see start).
func (s *Server) launch(p auth.Principal, corr, key string, wf workflow, args []string, extra event.Observer) (*entry, bool, error) {
	rec := record{Run: Run{RunID: newUUID(), Workflow: wf.Name, Status: statusRunning, StartedAt: time.Now().UTC(),
		Principal: p.ID, CorrelationID: corr}, IdempotencyKey: key, ArgsHash: argsHash(args)}
	ctx, cancel := context.WithCancelCause(context.Background())
	e, fresh, err := s.runs.admit(rec, s.maxActive, cancel)
	switch {
	case errors.Is(err, errTooMany):
		cancel(nil)
		return nil, false, fmt.Errorf("the server runs %d runs already (JAIPH_SERVE_MAX_CONCURRENT); retry later: %w", s.maxActive, errTooMany)
	case errors.Is(err, errConflict):
		cancel(nil)
		return nil, false, err
	case err != nil:
		cancel(nil)
		return nil, false, fmt.Errorf("cannot record the run: %w", err)
	case !fresh:
		cancel(nil)
		return e, false, nil
	}
	go s.execute(ctx, e, wf, args, extra)
	return e, true, nil
}

func (s *Server) listRuns(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	q := r.URL.Query()
	limit := min(max(atoi(q.Get("limit"), 100), 1), 1000)
	offset := max(atoi(q.Get("offset"), 0), 0)
	page, total := s.runs.list(p.ID, seesAll(p), limit, offset)
	writeJSON(w, http.StatusOK, map[string]any{"runs": page, "total": total, "limit": limit, "offset": offset})
}

func atoi(s string, def int) int {
	n, err := strconv.Atoi(s)
	if err != nil {
		return def
	}
	return n
}

// visible is the run the path names when p may see it; it answered 404
// otherwise (another principal's run looks like none).
func (s *Server) visible(w http.ResponseWriter, r *http.Request, p auth.Principal) *entry {
	e := s.runs.get(r.PathValue("id"), p.ID, seesAll(p))
	if e == nil {
		writeError(w, http.StatusNotFound, codeNotFound, "no run "+strconv.Quote(r.PathValue("id")))
	}
	return e
}

func (s *Server) getRun(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	if e := s.visible(w, r, p); e != nil {
		writeJSON(w, http.StatusOK, e.snapshot())
	}
}

// cancelWait bounds how long a cancel waits for the run to end before it
// answers (a run's programs get SIGTERM, stragglers SIGKILL 2 s later).
const cancelWait = 10 * time.Second

// cancelRun interrupts the run as `kill` would and answers once it ended
// (its programs and container gone), or after cancelWait.
func (s *Server) cancelRun(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	e := s.visible(w, r, p)
	if e == nil {
		return
	}
	if e.isTerminal() {
		writeError(w, http.StatusConflict, codeRunTerminal, "the run ended already ("+e.snapshot().Status+")")
		return
	}
	s.logf("audit cancel run_id=%s principal=%s correlation_id=%s", e.rec.RunID, p.ID, r.Header.Get("X-Correlation-Id"))
	e.cancel(cancelCause())
	select {
	case <-e.done:
	case <-time.After(cancelWait):
	case <-r.Context().Done():
		return
	}
	writeJSON(w, http.StatusOK, e.snapshot())
}
