// Package bashcheck has one job: check, before anything runs, that the shell
// codegen produced is shell the interpreter runs exactly as bash would. It
// parses every lowered body (and every lowered test block and mock body)
// with mvdan.cc/sh/v3/syntax (third_party/mvdan-sh) in its bash dialect,
// reports a syntax error as an E_PARSE diagnostic at the .jh file's own line
// and column (through the body's line map), and then refuses, with
// E_VALIDATE "unsupported shell feature: <name>", every construct listed in
// the refusal table (refusals.go) at its .jh position.
package bashcheck
