// Package progress renders the run's event stream as the reference's progress
// tree (cli.md §3–§6): step start/end lines, log lines, parameter display,
// the PASS line and the FAIL block. It only formats; the runtime decides what
// happens.
package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/fatih/color"

	"github.com/jaiph-go/jaiph/runtime"
)

// Style applies the reference's SGR pieces, or nothing without colour.
type Style struct {
	dim, bold, green, red, yellow *color.Color
}

// NewStyle returns a style; colour is on only when enabled (stdout is a TTY
// and NO_COLOR is unset — the caller decides).
func NewStyle(enabled bool) *Style {
	mk := func(a color.Attribute) *color.Color {
		c := color.New(a)
		if enabled {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
		return c
	}
	return &Style{dim: mk(color.Faint), bold: mk(color.Bold), green: mk(color.FgGreen), red: mk(color.FgRed), yellow: mk(color.FgYellow)}
}

// Dim, Bold, Green, Red and Yellow wrap text in one SGR piece.
func (s *Style) Dim(t string) string    { return s.dim.Sprint(t) }
func (s *Style) Bold(t string) string   { return s.bold.Sprint(t) }
func (s *Style) Green(t string) string  { return s.green.Sprint(t) }
func (s *Style) Red(t string) string    { return s.red.Sprint(t) }
func (s *Style) Yellow(t string) string { return s.yellow.Sprint(t) }

// Tree writes progress lines for events (non-TTY mode: one line each).
type Tree struct {
	mu     sync.Mutex
	w      io.Writer
	s      *Style
	prefix map[string]string // step id → prefix of its start line
}

// NewTree returns a renderer writing to w.
func NewTree(w io.Writer, s *Style) *Tree {
	return &Tree{w: w, s: s, prefix: map[string]string{}}
}

// Prefix returns P for depth d: I = "  · " × max(1,d) minus its last two
// characters.
func Prefix(d int) string {
	if d < 1 {
		d = 1
	}
	i := strings.Repeat("  · ", d)
	return i[:len(i)-len("· ")]
}

func isRoot(e *runtime.Event) bool {
	return e.Kind == "workflow" && e.Name == "default" && e.ParentID == "" && e.Depth == 0
}

func label(kind, name string) string {
	if kind == name {
		return kind
	}
	return kind + " " + name
}

// Event implements runtime.Observer.
func (t *Tree) Event(e *runtime.Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch e.Type {
	case runtime.StepStart:
		if isRoot(e) {
			return
		}
		p := Prefix(e.Depth)
		t.prefix[e.ID] = p
		fmt.Fprintf(t.w, "%s%s %s %s%s\n", t.s.Dim(p), t.s.Dim("▸"), t.s.Bold(e.Kind), e.Name, t.s.Dim(FormatParams(e.Params, 0)))
	case runtime.StepEnd:
		if isRoot(e) {
			return
		}
		p, ok := t.prefix[e.ID]
		if !ok {
			p = Prefix(e.Depth)
		}
		delete(t.prefix, e.ID)
		text := fmt.Sprintf("%s (%ds)", label(e.Kind, e.Name), *e.ElapsedMS/1000)
		if *e.Status == 0 {
			fmt.Fprintf(t.w, "%s%s %s\n", t.s.Dim(p), t.s.Green("✓"), t.s.Dim(text))
		} else {
			fmt.Fprintf(t.w, "%s%s\n", t.s.Dim(p), t.s.Red("✗ "+text))
		}
	case runtime.Log:
		fmt.Fprintf(t.w, "%s%s %s\n", t.s.Dim(Prefix(e.Depth)), t.s.Dim("ℹ"), strings.TrimLeft(e.Message, "\n"))
	case runtime.LogErr:
		fmt.Fprintf(t.w, "%s%s\n", t.s.Dim(Prefix(e.Depth)), t.s.Red("! "+strings.TrimLeft(e.Message, "\n")))
	}
}

// FormatParams renders ` (1="a", 2="b")` from step params (cli.md §4);
// cap > 0 limits the length.
func FormatParams(params [][2]string, cap int) string {
	type kv struct{ k, v string }
	var kept []kv
	allPositional := true
	for _, p := range params {
		v := p[1]
		if strings.HasSuffix(v, "::impl") || v == "jaiph::execute_readonly" || v == "jaiph::prompt_impl" {
			continue
		}
		v = strings.TrimPrefix(v, p[0]+"=")
		if strings.TrimSpace(v) == "" {
			continue
		}
		if !isPositionalKey(p[0]) {
			allPositional = false
		}
		kept = append(kept, kv{p[0], v})
	}
	if len(kept) == 0 {
		return ""
	}
	parts := make([]string, len(kept))
	for i, p := range kept {
		key := p.k
		switch {
		case allPositional:
			key = fmt.Sprint(i + 1)
		case strings.HasPrefix(key, "arg") && isDigits(key[3:]):
			key = key[3:]
		}
		parts[i] = key + `="` + displayValue(p.v) + `"`
	}
	out := " (" + strings.Join(parts, ", ") + ")"
	if cap > 0 && utf8.RuneCountInString(out) > cap {
		r := []rune(out)
		out = string(r[:cap-3]) + "..."
	}
	return out
}

func isDigits(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isPositionalKey(k string) bool {
	if strings.HasPrefix(k, "arg") && isDigits(k[3:]) {
		return true
	}
	return isDigits(k) && k[0] != '0'
}

// displayValue collapses white space, cuts after 32 characters and escapes.
func displayValue(v string) string {
	v = strings.Join(strings.Fields(v), " ")
	if r := []rune(v); len(r) > 32 {
		v = string(r[:32]) + "..."
	}
	v = strings.ReplaceAll(v, `\`, `\\`)
	return strings.ReplaceAll(v, `"`, `\"`)
}

// Duration renders a run duration: under 60 s one decimal with a trailing
// ".0" dropped, else "<m>m <s>s".
func Duration(d time.Duration) string {
	if d < time.Minute {
		s := fmt.Sprintf("%.1f", d.Seconds())
		return strings.TrimSuffix(s, ".0") + "s"
	}
	secs := int(d.Seconds())
	return fmt.Sprintf("%dm %ds", secs/60, secs%60)
}
