// Package lsp is `jaiph lsp`: a Language Server Protocol 3.17 server over
// stdio for .jh files.
//
// The JSON-RPC transport (framing, dispatch, error responses) is
// github.com/sourcegraph/jsonrpc2; protocol.go holds the LSP types the
// server uses. Documents are synchronised in full; every open and change
// re-checks the document and the open documents that import it with
// engine.CheckOverlay, whose reader returns the open buffers, so the
// diagnostics are exactly `jaiph check`'s for the unsaved contents.
//
// Positions. Jaiph diagnostics carry 1-based lines and 1-based byte
// columns; LSP positions are 0-based lines and UTF-16 code units
// (position.go). A diagnostic's range starts at its column and ends at the
// end of the run of non-blank characters starting there (the keyword,
// name or token the message is about); at a blank or past the end of the
// line the range is empty. A byte order mark the parser drops shifts
// line 1 by one unit.
//
// Symbols. refs.go is the one place that turns the AST's declarations and
// the source lines into name ranges and references (the parser has no
// reference positions yet): definitions come from the AST, references from
// a token scan of body lines — `run`/`ensure` targets and command words
// naming a workflow, rule or function of the module, `alias.name`, a
// channel before `<-`/`->` and route targets, `$local`/`${local}`.
//
// Formatting is advertised only when Options.Format is set.
package lsp
