package main

import (
	"context"
	"io"

	"github.com/jaiph-go/jaiph/lsp"
	"github.com/spf13/cobra"
)

func newLspCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "lsp",
		Short: "Run the language server (LSP 3.17 over stdin and stdout) for editors",
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 {
				return &usageError{"lsp takes no arguments, got " + args[0]}
			} else if lsp.Serve(context.Background(), cmd.InOrStdin(), stdout) != nil {
				return &exitError{code: exitFailure} // exit without shutdown: 1, as LSP asks
			}
			return nil
		},
	}
}
