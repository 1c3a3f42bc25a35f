package diag

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// The three formats of `jaiph check --format` (docs/cli.md#jaiph-check).

// KnownFormat reports whether Report knows format.
func KnownFormat(format string) bool {
	return format == "text" || format == "json" || format == "github"
}

// Report writes `jaiph check`'s report of the checked files (absolute
// paths) in format: paths inside cwd are shown relative to it, the others
// absolute, and the diagnostics are sorted as shown, without repeats. It
// returns the diagnostics as shown. Every format places a diagnostic at
// its token (Diagnostic.At), not at the reference's column.
func Report(w io.Writer, format, cwd string, files []string, ds []*Diagnostic) []*Diagnostic {
	for _, d := range ds {
		d.File = Shown(cwd, d.File)
	}
	ds = SortAndDedupe(ds)
	switch format {
	case "json":
		shown := make([]string, len(files))
		for i, f := range files {
			shown[i] = Shown(cwd, f)
		}
		WriteJSON(w, shown, ds)
	case "github":
		WriteGitHub(w, ds)
	default:
		WriteText(w, ds)
	}
	return ds
}

// Shown is path as reports show it: relative to cwd when inside it.
func Shown(cwd, path string) string {
	if cwd == "" {
		return path
	}
	rel, err := filepath.Rel(cwd, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, "../") {
		return path
	}
	return rel
}

// WriteText writes one `path:line:col: CODE message` line per diagnostic.
func WriteText(w io.Writer, ds []*Diagnostic) {
	for _, d := range ds {
		at := d.At()
		fmt.Fprintf(w, "%s:%d:%d: %s %s\n", d.File, at.Line, at.Col, d.Code, d.OneLine())
	}
}

// WriteGitHub writes GitHub Actions `::error` workflow commands, the token
// as col…endColumn (both inclusive: GitHub's endColumn defaults to col)
// and the code as the title only.
func WriteGitHub(w io.Writer, ds []*Diagnostic) {
	for _, d := range ds {
		at := d.At()
		fmt.Fprintf(w, "::error file=%s,line=%d,endLine=%d,col=%d,endColumn=%d,title=%s::%s\n",
			ghProperty(d.File), at.Line, at.Line, at.Col, max(at.Col, at.EndCol-1), ghProperty(d.Code), ghMessage(d.Message))
	}
}

// WriteJSON writes the one JSON object of the json format: the checked
// files and every diagnostic.
func WriteJSON(w io.Writer, files []string, ds []*Diagnostic) {
	// Each diagnostic at its token: line and col where it starts, endLine
	// and endCol (exclusive) where it ends.
	type located struct {
		File    string `json:"file"`
		Line    int    `json:"line"`
		Col     int    `json:"col"`
		EndLine int    `json:"endLine"`
		EndCol  int    `json:"endCol"`
		Code    string `json:"code"`
		Message string `json:"message"`
	}
	shown := make([]located, 0, len(ds))
	for _, d := range ds {
		at := d.At()
		shown = append(shown, located{d.File, at.Line, at.Col, at.Line, max(at.Col, at.EndCol), d.Code, d.Message})
	}
	out := struct {
		Version     int       `json:"version"`
		Files       []string  `json:"files"`
		Diagnostics []located `json:"diagnostics"`
	}{1, files, shown}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(out)
}

// ghMessage escapes a workflow-command message (GitHub Actions).
func ghMessage(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// ghProperty escapes a workflow-command property value.
func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
