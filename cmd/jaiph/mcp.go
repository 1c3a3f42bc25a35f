//go:build full

package main

import (
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/tools/mcpserver"
)

func newMcpCmd(stderr io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "mcp [FILE...]",
		Short: "Serve exported workflows as Model Context Protocol tools over stdin and stdout",
		Long:  mcpserver.Help,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := mcpserver.Main(args, stderr); err != nil {
				fmt.Fprintf(stderr, "jaiph mcp: %v\n", err)
				return &exitError{code: exitFailure}
			}
			return nil
		},
	}
}
