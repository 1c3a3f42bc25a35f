package report

// This file answers: what can a user download of a run — a step's log as
// a text file, and the files the workflow itself wrote into its run
// directory — and how does nothing outside that directory get out?

import (
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"net/url"
	"os"
	"path"
	"strings"
	"time"

	"github.com/jaiph-go/jaiph/internal/store/inbox"
	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/jaiph-go/jaiph/lowered"
)

// maxFiles caps the files listed of one run: a workflow that writes a
// million files into its run directory must not make every page load
// walk them all.
const maxFiles = 1000

// downloadCSP is sent with every download: were a browser ever to render
// one, it would run nothing and load nothing.
const downloadCSP = "default-src 'none'; sandbox"

// raw sends one stream of a step ("out", the default, or "err") as a text
// file to save: its artifact, or the summary's copy when it has no file;
// 404 with an empty body when it has neither. Always text/plain, never
// sniffed, never shown inline: the log is data, not a page.
func (s *Server) raw(w http.ResponseWriter, st *Step, stream string) {
	file, content, label := st.OutFile, st.OutContent, "stdout"
	if stream == "err" {
		file, content, label = st.ErrFile, st.ErrContent, "stderr"
	}
	h := w.Header()
	h.Set("Content-Type", "text/plain; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	f := s.open(file)
	if f == nil && content == "" {
		w.WriteHeader(http.StatusNotFound)
		return
	}
	name := lowered.SafeName(cmpOr(st.Func, st.Name, "step"))
	if st.Seq != nil {
		name = fmt.Sprintf("%06d-%s", *st.Seq, name)
	}
	attach(h, name+"."+label+".txt")
	if f == nil {
		w.Write([]byte(s.red.String(content)))
		return
	}
	defer f.Close()
	s.copy(w, f)
}

func cmpOr(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}

// attach makes the answer a download named name.
func attach(h http.Header, name string) {
	h.Set("Content-Disposition", mime.FormatMediaType("attachment", map[string]string{"filename": name}))
	h.Set("Content-Security-Policy", downloadCSP)
}

// File is one file a workflow wrote into its run directory.
type File struct {
	Path  string `json:"path"` // relative to the run directory, with /
	Size  int64  `json:"size"`
	MTime string `json:"mtime"`
}

// ownFile tells whether rel (a path in the run directory) is one of
// jaiph's own: the summary, the step counter, the steps' artifacts
// ("NNNNNN-<name>.out|.err", shown with their steps) and the inbox. The
// rest is what the workflow wrote ($JAIPH_RUN_DIR/…, artifacts/).
func ownFile(rel string) bool {
	top, _, nested := strings.Cut(rel, "/")
	if top == inbox.Dir {
		return true
	}
	if nested {
		return false
	}
	if rel == runs.SummaryFile || rel == ".seq" {
		return true
	}
	if len(rel) < 8 || rel[6] != '-' || !(strings.HasSuffix(rel, ".out") || strings.HasSuffix(rel, ".err")) {
		return false
	}
	for _, c := range rel[:6] {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// workflowFiles lists the regular files under dir that are not jaiph's
// own (ownFile), by path, at most maxFiles (more: cut true). It reads
// through an os.Root, so a symlink that leads out of dir is not listed,
// nor is a symlink to a directory followed.
func workflowFiles(dir string) (list []File, cut bool) {
	list = []File{}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return list, false
	}
	defer root.Close()
	fs.WalkDir(root.FS(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == "." {
			return nil
		}
		if ownFile(p) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		fi, err := root.Stat(p) // through the root: a symlink out fails here
		if err != nil || !fi.Mode().IsRegular() {
			return nil
		}
		if len(list) == maxFiles {
			cut = true
			return fs.SkipAll
		}
		list = append(list, File{Path: p, Size: fi.Size(), MTime: fi.ModTime().UTC().Format(time.RFC3339)})
		return nil
	})
	return list, cut
}

// listFiles is GET /api/runs/{run}/files.
func (s *Server) listFiles(w http.ResponseWriter, sl *slot) {
	list, cut := workflowFiles(sl.dir)
	writeJSON(w, http.StatusOK, struct {
		Files     []File `json:"files"`
		Truncated bool   `json:"truncated"`
	}{list, cut})
}

// getFile is GET /api/runs/{run}/files/{path}: one file workflowFiles
// lists, as a download (credentials masked, as in the logs). A path that
// is not plain (.., ., empty segments, NUL) is 400 bad_path; one that is
// jaiph's own, not a regular file, missing, or leads out of the run
// directory through a symlink is 404 file_not_found.
func (s *Server) getFile(w http.ResponseWriter, r *http.Request, sl *slot, segs []string) {
	parts := make([]string, len(segs))
	for i, seg := range segs {
		p, err := url.PathUnescape(seg)
		if err != nil {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "bad_path"})
			return
		}
		parts[i] = p
	}
	rel := strings.Join(parts, "/")
	if !fs.ValidPath(rel) || rel == "." || strings.ContainsRune(rel, 0) {
		writeJSON(w, http.StatusBadRequest, map[string]string{"error": "bad_path"})
		return
	}
	notFound := func() { writeJSON(w, http.StatusNotFound, map[string]string{"error": "file_not_found"}) }
	if ownFile(rel) {
		notFound()
		return
	}
	root, err := os.OpenRoot(sl.dir)
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
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		notFound()
		return
	}
	h := w.Header()
	h.Set("Content-Type", "application/octet-stream")
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	attach(h, path.Base(rel))
	if r.Method == http.MethodHead {
		return
	}
	s.copy(w, f)
}
