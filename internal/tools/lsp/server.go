package lsp

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"net/url"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"sync/atomic"

	"github.com/sourcegraph/jsonrpc2"

	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/internal/engine"
	"github.com/jaiph-go/jaiph/parser"
)

// Options configures the server.
type Options struct {
	// Format formats a module (`jaiph fmt`); textDocument/formatting is
	// offered only when it is set.
	Format func(path string, src []byte) ([]byte, error)
	// Log receives the server's own log lines (default os.Stderr).
	Log io.Writer
}

// Serve runs the server with default options; see Options.Serve.
func Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	return Options{}.Serve(ctx, in, out)
}

// ErrNoShutdown is returned when the client exits or hangs up without a
// shutdown request first (the process then exits 1, as LSP asks).
var ErrNoShutdown = errors.New("exit without shutdown")

// Serve answers LSP messages read from in on out until the client sends
// exit or closes in. It returns nil after shutdown then exit.
func (o Options) Serve(ctx context.Context, in io.Reader, out io.Writer) error {
	if o.Log == nil {
		o.Log = os.Stderr
	}
	s := newServer(o)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream := jsonrpc2.NewBufferedStream(rwc{in, out}, jsonrpc2.VSCodeObjectCodec{})
	conn := jsonrpc2.NewConn(ctx, stream, jsonrpc2.HandlerWithError(s.handle),
		jsonrpc2.SetLogger(log.New(o.Log, "jaiph lsp: ", 0)))
	select {
	case <-conn.DisconnectNotify():
	case <-s.exited:
		conn.Close()
	case <-ctx.Done():
		conn.Close()
	}
	if s.shutdown.Load() {
		return nil
	}
	return ErrNoShutdown
}

type rwc struct {
	io.Reader
	io.Writer
}

func (rwc) Close() error { return nil }

// document is an open buffer.
type document struct {
	uri     string
	version int
	src     []byte
}

type server struct {
	opts        Options
	root        string
	docs        map[string]*document // by absolute path
	cache       map[string]*index
	shown       map[string]bool // modules not open whose problems were published
	notify      func(method string, params any)
	shutdown    atomic.Bool // also read by Serve when its context ends mid-message
	initialized bool
	snippets    bool // the client takes snippet completions
	exited      chan struct{}
}

func newServer(o Options) *server {
	return &server{opts: o, docs: map[string]*document{}, cache: map[string]*index{}, shown: map[string]bool{}, exited: make(chan struct{})}
}

// handle answers one message. jsonrpc2 calls it for one message at a time,
// in order, so the server's state needs no lock. A panic becomes an
// internal-error response (and a log line with the stack), never a crash.
func (s *server) handle(ctx context.Context, conn *jsonrpc2.Conn, req *jsonrpc2.Request) (result any, err error) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(s.opts.Log, "jaiph lsp: panic in %s: %v\n%s", req.Method, r, debug.Stack())
			result, err = nil, &jsonrpc2.Error{Code: codeInternalError, Message: fmt.Sprintf("internal error in %s: %v", req.Method, r)}
		}
	}()
	if s.notify == nil {
		// Set here, not after NewConn: the connection reads (and calls
		// handle) as soon as it exists.
		s.notify = func(method string, params any) {
			if err := conn.Notify(ctx, method, params); err != nil {
				fmt.Fprintf(s.opts.Log, "jaiph lsp: %s: %v\n", method, err)
			}
		}
	}
	params := []byte("null")
	if req.Params != nil {
		params = *req.Params
	}
	switch {
	case s.shutdown.Load() && req.Method != "exit" && !req.Notif:
		return nil, &jsonrpc2.Error{Code: codeInvalidRequest, Message: "the server is shut down"}
	case !s.initialized && req.Method != "initialize" && req.Method != "exit":
		if req.Notif {
			return nil, nil // LSP: notifications before initialize are dropped
		}
		return nil, &jsonrpc2.Error{Code: codeServerNotInitialized, Message: "initialize first"}
	}
	if m := methods[req.Method]; m != nil && (req.Method != "textDocument/formatting" && req.Method != "textDocument/rangeFormatting" || s.opts.Format != nil) {
		return m(s, params)
	}
	if req.Notif {
		return nil, nil // unknown notifications ($/cancelRequest, …) are ignored
	}
	return nil, &jsonrpc2.Error{Code: codeMethodNotFound, Message: "method not found: " + req.Method}
}

// on adapts a method to the raw params it is called with.
func on[P any](f func(*server, P) (any, error)) func(*server, []byte) (any, error) {
	return func(s *server, raw []byte) (any, error) {
		var p P
		if err := json.Unmarshal(raw, &p); err != nil {
			return nil, &jsonrpc2.Error{Code: codeInvalidParams, Message: err.Error()}
		}
		return f(s, p)
	}
}

// answer adapts a method whose answer cannot fail.
func answer[P, R any](f func(*server, P) R) func(*server, []byte) (any, error) {
	return on(func(s *server, p P) (any, error) { return f(s, p), nil })
}

// none takes whatever params a notification without any carries.
type none = json.RawMessage

var methods = map[string]func(*server, []byte) (any, error){
	"initialize": on(func(s *server, p InitializeParams) (any, error) {
		s.root = rootOf(p)
		s.snippets = p.Capabilities.TextDocument.Completion.CompletionItem.SnippetSupport
		s.initialized = true
		return s.capabilities(), nil
	}),
	"initialized":          on(func(*server, none) (any, error) { return nil, nil }),
	"textDocument/didSave": on(func(*server, none) (any, error) { return nil, nil }),
	"shutdown": on(func(s *server, _ none) (any, error) {
		s.shutdown.Store(true)
		return nil, nil
	}),
	"exit": on(func(s *server, _ none) (any, error) {
		close(s.exited)
		return nil, nil
	}),
	"workspace/didChangeWatchedFiles": on(func(s *server, _ none) (any, error) {
		// A module changed on disk: re-check every open document (those
		// that do not import it publish what they published before).
		var all []string
		for p := range s.docs {
			all = append(all, p)
		}
		sort.Strings(all)
		s.check(all)
		return nil, nil
	}),
	"textDocument/didOpen": on(func(s *server, p DidOpenTextDocumentParams) (any, error) {
		path := pathOf(p.TextDocument.URI)
		s.docs[path] = &document{uri: p.TextDocument.URI, version: p.TextDocument.Version, src: []byte(p.TextDocument.Text)}
		s.publish(path)
		return nil, nil
	}),
	"textDocument/didChange": on(func(s *server, p DidChangeTextDocumentParams) (any, error) {
		path := pathOf(p.TextDocument.URI)
		d := s.docs[path]
		if d == nil || len(p.ContentChanges) == 0 {
			return nil, nil
		}
		// Full synchronisation: the last change holds the whole text.
		d.src = []byte(p.ContentChanges[len(p.ContentChanges)-1].Text)
		d.version = p.TextDocument.Version
		s.publish(path)
		return nil, nil
	}),
	"textDocument/didClose": on(func(s *server, p DidCloseTextDocumentParams) (any, error) {
		path := pathOf(p.TextDocument.URI)
		if d := s.docs[path]; d != nil {
			importers := s.importers(path)
			delete(s.docs, path)
			s.notify("textDocument/publishDiagnostics", PublishDiagnosticsParams{URI: d.uri, Version: d.version, Diagnostics: []Diagnostic{}})
			s.check(importers) // now reading path from the disk
			s.sweep(nil, nil)
		}
		return nil, nil
	}),
	"textDocument/definition":          answer((*server).definition),
	"textDocument/references":          answer((*server).references),
	"textDocument/hover":               answer((*server).hover),
	"textDocument/completion":          answer((*server).completion),
	"textDocument/documentSymbol":      answer(func(s *server, p DocumentSymbolParams) []DocumentSymbol { return s.symbols(pathOf(p.TextDocument.URI)) }),
	"textDocument/rename":              on((*server).rename),
	"textDocument/codeAction":          answer((*server).codeActions),
	"textDocument/semanticTokens/full": answer((*server).semanticTokens),
	"textDocument/prepareRename":       on((*server).prepareRename),
	"textDocument/documentHighlight":   answer((*server).highlight),
	"workspace/symbol":                 answer((*server).workspaceSymbols),
	"textDocument/signatureHelp":       answer((*server).signatureHelp),
	"textDocument/rangeFormatting":     on((*server).formatRange),
	"textDocument/formatting": on(func(s *server, p DocumentFormattingParams) (any, error) {
		return s.format(pathOf(p.TextDocument.URI))
	}),
}

func (s *server) capabilities() any {
	caps := map[string]any{
		"textDocumentSync":          map[string]any{"openClose": true, "change": 1},
		"definitionProvider":        true,
		"referencesProvider":        true,
		"hoverProvider":             true,
		"completionProvider":        map[string]any{"triggerCharacters": []string{".", "$", " "}},
		"documentSymbolProvider":    true,
		"documentHighlightProvider": true,
		"workspaceSymbolProvider":   true,
		"signatureHelpProvider":     map[string]any{"triggerCharacters": []string{" "}, "retriggerCharacters": []string{"\""}},
		"renameProvider":            map[string]any{"prepareProvider": true},
		"codeActionProvider":        map[string]any{"codeActionKinds": []string{kindQuickFix, kindOrganizeImports}},
		"semanticTokensProvider": map[string]any{
			"legend": map[string]any{"tokenTypes": tokenTypes, "tokenModifiers": tokenModifiers},
			"full":   true,
		},
	}
	if s.opts.Format != nil {
		caps["documentFormattingProvider"] = true
		caps["documentRangeFormattingProvider"] = true
	}
	return map[string]any{"capabilities": caps, "serverInfo": map[string]any{"name": "jaiph"}}
}

func rootOf(p InitializeParams) string {
	switch {
	case p.RootURI != "":
		return pathOf(p.RootURI)
	case len(p.WorkspaceFolders) > 0:
		return pathOf(p.WorkspaceFolders[0].URI)
	}
	return p.RootPath
}

// pathOf turns a file: URI into an absolute path (anything else is used as
// written).
func pathOf(uri string) string {
	u, err := url.Parse(uri)
	if err != nil || u.Scheme != "file" {
		return uri
	}
	return filepath.Clean(filepath.FromSlash(u.Path))
}

// uriOf is the URI of path: the client's own for an open document.
func (s *server) uriOf(path string) string {
	if d := s.docs[path]; d != nil {
		return d.uri
	}
	return (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String()
}

// read reads a module: the open buffer when there is one, else the disk.
func (s *server) read(path string) ([]byte, error) {
	if d := s.docs[path]; d != nil {
		return d.src, nil
	}
	return os.ReadFile(path)
}

func (s *server) exists(path string) bool {
	if s.docs[path] != nil {
		return true
	}
	st, err := os.Stat(path)
	return err == nil && st.Mode().IsRegular()
}

func (s *server) resolve(importer, p string) string {
	return parser.ResolveImport(importer, p, s.exists)
}

// index returns the module at path indexed, reusing the last index of the
// same contents; nil when it cannot be read.
func (s *server) index(path string) *index {
	src, err := s.read(path)
	if err != nil {
		return nil
	}
	if ix := s.cache[path]; ix != nil && bytes.Equal(ix.src, src) {
		return ix
	}
	ix := newIndex(path, src, s.resolve)
	ix.src = src
	s.cache[path] = ix
	return ix
}

// importers returns the open documents whose import closure holds path,
// path included when it is open.
func (s *server) importers(path string) []string {
	var out []string
	for p := range s.docs {
		// Each walk stops at path, so the changed buffer itself is not
		// indexed here: checking it parses it once.
		seen := map[string]bool{}
		queue := []string{p}
		for len(queue) > 0 {
			q := queue[0]
			queue = queue[1:]
			if seen[q] {
				continue
			}
			seen[q] = true
			if q == path {
				out = append(out, p)
				break
			}
			if ix := s.index(q); ix != nil {
				for _, t := range ix.aliases {
					queue = append(queue, t)
				}
			}
		}
	}
	sort.Strings(out)
	return out
}

// publish re-checks the open document at path and the open documents that
// import it, and publishes their diagnostics.
func (s *server) publish(path string) { s.check(s.importers(path)) }

func (s *server) check(all []string) {
	var paths []string
	for _, p := range all {
		if s.docs[p] != nil {
			paths = append(paths, p)
		}
	}
	if len(paths) == 0 {
		return
	}
	// The loader looks for an extension-less import on disk unless it has
	// loaded the file already, so open documents not saved yet go first.
	var files []string
	for p := range s.docs {
		if _, err := os.Stat(p); err != nil {
			files = append(files, p)
		}
	}
	sort.Strings(files)
	byFile := map[string][]Diagnostic{}
	raw := map[string][]*diag.Diagnostic{}
	for _, d := range diag.SortAndDedupe(engine.CheckOverlay(append(files, paths...), s.read)) {
		t := s.text(d.File)
		raw[d.File] = append(raw[d.File], d)
		byFile[d.File] = append(byFile[d.File], Diagnostic{
			Range: t.spanRange(d.At()), Severity: 1, Code: d.Code, Source: "jaiph", Message: d.Message,
		})
	}
	for _, p := range paths {
		byFile[p] = append(byFile[p], s.importProblems(p, raw)...)
	}
	publish := func(path string, ds []Diagnostic) {
		if ds == nil {
			ds = []Diagnostic{}
		}
		p := PublishDiagnosticsParams{URI: s.uriOf(path), Diagnostics: ds}
		if d := s.docs[path]; d != nil {
			p.Version = d.version
		}
		s.notify("textDocument/publishDiagnostics", p)
	}
	for _, p := range paths {
		publish(p, byFile[p])
	}
	// The modules they import that are not open get their problems too, as
	// `jaiph check` lists them, until a check of a closure holding them
	// finds none or no open document imports them any more.
	var closed []string
	for f := range byFile {
		if s.docs[f] == nil {
			closed = append(closed, f)
		}
	}
	sort.Strings(closed)
	for _, f := range closed {
		s.shown[f] = true
		publish(f, byFile[f])
	}
	if len(s.shown) > len(closed) {
		s.sweep(s.closure(paths), byFile)
	}
}

// importProblems gives each import of the open document at path whose
// module (or a module it imports) has problems a diagnostic on the
// import's path naming the first of them, where it is and how many more:
// `jaiph check` of the document fails on them, so its buffer must not
// look clean. The problem itself is its related information.
func (s *server) importProblems(path string, raw map[string][]*diag.Diagnostic) []Diagnostic {
	ix := s.index(path)
	if ix == nil {
		return nil
	}
	var out []Diagnostic
	for _, r := range ix.refs {
		if r.ns != nsFile {
			continue
		}
		var mods []string
		for f := range s.closure([]string{r.path}) {
			if f != path && len(raw[f]) > 0 {
				mods = append(mods, f)
			}
		}
		if len(mods) == 0 {
			continue
		}
		sort.Strings(mods)
		n := 0
		for _, f := range mods {
			n += len(raw[f])
		}
		first := raw[mods[0]][0]
		at := first.At()
		shown := first.File
		if rel, err := filepath.Rel(filepath.Dir(path), first.File); err == nil {
			shown = rel
		}
		msg := fmt.Sprintf("imported module has errors: %s:%d:%d: %s %s", shown, at.Line, at.Col, first.Code, first.OneLine())
		if n > 1 {
			msg += fmt.Sprintf(" (and %d more)", n-1)
		}
		out = append(out, Diagnostic{
			Range: ix.text.rng(r.line, r.from, r.to), Severity: 1, Code: first.Code, Source: "jaiph", Message: msg,
			RelatedInformation: []RelatedInformation{{
				Location: Location{URI: s.uriOf(first.File), Range: s.text(first.File).spanRange(at)},
				Message:  first.Message,
			}},
		})
	}
	return out
}

// sweep clears the published problems of modules not open that are no
// longer found: checked now (in reach) without problems, or imported by
// no open document.
func (s *server) sweep(reach map[string]bool, found map[string][]Diagnostic) {
	var open []string
	for p := range s.docs {
		open = append(open, p)
	}
	reachable := s.closure(open)
	var gone []string
	for f := range s.shown {
		if found[f] == nil && s.docs[f] == nil && (reach[f] || !reachable[f]) {
			gone = append(gone, f)
		}
	}
	sort.Strings(gone)
	for _, f := range gone {
		delete(s.shown, f)
		s.notify("textDocument/publishDiagnostics", PublishDiagnosticsParams{URI: s.uriOf(f), Diagnostics: []Diagnostic{}})
	}
}

// closure returns the modules paths import, directly or not, and paths.
func (s *server) closure(paths []string) map[string]bool {
	seen := map[string]bool{}
	queue := append([]string(nil), paths...)
	for len(queue) > 0 {
		q := queue[0]
		queue = queue[1:]
		if seen[q] {
			continue
		}
		seen[q] = true
		if ix := s.index(q); ix != nil {
			for _, t := range ix.aliases {
				queue = append(queue, t)
			}
		}
	}
	return seen
}

// text is the split source of path (empty when unreadable).
func (s *server) text(path string) *text {
	if ix := s.cache[path]; ix != nil {
		if src, err := s.read(path); err == nil && bytes.Equal(src, ix.src) {
			return ix.text
		}
	}
	src, _ := s.read(path)
	return newText(string(src))
}
