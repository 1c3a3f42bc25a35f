package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/format"
	"github.com/jaiph-go/jaiph/lsp"
)

func newLspCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "lsp",
		Short: "Run the language server (LSP 3.17 over stdin and stdout) for editors",
		Long: `Serve the Language Server Protocol over stdin and stdout: diagnostics as
jaiph check reports them, definitions, references, hover, completion, the
outline, formatting as jaiph fmt does it, and rename. Editors start it
themselves (see editors/ in the jaiph-go repository).`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if (lsp.Options{Format: format.Source}).Serve(context.Background(), cmd.InOrStdin(), stdout) != nil {
				return &exitError{code: exitFailure} // exit without shutdown: 1, as LSP asks
			}
			return nil
		},
	}
}
