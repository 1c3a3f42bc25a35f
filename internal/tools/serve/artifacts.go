package serve

// This file answers: how are a run's published files listed and
// downloaded?

import (
	"errors"
	"net/http"
	"path"
	"strconv"

	"github.com/jaiph-go/jaiph/internal/served"
	"github.com/jaiph-go/jaiph/internal/tools/serve/auth"
)

func (s *Server) listArtifacts(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	run, ok := s.visible(w, r, p)
	if !ok {
		return
	}
	list, err := s.backend.Artifacts(r.Context(), run.RunID)
	if err != nil {
		s.backendError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"artifacts": list})
}

// getArtifact streams one published file (ranges work; nothing is held
// in memory; a client that hangs up closes it). A path that leaves the
// run's artifacts is 404; a file over the cap is 413.
func (s *Server) getArtifact(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	run, ok := s.visible(w, r, p)
	if !ok {
		return
	}
	rel := r.PathValue("path")
	f, err := s.backend.Open(r.Context(), run.RunID, rel)
	if errors.Is(err, served.ErrNotFound) {
		writeError(w, http.StatusNotFound, codeNotFound, "the run published no file "+strconv.Quote(rel))
		return
	}
	if err != nil {
		s.backendError(w, err)
		return
	}
	defer f.Close()
	if s.maxArtifact > 0 && f.Size() > s.maxArtifact {
		writeError(w, http.StatusRequestEntityTooLarge, codeTooLarge,
			"the file is larger than JAIPH_SERVE_MAX_ARTIFACT_BYTES ("+strconv.FormatInt(s.maxArtifact, 10)+" bytes)")
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, r, path.Base(rel), f.ModTime(), f)
}
