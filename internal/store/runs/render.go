package runs

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
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
	notes := false
	for _, r := range list {
		notes = notes || Note(r) != ""
	}
	var table strings.Builder
	tw := tabwriter.NewWriter(&table, 0, 0, 2, ' ', 0)
	// The NOTE column is there when a run has one.
	if notes {
		fmt.Fprintln(tw, "START\tSTATUS\tDURATION\tSOURCE\tRUN DIR\tNOTE")
	} else {
		fmt.Fprintln(tw, "START\tSTATUS\tDURATION\tSOURCE\tRUN DIR")
	}
	for _, r := range list {
		start := "-"
		if !r.Start.IsZero() {
			start = r.Start.Local().Format("2006-01-02 15:04:05")
		}
		dir := r.Dir
		if rel, err := filepath.Rel(base, dir); err == nil && filepath.IsLocal(rel) {
			dir = rel
		}
		dur := Duration(r.DurationMS)
		if r.EndUnknown {
			dur = "≥" + dur
		}
		if notes {
			dir += "\t" + Note(r)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", start, r.Status, dur, orDash(r.Source), dir)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	// A row without a note ends in the padding of RUN DIR.
	lines := strings.SplitAfter(table.String(), "\n")
	for i, l := range lines {
		if t := strings.TrimRight(l, " \n"); t != strings.TrimSuffix(l, "\n") {
			lines[i] = t + "\n"
		}
	}
	_, err := io.WriteString(w, strings.Join(lines, ""))
	return err
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

// Print lists the runs of workspace to w as a table, or as JSON, each
// with its verdict (Verify). getenv gives JAIPH_RUNS_DIR and the key store
// (chain.StoreDir). status, when set, keeps the runs with that status.
func Print(w io.Writer, workspace string, getenv func(string) string, asJSON bool, status string) error {
	list, err := List(Root(workspace, getenv("JAIPH_RUNS_DIR")), time.Now())
	if err != nil {
		return err
	}
	if status != "" {
		list = slices.DeleteFunc(list, func(r Run) bool { return r.Status != status })
	}
	store := keyStore(getenv)
	for i := range list {
		v := Verify(list[i].Dir, store)
		list[i].Integrity = &v
	}
	if asJSON {
		return WriteJSON(w, list)
	}
	return WriteText(w, list, workspace)
}

// Note is what a run's status alone does not say, in the words `jaiph
// runs` and the report's list both use: a summary or journal that does not
// verify (first), dead letters left, a redrive, a killed run's unknown end.
func Note(r Run) string {
	var notes []string
	if r.Integrity != nil && r.Integrity.Note() != "" {
		notes = append(notes, r.Integrity.Note())
	}
	switch {
	case r.DeadLetters == 1:
		notes = append(notes, "1 dead letter")
	case r.DeadLetters > 1:
		notes = append(notes, fmt.Sprintf("%d dead letters", r.DeadLetters))
	}
	if r.Redriven != nil {
		notes = append(notes, "redriven")
	}
	if w := r.Waiting; w != nil {
		what := "waiting on " + w.Channel
		if w.Key != "" {
			what += fmt.Sprintf(" (key %q)", w.Key)
		}
		if r.Status == Running {
			what += " for " + Duration(w.ForMS)
			if w.Timeout != "" {
				what += " (timeout " + w.Timeout + ")"
			}
		} else {
			what = "killed while " + what + ": jaiph send, then jaiph resume"
		}
		notes = append(notes, what)
	}
	if r.EndUnknown {
		notes = append(notes, "killed: duration to its last event")
	}
	return strings.Join(notes, ", ")
}
