// Package mcpserver serves the exported workflows of .jh files as Model
// Context Protocol tools (`jaiph mcp`): one tool per `export workflow`, a
// call runs it as `jaiph run` does (run directory, summary, artifacts,
// hooks) and returns its output and status, with a progress notification
// per step and cancellation that interrupts the run as Ctrl-C does. The
// protocol is github.com/modelcontextprotocol/go-sdk's.
package mcpserver
