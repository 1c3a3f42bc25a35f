package serve

// This file answers: how are runs started, listed, read and cancelled?

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"time"

	"github.com/jaiph-go/jaiph/internal/served"
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
	key := r.Header.Get("Idempotency-Key")
	if len(key) > 255 {
		writeError(w, http.StatusBadRequest, codeBadArgs, "the Idempotency-Key is longer than 255 characters")
		return
	}
	corr := r.Header.Get("X-Correlation-Id")
	run, fresh, err := s.backend.Start(r.Context(), served.Start{Workflow: wf.Name, Args: args, Principal: p.ID,
		CorrelationID: corr, IdempotencyKey: key})
	if err != nil {
		s.backendError(w, err)
		return
	}
	if fresh {
		s.logf("audit invoke workflow=%s run_id=%s principal=%s correlation_id=%s", wf.Name, run.RunID, p.ID, corr)
	}
	w.Header().Set("Location", "/v1/runs/"+run.RunID)
	if r.URL.Query().Get("wait") == "true" {
		ended, err := served.Wait(r.Context(), s.backend, run.RunID)
		switch {
		case err == nil:
			writeJSON(w, http.StatusOK, ended)
		case r.Context().Err() != nil: // the client left; the run goes on
		default:
			s.backendError(w, fmt.Errorf("the run %s started, but waiting for its end failed (GET its Location): %w", run.RunID, err))
		}
		return
	}
	status := http.StatusAccepted
	if !fresh {
		status = http.StatusOK // the key's run: nothing started
	}
	writeJSON(w, status, run)
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

func (s *Server) listRuns(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	q := r.URL.Query()
	limit := min(max(atoi(q.Get("limit"), 100), 1), 1000)
	offset := max(atoi(q.Get("offset"), 0), 0)
	page, total, err := s.backend.List(r.Context(), p.ID, seesAll(p), limit, offset)
	if err != nil {
		s.backendError(w, err)
		return
	}
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
func (s *Server) visible(w http.ResponseWriter, r *http.Request, p auth.Principal) (Run, bool) {
	run, err := s.backend.Get(r.Context(), r.PathValue("id"))
	if errors.Is(err, served.ErrNotFound) || err == nil && !seesAll(p) && run.Principal != p.ID {
		writeError(w, http.StatusNotFound, codeNotFound, "no run "+strconv.Quote(r.PathValue("id")))
		return Run{}, false
	}
	if err != nil {
		s.backendError(w, err)
		return Run{}, false
	}
	return run, true
}

func (s *Server) getRun(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	if run, ok := s.visible(w, r, p); ok {
		writeJSON(w, http.StatusOK, run)
	}
}

// signalRun is POST /v1/runs/{id}/channels/{channel} with {"payload",
// "key"}: the message for the run's receive on the channel, as `jaiph
// send` stores it. 202 once stored; the run takes it when it receives.
func (s *Server) signalRun(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	run, ok := s.visible(w, r, p)
	if !ok {
		return
	}
	body, ok := readBody(w, r)
	if !ok {
		return
	}
	var msg struct {
		Payload *string `json:"payload"`
		Key     string  `json:"key"`
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&msg); err != nil || msg.Payload == nil {
		writeError(w, http.StatusBadRequest, codeBadArgs, `the body must be {"payload": "…"} with an optional "key": "…" (strings)`)
		return
	}
	channel := r.PathValue("channel")
	err := s.backend.Signal(r.Context(), run.RunID, channel, msg.Key, *msg.Payload)
	switch {
	case errors.Is(err, served.ErrTerminal):
		writeError(w, http.StatusConflict, codeRunTerminal, err.Error())
		return
	case errors.Is(err, served.ErrNotReceiving):
		writeError(w, http.StatusConflict, codeNotReceiving, err.Error())
		return
	case errors.Is(err, served.ErrUnsupported):
		writeError(w, http.StatusNotImplemented, codeNotImplemented, err.Error())
		return
	case err != nil:
		s.backendError(w, err)
		return
	}
	s.logf("audit signal run_id=%s channel=%s principal=%s correlation_id=%s", run.RunID, channel, p.ID, r.Header.Get("X-Correlation-Id"))
	writeJSON(w, http.StatusAccepted, map[string]string{"run_id": run.RunID, "channel": channel, "key": msg.Key})
}

// cancelWait bounds how long a cancel waits for the run to end before it
// answers (a run's programs get SIGTERM, stragglers SIGKILL 2 s later).
const cancelWait = 10 * time.Second

// cancelRun interrupts the run as `kill` would and answers once it ended
// (its programs and container gone), or after cancelWait.
func (s *Server) cancelRun(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	run, ok := s.visible(w, r, p)
	if !ok {
		return
	}
	if served.Terminal(run.Status) {
		writeError(w, http.StatusConflict, codeRunTerminal, "the run ended already ("+run.Status+")")
		return
	}
	s.logf("audit cancel run_id=%s principal=%s correlation_id=%s", run.RunID, p.ID, r.Header.Get("X-Correlation-Id"))
	if err := s.backend.Cancel(r.Context(), run.RunID); err != nil {
		s.backendError(w, err)
		return
	}
	ctx, stop := context.WithTimeout(r.Context(), cancelWait)
	defer stop()
	if ended, err := served.Wait(ctx, s.backend, run.RunID); err == nil {
		run = ended
	} else if r.Context().Err() != nil {
		return
	} else if now, err := s.backend.Get(r.Context(), run.RunID); err == nil {
		run = now
	}
	writeJSON(w, http.StatusOK, run)
}
