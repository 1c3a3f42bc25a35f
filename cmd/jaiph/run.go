package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/buildinfo"
	"github.com/jaiph-go/jaiph/internal/engine"
	"github.com/jaiph-go/jaiph/runtime"
)

func newRunCmd(stdout, stderr io.Writer) *cobra.Command {
	r := engine.FileRun{Generator: buildinfo.Generator}
	cmd := &cobra.Command{
		DisableFlagsInUseLine: true,
		Use:                   "run [--target DIR] FILE [--] [ARGS...]",
		Short:                 "Run the default workflow of a .jh file",
		Long: `Run the workflow named "default" in FILE with ARGS as $1, $2, ….

Steps write their output to .jaiph/runs/<date>/<time>-<file>/ under the
workspace root; the progress tree goes to stdout, failures to stderr.
Exit status: 0 on success, 1 on failure or a compile error, 2 on a usage
error, 130 or 143 when stopped by Ctrl-C (SIGINT) or SIGTERM.`,
		DisableFlagParsing: true,
	}
	cmd.RunE = ownArgs(true, func(pos []string) error {
		if err := toFull(runNeeds(r.Inbox.URL, true, "", ""), stderr); err != nil {
			return err
		}
		if len(pos) == 0 {
			return &exitError{exitFailure, "jaiph run requires a .jh or .jph file path"}
		}
		r.File, r.Args = pos[0], pos[1:]
		ctx, stop := runtime.NotifyInterrupt()
		defer stop()
		return exitCode(engine.RunFile(ctx, engine.ProcessTerminal(stdout, stderr), r))
	})
	cmd.Flags().StringVar(&r.Target, "target", "", "also write the lowered shell of the entry and its imports below DIR, as build --target does")
	inboxFlags(cmd.Flags(), &r.Inbox)
	return cmd
}
