package lsp

import "strings"

// Document highlight kinds (LSP 3.17).
const (
	highlightText  = 1
	highlightRead  = 2
	highlightWrite = 3
)

type DocumentHighlight struct {
	Range Range `json:"range"`
	Kind  int   `json:"kind"`
}

// highlight returns the occurrences in the document of what is under the
// position, from the same references as textDocument/references (code
// only: a name inside a string is text). The declaration is a Write; a
// variable's or local's `$name` use is a Read and its assignments are
// Writes; any other reference (a call, a send, an import path) is Text.
func (s *server) highlight(p TextDocumentPositionParams) []DocumentHighlight {
	ix, k, _, ok := s.lookup(p)
	if !ok {
		return nil
	}
	out := []DocumentHighlight{}
	if d := ix.def(k); d != nil && d.name.to > d.name.from {
		out = append(out, DocumentHighlight{Range: ix.text.rng(d.name.line, d.name.from, d.name.to), Kind: highlightWrite})
	}
	for _, r := range ix.refs {
		if r.key != k {
			continue
		}
		kind := highlightText
		if k.ns == nsVar || k.ns == nsSymbol && ix.def(k) != nil && ix.def(k).kind == "local" {
			l := ix.text.line(r.line)
			if r.from > 0 && l[r.from-1] == '$' || r.from > 1 && l[r.from-2:r.from] == "${" {
				kind = highlightRead
			} else if assignsAt(l, r.from, l[r.from:r.to]) || strings.HasPrefix(strings.TrimLeft(l[r.to:], " \t"), "=") {
				kind = highlightWrite
			}
		}
		out = append(out, DocumentHighlight{Range: ix.text.rng(r.line, r.from, r.to), Kind: kind})
	}
	return out
}
