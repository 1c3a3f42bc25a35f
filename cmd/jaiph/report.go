//go:build full

package main

import (
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/observe/otlp"
	"github.com/jaiph-go/jaiph/internal/tools/report"
	"github.com/jaiph-go/jaiph/internal/tools/report/ui"
	"github.com/jaiph-go/jaiph/runtime"
)

func newReportCmd(stdout io.Writer) *cobra.Command {
	c := report.Config{Out: stdout, UI: ui.FS}
	var otlpDir string
	cmd := &cobra.Command{Use: "report [--host H] [--port N] [--runs-dir DIR] [--poll-ms MS] [--open] | report --otlp RUN_DIR", Short: "Browse the workspace's runs in a web browser (read-only)",
		Long: `Serve a read-only web view and JSON API (internal/tools/report/doc.go) over the workspace's runs
(.jaiph/runs, JAIPH_RUNS_DIR, or --runs-dir), following live runs as they write.
Prints the URL; Ctrl-C stops it (exit 0). Binds 127.0.0.1 unless --host says otherwise.
With --otlp it serves nothing: it sends the trace of the run at RUN_DIR to the OTLP/HTTP
endpoint OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) and exits.`,
		Args: positional(0, 0),
		RunE: func(_ *cobra.Command, _ []string) error {
			ctx, stop := runtime.NotifyInterrupt()
			defer stop()
			if otlpDir != "" {
				return otlp.ExportRunDir(ctx, otlpDir, os.Environ())
			}
			c.Workspace = cwdWorkspace()
			return report.Serve(ctx, c)
		}}
	c.Flags(cmd.Flags())
	cmd.Flags().StringVar(&otlpDir, "otlp", "", "send the trace of the run at `RUN_DIR` to the OTLP endpoint, then exit")
	return cmd
}
