// Package parser turns Jaiph source (.jh, .jph, .test.jh) into an ast.File.
//
// The language is line-oriented: each trimmed line is classified by ordered
// pattern tests whose order is fixed (docs/language.md#top-level, #steps), so the
// structure is a hand-written line classifier over a quote-aware line lexer.
// The heads of the step forms and of rule, workflow and function headers are
// matched by hand over the tokens; their participle grammars are the
// specification the tests hold them to (FuzzHeadsAgree). The headers used
// once per file (import, channel, test, mock, config entries, local) are
// participle grammars. A large file is parsed in two halves at once. Shell
// text stays verbatim for the runtime. The parser knows nothing about other files: import resolution and
// cross-reference checks belong to package validate.
package parser
