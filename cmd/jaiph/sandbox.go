package main

import (
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/engine"
	"github.com/jaiph-go/jaiph/internal/sandbox"
	"github.com/jaiph-go/jaiph/runtime"
)

// newSandboxCmd is the jaiph inside the Docker sandbox (never typed by a
// user; internal/sandbox starts it): `jaiph __sandbox [--workspace W]
// [--resume DIR] [--workflow NAME] [--deliver TARGET] -- FILE [ARGS...]`.
// It reports the run on stdout to the host's jaiph (engine.ServeSandbox).
func newSandboxCmd(stdout io.Writer) *cobra.Command {
	var a engine.SandboxArgs
	cmd := &cobra.Command{Use: sandbox.InnerCommand + " [flags] -- FILE [ARGS...]", Hidden: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if cmd.ArgsLenAtDash() != 0 || len(args) == 0 {
				return &usageError{sandbox.InnerCommand + ": expected [flags] -- FILE [ARGS...]"}
			}
			a.Entry, a.Args = args[0], args[1:]
			ctx, stop := runtime.NotifyInterrupt()
			defer stop()
			return exitCode(engine.ServeSandbox(ctx, a, os.Environ(), os.Stdin, stdout))
		}}
	cmd.Flags().StringVar(&a.Workspace, "workspace", "", "the workspace inside the container")
	cmd.Flags().StringVar(&a.RunID, "run-id", "", "the new run's id")
	cmd.Flags().StringVar(&a.Resume, "resume", "", "the run directory to continue")
	cmd.Flags().StringVar(&a.Workflow, "workflow", "", "the entry's workflow to call")
	cmd.Flags().StringVar(&a.Deliver, "deliver", "", "a broker delivery's target (ARGS: payload, channel, sender)")
	return cmd
}
