//go:build full

package main

// The jaiph-full build: the broker, the worker and the JetStream inbox
// transport (internal/broker), the report and MCP servers (report.go,
// mcp.go) and the live OTLP trace export linked in.

import (
	"github.com/jaiph-go/jaiph/internal/broker"
	"github.com/jaiph-go/jaiph/internal/observe/otlp"
)

func init() {
	broker.Install()
	otlp.Install()
}
