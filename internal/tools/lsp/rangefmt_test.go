package lsp

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/sourcegraph/jsonrpc2"
)

// The hunks keep the longest common run of lines.
func TestLineDiff(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want string
	}{
		{"x\ny\n", "x\ny\n", "[]"},
		{"a\nb\nc\n", "a\nB\nc\n", "[{1 2 1 2}]"},
		{"a\nc\n", "a\nb\nc\n", "[{1 1 1 2}]"},
		{"a\nb\nc\n", "a\nc\n", "[{1 2 1 1}]"},
		{"l\n\nw\n  x\n", "w\n  x\n\nl\n", "[{0 2 0 0} {4 4 2 4}]"},
	} {
		if got := fmt.Sprint(lineDiff(lines(tc.a), lines(tc.b))); got != tc.want {
			t.Errorf("lineDiff(%q, %q) = %s, want %s", tc.a, tc.b, got, tc.want)
		}
	}
}

// Range formatting is offered with Options.Format only; an edit of the
// last line without a newline ends at that line's end (UTF-16 units), and
// the lines outside the range stay as they are.
func TestRangeFormatHook(t *testing.T) {
	if _, err := request(t, started(Options{}), "textDocument/rangeFormatting", DocumentRangeFormattingParams{}); err == nil ||
		err.(*jsonrpc2.Error).Code != codeMethodNotFound {
		t.Errorf("range formatting without a formatter: %v", err)
	}
	if _, ok := newServer(Options{}).capabilities().(map[string]any)["capabilities"].(map[string]any)["documentRangeFormattingProvider"]; ok {
		t.Error("range formatting advertised without a formatter")
	}
	s := started(Options{Format: func(path string, src []byte) ([]byte, error) {
		return bytes.ReplaceAll(src, []byte("    "), []byte("  ")), nil
	}})
	s.notify = func(string, any) {}
	uri := "file:///nowhere/f.jh"
	request(t, s, "textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: uri, Text: "workflow x {\n    echo a\n    echo 😀"}})
	at := func(first, last int) any {
		got, err := request(t, s, "textDocument/rangeFormatting", DocumentRangeFormattingParams{
			TextDocument: TextDocumentIdentifier{URI: uri}, Range: Range{Start: Position{Line: first}, End: Position{Line: last, Character: 1}}})
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	if got, want := at(2, 2), []TextEdit{{Range: Range{Start: Position{Line: 2}, End: Position{Line: 2, Character: 11}}, NewText: "  echo 😀"}}; !equalJSON(got, want) {
		t.Errorf("last line: %v, want %v", got, want)
	}
	// Lines 1 and 2 change line for line: a range of line 1 formats it
	// alone.
	if got, want := at(1, 1), []TextEdit{{Range: Range{Start: Position{Line: 1}, End: Position{Line: 2}}, NewText: "  echo a\n"}}; !equalJSON(got, want) {
		t.Errorf("line 1: %v, want %v", got, want)
	}
}
