package inboxlog

import (
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"
)

// Command is `jaiph inbox [RUN_DIR] [--json]`; workspaceRoot finds the
// workspace of the current directory as `jaiph run` does (passed in, so
// this package does not import the runtime). It lives here, not in
// cmd/jaiph, which must stay thin.
func Command(stdout io.Writer, workspaceRoot func(dir string) string) *cobra.Command {
	asJSON := false
	cmd := &cobra.Command{
		Use:   "inbox [RUN_DIR] [--json]",
		Short: "List a run's messages and their deliveries",
		Long: `List the messages of a run's inbox: number, channel, sender, state
(queued, delivering, delivered, failed, dead), attempts, the outcome per
target and the payload's first line. RUN_DIR defaults to the newest run
under the workspace's .jaiph/runs (or $JAIPH_RUNS_DIR). Works on a run
that is still going or was killed: states come from the files on disk.

Exit status: 0, or 1 when the run or its inbox cannot be read.`,
		Example: "  jaiph inbox\n  jaiph inbox --json .jaiph/runs/2026-01-02/10-11-12-flow.jh",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			dir, err := runDir(args, workspaceRoot)
			if err != nil {
				return err
			}
			in, err := Read(dir)
			if err != nil {
				return err
			}
			if asJSON {
				return WriteJSON(stdout, in)
			}
			return WriteText(stdout, in)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON document (fields in docs/inbox-files.md)")
	return cmd
}

// runDir is the named run directory, or the workspace's newest.
func runDir(args []string, workspaceRoot func(string) string) (string, error) {
	if len(args) == 1 {
		return filepath.Abs(args[0])
	}
	wd, err := os.Getwd()
	if err != nil {
		return "", err
	}
	ws := workspaceRoot(wd)
	root := os.Getenv("JAIPH_RUNS_DIR")
	switch {
	case root == "":
		root = filepath.Join(ws, ".jaiph", "runs")
	case !filepath.IsAbs(root):
		root = filepath.Join(ws, root)
	}
	return Newest(root)
}
