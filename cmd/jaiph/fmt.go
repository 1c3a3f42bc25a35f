package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/format"
)

func newFmtCmd(stdin io.Reader, stdout, stderr io.Writer) *cobra.Command {
	var opt format.Options
	cmd := &cobra.Command{
		Use:   "fmt [--check] [-w] [paths... | -]",
		Short: "Rewrite .jh files in the canonical layout",
		Long: `Print Jaiph files in the canonical layout: two-space indentation by nesting,
imports, config, channels and locals first, one blank line between
definitions, no trailing blanks. Strings and here-documents are never
changed. Paths are files or directories (searched like jaiph check); "-"
reads standard input. A file with diagnostics is not formatted: they are
printed on stderr as jaiph check prints them.

Exit status: 0 on success, 1 on diagnostics (or, with --check, when a file
would change), 2 on usage errors.`,
		Example: "  jaiph fmt flow.jh\n  jaiph fmt -w .\n  jaiph fmt --check flows/\n  cat flow.jh | jaiph fmt -",
		RunE: func(cmd *cobra.Command, args []string) error {
			opt.Stdin, opt.Stdout, opt.Stderr = stdin, stdout, stderr
			switch code, err := format.Run(args, opt); {
			case err != nil:
				return &usageError{"fmt: " + err.Error()}
			case code != 0:
				return &exitError{code}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&opt.Check, "check", false, "list the files whose layout would change and exit 1 if any")
	cmd.Flags().BoolVarP(&opt.Write, "write", "w", false, "rewrite the files in place instead of printing them")
	return cmd
}
