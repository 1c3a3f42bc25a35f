// Package parser turns Jaiph source (.jh, .jph, .test.jh) into an ast.File.
//
// The language is line-oriented: each trimmed line is classified by ordered
// pattern tests whose order is normative (spec language.md §3 and §5.1), so the
// structure is a hand-written line classifier and the declaration header
// lines are parsed with participle grammars. Shell text stays verbatim for the
// runtime. The parser knows nothing about other files: import resolution and
// cross-reference checks belong to package validate.
package parser
