package main

import (
	"cmp"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/engine"
	"github.com/jaiph-go/jaiph/internal/redact"
	"github.com/jaiph-go/jaiph/internal/store/inbox"
	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/jaiph-go/jaiph/runtime"
)

// The commands that read runs from disk.

func newRunsCmd(stdout io.Writer) *cobra.Command {
	var asJSON, prune bool
	var status runs.StatusFlag
	cmd := &cobra.Command{Use: "runs [--json] [--prune] [--status S]", Short: "List the workspace's runs, newest first", Args: positional(0, 0),
		Long: "List the runs under the workspace's .jaiph/runs (or JAIPH_RUNS_DIR): start time, status\n(passed, failed, interrupted, running), duration, source and run directory.",
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runs.PrintCommand(stdout, cmd.ErrOrStderr(), cwdWorkspace(), os.Getenv, asJSON, prune, string(status))
		}}
	cmd.Flags().Var(&status, "status", "list only the runs with this status: passed, failed, interrupted, running or unknown")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON document {\"runs\": [...]} (fields: docs/durability.md)")
	cmd.Flags().BoolVar(&prune, "prune", false, "first remove the records (.jaiph/state/runs) of runs whose run directory was deleted")
	return cmd
}

func newInboxCmd(stdout io.Writer) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{Use: "inbox [RUN_DIR] [--json]", Short: "List a run's messages and their deliveries",
		Long: `List a run's messages: number, channel, sender, state (queued, delivering, delivered,
failed, dead), attempts, the outcome per target and the payload's first line. RUN_DIR
defaults to the workspace's newest run; a live or killed run is read from its files.`,
		Args: positional(0, 1),
		RunE: func(_ *cobra.Command, args []string) error {
			dir, err := runs.Dir(strings.Join(args, ""), cwdWorkspace(), os.Getenv("JAIPH_RUNS_DIR"))
			if err == nil {
				err = inbox.Print(stdout, dir, asJSON, redact.FromEnv(os.Environ()))
			}
			return err
		}}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON document (fields in docs/inbox-files.md)")
	return cmd
}

func newRedriveCmd(stdout, stderr io.Writer) *cobra.Command {
	o := engine.RedriveOptions{Stdout: stdout, Stderr: stderr}
	cmd := &cobra.Command{Use: "redrive RUN_DIR [--message SEQ] [--force]", Short: "Deliver a finished run's dead letters again",
		Long: "Deliver each dead letter of RUN_DIR (or only message SEQ) once more to its target, in the same run\ndirectory (docs/inbox-files.md). Exit 0 when every one was delivered.",
		Args: positional(1, 1),
		RunE: func(_ *cobra.Command, args []string) error {
			if err := toFull(runNeeds(o.Inbox.URL, false, "", args[0]), stderr); err != nil {
				return err
			}
			ctx, stop := runtime.NotifyInterrupt()
			defer stop()
			o.RunDir, _ = filepath.Abs(args[0])
			o.Environ = os.Environ()
			if ok, err := engine.Redrive(ctx, o); err != nil || !ok {
				return cmp.Or(err, error(&exitError{code: exitFailure}))
			}
			return nil
		}}
	cmd.Flags().StringVar(&o.Message, "message", "", "redrive only the dead letters of message `SEQ`")
	cmd.Flags().BoolVar(&o.Force, "force", false, "redrive although a module's source changed since the run, or the run does not verify")
	hiddenInboxFlags(cmd, &o.Inbox)
	return cmd
}

func newResumeCmd(stdout, stderr io.Writer) *cobra.Command {
	var o engine.ResumeOptions
	cmd := &cobra.Command{Use: "resume [RUN_DIR] [--force]", Short: "Continue an interrupted or failed run, replaying its completed calls",
		Long: engine.ResumeHelp, Args: positional(0, 1),
		RunE: func(_ *cobra.Command, args []string) error {
			o.Workspace, o.RunDir = cwdWorkspace(), strings.Join(args, "")
			if err := toFull(runNeeds(o.Inbox.URL, true, o.Workspace, o.RunDir), stderr); err != nil {
				return err
			}
			ctx, stop := runtime.NotifyInterrupt()
			defer stop()
			return &exitError{code: engine.Resume(ctx, engine.ProcessTerminal(stdout, stderr), o)}
		}}
	cmd.Flags().BoolVar(&o.Force, "force", false, "resume even though a module's source changed since the run, or the run does not verify")
	hiddenInboxFlags(cmd, &o.Inbox)
	return cmd
}

func newSendCmd(stdin io.Reader, stdout io.Writer) *cobra.Command {
	o := engine.SendOptions{Stdin: stdin, Stdout: stdout}
	cmd := &cobra.Command{Use: "send RUN CHANNEL [PAYLOAD] [--key K] [--force]", Short: "Send a message to a run that receives on a channel", Long: engine.SendHelp, Args: positional(2, 3),
		RunE: func(_ *cobra.Command, args []string) error {
			return engine.SendCommand(o, args, cwdWorkspace(), os.Environ())
		}}
	cmd.Flags().StringVar(&o.Key, "key", "", "the message's `KEY`: a receive with key K takes only messages with key K")
	cmd.Flags().BoolVar(&o.Force, "force", false, "send although the run directory does not verify")
	return cmd
}

// hiddenInboxFlags are resume's and redrive's --inbox and --replicas:
// --inbox is shown with what it means for a run that exists; --replicas
// is taken, not shown (the run's own count is in its run.json).
func hiddenInboxFlags(cmd *cobra.Command, in *engine.Inbox) {
	inboxFlags(cmd.Flags(), in)
	cmd.Flags().Lookup("inbox").Usage = "the run's broker at `URL` with the credentials its run.json leaves out (default: the URL it records; JAIPH_INBOX_URL)"
	cmd.Flags().MarkHidden("replicas")
}

func newVerifyCmd(stdout io.Writer) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{Use: "verify RUN_DIR [--json]", Short: "Check that a run's summary and journal are what the run wrote",
		Long: runs.VerifyHelp, Args: positional(1, 1),
		RunE: func(_ *cobra.Command, args []string) error {
			if ok, err := runs.PrintVerify(stdout, args[0], os.Getenv, asJSON); err != nil || !ok {
				return cmp.Or(err, error(&exitError{code: exitFailure}))
			}
			return nil
		}}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON document (fields: docs/security.md)")
	return cmd
}

// cwdWorkspace is the workspace root of the working directory.
func cwdWorkspace() string {
	wd, _ := os.Getwd()
	return runs.WorkspaceRoot(wd)
}
