package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/internal/engine"
)

func newCheckCmd(stdout, stderr io.Writer) *cobra.Command {
	var format string
	cmd := &cobra.Command{
		Use:   "check [--format text|json|github] [paths...]",
		Short: "Parse and validate .jh files without running them",
		Long: `Parse and validate Jaiph files and report every diagnostic.

Paths are files or directories (searched recursively for *.jh, *.jph and test
files); the default is the current directory. Modules reached by import are
checked too, with their problems attributed to the imported file.

Output formats:
  text    path:line:col: CODE message   (default)
  json    {"version":1,"files":[...],"diagnostics":[...]}
  github  ::error annotations for GitHub Actions, with paths relative to
          $GITHUB_WORKSPACE when set, else to the git repository

Exit status: 0 when clean, 1 when there are diagnostics, 2 on usage errors.`,
		Example: "  jaiph check\n  jaiph check flows/ --format json\n  jaiph check deploy.jh --format github",
		RunE: func(cmd *cobra.Command, args []string) error {
			return runCheck(args, format, stdout, stderr)
		},
	}
	cmd.Flags().StringVar(&format, "format", "text", "output format: text, json or github")
	return cmd
}

func runCheck(args []string, format string, stdout, stderr io.Writer) error {
	if !diag.KnownFormat(format) {
		return &usageError{fmt.Sprintf("check: unknown --format %q (want text, json or github)", format)}
	}
	if len(args) == 0 {
		args = []string{"."}
	}
	files, err := engine.SourceFiles(args)
	if err != nil {
		return &usageError{"check: " + err.Error()}
	}
	if len(files) == 0 {
		fmt.Fprintln(stderr, "no .jh or .jph files found")
	}
	cwd := engine.ShownFrom(format, os.Getenv("GITHUB_WORKSPACE"))
	if len(diag.Report(stdout, format, cwd, files, engine.Check(files))) > 0 {
		return &exitError{code: exitFailure}
	}
	return nil
}
