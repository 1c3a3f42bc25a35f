// Package shellbuiltin holds the Bash behaviour jaiph-go gives the
// mvdan.cc/sh interpreter where the interpreter's own differs from bash 5.2:
// the printf and echo builtins, and the execution of external commands
// (bash's lookup errors, signal forwarding, a kill deadline). It knows
// nothing about Jaiph: managed calls, steps and artifacts live in runtime,
// which builds every runner with these handlers (runtime/runner.go).
package shellbuiltin
