package inlets

// This file answers: when will the schedules fire? `jaiph schedules FILE`
// shows it before the file is given to jaiph serve.

import (
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
)

// SchedulesHelp is `jaiph schedules --help`'s text.
const SchedulesHelp = `Print the next fire times of every schedule in FILE, an inlets file of
jaiph serve --inlets (docs/serve.md, "Inlets: webhooks and schedules"), in
the schedule's time zone and in UTC. The file is checked as jaiph serve
checks it (but its webhooks' secrets are not read): a mistake is printed as
FILE:LINE:COL and exits 1.`

// Command is `jaiph schedules`; fail makes its error the command's (as
// cmd/jaiph reports a command's failure).
func Command(stdout io.Writer, fail func(name string, err error) error) *cobra.Command {
	var next int
	cmd := &cobra.Command{Use: "schedules FILE [--next N]", Short: "Print the next fire times of the schedules in an inlets file",
		Long: SchedulesHelp, Args: cobra.ExactArgs(1),
		RunE: func(_ *cobra.Command, args []string) error {
			return fail("schedules", PrintNext(stdout, args[0], next, time.Now()))
		}}
	cmd.Flags().IntVar(&next, "next", 5, "how many fire times of each schedule (`N`)")
	return cmd
}

// PrintNext prints the n next fire times after now of the schedules in
// file.
func PrintNext(w io.Writer, file string, n int, now time.Time) error {
	if n < 1 {
		return fmt.Errorf("--next %d: want at least 1", n)
	}
	c, err := Load(file)
	if err != nil {
		return err
	}
	if len(c.Schedules) == 0 {
		fmt.Fprintf(w, "%s: no schedules\n", file)
		return nil
	}
	for i, s := range c.Schedules {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "%s (%s, %s) starts %s:\n", s.Name, s.Spec, s.Location, s.Workflow)
		t := now
		for range n {
			if t = s.Next(t); t.IsZero() {
				fmt.Fprintln(w, "  never")
				break
			}
			fmt.Fprintf(w, "  %s  %s\n", t.Format("2006-01-02 15:04:05 MST Mon"), t.UTC().Format(time.RFC3339))
		}
	}
	return nil
}
