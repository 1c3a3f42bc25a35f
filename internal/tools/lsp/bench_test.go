package lsp

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/jaiph-go/jaiph/internal/benchdata"
	"github.com/jaiph-go/jaiph/internal/engine"
)

// BenchmarkDiagnosticsAfterChange measures one didChange of the generated
// 4,500-line module, from decoding the notification to the encoded
// publishDiagnostics (target < 30 ms). Each change edits one line, so no
// cached index is reused for the changed buffer.
func BenchmarkDiagnosticsAfterChange(b *testing.B) {
	path := benchdata.ModuleFile(b)
	src := benchdata.Module()
	uri := "file://" + path
	s := newServer(Options{Log: io.Discard})
	s.initialized = true
	published := 0
	s.notify = func(method string, params any) {
		if _, err := json.Marshal(params); err != nil {
			b.Fatal(err)
		}
		if p := params.(PublishDiagnosticsParams); len(p.Diagnostics) != 0 {
			b.Fatalf("diagnostics: %v", p.Diagnostics[0])
		}
		published++
	}
	call := func(method string, params any) {
		raw, _ := json.Marshal(params)
		msg := json.RawMessage(raw)
		if _, err := s.handle(context.Background(), nil, &jsonrpc2.Request{Method: method, Params: &msg, Notif: true}); err != nil {
			b.Fatal(err)
		}
	}
	call("textDocument/didOpen", DidOpenTextDocumentParams{TextDocument: TextDocumentItem{URI: uri, Version: 1, Text: src}})
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		// The edit a keystroke makes: one word of one line.
		text := strings.Replace(src, "echo \"rule 7\"", fmt.Sprintf("echo \"rule %d\"", i), 1)
		var p DidChangeTextDocumentParams
		p.TextDocument.URI, p.TextDocument.Version = uri, i+2
		p.ContentChanges = append(p.ContentChanges, struct {
			Range *Range `json:"range,omitempty"`
			Text  string `json:"text"`
		}{Text: text})
		call("textDocument/didChange", p)
	}
	if published != b.N+1 {
		b.Fatalf("published %d times for %d changes", published, b.N)
	}
}

// BenchmarkCheckOverlay is the same check without the server (decoding,
// change handling, position mapping, encoding), for the ratio between the
// two on a busy machine.
func BenchmarkCheckOverlay(b *testing.B) {
	path := benchdata.ModuleFile(b)
	src := []byte(benchdata.Module())
	read := func(string) ([]byte, error) { return src, nil }
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if ds := engine.CheckOverlay([]string{path}, read); len(ds) != 0 {
			b.Fatal(ds[0])
		}
	}
}

// BenchmarkIndex builds the symbol index (definitions and references) of
// the generated 4,500-line module, the work behind the first definition,
// reference, hover or completion request after a change.
func BenchmarkIndex(b *testing.B) {
	path := benchdata.ModuleFile(b)
	src := []byte(benchdata.Module())
	resolve := func(_, p string) string { return p }
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if ix := newIndex(path, src, resolve); len(ix.refs) == 0 {
			b.Fatal("no references")
		}
	}
}
