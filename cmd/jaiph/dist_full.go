//go:build full

package main

// The jaiph-full build: the broker, the worker and the JetStream inbox
// transport (internal/broker; broker_full.go), the report and MCP servers
// (report.go, mcp.go) and the live OTLP trace export linked in. It hands
// nothing over.

import (
	"io"

	"github.com/jaiph-go/jaiph/internal/broker"
	"github.com/jaiph-go/jaiph/internal/observe/otlp"
)

func init() {
	broker.Install()
	otlp.Install()
}

func toFull(string, io.Writer) error { return nil }

func runNeeds(string, bool, string, string) string { return "" }
