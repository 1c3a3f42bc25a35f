package serve

// This file answers: what do people see in a browser — sign-in, the
// workflows with a form each, the run viewer — and how does a browser
// carry its credential?

import (
	"embed"
	"io/fs"
	"net/http"
	"net/url"
	"strings"

	"github.com/jaiph-go/jaiph/internal/tools/serve/auth"
)

//go:embed page
var pages embed.FS

// pageCSP keeps the pages to this origin: they load nothing from another
// host.
const pageCSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'; form-action 'self'"

// assets serves page/ at /ui/.
func assets() http.Handler {
	sub, _ := fs.Sub(pages, "page")
	return http.StripPrefix("/ui/", http.FileServerFS(sub))
}

// page authenticates a browser's request; one without a credential is
// sent to /login (an API call gets 401).
func (s *Server) page(h handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			w.Header().Set("Allow", "GET, HEAD")
			writeError(w, http.StatusMethodNotAllowed, codeMethod, r.Method+" is not allowed here (allowed: GET, HEAD)")
			return
		}
		w.Header().Set("Content-Security-Policy", pageCSP)
		if strings.HasPrefix(r.URL.Path, "/ui/") {
			assets().ServeHTTP(w, r)
			return
		}
		p, err := s.auth.Authenticate(r)
		if err != nil && err.Status == http.StatusUnauthorized && wantsHTML(r) {
			http.Redirect(w, r, "/login?next="+url.QueryEscape(r.URL.RequestURI()), http.StatusSeeOther)
			return
		}
		if err != nil {
			s.authenticate(w, r) // answers as the API does
			return
		}
		if lw, ok := w.(*logWriter); ok {
			lw.principal = p.ID
		}
		h(w, r, p)
	})
}

func wantsHTML(r *http.Request) bool { return strings.Contains(r.Header.Get("Accept"), "text/html") }

func (s *Server) workflowsPage(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	if !p.Can(auth.ScopeInspect) {
		writeError(w, http.StatusForbidden, codeForbidden, "this needs the "+string(auth.ScopeInspect)+" scope")
		return
	}
	r2 := r.Clone(r.Context())
	r2.URL.Path = "/ui/workflows.html"
	assets().ServeHTTP(w, r2)
}

// waitingPage lists the principal's runs that wait in a receive, with a
// form each that answers it (the API's rules: jaiph:inspect to list,
// jaiph:signal to send).
func (s *Server) waitingPage(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	if !p.Can(auth.ScopeInspect) {
		writeError(w, http.StatusForbidden, codeForbidden, "this needs the "+string(auth.ScopeInspect)+" scope")
		return
	}
	r2 := r.Clone(r.Context())
	r2.URL.Path = "/ui/waiting.html"
	assets().ServeHTTP(w, r2)
}

// viewerPage is the run viewer of `jaiph report` (its pages and API at
// /, /run.html, /assets/, /api/): every run of the runs directory, so only
// for a principal that sees every run.
func (s *Server) viewerPage(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	if !seesAll(p) {
		writeError(w, http.StatusForbidden, codeForbidden, "the run viewer shows every principal's runs: it needs the "+string(scopeAdmin)+" scope (GET /v1/runs lists yours)")
		return
	}
	if s.viewer == nil {
		writeError(w, http.StatusNotFound, codeNotFound, "no run viewer in this build")
		return
	}
	s.viewer.ServeHTTP(w, r)
}

func (s *Server) loginPage(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Security-Policy", pageCSP)
	r2 := r.Clone(r.Context())
	r2.URL.Path = "/ui/login.html"
	assets().ServeHTTP(w, r2)
}

// login checks the pasted token as a bearer token and keeps it in an
// HttpOnly, SameSite=Strict cookie: a page's own requests carry it, another
// site's cannot.
func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		writeError(w, http.StatusBadRequest, codeBadArgs, "cannot read the form")
		return
	}
	token, next := r.PostForm.Get("token"), r.PostForm.Get("next")
	if !strings.HasPrefix(next, "/") || strings.HasPrefix(next, "//") || strings.HasPrefix(next, "/\\") {
		next = "/"
	}
	probe, _ := http.NewRequestWithContext(r.Context(), http.MethodGet, "/", nil)
	probe.Header.Set("Authorization", "Bearer "+token)
	if _, err := s.auth.Authenticate(probe); err != nil {
		if err.Status != http.StatusUnauthorized {
			writeError(w, err.Status, err.Code, err.Message)
			return
		}
		http.Redirect(w, r, "/login?refused=1&next="+url.QueryEscape(next), http.StatusSeeOther)
		return
	}
	secure := r.TLS != nil || r.Header.Get("X-Forwarded-Proto") == "https"
	http.SetCookie(w, auth.LoginCookie(token, secure))
	http.Redirect(w, r, next, http.StatusSeeOther)
}
