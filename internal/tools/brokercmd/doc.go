// Package brokercmd holds the command-line side of what only the jaiph-full
// build links: `jaiph broker`, `jaiph worker`, the `--inbox URL` option of
// run, resume and redrive, and the hand-over to jaiph-full of those, of
// `jaiph report`, `jaiph mcp` and of runs that export an OTLP trace.
//
// The default jaiph build links none of that code (its package
// initialisation and its size would cost every command start-up time):
// these commands replace the process with jaiph-full, the same CLI built
// with `-tags full` (cmd/jaiph/dist_full.go sets ServeBroker and
// ServeWorker there), which `make build` writes beside jaiph. This package
// must not import internal/broker, the report or MCP servers, or the OTLP
// exporter.
package brokercmd
