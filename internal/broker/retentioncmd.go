package broker

// This file answers: what do `jaiph broker runs` and `jaiph broker prune`
// print? (cmd/jaiph/broker.go declares them and their flags.)

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/jaiph-go/jaiph/internal/retention"
	"github.com/jaiph-go/jaiph/runtime"
)

// RunsCommand is `jaiph broker runs`: the runs with state on the broker
// at url, as a table or (asJSON) one JSON document, on out.
func RunsCommand(url string, asJSON bool, out io.Writer) error {
	ctx, stop := runtime.NotifyInterrupt()
	defer stop()
	nc, js, err := connect(ctx, url, "jaiph broker runs")
	if err != nil {
		return err
	}
	defer nc.Close()
	runs, err := ListRuns(ctx, js)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Runs []RunState `json:"runs"`
		}{runs})
	}
	return writeRuns(out, runs, time.Now())
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

// PruneCommand is `jaiph broker prune`: it removes from the broker at url
// the runs inactive for longer than olderThan (Prune; with dryRun,
// nothing) and writes what it removed, or would, on out.
func PruneCommand(url string, olderThan time.Duration, dryRun bool, out io.Writer) error {
	ctx, stop := runtime.NotifyInterrupt()
	defer stop()
	nc, js, err := connect(ctx, url, "jaiph broker prune")
	if err != nil {
		return err
	}
	defer nc.Close()
	now := time.Now()
	rep, err := Prune(ctx, js, olderThan, now, dryRun)
	if rep != nil {
		writePrune(out, rep, olderThan, now)
	}
	return err
}

// writePrune writes what a prune removed (or would remove).
func writePrune(w io.Writer, rep *PruneReport, olderThan time.Duration, now time.Time) {
	verb := "removed"
	if rep.DryRun {
		verb = "would remove"
	}
	window := retention.Format(olderThan)
	for _, r := range rep.Removed {
		fmt.Fprintf(w, "%s run %s, inactive for %s (%s)\n", verb, r.Run, ageText(now.Sub(r.LastActivity)), r.describe())
	}
	for _, s := range rep.Sources {
		fmt.Fprintf(w, "%s sources %s (no run uses them)\n", verb, s)
	}
	for _, id := range rep.Served {
		fmt.Fprintf(w, "%s served run %s (ended before the window)\n", verb, id)
	}
	if rep.SourcesKept != "" {
		fmt.Fprintf(w, "kept every sources object: %s\n", rep.SourcesKept)
	}
	if len(rep.Removed) == 0 && len(rep.Sources) == 0 && len(rep.Served) == 0 {
		fmt.Fprintf(w, "nothing to prune: %s on the broker, none inactive for more than %s\n", plural(len(rep.Kept), "run", "runs"), window)
		return
	}
	fmt.Fprintf(w, "%s %s and %s inactive for more than %s; kept %s active within it\n", verb,
		plural(len(rep.Removed), "run", "runs"), plural(len(rep.Sources), "sources object", "sources objects"), window,
		plural(len(rep.Kept), "run", "runs"))
}
