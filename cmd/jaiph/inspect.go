package main

import (
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/engine"
	"github.com/jaiph-go/jaiph/inboxlog"
	"github.com/jaiph-go/jaiph/runs"
	"github.com/jaiph-go/jaiph/runtime"
)

// The commands that read runs from disk.

func newRunsCmd(stdout io.Writer) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{Use: "runs [--json]", Short: "List the workspace's runs, newest first", Args: noArgs,
		Long: "List the runs under the workspace's .jaiph/runs (or JAIPH_RUNS_DIR): start time, status\n(passed, failed, interrupted, running), duration, source and run directory.",
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runs.Print(stdout, cwdWorkspace(), os.Getenv("JAIPH_RUNS_DIR"), asJSON)
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
			dir, err := runs.Dir(strings.Join(args, ""), cwdWorkspace(), os.Getenv("JAIPH_RUNS_DIR"))
			if err == nil {
				err = inboxlog.Print(stdout, dir, asJSON)
			}
			return err
		}}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON document (fields in docs/inbox-files.md)")
	return cmd
}

func newResumeCmd(stdout, stderr io.Writer) *cobra.Command {
	var force bool
	cmd := &cobra.Command{Use: "resume [RUN_DIR] [--force]", Short: "Continue an interrupted or failed run, replaying its completed calls",
		Long: "Run RUN_DIR's entry again with the same arguments and settings, in the same run directory:\ncalls its journal records as completed are replayed, the rest run (docs/durability.md).\nRUN_DIR defaults to the workspace's newest interrupted or failed run.",
		Args: cobra.MaximumNArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			dir, err := filepath.Abs(strings.Join(args, ""))
			if len(args) == 0 {
				dir, err = runs.NewestResumable(runs.Root(cwdWorkspace(), os.Getenv("JAIPH_RUNS_DIR")))
			}
			if err != nil {
				return err
			}
			ctx, stop := runtime.NotifyInterrupt()
			defer stop()
			home, _ := os.UserHomeDir()
			if code := engine.Resume(ctx, engine.Terminal{Stdin: os.Stdin, Stdout: stdout, Stderr: stderr, Environ: os.Environ(), Home: home}, dir, force); code != 0 {
				return &exitError{code}
			}
			return nil
		}}
	cmd.Flags().BoolVar(&force, "force", false, "resume even though a module's source changed since the run")
	return cmd
}

// cwdWorkspace is the workspace root of the working directory.
func cwdWorkspace() string {
	wd, _ := os.Getwd()
	return runtime.WorkspaceRoot(wd)
}
