package runs

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"
	"time"
)

// WriteJSON writes the listing as one JSON document: {"runs": [Run…]}.
func WriteJSON(w io.Writer, list []Run) error {
	if list == nil {
		list = []Run{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Runs []Run `json:"runs"`
	}{list})
}

// WriteText writes the listing as an aligned table; run directories below
// base are shown relative to it.
func WriteText(w io.Writer, list []Run, base string) error {
	if len(list) == 0 {
		_, err := fmt.Fprintln(w, "no runs")
		return err
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "START\tSTATUS\tDURATION\tSOURCE\tRUN DIR")
	for _, r := range list {
		start := "-"
		if !r.Start.IsZero() {
			start = r.Start.Local().Format("2006-01-02 15:04:05")
		}
		dir := r.Dir
		if rel, err := filepath.Rel(base, dir); err == nil && filepath.IsLocal(rel) {
			dir = rel
		}
		status := r.Status
		switch {
		case r.DeadLetters > 0:
			status += fmt.Sprintf(" (%d dead letters)", r.DeadLetters)
		case r.Redriven != nil:
			status += " (redriven)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", start, status, Duration(r.DurationMS), orDash(r.Source), dir)
	}
	return tw.Flush()
}

// Duration shows milliseconds as 0.4s, 12.3s, 4m05s, 2h01m.
func Duration(ms int64) string {
	d := time.Duration(ms) * time.Millisecond
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%.1fs", d.Seconds())
	case d < time.Hour:
		return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%dh%02dm", int(d.Hours()), int(d.Minutes())%60)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// Print lists the runs of workspace (runsDir as JAIPH_RUNS_DIR) to w as a
// table, or as JSON.
func Print(w io.Writer, workspace, runsDir string, asJSON bool) error {
	list, err := List(Root(workspace, runsDir), time.Now())
	if err != nil {
		return err
	}
	if asJSON {
		return WriteJSON(w, list)
	}
	return WriteText(w, list, workspace)
}
