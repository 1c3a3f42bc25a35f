package main

import (
	"context"
	"io"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/tools/format"
	"github.com/jaiph-go/jaiph/internal/tools/lsp"
)

// The commands for editing .jh files.

func newFmtCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var opt format.Options
	cmd := &cobra.Command{
		Use:     "fmt [--check] [-w] [paths... | -]",
		Short:   "Rewrite .jh files in the canonical layout",
		Long:    format.Help,
		Example: "  jaiph fmt flow.jh\n  jaiph fmt -w .\n  jaiph fmt --check flows/\n  cat flow.jh | jaiph fmt -\n  jaiph fmt --stdin-filename flows/deploy.test.jh - < buffer",
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.Stdin, opt.Stdout, opt.Stderr = stdin, stdout, stderr
			switch code, err := format.Run(args, opt); {
			case err != nil:
				return &usageError{"fmt: " + err.Error()}
			case code != 0:
				return &exitError{code: code}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&opt.Check, "check", false, "list the files whose layout would change and exit 1 if any")
	cmd.Flags().BoolVarP(&opt.Write, "write", "w", false, "rewrite the files in place instead of printing them")
	cmd.Flags().StringVar(&opt.StdinFilename, "stdin-filename", "", "the path standard input's text stands for (with -): names positions, tells a *.test.jh file; never read")
	return cmd
}

func newLspCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "lsp",
		Short: "Run the language server (LSP 3.17 over stdin and stdout) for editors",
		Long: `Serve the Language Server Protocol over stdin and stdout: diagnostics as
jaiph check reports them, definitions, references, hover, completion, the
outline, formatting as jaiph fmt does it, and rename. Editors start it
themselves (see editors/ in the jaiph-go repository).`,
		Args: positional(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			if (lsp.Options{Format: format.Source}).Serve(context.Background(), cmd.InOrStdin(), stdout) != nil {
				return &exitError{code: exitFailure} // exit without shutdown: 1, as LSP asks
			}
			return nil
		},
	}
}
