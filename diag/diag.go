package diag

import (
	"fmt"
	"sort"
	"strings"
)

// Codes of the diagnostics the compiler emits.
const (
	Parse          = "E_PARSE"
	Validate       = "E_VALIDATE"
	Schema         = "E_SCHEMA"
	ImportNotFound = "E_IMPORT_NOT_FOUND"
)

// Diagnostic is one compile-time problem at a 1-based file position.
//
// Line and Col are where `jaiph run` points, as the reference does (often a
// keyword, or column 1 of a step). Span is the offending token itself (the
// unknown name, the bad string): where `jaiph check` and the editor put the
// diagnostic. A stage may set Span's start only; Locate completes it from
// the source text.
type Diagnostic struct {
	File    string `json:"file"`
	Line    int    `json:"line"`
	Col     int    `json:"col"`
	Code    string `json:"code"`
	Message string `json:"message"`
	Span    Span   `json:"-"`
}

// Span is a range of one line: 1-based line and byte columns, EndCol
// exclusive. The zero Span is unknown.
type Span struct {
	Line, Col, EndCol int
}

// At is the offending token: Span, else an empty span at Line:Col.
func (d *Diagnostic) At() Span {
	if d.Span.Line > 0 {
		return d.Span
	}
	return Span{d.Line, d.Col, d.Col}
}

// Error formats the diagnostic the way `jaiph run` prints it:
// `<file>:<line>:<col> <CODE> <message>` (no colon after the column).
func (d *Diagnostic) Error() string {
	return fmt.Sprintf("%s:%d:%d %s %s", d.File, d.Line, d.Col, d.Code, d.Message)
}

// New returns a diagnostic; a convenience for the stages.
func New(file string, line, col int, code, msg string) *Diagnostic {
	return &Diagnostic{File: file, Line: line, Col: col, Code: code, Message: msg}
}

// Abort is a fatal, code-less load failure such as a missing file in the import
// closure of `jaiph run`. It prints exactly its message.
type Abort struct{ Message string }

func (a *Abort) Error() string { return a.Message }

// MissingFile returns the reference's ENOENT abort for path.
func MissingFile(path string) *Abort {
	return &Abort{Message: fmt.Sprintf("ENOENT: no such file or directory, open '%s'", path)}
}

// SortAndDedupe orders diagnostics by file, line, column (of the token,
// once located; then code and message) and drops exact duplicates.
func SortAndDedupe(ds []*Diagnostic) []*Diagnostic {
	sort.SliceStable(ds, func(i, j int) bool {
		a, b := ds[i], ds[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if x, y := a.At(), b.At(); x.Line != y.Line {
			return x.Line < y.Line
		} else if x.Col != y.Col {
			return x.Col < y.Col
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		if a.Code != b.Code {
			return a.Code < b.Code
		}
		return a.Message < b.Message
	})
	out := ds[:0]
	for i, d := range ds {
		if i > 0 && *d == *ds[i-1] {
			continue
		}
		out = append(out, d)
	}
	return out
}

// OneLine returns the message with newlines replaced by spaces, for formats
// that are one line per diagnostic.
func (d *Diagnostic) OneLine() string {
	return strings.ReplaceAll(d.Message, "\n", " ")
}
