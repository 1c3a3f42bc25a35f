//go:build !full

package main

// The default build's report and mcp: their servers are in jaiph-full only.

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/tools/brokercmd"
)

func newReportCmd(stdout io.Writer) *cobra.Command {
	return brokercmd.NewForwardedCmd("report [--host H] [--port N] [--runs-dir DIR] [--poll-ms MS] [--open] | report --otlp RUN_DIR",
		"Browse the workspace's runs in a web browser (read-only)", stdout)
}

func newMcpCmd(stderr io.Writer) *cobra.Command {
	return brokercmd.NewForwardedCmd("mcp [FILE...]", "Serve exported workflows as Model Context Protocol tools over stdin and stdout", stderr)
}
