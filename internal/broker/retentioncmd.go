package broker

// This file answers: what do `jaiph broker runs` and `jaiph broker prune`
// print? (Their flags are in internal/tools/brokercmd; install.go installs
// these bodies.)

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/tools/brokercmd"
	"github.com/jaiph-go/jaiph/runtime"
)

// listRunsCommand is the body of `jaiph broker runs`.
func listRunsCommand(cmd *cobra.Command, o brokercmd.RunsOptions) error {
	ctx, stop := runtime.NotifyInterrupt()
	defer stop()
	nc, js, err := connect(ctx, o.Inbox, "jaiph broker runs")
	if err != nil {
		return err
	}
	defer nc.Close()
	runs, err := ListRuns(ctx, js)
	if err != nil {
		return err
	}
	if o.JSON {
		enc := json.NewEncoder(cmd.OutOrStdout())
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Runs []RunState `json:"runs"`
		}{runs})
	}
	return writeRuns(cmd.OutOrStdout(), runs, time.Now())
}

// writeRuns writes the runs as a table.
func writeRuns(w io.Writer, runs []RunState, now time.Time) error {
	if len(runs) == 0 {
		_, err := fmt.Fprintln(w, "no runs with state on the broker")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "RUN\tOBJECTS\tMESSAGES\tSIZE\tLAST ACTIVITY\tOUTSTANDING\tSOURCES")
	for _, r := range runs {
		src := "-"
		if r.Sources != "" {
			src = r.Sources[:min(12, len(r.Sources))]
		}
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s ago\t%d\t%s\n", r.Run, strings.Join(r.Objects, ","), r.Messages, sizeText(r.Bytes),
			ageText(now.Sub(r.LastActivity)), r.Outstanding, src)
	}
	return tw.Flush()
}

// pruneRunsCommand is the body of `jaiph broker prune`.
func pruneRunsCommand(cmd *cobra.Command, o brokercmd.PruneOptions) error {
	ctx, stop := runtime.NotifyInterrupt()
	defer stop()
	nc, js, err := connect(ctx, o.Inbox, "jaiph broker prune")
	if err != nil {
		return err
	}
	defer nc.Close()
	now := time.Now()
	rep, err := Prune(ctx, js, o.OlderThan, now, o.DryRun)
	if rep != nil {
		writePrune(cmd.OutOrStdout(), rep, o.OlderThan, now)
	}
	return err
}

// writePrune writes what a prune removed (or would remove).
func writePrune(w io.Writer, rep *PruneReport, olderThan time.Duration, now time.Time) {
	verb := "removed"
	if rep.DryRun {
		verb = "would remove"
	}
	window := brokercmd.FormatRetention(olderThan)
	for _, r := range rep.Removed {
		fmt.Fprintf(w, "%s run %s, inactive for %s (%s)\n", verb, r.Run, ageText(now.Sub(r.LastActivity)), r.describe())
	}
	for _, s := range rep.Sources {
		fmt.Fprintf(w, "%s sources %s (no run uses them)\n", verb, s)
	}
	if rep.SourcesKept != "" {
		fmt.Fprintf(w, "kept every sources object: %s\n", rep.SourcesKept)
	}
	if len(rep.Removed) == 0 && len(rep.Sources) == 0 {
		fmt.Fprintf(w, "nothing to prune: %s on the broker, none inactive for more than %s\n", plural(len(rep.Kept), "run", "runs"), window)
		return
	}
	fmt.Fprintf(w, "%s %s and %s inactive for more than %s; kept %s active within it\n", verb,
		plural(len(rep.Removed), "run", "runs"), plural(len(rep.Sources), "sources object", "sources objects"), window,
		plural(len(rep.Kept), "run", "runs"))
}
