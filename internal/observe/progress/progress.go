package progress

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/fatih/color"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/shellscan"
)

// Style applies the reference's SGR pieces, or nothing without colour. A
// piece is the attribute's SGR, the text and a full reset `\e[0m`
// (docs/cli.md#the-progress-tree) — not fatih/color's attribute-specific
// resets such as `\e[22m`.
type Style struct {
	enabled bool
}

// NewStyle returns a style; colour is on only when enabled (stdout is a TTY
// and NO_COLOR is unset — the caller decides).
func NewStyle(enabled bool) *Style {
	return &Style{enabled: enabled}
}

func (s *Style) piece(a color.Attribute, t string) string {
	if !s.enabled {
		return t
	}
	return fmt.Sprintf("\x1b[%dm%s\x1b[0m", a, t)
}

// Dim, Bold, Green, Red and Yellow wrap text in one SGR piece.
func (s *Style) Dim(t string) string    { return s.piece(color.Faint, t) }
func (s *Style) Bold(t string) string   { return s.piece(color.Bold, t) }
func (s *Style) Green(t string) string  { return s.piece(color.FgGreen, t) }
func (s *Style) Red(t string) string    { return s.piece(color.FgRed, t) }
func (s *Style) Yellow(t string) string { return s.piece(color.FgYellow, t) }

// Tree writes progress lines for events. By default (non-TTY) each line
// ends with a newline and long steps get heartbeat lines once Start is
// called; with TTY(true) the lines are inserted above a live RUNNING line
// (live.go).
type Tree struct {
	mu     sync.Mutex
	w      io.Writer
	s      *Style
	prefix map[string]string // step id → prefix of its start line
	open   []*openStep       // non-root steps not yet ended, in start order

	tty   bool
	shown func(string) string // Printable: data never reaches the terminal raw
	hb    Heartbeat
	clock Clock

	// Live state, set by Start and Stop.
	started    time.Time
	live       bool // TTY: the RUNNING line is on screen
	partial    bool // TTY: stray stderr ended without a newline
	stopped    bool
	stop, done chan struct{}
}

// NewTree returns a renderer writing to w.
func NewTree(w io.Writer, s *Style, opts ...Option) *Tree {
	t := &Tree{w: w, s: s, prefix: map[string]string{}, hb: DefaultHeartbeat(), clock: realClock{}}
	for _, o := range opts {
		o(t)
	}
	// Data is escaped on a TTY and off it: output piped through `tee` or
	// into a CI log viewer reaches a terminal too (the reference printed
	// it raw everywhere).
	t.shown = Printable
	return t
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

func isRoot(e *event.Event) bool {
	return e.Kind == "workflow" && e.Name == "default" && e.ParentID == "" && e.Depth == 0
}

// startLabel is `<kind> <name>` on a start line, just the kind when the
// name equals it (end lines always show both).
func startLabel(s *Style, kind, name string) string {
	if kind == name {
		return s.Bold(kind)
	}
	return s.Bold(kind) + " " + name
}

// Event implements event.Observer.
func (t *Tree) Event(e *event.Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch e.Type {
	case event.StepStart:
		if isRoot(e) {
			return
		}
		p := Prefix(e.Depth)
		t.prefix[e.ID] = p
		t.open = append(t.open, &openStep{id: e.ID, kind: e.Kind, name: e.Name, prefix: p, started: t.clock.Now()})
		if e.Kind == "prompt" {
			t.line(fmt.Sprintf("%s%s %s", t.s.Dim(p), t.s.Dim("▸"), promptStart(t.s, e.Params, t.shown)))
		} else {
			on := ""
			if e.Worker != "" {
				on = " on " + t.shown(e.Worker) // a delivery a broker worker runs
			}
			t.line(fmt.Sprintf("%s%s %s%s", t.s.Dim(p), t.s.Dim("▸"), startLabel(t.s, e.Kind, e.Name), t.s.Dim(t.shown(FormatParams(e.Params, 0))+on)))
		}
	case event.StepEnd:
		if isRoot(e) {
			return
		}
		p, ok := t.prefix[e.ID]
		if !ok {
			p = Prefix(e.Depth)
		}
		delete(t.prefix, e.ID)
		t.closeStep(e.ID)
		text := fmt.Sprintf("%s %s (%ds)", e.Kind, e.Name, *e.ElapsedMS/1000)
		if e.Lost != "" {
			// A broker delivery's attempt that ended with its worker, not
			// with a status the target returned.
			text += " lost: " + e.Lost
		}
		if *e.Status == 0 && e.Lost == "" {
			t.line(fmt.Sprintf("%s%s %s", t.s.Dim(p), t.s.Green("✓"), t.s.Dim(text)))
		} else {
			t.line(fmt.Sprintf("%s%s", t.s.Dim(p), t.s.Red("✗ "+text)))
		}
	case event.StepReplayed: // jaiph resume: completed before, not run again
		t.line(fmt.Sprintf("%s%s %s", t.s.Dim(Prefix(e.Depth)), t.s.Dim("↺"), t.s.Dim(e.Kind+" "+e.Name+" (replayed)")))
	case event.Log:
		t.line(fmt.Sprintf("%s%s %s", t.s.Dim(Prefix(e.Depth)), t.s.Dim("ℹ"), t.shown(strings.TrimLeft(e.Message, "\n"))))
	case event.LogErr:
		t.line(fmt.Sprintf("%s%s", t.s.Dim(Prefix(e.Depth)), t.s.Red("! "+t.shown(strings.TrimLeft(e.Message, "\n")))))
	case event.ReceiveWait:
		t.line(fmt.Sprintf("%s%s", t.s.Dim(Prefix(e.Depth)), t.s.Yellow("⏸ waiting on "+t.shown(e.Channel+receiveDetail(e, "")))))
	case event.Receive:
		waited := (time.Duration(e.WaitedMS) * time.Millisecond).Round(100 * time.Millisecond).String()
		t.line(fmt.Sprintf("%s%s %s", t.s.Dim(Prefix(e.Depth)), t.s.Green("✉"), t.s.Dim("received on "+t.shown(e.Channel+receiveDetail(e, "waited "+waited)))))
	case event.PromptRetry, event.PromptIdle, event.InboxRetry, event.InboxDead:
		// Inside the prompt step (one level below its start line; for an
		// inbox, at its targets' level), through
		// line like every tree line, so a TTY's RUNNING line stays intact.
		t.line(fmt.Sprintf("%s%s", t.s.Dim(Prefix(e.Depth+1)), t.s.Yellow("! "+promptNotice(e))))
	}
}

// receiveDetail is ` (key K, timeout T)` of a RECEIVE_WAIT (with more
// instead of the timeout for a RECEIVE), "" when there is nothing to say.
func receiveDetail(e *event.Event, more string) string {
	var parts []string
	if e.Key != "" {
		parts = append(parts, "key "+e.Key)
	}
	if more == "" && e.Timeout != "" {
		parts = append(parts, "timeout "+e.Timeout)
	}
	if more != "" {
		parts = append(parts, more)
	}
	if len(parts) == 0 {
		return ""
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// promptNotice is the text of a PROMPT_RETRY, PROMPT_IDLE, INBOX_RETRY or
// INBOX_DEAD line.
func promptNotice(e *event.Event) string {
	ms := func(n int64) string { return (time.Duration(n) * time.Millisecond).String() }
	switch e.Type {
	case event.PromptIdle:
		return "prompt has produced no output for " + ms(e.IdleMS)
	case event.InboxRetry:
		return fmt.Sprintf("delivery of message %s (%s) to %s failed (attempt %d, exit %d); retrying in %s",
			e.InboxSeq, e.Channel, e.Target, e.Attempt, *e.Status, ms(e.DelayMS))
	case event.InboxDead:
		return fmt.Sprintf("message %s (%s) to %s is a dead letter after %d attempts (exit %d)",
			e.InboxSeq, e.Channel, e.Target, e.Attempt, *e.Status)
	}
	return fmt.Sprintf("prompt attempt %d failed (exit %d); retrying in %s", e.Attempt, *e.Status, ms(e.DelayMS))
}

// Shown is s as the tree shows data: escaped by Printable.
func (t *Tree) Shown(s string) string { return t.shown(s) }

// closeStep forgets an ended step for the heartbeat.
func (t *Tree) closeStep(id string) {
	for i, st := range t.open {
		if st.id == id {
			t.open = append(t.open[:i], t.open[i+1:]...)
			return
		}
	}
}

// FormatParams renders ` (1="a", 2="b")` from step params (docs/cli.md#the-progress-tree);
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
		case strings.HasPrefix(key, "arg") && shellscan.IsDigits(key[3:]):
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

func isPositionalKey(k string) bool {
	if strings.HasPrefix(k, "arg") && shellscan.IsDigits(k[3:]) {
		return true
	}
	return shellscan.IsDigits(k) && k[0] != '0'
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
		return strings.TrimSuffix(fixed1(d), ".0") + "s"
	}
	secs := int(d.Seconds())
	return fmt.Sprintf("%dm %ds", secs/60, secs%60)
}
