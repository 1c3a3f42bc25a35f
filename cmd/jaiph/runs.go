package main

import (
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/runs"
	"github.com/jaiph-go/jaiph/runtime"
)

func newRunsCmd(stdout io.Writer) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{Use: "runs [--json]", Short: "List the workspace's runs, newest first", Args: noArgs,
		Long: "List the runs under the workspace's .jaiph/runs (or JAIPH_RUNS_DIR): start time, status\n(passed, failed, interrupted, running), duration, source and run directory.",
		RunE: func(cmd *cobra.Command, _ []string) error {
			wd, _ := os.Getwd()
			return runs.Print(stdout, runtime.WorkspaceRoot(wd), os.Getenv("JAIPH_RUNS_DIR"), asJSON)
		}}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON document {\"runs\": [...]} (fields: docs/durability.md)")
	return cmd
}
