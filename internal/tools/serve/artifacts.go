package serve

// This file answers: which files did a run publish, and how are they
// downloaded without leaving its artifacts directory?

import (
	"io/fs"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jaiph-go/jaiph/internal/tools/serve/auth"
	"github.com/jaiph-go/jaiph/runtime"
)

// artifact is one entry of GET /v1/runs/{id}/artifacts.
type artifact struct {
	Path  string    `json:"path"`
	Size  int64     `json:"size"`
	MTime time.Time `json:"mtime"`
}

// artifactsDir is the run's published files ($JAIPH_ARTIFACTS_DIR), ""
// before its first step.
func artifactsDir(run Run) string {
	if run.RunDir == "" {
		return ""
	}
	return filepath.Join(run.RunDir, runtime.ArtifactsDir)
}

// listArtifacts lists the regular files under the run's artifacts
// directory (a symlink is listed when it stays inside and names one).
func (s *Server) listArtifacts(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	e := s.visible(w, r, p)
	if e == nil {
		return
	}
	list := []artifact{}
	dir := artifactsDir(e.snapshot())
	if dir == "" {
		writeJSON(w, http.StatusOK, map[string]any{"artifacts": list})
		return
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		writeJSON(w, http.StatusOK, map[string]any{"artifacts": list})
		return
	}
	defer root.Close()
	fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		// Stat through the root: a symlink that leaves it fails here.
		fi, err := root.Stat(p)
		if err != nil || !fi.Mode().IsRegular() {
			return nil
		}
		list = append(list, artifact{Path: p, Size: fi.Size(), MTime: fi.ModTime().UTC()})
		return nil
	})
	writeJSON(w, http.StatusOK, map[string]any{"artifacts": list})
}

// getArtifact streams one published file from disk (ranges work; nothing
// is held in memory). A path that is absolute, has a .. segment, or
// leaves the directory through a symlink is 404 without touching its
// target; a file over the cap is 413.
func (s *Server) getArtifact(w http.ResponseWriter, r *http.Request, p auth.Principal) {
	e := s.visible(w, r, p)
	if e == nil {
		return
	}
	rel := r.PathValue("path")
	notFound := func() {
		writeError(w, http.StatusNotFound, codeNotFound, "the run published no file "+strconv.Quote(rel))
	}
	dir := artifactsDir(e.snapshot())
	if dir == "" || rel == "" || strings.HasPrefix(rel, "/") || !fs.ValidPath(rel) || path.Clean(rel) != rel {
		notFound()
		return
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		notFound()
		return
	}
	defer root.Close()
	f, err := root.Open(rel)
	if err != nil {
		notFound()
		return
	}
	defer f.Close() // also when the client hangs up: ServeContent returns
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		notFound()
		return
	}
	if s.maxArtifact > 0 && fi.Size() > s.maxArtifact {
		writeError(w, http.StatusRequestEntityTooLarge, codeTooLarge,
			"the file is larger than JAIPH_SERVE_MAX_ARTIFACT_BYTES ("+strconv.FormatInt(s.maxArtifact, 10)+" bytes)")
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	http.ServeContent(w, r, path.Base(rel), fi.ModTime(), f)
}
