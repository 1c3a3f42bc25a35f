package lsp

import (
	"strings"
	"testing"
)

// Completion while a body is still being typed: the buffer does not parse
// yet, and the context still comes from the text.
func TestCompletionWhileTyping(t *testing.T) {
	for _, tc := range []struct {
		src  string
		line int
		char int
		want string // some labels, in order
	}{
		{"workflow a {\n  echo\n}\n\nworkflow b {\n  ", 5, 2, "ensure if log logerr prompt return run"},
		{"workflow a {\n  echo\n}\n\nworkflow b {\n  run ", 5, 6, "a b"},
		{"rule r {\n  true\n}\nworkflow b {\n  ensure \n}\n", 4, 9, "r"},
		{"workflow b {\n  config {\n    \n  }\n}\n", 2, 4, "agent.default_model agent.command"},
		{"import \"x\" as x\ntest \"t\" {\n  \n}\n", 2, 2, "expectContain expectEqual expectNotContain mock x"},
		{"workflow a {\n  echo\n}\n\nwor", 4, 3, "channel config export function import local rule workflow"},
		// after $: the body's variables assigned so far, then the locals
		{"local l = \"x\"\nworkflow a {\n  b = run x\n  for c in 1; do :; done\n  echo \"$\n  d=1\n}\nworkflow o {\n  e=1\n}\n", 4, 9, "b c l"},
	} {
		s := started(Options{})
		s.notify = func(string, any) {}
		uri := "file:///nowhere/t.jh"
		request(t, s, "textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: uri, Text: tc.src}})
		got, err := request(t, s, "textDocument/completion", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{URI: uri}, Position: Position{tc.line, tc.char}})
		if err != nil {
			t.Fatal(err)
		}
		var labels []string
		for _, it := range got.(CompletionList).Items {
			labels = append(labels, it.Label)
		}
		if !strings.HasPrefix(strings.Join(labels, " "), tc.want) {
			t.Errorf("%q at %d:%d: got %v, want %s…", tc.src, tc.line, tc.char, labels, tc.want)
		}
	}
}

// Declarations the parser does not reach while the buffer is being typed
// (an unterminated prompt string swallows the rest of the file) are still
// definitions.
func TestDefinitionWhileTyping(t *testing.T) {
	s := started(Options{})
	s.notify = func(string, any) {}
	uri := "file:///nowhere/t.jh"
	src := "workflow a {\n  prompt \"unterminated\n}\n\nworkflow b {\n  run a\n}\n"
	request(t, s, "textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: uri, Text: src}})
	got, _ := request(t, s, "textDocument/definition", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{URI: uri}, Position: Position{4, 9}})
	want := []Location{{URI: uri, Range: Range{Position{4, 9}, Position{4, 10}}}}
	if !equalJSON(got, want) {
		t.Errorf("definition of b = %v, want %v", got, want)
	}
	got, _ = request(t, s, "textDocument/definition", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{URI: uri}, Position: Position{5, 6}})
	if want := []Location{{URI: uri, Range: Range{Position{0, 9}, Position{0, 10}}}}; !equalJSON(got, want) {
		t.Errorf("definition of a from b's body = %v, want %v", got, want)
	}
}
