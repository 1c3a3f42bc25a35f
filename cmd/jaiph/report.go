//go:build full

package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/tools/report"
	"github.com/jaiph-go/jaiph/internal/tools/report/ui"
)

func newReportCmd(stdout io.Writer) *cobra.Command {
	c := report.Config{Out: stdout, UI: ui.FS}
	otlpDir, force := "", false
	cmd := &cobra.Command{Use: "report [--host H] [--port N] [--runs-dir DIR] [--poll-ms MS] [--open] | report --otlp RUN_DIR [--force]", Short: "Browse the workspace's runs in a web browser (read-only)",
		Long: report.Help, Args: positional(0, 0),
		RunE: func(_ *cobra.Command, _ []string) error {
			c.Workspace = cwdWorkspace()
			return report.Main(c, otlpDir, force)
		}}
	c.Flags(cmd.Flags())
	cmd.Flags().StringVar(&otlpDir, "otlp", "", "send the trace of the run at `RUN_DIR` to the OTLP endpoint, then exit")
	cmd.Flags().BoolVar(&force, "force", false, "with --otlp: send it although the run's summary was tampered with (jaiph verify)")
	return cmd
}
