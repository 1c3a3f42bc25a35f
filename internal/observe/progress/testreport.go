package progress

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/fatih/color"
)

// Grey wraps text in the bright-black SGR piece (`\e[90m`) that
// expectEqual uses for the expected side.
func (s *Style) Grey(t string) string { return s.piece(color.FgHiBlack, t) }

// TestReport writes the `jaiph test` transcript (docs/cli.md#jaiph-test): a
// `testing <file>` header per file, the ▸ line and result of each finished
// test, and the file's summary.
type TestReport struct {
	w      io.Writer
	s      *Style
	total  int
	failed []string
}

// NewTestReport returns a report writing to w.
func NewTestReport(w io.Writer, s *Style) *TestReport {
	return &TestReport{w: w, s: s}
}

// StartFile writes the header of a test file (its base name).
func (r *TestReport) StartFile(name string) {
	r.total, r.failed = 0, nil
	fmt.Fprintf(r.w, "%s\n", r.s.Bold("testing "+name))
}

// Test writes one finished test: its description, then `✓ <s>s`, or on
// failure `✗ <first stderr line> <s>s`, the further stderr lines indented
// and an empty line.
func (r *TestReport) Test(description string, failed bool, stderr string, elapsed time.Duration) {
	r.total++
	secs := r.s.Dim(fmt.Sprintf("%ds", int(elapsed.Seconds())))
	fmt.Fprintf(r.w, "  ▸ %s\n", Printable(description))
	if !failed {
		fmt.Fprintf(r.w, "  %s %s\n", r.s.Green("✓"), secs)
		return
	}
	r.failed = append(r.failed, description)
	// The test's stderr is data (a workflow's, a value an expectation
	// shows): escaped, so that it cannot drive the terminal, but for the
	// colours of expectEqual's sides when colour is on.
	shown := Printable(stderr)
	if r.s.enabled {
		shown = printableKeepColour(stderr)
	}
	lines := strings.Split(strings.TrimRight(shown, "\n"), "\n")
	if lines[0] == "" {
		fmt.Fprintf(r.w, "  %s %s\n", r.s.Red("✗"), secs)
	} else {
		fmt.Fprintf(r.w, "  %s %s %s\n", r.s.Red("✗"), lines[0], secs)
	}
	for _, l := range lines[1:] {
		fmt.Fprintf(r.w, "    %s\n", l)
	}
	fmt.Fprintln(r.w)
}

// EndFile writes the file's summary and reports whether a test failed.
func (r *TestReport) EndFile() (anyFailed bool) {
	if len(r.failed) == 0 {
		fmt.Fprintf(r.w, "%s\n", r.s.Bold(r.s.Green(fmt.Sprintf("✓ %d test(s) passed", r.total))))
		return false
	}
	fmt.Fprintf(r.w, "\n%s\n", r.s.Bold(r.s.Red(fmt.Sprintf("✗ %d / %d test(s) failed", len(r.failed), r.total))))
	for _, d := range r.failed {
		fmt.Fprintf(r.w, "  - %s\n", d)
	}
	return true
}
