package progress

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"time"
)

// The live part of the display (docs/cli.md#the-progress-tree): the TTY RUNNING line and the
// non-TTY heartbeat. Both run from one ticker goroutine started by
// Tree.Start and ended by Tree.Stop; every write goes through the Tree's
// mutex, so tree lines, redraws and heartbeats never interleave.

// clearArea erases the RUNNING line and the empty line above it, leaving
// the cursor where the next tree line goes.
const clearArea = "\r\x1b[K\x1b[1A\r\x1b[K"

// Option configures a Tree.
type Option func(*Tree)

// TTY puts the tree in terminal mode: once started, a RUNNING line stays at
// the bottom, tree lines are inserted above it, stray stderr is not echoed
// and there are no heartbeats.
func TTY(on bool) Option { return func(t *Tree) { t.tty = on } }

// WithHeartbeat sets the non-TTY heartbeat schedule (default
// DefaultHeartbeat).
func WithHeartbeat(h Heartbeat) Option { return func(t *Tree) { t.hb = h } }

// WithClock replaces the real time source (for tests).
func WithClock(c Clock) Option { return func(t *Tree) { t.clock = c } }

// Clock is the time source of the live display.
type Clock interface {
	Now() time.Time
	// Ticker delivers a tick every d until stop is called.
	Ticker(d time.Duration) (c <-chan time.Time, stop func())
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) Ticker(d time.Duration) (<-chan time.Time, func()) {
	tk := time.NewTicker(d)
	return tk.C, tk.Stop
}

// Heartbeat is the non-TTY heartbeat schedule: every Interval the innermost
// open step is checked; it gets a line once it has run First (compared in
// whole seconds), then whenever Interval has passed since its last line and
// its second count grew.
type Heartbeat struct {
	First    time.Duration
	Interval time.Duration
	Dim      bool // the whole line dim (NO_COLOR unset; the TTY does not matter)
}

// DefaultHeartbeat is 60 s, then every 30 s, dim.
func DefaultHeartbeat() Heartbeat {
	return Heartbeat{First: 60 * time.Second, Interval: 30 * time.Second, Dim: true}
}

// HeartbeatFromEnv reads JAIPH_NON_TTY_HEARTBEAT_FIRST_SEC (seconds, ≥ 0,
// else 60), JAIPH_NON_TTY_HEARTBEAT_INTERVAL_MS (≥ 250, else 30000) and
// NO_COLOR through lookup (os.LookupEnv). Values are read as JavaScript's
// Number() reads them, as the reference does.
func HeartbeatFromEnv(lookup func(string) (string, bool)) Heartbeat {
	h := DefaultHeartbeat()
	if raw, ok := lookup("JAIPH_NON_TTY_HEARTBEAT_FIRST_SEC"); ok && raw != "" {
		if n, ok := jsNumber(raw); ok && n >= 0 {
			h.First = scale(n, time.Second)
		}
	}
	if raw, ok := lookup("JAIPH_NON_TTY_HEARTBEAT_INTERVAL_MS"); ok && raw != "" {
		if n, ok := jsNumber(raw); ok && n >= 250 {
			h.Interval = scale(n, time.Millisecond)
		}
	}
	_, noColor := lookup("NO_COLOR")
	h.Dim = !noColor
	return h
}

// period is how often the heartbeat is checked: the interval, except that
// Node runs intervals above 2^31−1 ms every millisecond.
func (h Heartbeat) period() time.Duration {
	if h.Interval > math.MaxInt32*time.Millisecond {
		return time.Millisecond
	}
	return h.Interval
}

// jsNumber converts like JavaScript's Number(s) and reports whether the
// result is finite.
func jsNumber(s string) (float64, bool) {
	s = strings.TrimSpace(s)
	if s == "" {
		return 0, true
	}
	if len(s) > 2 && s[0] == '0' {
		base := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[s[1]]
		if base != 0 {
			if strings.ContainsRune(s, '_') {
				return 0, false
			}
			u, err := strconv.ParseUint(s[2:], base, 64)
			if err != nil && u != math.MaxUint64 { // syntax error; on overflow u saturates
				return 0, false
			}
			return float64(u), true
		}
	}
	if strings.ContainsRune(s, '_') {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, false
	}
	return f, true
}

// scale converts n units to a duration, saturating.
func scale(n float64, unit time.Duration) time.Duration {
	d := n * float64(unit)
	if d >= math.MaxInt64 {
		return math.MaxInt64
	}
	return time.Duration(d)
}

// openStep is a started, not yet ended, non-root step.
type openStep struct {
	id, kind, name, prefix string
	started                time.Time
	beaten                 bool // a heartbeat line was printed
	lastBeat               time.Time
	lastSec                int64
}

// Start begins the live display once the root line is written. In TTY mode
// it writes an empty line and the RUNNING line and redraws that every
// second; otherwise it checks for heartbeats every interval. started is when
// the run began (the RUNNING time counts from it). Call Stop before the
// result line.
func (t *Tree) Start(started time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stop != nil || t.stopped {
		return
	}
	t.started = started
	period := t.hb.period()
	if t.tty {
		period = time.Second
		t.live = true
		io.WriteString(t.w, "\n"+t.running())
	}
	c, stopTicker := t.clock.Ticker(period)
	t.stop, t.done = make(chan struct{}), make(chan struct{})
	go t.loop(c, stopTicker, t.stop, t.done)
}

// Stop ends the live display: the ticker goroutine is gone when it returns,
// and in TTY mode the RUNNING line is erased (`\r\e[K`). Safe to call more
// than once and without Start.
func (t *Tree) Stop() {
	t.mu.Lock()
	if t.stopped || t.stop == nil {
		t.stopped = true
		t.mu.Unlock()
		return
	}
	t.stopped = true
	if t.live {
		if t.partial {
			io.WriteString(t.w, clearArea+t.running())
		}
		io.WriteString(t.w, "\r\x1b[K")
		t.live = false
	}
	stop, done := t.stop, t.done
	t.mu.Unlock()
	close(stop)
	<-done
}

func (t *Tree) loop(c <-chan time.Time, stopTicker func(), stop, done chan struct{}) {
	defer close(done)
	defer stopTicker()
	for {
		select {
		case <-stop:
			return
		case <-c:
			t.tick()
		}
	}
}

// tick redraws the RUNNING line (TTY) or checks the heartbeat.
func (t *Tree) tick() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.stopped {
		return
	}
	if t.live {
		io.WriteString(t.w, "\r"+t.running()+"\x1b[K")
		return
	}
	if !t.tty {
		t.heartbeat()
	}
}

// line writes one tree line: above the RUNNING line when live, else plainly.
func (t *Tree) line(s string) {
	if t.live {
		io.WriteString(t.w, clearArea+s+"\n\n"+t.running())
		return
	}
	io.WriteString(t.w, s+"\n")
}

// running is the RUNNING line: `▸ RUNNING workflow default (X.Xs)`.
func (t *Tree) running() string {
	return t.s.Yellow("▸ RUNNING") + t.s.Bold(" workflow") + " default " + t.s.Dim("("+fixed1(t.clock.Now().Sub(t.started))+"s)")
}

// heartbeat prints a heartbeat line for the innermost open step if due.
func (t *Tree) heartbeat() {
	if len(t.open) == 0 {
		return
	}
	st := t.open[len(t.open)-1]
	now := t.clock.Now()
	sec := int64(now.Sub(st.started) / time.Second)
	if time.Duration(sec)*time.Second < t.hb.First {
		return
	}
	if st.beaten && (now.Sub(st.lastBeat) < t.hb.Interval || sec <= st.lastSec) {
		return
	}
	st.beaten, st.lastBeat, st.lastSec = true, now, sec
	text := fmt.Sprintf("%s· %s %s (running %ds)", st.prefix, st.kind, st.name, sec)
	if t.hb.Dim {
		text = dimOn.Dim(text)
	}
	io.WriteString(t.w, text+"\n")
}

// dimOn dims heartbeat lines whatever the tree's own style.
var dimOn = NewStyle(true)

// StrayWriter returns where stray stderr is shown. Without TTY mode that is
// w. In TTY mode nothing is echoed: for each line the RUNNING area is
// cleared and the RUNNING line redrawn (the caller keeps the text for the
// FAIL summary).
func (t *Tree) StrayWriter(w io.Writer) io.Writer {
	if !t.tty {
		return w
	}
	return strayTTY{t}
}

// NoticeWriter returns where jaiph's own messages during a run go (hook
// failures): w itself, but in TTY mode each write first clears the RUNNING
// area and is followed by the RUNNING line again, as tree lines are, so the
// message does not land inside the RUNNING line.
func (t *Tree) NoticeWriter(w io.Writer) io.Writer {
	if !t.tty {
		return w
	}
	return noticeTTY{t, w}
}

type noticeTTY struct {
	t *Tree
	w io.Writer
}

func (n noticeTTY) Write(p []byte) (int, error) {
	t := n.t
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.live {
		return n.w.Write(p)
	}
	io.WriteString(t.w, clearArea)
	k, err := n.w.Write(p)
	io.WriteString(t.w, "\n"+t.running())
	return k, err
}

type strayTTY struct{ t *Tree }

func (s strayTTY) Write(p []byte) (int, error) {
	t := s.t
	t.mu.Lock()
	defer t.mu.Unlock()
	if !t.live || len(p) == 0 {
		return len(p), nil
	}
	for range bytes.Count(p, []byte{'\n'}) {
		io.WriteString(t.w, clearArea+t.running())
	}
	t.partial = p[len(p)-1] != '\n'
	return len(p), nil
}

// fixed1 renders d in seconds with one decimal as JavaScript's toFixed(1)
// does for whole milliseconds (an exact half rounds up).
func fixed1(d time.Duration) string {
	ms := d.Milliseconds()
	if ms < 0 {
		ms = 0
	}
	if ms%500 == 250 { // ms/1000 is exactly representable and halfway
		n := ms/100 + 1
		return fmt.Sprintf("%d.%d", n/10, n%10)
	}
	return strconv.FormatFloat(float64(ms)/1000, 'f', 1, 64)
}
