// Package lsp is `jaiph lsp`: a Language Server Protocol 3.17 server over
// stdio for .jh files.
//
// The JSON-RPC transport (framing, dispatch, error responses) is
// github.com/sourcegraph/jsonrpc2; protocol.go holds the LSP types the
// server uses. Documents are synchronised in full; every open and change
// re-checks the document and the open documents that import it with
// engine.CheckOverlay, whose reader returns the open buffers, so the
// diagnostics are exactly `jaiph check`'s for the unsaved contents. The
// problems of imported modules that are not open are published too (as
// `jaiph check` lists them) and cleared once fixed or no longer imported
// by an open document.
//
// Positions. Jaiph diagnostics carry 1-based lines and 1-based byte
// columns; LSP positions are 0-based lines and UTF-16 code units
// (position.go). A diagnostic's range is its token as diag.Locate found it
// for `jaiph check` (Diagnostic.At): the unknown name, the channel, the
// string, never the keyword before it. A byte order mark the parser drops
// shifts line 1 by one unit. Each import of an open document whose module
// (or one it imports) has problems gets one more diagnostic on its path,
// naming the first problem and where it is (relatedInformation), since
// `jaiph check` of the document fails on it.
//
// Symbols. refs.go is the one place that turns the parser's lossless tree
// and the source lines into name ranges and references. Declarations, their
// extents (End), config blocks and leading comments (File.Items) come from
// the tree, plus declaration lines the parser did not reach in a buffer
// being typed; so do the references of Jaiph steps, at their RefPos: run,
// ensure and if targets, a send's channel, a route's channel and targets,
// a rule's ensure. A token scan of body lines finds what the tree has no
// node for: command words naming a workflow, rule or function of the
// module (not inside quotes), `alias.name` (anywhere, as the alias rewrite
// does), `$local`/`${local}` (not in single quotes), the statements of
// recover bodies and test blocks (a test file's `mock workflow name` names
// the first import's), and rejected sends and routes. A name inside quotes
// is text, not a reference (`log "run x"`, `echo "lib.x"`), except as the
// first word of a command substitution; `$name` inside double quotes is an
// expansion and counts. A body's variables (captures, assignments, `for`
// names) are definitions of that body only. Comment and config lines hold
// none. References and rename look at the open documents and every
// .jh/.jph file under the workspace root; rename takes workflows, rules,
// functions, channels, locals, body variables and import aliases.
//
// Completion offers what fits the cursor's place: declaration keywords at
// the top level, step keywords and channels at the start of a workflow
// step (and the step forms as snippets when the client takes snippets),
// workflows and functions after `run`, rules after `ensure`, workflows
// after `->`, an alias's members after `alias.`, locals after `$`, config
// keys inside `config { }`. The enclosing body comes from the text, so a
// body still being typed counts. Every item carries a textEdit over the
// whole word typed so far, qualifier included: a client that finds the
// word's start itself stops at the dot and inserts `alias.alias.name`.
//
// Document highlight (highlight.go) is references in the current file.
// Workspace symbols (wsymbols.go) are the modules' declarations (not
// tests or body variables) over the workspace references look at. Signature
// help (signature.go) splits the line before the cursor into the words of
// its last command, the way the shell would (quotes, `;`, `|`, `$(`,
// `recover`), and labels the target with the positional parameters its
// body reads. Range formatting (rangefmt.go) formats the whole module and
// keeps the changed lines wholly inside the range (a fragment alone cannot
// be formatted: fmt reorders the module's header).
//
// Code actions (actions.go): a "Did you mean" diagnostic's quick fix
// writes the suggestion over its range; organising imports sorts
// consecutive import lines by alias and drops aliases no other line
// writes as `alias.` (the alias rewrite's own test).
//
// Messages are handled one at a time in arrival order; a panic is answered
// as an internal error and logged to stderr with its stack. Exit after
// shutdown returns nil (exit status 0), otherwise ErrNoShutdown (1).
//
// Formatting and range formatting are advertised only when Options.Format
// is set.
package lsp
