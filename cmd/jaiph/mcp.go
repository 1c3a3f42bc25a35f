//go:build full

package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/tools/mcpserver"
)

func newMcpCmd(stderr io.Writer) *cobra.Command {
	return &cobra.Command{Use: "mcp [FILE...]", Short: "Serve exported workflows as Model Context Protocol tools over stdin and stdout", Long: mcpserver.Help,
		RunE: func(_ *cobra.Command, args []string) error { return failed("mcp", mcpserver.Main(args, stderr)) }}
}
