package lsp

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/jaiph-go/jaiph/internal/tools/format"
)

// FuzzFeatures: whatever the buffer and the position, every feature
// answers without panicking (the server would turn a panic into an error
// response, but a client should never see one).
func FuzzFeatures(f *testing.F) {
	examples, _ := filepath.Glob("../../../examples/*.jh")
	for _, e := range examples {
		src, _ := os.ReadFile(e)
		f.Add(string(src), 3, 4)
	}
	f.Add("workflow a {\n  run b.\n  x -> \n  $\n", 1, 8)
	f.Add("\xef\xbb\xbfimport \"x\" as x\nconfig {\n  a\n", 2, 3)
	f.Fuzz(func(t *testing.T, src string, line, char int) {
		s := started(Options{Format: format.Source})
		s.notify = func(string, any) {}
		uri := "file:///nowhere/fuzz.jh"
		s.docs["/nowhere/fuzz.jh"] = &document{uri: uri, src: []byte(src)}
		at := TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{URI: uri}, Position: Position{line % 64, char % 128}}
		s.definition(at)
		s.references(ReferenceParams{TextDocumentPositionParams: at})
		s.hover(at)
		s.completion(at)
		s.symbols("/nowhere/fuzz.jh")
		s.highlight(at)
		s.signatureHelp(at)
		s.workspaceSymbols(WorkspaceSymbolParams{Query: src[:min(len(src), 3)]})
		s.formatRange(DocumentRangeFormattingParams{TextDocument: at.TextDocument, Range: Range{Start: at.Position, End: Position{at.Position.Line + 2, 0}}})
		s.rename(RenameParams{TextDocumentPositionParams: at, NewName: "z"})
		s.check([]string{"/nowhere/fuzz.jh"})
	})
}
