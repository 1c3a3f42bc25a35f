package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/report"
	"github.com/jaiph-go/jaiph/runtime"
)

func newReportCmd(stdout io.Writer) *cobra.Command {
	c := report.Config{Out: stdout}
	cmd := &cobra.Command{Use: "report [--host H] [--port N] [--runs-dir DIR] [--poll-ms MS] [--open]", Short: "Browse the workspace's runs in a web browser (read-only)",
		Long: `Serve a read-only web view and JSON API (report/doc.go) over the workspace's runs
(.jaiph/runs, JAIPH_RUNS_DIR, or --runs-dir), following live runs as they write.
Prints the URL; Ctrl-C stops it (exit 0). Binds 127.0.0.1 unless --host says otherwise.`,
		Args: noArgs,
		RunE: func(_ *cobra.Command, _ []string) error {
			ctx, stop := runtime.NotifyInterrupt()
			defer stop()
			c.Workspace = cwdWorkspace()
			return report.Serve(ctx, c)
		}}
	c.Flags(cmd.Flags())
	return cmd
}
