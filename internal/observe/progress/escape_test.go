package progress

import (
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/internal/event"
)

func TestPrintable(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"plain ASCII", "hello, world", "hello, world"},
		{"tab and newline stay", "a\tb\nc", "a\tb\nc"},
		{"UTF-8 stays", "héllo ✓ ℹ �", "héllo ✓ ℹ �"},
		{"SGR colour", "\x1b[31mred\x1b[0m", `\x1b[31mred\x1b[0m`},
		{"OSC title with BEL", "\x1b]0;title\a", `\x1b]0;title\a`},
		{"CR, BS, VT, FF", "a\rb\bc\vd\fe", `a\rb\bc\vd\fe`},
		{"other C0 and DEL", "\x00\x01\x1f\x7f", `\x00\x01\x1f\x7f`},
		{"C1 CSI and NEL", "\u009b31m\u0085", `\u009b31m\u0085`},
		{"invalid UTF-8 bytes", "a\xff\xfeb\xc3", `a\xff\xfeb\xc3`},
		{"a backslash is kept", `C:\dir`, `C:\dir`},
	}
	for _, tt := range tests {
		if got := Printable(tt.in); got != tt.want {
			t.Errorf("%s: Printable(%q) = %q, want %q", tt.name, tt.in, got, tt.want)
		}
	}
}

// TestTreeEscapes: arguments, prompt previews and log text holding
// escapes are shown escaped, on a TTY and off it (output piped through tee
// reaches a terminal too); the tree's own colour codes stay.
func TestTreeEscapes(t *testing.T) {
	events := []*event.Event{
		start("s1", "workflow", "x", 1, [2]string{"1", "\x1b[31mred"}),
		start("s2", "prompt", "prompt", 2, [2]string{"__preview", "say \x1b]0;t\a"}, [2]string{"1", "a\x7fb"}),
		{Type: event.Log, Depth: 1, Message: "\x1b]0;title\a done\r"},
		{Type: event.LogErr, Depth: 1, Message: "bad \xff\x1b[2J"},
	}
	tests := []struct {
		name        string
		tty, colour bool
		lines       []string
	}{
		{"TTY", true, false, []string{
			`  ▸ workflow x (1="\x1b[31mred")`,
			`  ·   ▸ prompt "say \x1b]0;t\a" (1="a\x7fb")`,
			`  ℹ \x1b]0;title\a done\r`,
			`  ! bad \xff\x1b[2J`}},
		{"TTY with colour", true, true, []string{
			esc + "2m  " + esc + "0m" + esc + "2m▸" + esc + "0m " + esc + "1mworkflow" + esc + "0m x" + esc + `2m (1="\x1b[31mred")` + esc + "0m",
			esc + "2m  ·   " + esc + "0m" + esc + "2m▸" + esc + "0m " + esc + "1mprompt" + esc + `0m "say \x1b]0;t\a"` + esc + `2m (1="a\x7fb")` + esc + "0m",
			esc + "2m  " + esc + "0m" + esc + "2mℹ" + esc + `0m \x1b]0;title\a done\r`,
			esc + "2m  " + esc + "0m" + esc + `31m! bad \xff\x1b[2J` + esc + "0m"}},
		{"not a TTY", false, false, []string{
			`  ▸ workflow x (1="\x1b[31mred")`,
			`  ·   ▸ prompt "say \x1b]0;t\a" (1="a\x7fb")`,
			`  ℹ \x1b]0;title\a done\r`,
			`  ! bad \xff\x1b[2J`}},
	}
	for _, tt := range tests {
		clk := newFakeClock()
		w := &syncBuffer{}
		tr := NewTree(w, NewStyle(tt.colour), TTY(tt.tty), WithClock(clk))
		tr.Start(clk.Now())
		w.take()
		for _, e := range events {
			tr.Event(e)
		}
		var want strings.Builder
		for _, l := range tt.lines {
			switch {
			case !tt.tty:
				want.WriteString(l + "\n")
			case tt.colour:
				want.WriteString(clear + l + "\n\n" + runningColour("0.0s"))
			default:
				want.WriteString(clear + l + "\n\n" + runningPlain("0.0s"))
			}
		}
		if got := w.take(); got != want.String() {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, want.String())
		}
		tr.Stop()
	}
}

// TestFailBlockEscapes: the FAIL block shows the failed step's output and
// the stray line escaped; the artifacts keep the bytes.
func TestFailBlockEscapes(t *testing.T) {
	out, errText := "got pay\x1b]0;pwned\aload", "bad\x1b[31m red"
	var b strings.Builder
	Fail(&b, NewStyle(false), Failure{Summary: "x", RunDir: "/r", FailedOut: &out, FailedErr: &errText})
	for _, want := range []string{"    got pay\\x1b]0;pwned\\aload\n", "    bad\\x1b[31m red\n"} {
		if !strings.Contains(b.String(), want) {
			t.Errorf("FAIL block lacks %q:\n%s", want, b.String())
		}
	}
	b.Reset()
	Fail(&b, NewStyle(false), Failure{Summary: "x", StrayLine: "oops\x1b[2J"})
	if !strings.Contains(b.String(), "  oops\\x1b[2J\n") {
		t.Errorf("stray line not escaped:\n%s", b.String())
	}
}

// TestTestReportEscapes: a failed test's stderr is escaped; with colour on,
// the report's own SGR colours (expectEqual's sides) stay and nothing else
// does.
func TestTestReportEscapes(t *testing.T) {
	s := NewStyle(true)
	stderr := "expectEqual failed:\n" + s.Grey("- a\x1b]0;t\a") + "\n" + s.Red("+ b\x1b[2J") + "\n"
	var b strings.Builder
	NewTestReport(&b, s).Test("d\x1b[1A", true, stderr, 0)
	got := b.String()
	for _, want := range []string{"▸ d\\x1b[1A\n", "\x1b[90m- a\\x1b]0;t\\a\x1b[0m", "\x1b[31m+ b\\x1b[2J\x1b[0m"} {
		if !strings.Contains(got, want) {
			t.Errorf("report lacks %q:\n%q", want, got)
		}
	}
	b.Reset()
	NewTestReport(&b, NewStyle(false)).Test("d", true, "x\x1b[31my", 0)
	if !strings.Contains(b.String(), `x\x1b[31my`) {
		t.Errorf("colour off: SGR from data not escaped: %q", b.String())
	}
}
