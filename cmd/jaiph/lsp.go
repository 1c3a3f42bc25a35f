package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/lsp"
)

func newLspCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "lsp",
		Short: "Run the language server (LSP over stdin and stdout) for editors",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := lsp.Serve(context.Background(), cmd.InOrStdin(), stdout); err != nil {
				return &exitError{code: exitFailure} // exit without shutdown (LSP: exit 1)
			}
			return nil
		},
	}
}
