// Package serve is `jaiph serve`: the exported workflows of .jh files as an
// HTTP service on one port for people, programs and agents — a REST API
// with its OpenAPI document, live events over Server-Sent Events, the
// files a run publishes, MCP over Streamable HTTP, a page that starts a
// workflow from a form, and the run viewer of `jaiph report` — behind one
// authentication (internal/tools/serve/auth).
//
// A served run is a run like `jaiph run`'s (run directory, summary,
// journal, hooks); the service adds a record of who started it and how it
// ended (runs.go), kept in a state directory so that a restarted server
// still answers for it.
package serve
