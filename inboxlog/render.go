package inboxlog

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"text/tabwriter"
)

// WriteText prints the inbox as an aligned table: one row per message,
// its per-target outcomes as `target=state/attempts[/exit N]`.
func WriteText(w io.Writer, in *Inbox) error {
	fmt.Fprintf(w, "Inbox of %s\n", in.RunDir)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SEQ\tCHANNEL\tSENDER\tSTATE\tATTEMPTS\tTARGETS\tPAYLOAD")
	for _, m := range in.Messages {
		var ts []string
		for _, d := range m.Targets {
			s := fmt.Sprintf("%s=%s/%d", d.Target, d.State, d.Attempts)
			if d.Status != nil && *d.Status != 0 {
				s += fmt.Sprintf("/exit %d", *d.Status)
			}
			ts = append(ts, s)
		}
		targets := strings.Join(ts, ",")
		if targets == "" {
			targets = "-"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%d\t%s\t%s\n", m.Seq, m.Channel, m.Sender, m.State, m.Attempts, targets, printable(m.Preview))
	}
	return tw.Flush()
}

// WriteJSON prints the inbox as one indented JSON document.
func WriteJSON(w io.Writer, in *Inbox) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	return enc.Encode(in)
}

// printable replaces control characters, so a payload cannot move the
// terminal's cursor or break the table.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, s)
}

// Newest is the newest run directory under runsRoot (<date>/<time>-<source>,
// as the runtime names them): the latest date, then the latest time, then
// the latest modified.
func Newest(runsRoot string) (string, error) {
	dirs, _ := filepath.Glob(filepath.Join(runsRoot, "*", "*"))
	type run struct {
		key  string
		mod  int64
		path string
	}
	var runs []run
	for _, d := range dirs {
		st, err := os.Stat(d)
		if err != nil || !st.IsDir() {
			continue
		}
		name := filepath.Base(d)
		runs = append(runs, run{filepath.Base(filepath.Dir(d)) + "/" + name[:min(8, len(name))], st.ModTime().UnixNano(), d})
	}
	if len(runs) == 0 {
		return "", fmt.Errorf("no runs under %s", runsRoot)
	}
	sort.Slice(runs, func(i, j int) bool {
		if runs[i].key != runs[j].key {
			return runs[i].key < runs[j].key
		}
		return runs[i].mod < runs[j].mod
	})
	return runs[len(runs)-1].path, nil
}
