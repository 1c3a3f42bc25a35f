package inbox

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/jaiph-go/jaiph/internal/redact"
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
			if d.Worker != "" {
				s += " on " + d.Worker
			}
			if d.Since != "" {
				s += " since " + d.Since
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

// Print writes the inbox of the run at runDir as a table, or as JSON.
func Print(w io.Writer, runDir string, asJSON bool, r *redact.Redactor) error {
	in, err := Read(runDir)
	if err != nil {
		return err
	}
	in.Mask(r)
	if asJSON {
		return WriteJSON(w, in)
	}
	return WriteText(w, in)
}

// Mask masks r's credentials in the messages' previews (the message files
// keep the payloads: a delivery needs them).
func (in *Inbox) Mask(r *redact.Redactor) {
	for i := range in.Messages {
		in.Messages[i].Preview = r.String(in.Messages[i].Preview)
	}
}
