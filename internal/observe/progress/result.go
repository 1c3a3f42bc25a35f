package progress

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/jaiph-go/jaiph/internal/store/inbox"
)

// This file renders what `jaiph run` prints around the tree (docs/cli.md#the-result):
// the header, the PASS line and the FAIL block, from plain inputs.

// Header prints the run's banner and root line: "Jaiph: Running <source>"
// and "workflow default" with the run's arguments dimmed (only when there
// are any).
func (t *Tree) Header(source string, args []string) {
	params := make([][2]string, len(args))
	for i, a := range args {
		params[i] = [2]string{fmt.Sprint(i + 1), a}
	}
	suffix := ""
	if len(args) > 0 {
		suffix = t.s.Dim(t.Shown(FormatParams(params, 0)))
	}
	fmt.Fprintf(t.w, "\nJaiph: Running %s\n\n%s default%s\n", t.Shown(source), t.s.Bold("workflow"), suffix)
}

// Pass prints the PASS line of a run that took elapsed.
func Pass(w io.Writer, s *Style, elapsed time.Duration) {
	fmt.Fprintf(w, "%s %s\n", s.Green("✓ PASS"), s.Dim("workflow default ("+Duration(elapsed)+")"))
}

// Failure is what the FAIL block shows.
type Failure struct {
	Elapsed time.Duration
	// Summary is shown when there is neither failed-step output nor stray
	// stderr ("Workflow execution failed.").
	Summary string
	// Signal names the signal that interrupted the run ("SIGINT"; "" when
	// none): `Process terminated by signal SIGINT` is then always the
	// block's first line, also when a failed step's output or stray stderr
	// would take the summary's place, since those alone would not tell an
	// interrupted run from a failed one.
	Signal string
	// StrayLine is the last non-blank line of the run's stray stderr.
	StrayLine string
	// RunDir is the run directory ("" when no step ran); LastOut and
	// LastErr are its last .out and .err artifacts.
	RunDir, LastOut, LastErr string
	// FailedOut and FailedErr are the out_content and err_content of the
	// first failed step (nil when absent).
	FailedOut, FailedErr *string
}

// Fail prints the FAIL block (docs/cli.md#the-result).
func Fail(w io.Writer, s *Style, f Failure) {
	fmt.Fprintf(w, "\n%s workflow default (%s)\n", s.Red("✗ FAIL"), Duration(f.Elapsed))
	failed := failedOutput(f.FailedOut, f.FailedErr)
	if f.Signal != "" {
		fmt.Fprintf(w, "  Process terminated by signal %s\n", f.Signal)
	} else if failed == "" {
		summary := f.Summary
		if f.StrayLine != "" {
			summary = f.StrayLine
		}
		fmt.Fprintf(w, "  %s\n", Printable(summary))
	}
	if f.RunDir != "" {
		fmt.Fprintf(w, "  Logs: %s\n", Printable(f.RunDir))
		fmt.Fprintf(w, "  Summary: %s\n", Printable(f.RunDir+"/run_summary.jsonl"))
		if f.LastOut != "" {
			fmt.Fprintf(w, "    out: %s\n", Printable(f.LastOut))
		}
		if f.LastErr != "" {
			fmt.Fprintf(w, "    err: %s\n", Printable(f.LastErr))
		}
		deadLetters(w, f.RunDir)
	}
	if failed != "" {
		fmt.Fprintf(w, "\n  Output of failed step:\n")
		// The step's output is data, shown escaped like the tree's; its
		// artifacts keep the bytes.
		for _, l := range strings.Split(failed, "\n") {
			fmt.Fprintf(w, "    %s\n", Printable(l))
		}
	}
}

// deadLetters lists the run's dead letters (run.inbox_retries), read back
// from its inbox like `jaiph inbox` does, and how to deliver them again.
func deadLetters(w io.Writer, runDir string) {
	dead := inbox.Dead(runDir)
	if len(dead) == 0 {
		return
	}
	fmt.Fprintf(w, "  Dead letters (%d):\n", len(dead))
	for _, d := range dead {
		fmt.Fprintf(w, "    %s %s -> %s (%d attempts, exit %d)\n", d.Seq, d.Channel, d.Target, d.Attempts, d.Status)
	}
	fmt.Fprintf(w, "  Redrive them: jaiph redrive %s\n", runDir)
}

// failedOutput is the output of the first failed step: out and err
// contents, each right-trimmed and cut to its last 30 lines.
func failedOutput(contents ...*string) string {
	var parts []string
	for _, c := range contents {
		if c == nil {
			continue
		}
		s := strings.TrimRight(*c, " \t\r\n")
		if s == "" {
			continue
		}
		lines := strings.Split(s, "\n")
		if len(lines) > 30 {
			lines = lines[len(lines)-30:]
		}
		parts = append(parts, strings.Join(lines, "\n"))
	}
	return strings.Join(parts, "\n")
}

// StrayLog passes what reaches the run's stderr outside step artifacts on
// to w and remembers what the FAIL block needs: whether there was any, and
// its last non-blank line (the first strayLineMax bytes of it), so a huge
// stray output costs no memory.
type StrayLog struct {
	mu   sync.Mutex
	w    io.Writer
	n    int64
	cur  []byte // the line being written
	last string // the last complete non-blank line, trimmed
}

const strayLineMax = 64 << 10

// NewStrayLog returns a StrayLog writing to w.
func NewStrayLog(w io.Writer) *StrayLog { return &StrayLog{w: w} }

func (s *StrayLog) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n += int64(len(p))
	for rest := p; len(rest) > 0; {
		line, after, complete := bytes.Cut(rest, []byte{'\n'})
		if room := strayLineMax - len(s.cur); room > 0 {
			s.cur = append(s.cur, line[:min(room, len(line))]...)
		}
		if !complete {
			break
		}
		if t := strings.TrimSpace(string(s.cur)); t != "" {
			s.last = t
		}
		s.cur, rest = s.cur[:0], after
	}
	return s.w.Write(p)
}

// Len is the number of bytes written.
func (s *StrayLog) Len() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// LastLine is the last non-blank line, trimmed.
func (s *StrayLog) LastLine() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := strings.TrimSpace(string(s.cur)); t != "" {
		return t
	}
	return s.last
}
