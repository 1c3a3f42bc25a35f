package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/engine"
	"github.com/jaiph-go/jaiph/internal/observe/progress"
	"github.com/jaiph-go/jaiph/internal/testrun"
	"github.com/jaiph-go/jaiph/runtime"
)

func newTestCmd(stdout, stderr io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "test [FILE|DIR]",
		Short: "Run the tests of *.test.jh files",
		Long: `Run the test blocks of *.test.jh (or *.test.jph) files.

With no path, every test file under the workspace root is run; with a
directory, every test file below it; with a test file, that file. Each test
block runs in isolation with its own mocks; only the test file and the
modules it imports are compiled.
Exit status: 0 when every test passed, 1 otherwise.`,
		DisableFlagParsing: true,
		RunE:               ownArgs(false, func(pos []string) error { return exitCode(runTests(pos, stdout, stderr)) }),
	}
}

// runTests implements `jaiph test [path]` (docs/cli.md#jaiph-test). Extra arguments
// are ignored.
func runTests(args []string, stdout, stderr io.Writer) int {
	arg := ""
	if len(args) > 0 {
		arg = args[0]
	}
	files, workspace, err := engine.TestFiles(arg)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	ctx, stop := runtime.NotifyInterrupt()
	defer stop()
	style := progress.NewStyle(progress.ColourWanted(stdout))
	status, err := engine.RunTests(ctx, files, testrun.Options{Workspace: workspace, Env: os.Environ(),
		Stdin: os.Stdin, Stdout: stdout, Style: style, FailedStepStderr: progress.IsTerminal(stdout)}, progress.NewTestReport(stdout, style))
	if err != nil {
		fmt.Fprintln(stderr, err)
	}
	return status
}
