package main

import (
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/engine"
	"github.com/jaiph-go/jaiph/inboxlog"
	"github.com/jaiph-go/jaiph/runs"
)

// The commands that read runs from disk.

func newRunsCmd(stdout io.Writer) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{Use: "runs [--json]", Short: "List the workspace's runs, newest first", Args: noArgs,
		Long: "List the runs under the workspace's .jaiph/runs (or JAIPH_RUNS_DIR): start time, status\n(passed, failed, interrupted, running), duration, source and run directory.",
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runs.Print(stdout, engine.CwdWorkspace(), os.Getenv("JAIPH_RUNS_DIR"), asJSON)
		}}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON document {\"runs\": [...]} (fields: docs/durability.md)")
	return cmd
}

func newInboxCmd(stdout io.Writer) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{Use: "inbox [RUN_DIR] [--json]", Short: "List a run's messages and their deliveries",
		Long: `List a run's messages: number, channel, sender, state (queued, delivering, delivered,
failed, dead), attempts, the outcome per target and the payload's first line. RUN_DIR
defaults to the workspace's newest run; a live or killed run is read from its files.`,
		Args: cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			dir, err := runs.Dir(strings.Join(args, ""), engine.CwdWorkspace(), os.Getenv("JAIPH_RUNS_DIR"))
			if err == nil {
				err = inboxlog.Print(stdout, dir, asJSON)
			}
			return err
		}}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON document (fields in docs/inbox-files.md)")
	return cmd
}

func newResumeCmd(stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{Use: "resume [RUN_DIR] [--force]", Short: engine.ResumeShort, Long: engine.ResumeLong, Args: cobra.MaximumNArgs(1)}
	force := cmd.Flags().Bool("force", false, "resume even though a module's source changed since the run")
	cmd.RunE = func(_ *cobra.Command, a []string) error {
		return &exitError{engine.ResumeCLI(a, *force, stdout, stderr)}
	}
	return cmd
}
