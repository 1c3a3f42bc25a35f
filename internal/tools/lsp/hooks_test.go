package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/sourcegraph/jsonrpc2"
)

// started is a server that has answered initialize.
func started(o Options) *server {
	s := newServer(o)
	s.initialized = true
	return s
}

func request(t *testing.T, s *server, method string, params any) (any, error) {
	t.Helper()
	raw, _ := json.Marshal(params)
	msg := json.RawMessage(raw)
	return s.handle(context.Background(), nil, &jsonrpc2.Request{Method: method, Params: &msg})
}

// A panic while answering becomes an internal-error response and a log
// line with the stack; the server goes on answering.
func TestPanicBecomesError(t *testing.T) {
	var logged bytes.Buffer
	s := started(Options{Log: &logged})
	s.notify = func(string, any) {}
	uri := "file:///nowhere/x.jh"
	request(t, s, "textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: uri, Text: "workflow default {\n}\n"}})
	// A corrupt cache entry for the same contents: the index has no AST.
	s.cache["/nowhere/x.jh"] = &index{src: []byte("workflow default {\n}\n"), text: newText("")}
	_, err := request(t, s, "textDocument/completion", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{URI: uri}})
	var rpcErr *jsonrpc2.Error
	if e, ok := err.(*jsonrpc2.Error); ok {
		rpcErr = e
	}
	if rpcErr == nil || rpcErr.Code != codeInternalError || !strings.Contains(rpcErr.Message, "textDocument/completion") {
		t.Fatalf("want an internal error response, got %v", err)
	}
	if !strings.Contains(logged.String(), "panic in textDocument/completion") || !strings.Contains(logged.String(), "goroutine") {
		t.Errorf("log = %q", logged.String())
	}
	delete(s.cache, "/nowhere/x.jh")
	if _, err := request(t, s, "textDocument/completion", TextDocumentPositionParams{TextDocument: TextDocumentIdentifier{URI: uri}}); err != nil {
		t.Errorf("after the panic: %v", err)
	}
}

// Formatting is offered only with Options.Format; its result replaces the
// whole buffer, and an unchanged result is no edit.
func TestFormatHook(t *testing.T) {
	caps := func(s *server) map[string]any {
		return s.capabilities().(map[string]any)["capabilities"].(map[string]any)
	}
	if _, ok := caps(newServer(Options{}))["documentFormattingProvider"]; ok {
		t.Error("formatting advertised without a formatter")
	}
	if _, err := request(t, started(Options{}), "textDocument/formatting", DocumentFormattingParams{}); err == nil ||
		err.(*jsonrpc2.Error).Code != codeMethodNotFound {
		t.Errorf("formatting without a formatter: %v", err)
	}
	s := started(Options{Format: func(path string, src []byte) ([]byte, error) {
		return bytes.ReplaceAll(src, []byte("    "), []byte("  ")), nil
	}})
	s.notify = func(string, any) {}
	if caps(s)["documentFormattingProvider"] != true {
		t.Error("formatting not advertised")
	}
	uri := "file:///nowhere/f.jh"
	request(t, s, "textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: uri, Text: "workflow 😀 {\n    echo hi\n}"}})
	got, err := request(t, s, "textDocument/formatting", DocumentFormattingParams{TextDocument: TextDocumentIdentifier{URI: uri}})
	want := []TextEdit{{Range: Range{End: Position{Line: 2, Character: 1}}, NewText: "workflow 😀 {\n  echo hi\n}"}}
	if err != nil || !equalJSON(got, want) {
		t.Errorf("formatting = %v, %v; want %v", got, err, want)
	}
	request(t, s, "textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: uri, Text: "workflow x {\n}\n"}})
	if got, err := request(t, s, "textDocument/formatting", DocumentFormattingParams{TextDocument: TextDocumentIdentifier{URI: uri}}); err != nil || !equalJSON(got, []TextEdit{}) {
		t.Errorf("already formatted: %v, %v", got, err)
	}
}

func equalJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// Serve in-process (so that -race sees the connection's goroutines): a
// request before initialize is refused, the messages after it are answered
// although they all arrive at once, and shutdown then exit returns nil.
func TestServeInProcess(t *testing.T) {
	var in bytes.Buffer
	for _, m := range []string{
		`{"jsonrpc":"2.0","id":0,"method":"textDocument/hover","params":{}}`,
		`{"jsonrpc":"2.0","id":9,"method":"initialize","params":{}}`,
		`{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///nowhere/a.jh","version":1,"text":"workflow default {\n  run nope\n}\n"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"shutdown"}`,
		`{"jsonrpc":"2.0","method":"exit"}`,
	} {
		fmt.Fprintf(&in, "Content-Length: %d\r\n\r\n%s", len(m), m)
	}
	var out, logged bytes.Buffer
	if err := (Options{Log: &logged}).Serve(context.Background(), &in, &out); err != nil {
		t.Fatalf("Serve = %v (log %s)", err, logged.String())
	}
	if !strings.Contains(out.String(), `unknown local workflow or function reference \"nope\"`) || !strings.Contains(out.String(), `"id":1`) ||
		!strings.Contains(out.String(), `{"id":0,"error":{"code":-32002`) || logged.Len() != 0 {
		t.Errorf("output %s\nlog %s", out.String(), logged.String())
	}
}
