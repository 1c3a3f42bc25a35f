// Command jaiph compiles and runs Jaiph workflows (.jh files).
//
// The command layer is thin: it declares every command and its flags
// (those whose bodies only jaiph-full links behind the full build tag:
// broker_full.go, report.go, mcp.go), parses each command's flags once,
// makes one call (into package engine, which assembles the compiler
// stages; the broker's commands into internal/broker), and maps the result
// to an exit code. It must not assemble stages itself, hold language or
// runtime logic, pass options through the process environment, or change
// the working directory.
package main
