package serve

// This file answers: which requests does the service answer, and what
// does every request go through (authentication, limits, the log)?

import (
	"crypto/rand"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/jaiph-go/jaiph/internal/served"
	"github.com/jaiph-go/jaiph/internal/tools/serve/auth"
	"github.com/jaiph-go/jaiph/internal/tools/serve/inlets"
)

// maxBody caps a request's body (413 beyond).
const maxBody = 1 << 20

// scopeAdmin lets an OIDC principal see every principal's runs and the run
// viewer; the static token's operator and the anonymous user hold it.
const scopeAdmin = auth.ScopeAdmin

// Server is the HTTP handler of `jaiph serve`.
type Server struct {
	workflows   map[string]workflow
	names       []string // the workflows' names, in the files' order
	backend     served.Backend
	auth        auth.Authenticator
	maxArtifact int64 // bytes of one artifact download (413 beyond); 0: no cap
	log         io.Writer
	logMu       sync.Mutex
	viewer      http.Handler // the run viewer (jaiph report), nil: none
	mux         *http.ServeMux
	mcpJSON     http.Handler
	mcpSSE      http.Handler
	mcpCalls    mcpCalls                   // the MCP tool calls in progress, for their clients' cancels
	hooks       map[string]*inlets.Webhook // the --inlets webhooks
	seen        map[string]inlets.Seen     // their delivery ids
}

func (s *Server) routes() {
	m := http.NewServeMux()
	open := func(pattern string, methods map[string]http.HandlerFunc) {
		m.Handle(pattern, byMethod(methods))
	}
	guarded := func(pattern string, scope auth.Scope, methods map[string]handler) {
		hs := map[string]http.HandlerFunc{}
		for method, h := range methods {
			hs[method] = s.guard(scope, h)
		}
		m.Handle(pattern, byMethod(hs))
	}
	open("/healthz", map[string]http.HandlerFunc{"GET": s.healthz})
	open("/openapi.json", map[string]http.HandlerFunc{"GET": s.openapi})
	open("/login", map[string]http.HandlerFunc{"GET": s.loginPage, "POST": s.login})
	guarded("/v1/workflows", auth.ScopeInspect, map[string]handler{"GET": s.listWorkflows})
	guarded("/v1/workflows/{name}/runs", auth.ScopeInvoke, map[string]handler{"POST": s.startRun})
	guarded("/v1/runs", auth.ScopeInspect, map[string]handler{"GET": s.listRuns})
	guarded("/v1/runs/{id}", auth.ScopeInspect, map[string]handler{"GET": s.getRun})
	guarded("/v1/runs/{id}/events", auth.ScopeInspect, map[string]handler{"GET": s.events})
	guarded("/v1/runs/{id}/artifacts", auth.ScopeInspect, map[string]handler{"GET": s.listArtifacts})
	guarded("/v1/runs/{id}/artifacts/{path...}", auth.ScopeInspect, map[string]handler{"GET": s.getArtifact})
	guarded("/v1/runs/{id}/cancel", auth.ScopeCancel, map[string]handler{"POST": s.cancelRun})
	guarded("/v1/runs/{id}/channels/{channel}", auth.ScopeSignal, map[string]handler{"POST": s.signalRun})
	// A webhook's signature is its authentication; the replay shows the
	// operator's routing, so it needs the admin scope.
	open("/hooks/{name}", map[string]http.HandlerFunc{"POST": s.hook})
	guarded("/hooks/{name}/replay", auth.ScopeAdmin, map[string]handler{"POST": s.replayHook})
	m.HandleFunc("/v1/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, codeNotFound, "no such endpoint: "+r.URL.Path+" (GET /openapi.json lists them)")
	})
	m.Handle("/mcp", s.guardMCP())
	m.Handle("/workflows", s.page(s.workflowsPage))
	m.Handle("/waiting", s.page(s.waitingPage))
	m.Handle("/", s.page(s.viewerPage))
	s.mux = m
}

// handler is a request's handler once its caller is known.
type handler func(w http.ResponseWriter, r *http.Request, p auth.Principal)

// byMethod answers 405 with the allowed methods for any other method.
func byMethod(hs map[string]http.HandlerFunc) http.Handler {
	allow := make([]string, 0, len(hs))
	for m := range hs {
		allow = append(allow, m)
	}
	allowed := strings.Join(allow, ", ")
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := hs[r.Method]
		if h == nil && r.Method == http.MethodHead {
			h = hs[http.MethodGet]
		}
		if h == nil {
			w.Header().Set("Allow", allowed)
			writeError(w, http.StatusMethodNotAllowed, codeMethod, r.Method+" is not allowed here (allowed: "+allowed+")")
			return
		}
		h(w, r)
	})
}

// guard authenticates the request and checks its scope.
func (s *Server) guard(scope auth.Scope, h handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		p, ok := s.authenticate(w, r)
		if !ok {
			return
		}
		if !p.Can(scope) {
			writeError(w, http.StatusForbidden, codeForbidden, fmt.Sprintf("this needs the %s scope", scope))
			return
		}
		h(w, r, p)
	}
}

// authenticate is the request's caller; it answered 401 or 503 when none.
func (s *Server) authenticate(w http.ResponseWriter, r *http.Request) (auth.Principal, bool) {
	p, err := s.auth.Authenticate(r)
	if err != nil {
		if h := err.WWWAuthenticate(); h != "" {
			w.Header().Set("WWW-Authenticate", h)
		}
		writeError(w, err.Status, err.Code, err.Message)
		return auth.Principal{}, false
	}
	if lw, ok := w.(*logWriter); ok {
		lw.principal = p.ID
	}
	return p, true
}

// seesAll: the principal sees every principal's runs.
func seesAll(p auth.Principal) bool { return p.Can(scopeAdmin) }

// ServeHTTP logs the request, names its correlation id and caps its body.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	corr := r.Header.Get("X-Correlation-Id")
	if corr == "" {
		corr = r.Header.Get("X-Request-Id")
	}
	if corr == "" || len(corr) > 200 {
		corr = newUUID()
	}
	r.Header.Set("X-Correlation-Id", corr)
	w.Header().Set("X-Correlation-Id", corr)
	if r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, maxBody)
	}
	lw := &logWriter{ResponseWriter: w, status: http.StatusOK}
	s.mux.ServeHTTP(lw, r)
	s.logf("%s %s %d %s principal=%s correlation_id=%s", r.Method, r.URL.Path, lw.status,
		time.Since(start).Round(time.Microsecond), orDash(lw.principal), corr)
}

// logf writes one line to the log.
func (s *Server) logf(format string, args ...any) {
	line := fmt.Sprintf("jaiph serve: %s "+format+"\n", append([]any{time.Now().UTC().Format(time.RFC3339)}, args...)...)
	s.logMu.Lock()
	io.WriteString(s.log, line)
	s.logMu.Unlock()
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// logWriter remembers the status for the log; it flushes (SSE) and
// unwraps (http.ResponseController) as the writer it wraps.
type logWriter struct {
	http.ResponseWriter
	status    int
	wrote     bool
	principal string
}

func (l *logWriter) WriteHeader(code int) {
	if !l.wrote {
		l.status, l.wrote = code, true
	}
	l.ResponseWriter.WriteHeader(code)
}

func (l *logWriter) Write(b []byte) (int, error) {
	l.wrote = true
	return l.ResponseWriter.Write(b)
}

func (l *logWriter) Flush() {
	if f, ok := l.ResponseWriter.(http.Flusher); ok {
		f.Flush()
	}
}

func (l *logWriter) Unwrap() http.ResponseWriter { return l.ResponseWriter }

func (s *Server) healthz(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]any{"status": "ok", "workflows": len(s.names)})
}

// newUUID is a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
