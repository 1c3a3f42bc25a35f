package serve

// This file answers: how do webhooks and schedules (--inlets FILE) start
// runs? A webhook's delivery is authenticated by its signature, not a
// bearer token; it is remembered by its delivery id, routed by the file's
// rules, and a start is made with the inlet as principal. Schedules start
// theirs through the same backend, with an Idempotency-Key per tick.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jaiph-go/jaiph/internal/served"
	"github.com/jaiph-go/jaiph/internal/tools/serve/auth"
	"github.com/jaiph-go/jaiph/internal/tools/serve/inlets"
)

// Error codes of the inlets.
const (
	codeBadSignature   = "E_BAD_SIGNATURE"
	codeBadPayload     = "E_BAD_PAYLOAD"
	codeNotImplemented = "E_NOT_IMPLEMENTED"
)

// loadInlets reads and checks the inlets file: its syntax, its secrets,
// and that what it starts is served with the arguments it gives.
func loadInlets(c Config, getenv func(string) string, workflows map[string]workflow) (*inlets.Config, error) {
	path := c.Inlets
	if !filepath.IsAbs(path) {
		path = filepath.Join(c.Dir, path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("--inlets: cannot read %s: %w", c.Inlets, errors.Unwrap(err))
	}
	cfg, err := inlets.Parse(c.Inlets, data)
	if err != nil {
		return nil, err
	}
	if err := cfg.Secrets(getenv); err != nil {
		return nil, err
	}
	if err := cfg.CheckWorkflows(func(name string) ([]string, bool) {
		wf, ok := workflows[name]
		return wf.keys(), ok
	}); err != nil {
		return nil, err
	}
	return cfg, nil
}

// useInlets installs the webhooks on s.
func (s *Server) useInlets(cfg *inlets.Config) {
	s.hooks, s.seen = map[string]*inlets.Webhook{}, map[string]inlets.Seen{}
	for _, w := range cfg.Webhooks {
		s.hooks[w.Name] = w
		s.seen[w.Name] = &inlets.Memory{Window: w.Window}
	}
}

// webhookInlet is the path's webhook, and the request's JSON body; it
// answered 404, 415 or 413 when there is none.
func (s *Server) webhookInlet(w http.ResponseWriter, r *http.Request) (*inlets.Webhook, []byte, bool) {
	wh := s.hooks[r.PathValue("name")]
	if wh == nil {
		writeError(w, http.StatusNotFound, codeNotFound, "no webhook "+strconv.Quote(r.PathValue("name"))+" (the --inlets file declares them)")
		return nil, nil, false
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		writeError(w, http.StatusUnsupportedMediaType, codeUnsupportedMedia,
			"a delivery is application/json (GitHub: set the webhook's content type to application/json)")
		return nil, nil, false
	}
	body, ok := readBody(w, r)
	return wh, body, ok
}

// hook is POST /hooks/{name}: a delivery.
func (s *Server) hook(w http.ResponseWriter, r *http.Request) {
	wh, body, ok := s.webhookInlet(w, r)
	if !ok {
		return
	}
	delivery := r.Header.Get(wh.DeliveryHeader)
	audit := func(outcome, format string, args ...any) {
		s.logf("audit hook inlet=%s delivery=%s outcome=%s "+format, append([]any{wh.Name, orDash(delivery), outcome}, args...)...)
	}
	if err := wh.Verify(r.Header.Get, body); err != nil {
		audit("refused", "reason=%q", err.Error())
		writeError(w, http.StatusUnauthorized, codeBadSignature, err.Error())
		return
	}
	principal := "inlet:" + wh.Name
	if lw, ok := w.(*logWriter); ok {
		lw.principal = principal
	}
	if len(delivery) > 200 {
		audit("refused", "reason=%q", "delivery id too long")
		writeError(w, http.StatusBadRequest, codeBadPayload, wh.DeliveryHeader+" is longer than 200 characters")
		return
	}
	payload, err := inlets.ParsePayload(body)
	if err != nil {
		audit("refused", "reason=%q", err.Error())
		writeError(w, http.StatusBadRequest, codeBadPayload, err.Error())
		return
	}
	seen := s.seen[wh.Name]
	if delivery != "" {
		dup, err := seen.Seen(r.Context(), delivery)
		if err != nil {
			writeError(w, http.StatusServiceUnavailable, codeUnavailable, err.Error())
			return
		}
		if dup {
			audit("duplicate", "")
			writeJSON(w, http.StatusOK, map[string]any{"status": "duplicate", "delivery": delivery,
				"message": "this delivery id was received already: nothing is done"})
			return
		}
	}
	// A delivery that is not acted on may be retried.
	forget := func() {
		if delivery != "" {
			seen.Forget(context.WithoutCancel(r.Context()), delivery)
		}
	}
	v := wh.Route(payload, r.Header.Get)
	var args []string
	if v.Action == inlets.ActionStart && !v.Unprocessable {
		if args, err = s.inletArgs(v); err != nil {
			v.Unprocessable, v.Reason = true, err.Error()
		}
	}
	switch {
	case v.Unprocessable:
		forget()
		audit("refused", "rule=%d reason=%q", v.Rule, v.Reason)
		writeError(w, http.StatusUnprocessableEntity, codeBadPayload, v.Reason)
	case v.Action == inlets.ActionSend:
		s.sendHook(w, r, v, string(body), delivery, forget, audit)
	case v.Action != inlets.ActionStart:
		audit("ignored", "rule=%d", v.Rule)
		writeJSON(w, http.StatusOK, map[string]any{"status": "ignored", "delivery": delivery, "verdict": v})
	default:
		corr := delivery
		key := ""
		if delivery != "" {
			key = "hook:" + wh.Name + ":" + delivery
		} else {
			corr = r.Header.Get("X-Correlation-Id")
		}
		run, fresh, err := s.backend.Start(r.Context(), served.Start{Workflow: v.Workflow, Args: args, Principal: principal,
			CorrelationID: corr, IdempotencyKey: key})
		if err != nil {
			forget()
			audit("refused", "rule=%d reason=%q", v.Rule, err.Error())
			s.backendError(w, err)
			return
		}
		if !fresh { // another replica took this delivery
			audit("duplicate", "rule=%d run_id=%s", v.Rule, run.RunID)
			writeJSON(w, http.StatusOK, map[string]any{"status": "duplicate", "delivery": delivery, "run": run})
			return
		}
		audit("accepted", "rule=%d workflow=%s run_id=%s", v.Rule, v.Workflow, run.RunID)
		w.Header().Set("Location", "/v1/runs/"+run.RunID)
		writeJSON(w, http.StatusAccepted, map[string]any{"status": "started", "delivery": delivery, "run": run, "verdict": v})
	}
}

// sendHook gives the delivery's body to the verdict's channel of every
// run waiting there with its key: 202 with the runs. With none waiting,
// nothing is kept (a message for no one would wait for ever): 200
// no_waiting_run, and the delivery id is forgotten so that a redelivery
// counts.
func (s *Server) sendHook(w http.ResponseWriter, r *http.Request, v inlets.Verdict, payload, delivery string, forget func(), audit func(outcome, format string, args ...any)) {
	waiting, err := s.backend.Waiting(r.Context(), v.Channel, v.Key)
	if err != nil {
		forget()
		audit("refused", "rule=%d reason=%q", v.Rule, err.Error())
		s.backendError(w, err)
		return
	}
	sent := []string{}
	for _, run := range waiting {
		err := s.backend.Signal(r.Context(), run.RunID, v.Channel, v.Key, payload)
		if errors.Is(err, served.ErrTerminal) {
			continue // it ended meanwhile
		}
		if err != nil {
			forget()
			audit("refused", "rule=%d run_id=%s reason=%q", v.Rule, run.RunID, err.Error())
			s.backendError(w, err)
			return
		}
		sent = append(sent, run.RunID)
	}
	if len(sent) == 0 {
		forget()
		audit("ignored", "rule=%d reason=%q", v.Rule, "no run waits on "+v.Channel+" with key "+strconv.Quote(v.Key))
		writeJSON(w, http.StatusOK, map[string]any{"status": "no_waiting_run", "delivery": delivery, "verdict": v})
		return
	}
	audit("accepted", "rule=%d channel=%s key=%q run_ids=%s", v.Rule, v.Channel, v.Key, strings.Join(sent, ","))
	writeJSON(w, http.StatusAccepted, map[string]any{"status": "sent", "delivery": delivery, "runs": sent, "verdict": v})
}

// argsObject is an inlet's arguments as a request body: {} when it names
// none (a schedule without "args" was refused as null).
func argsObject(args map[string]string) []byte {
	if args == nil {
		return []byte("{}")
	}
	body, _ := json.Marshal(args)
	return body
}

// inletArgs are the positional arguments of a start verdict's workflow.
func (s *Server) inletArgs(v inlets.Verdict) ([]string, error) {
	wf, ok := s.workflows[v.Workflow]
	if !ok {
		return nil, fmt.Errorf("workflow %q is not served", v.Workflow)
	}
	return wf.args(argsObject(v.Args))
}

// replayHook is POST /hooks/{name}/replay: the verdict on a payload and
// the request's headers, with nothing done (no signature, no delivery id).
func (s *Server) replayHook(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	wh, body, ok := s.webhookInlet(w, r)
	if !ok {
		return
	}
	payload, err := inlets.ParsePayload(body)
	if err != nil {
		writeError(w, http.StatusBadRequest, codeBadPayload, err.Error())
		return
	}
	v := wh.Route(payload, r.Header.Get)
	if v.Action == inlets.ActionStart && !v.Unprocessable {
		if _, err := s.inletArgs(v); err != nil {
			v.Unprocessable, v.Reason = true, err.Error()
		}
	}
	s.logf("audit replay inlet=%s principal=%s action=%s rule=%d", wh.Name, p.ID, v.Action, v.Rule)
	writeJSON(w, http.StatusOK, v)
}

// scheduleRuns starts the schedules' runs on the service's backend.
type scheduleRuns struct{ s *Server }

func (sr scheduleRuns) Start(ctx context.Context, sc *inlets.Schedule, key string) (string, error) {
	wf, ok := sr.s.workflows[sc.Workflow]
	if !ok {
		return "", fmt.Errorf("workflow %q is not served", sc.Workflow)
	}
	args, err := wf.args(argsObject(sc.Args))
	if err != nil {
		return "", err
	}
	principal := "schedule:" + sc.Name
	run, fresh, err := sr.s.backend.Start(ctx, served.Start{Workflow: sc.Workflow, Args: args, Principal: principal,
		CorrelationID: key, IdempotencyKey: key})
	if err != nil {
		return "", err
	}
	if fresh {
		sr.s.logf("audit schedule=%s invoke workflow=%s run_id=%s principal=%s correlation_id=%s", sc.Name, sc.Workflow, run.RunID, principal, key)
	} else {
		sr.s.logf("audit schedule=%s tick started already (another replica): run_id=%s correlation_id=%s", sc.Name, run.RunID, key)
	}
	return run.RunID, nil
}

func (sr scheduleRuns) Running(ctx context.Context, id string) bool {
	run, err := sr.s.backend.Get(ctx, id)
	// A run that cannot be read counts as going: skipping a tick is
	// safer than piling runs up.
	return err != nil && !errors.Is(err, served.ErrNotFound) || err == nil && !served.Terminal(run.Status)
}

// startSchedules fires cfg's schedules until ctx ends.
func (s *Server) startSchedules(ctx context.Context, cfg *inlets.Config, clock inlets.Clock) (wait func()) {
	if len(cfg.Schedules) == 0 {
		return func() {}
	}
	sch := &inlets.Scheduler{Schedules: cfg.Schedules, Runs: scheduleRuns{s}, Clock: clock, Log: s.logf}
	done := make(chan struct{})
	go func() { defer close(done); sch.Run(ctx) }()
	for _, sc := range cfg.Schedules {
		s.logf("schedule %s (%s, %s) starts %s; next %s", sc.Name, sc.Spec, sc.Location, sc.Workflow,
			sc.Next(time.Now()).UTC().Format(time.RFC3339))
	}
	return func() { <-done }
}
