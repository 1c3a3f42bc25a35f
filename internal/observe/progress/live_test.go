package progress

import (
	"bytes"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jaiph-go/jaiph/internal/event"
)

// fakeClock is a manual clock whose ticker is an unbuffered channel the
// test feeds.
type fakeClock struct {
	mu      sync.Mutex
	now     time.Time
	period  time.Duration
	c       chan time.Time
	stopped bool
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC), c: make(chan time.Time)}
}

func (f *fakeClock) Now() time.Time {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.now
}

func (f *fakeClock) Ticker(d time.Duration) (<-chan time.Time, func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.period = d
	return f.c, func() {
		f.mu.Lock()
		defer f.mu.Unlock()
		f.stopped = true
	}
}

func (f *fakeClock) advance(d time.Duration) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.now = f.now.Add(d)
}

// syncBuffer is a writer safe for the ticker goroutine and the test.
type syncBuffer struct {
	mu     sync.Mutex
	b      bytes.Buffer
	writes int
	closed bool // writes after close are a test failure
	late   []string
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.writes++
	if s.closed {
		s.late = append(s.late, string(p))
	}
	return s.b.Write(p)
}

// waitWrites waits until n writes have happened (the ticker goroutine
// draws asynchronously).
func (s *syncBuffer) waitWrites(t *testing.T, n int) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		s.mu.Lock()
		got := s.writes
		s.mu.Unlock()
		if got >= n {
			return
		}
	}
	t.Fatalf("timed out waiting for %d writes", n)
}

func (s *syncBuffer) take() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := s.b.String()
	s.b.Reset()
	return out
}

func (s *syncBuffer) close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
}

func start(id, kind, name string, depth int, params ...[2]string) *event.Event {
	return &event.Event{Type: event.StepStart, ID: id, Kind: kind, Name: name, Depth: depth, ParentID: "p", Params: params}
}

func end(id, kind, name string, depth, status int, ms int64) *event.Event {
	return &event.Event{Type: event.StepEnd, ID: id, Kind: kind, Name: name, Depth: depth, ParentID: "p", Status: &status, ElapsedMS: &ms}
}

const (
	esc   = "\x1b["
	clear = "\r\x1b[K\x1b[1A\r\x1b[K"
)

func runningColour(t string) string {
	return esc + "33m▸ RUNNING" + esc + "0m" + esc + "1m workflow" + esc + "0m default " + esc + "2m(" + t + ")" + esc + "0m"
}

func runningPlain(t string) string { return "▸ RUNNING workflow default (" + t + ")" }

// TestTTYBytes checks the exact TTY byte sequence with colour: the RUNNING
// line after the root line, the one-second rewrite, a tree line inserted
// above it, stray stderr (a line, then a partial line) not echoed, and the
// final erase.
func TestTTYBytes(t *testing.T) {
	clk := newFakeClock()
	w := &syncBuffer{}
	tr := NewTree(w, NewStyle(true), TTY(true), WithClock(clk))
	stray := tr.StrayWriter(&bytes.Buffer{})
	t0 := clk.Now()
	tr.Start(t0)
	if got, want := w.take(), "\n"+runningColour("0.0s"); got != want {
		t.Fatalf("start:\n got %q\nwant %q", got, want)
	}
	if clk.period != time.Second {
		t.Fatalf("TTY ticker period %v, want 1s", clk.period)
	}

	clk.advance(time.Second)
	tr.tick()
	if got, want := w.take(), "\r"+runningColour("1.0s")+"\x1b[K"; got != want {
		t.Fatalf("tick:\n got %q\nwant %q", got, want)
	}

	clk.advance(250 * time.Millisecond)
	tr.Event(start("s1", "workflow", "slow", 1, [2]string{"1", "a"}))
	wantLine := esc + "2m  " + esc + "0m" + esc + "2m▸" + esc + "0m " + esc + "1mworkflow" + esc + "0m slow" + esc + `2m (1="a")` + esc + "0m"
	if got, want := w.take(), clear+wantLine+"\n\n"+runningColour("1.3s"); got != want {
		t.Fatalf("tree line:\n got %q\nwant %q", got, want)
	}

	clk.advance(100 * time.Millisecond)
	fmt.Fprint(stray, "oops\nagain\n")
	if got, want := w.take(), clear+runningColour("1.4s")+clear+runningColour("1.4s"); got != want {
		t.Fatalf("stray lines:\n got %q\nwant %q", got, want)
	}
	fmt.Fprint(stray, "partial")
	if got := w.take(); got != "" {
		t.Fatalf("a partial stray line wrote %q", got)
	}

	tr.Event(end("s1", "workflow", "slow", 1, 1, 1400))
	wantEnd := esc + "2m  " + esc + "0m" + esc + "31m✗ workflow slow (1s)" + esc + "0m"
	if got, want := w.take(), clear+wantEnd+"\n\n"+runningColour("1.4s"); got != want {
		t.Fatalf("end line:\n got %q\nwant %q", got, want)
	}

	tr.Stop()
	if got, want := w.take(), clear+runningColour("1.4s")+"\r\x1b[K"; got != want {
		t.Fatalf("stop:\n got %q\nwant %q", got, want)
	}
	tr.Stop()
	fmt.Fprint(stray, "after\n")
	tr.Event(&event.Event{Type: event.Log, Depth: 1, Message: "late"})
	if got, want := w.take(), esc+"2m  "+esc+"0m"+esc+"2mℹ"+esc+"0m late\n"; got != want {
		t.Fatalf("after stop:\n got %q\nwant %q", got, want)
	}
}

// TestTTYNoColour: a TTY with NO_COLOR keeps the RUNNING mechanics without
// SGR codes.
func TestTTYNoColour(t *testing.T) {
	clk := newFakeClock()
	w := &syncBuffer{}
	tr := NewTree(w, NewStyle(false), TTY(true), WithClock(clk))
	tr.Start(clk.Now().Add(-61500 * time.Millisecond))
	tr.Event(&event.Event{Type: event.LogErr, Depth: 2, Message: "\nbad"})
	clk.advance(time.Second)
	tr.tick()
	tr.Stop()
	want := "\n" + runningPlain("61.5s") +
		clear + "  ·   ! bad\n\n" + runningPlain("61.5s") +
		"\r" + runningPlain("62.5s") + "\x1b[K" +
		"\r\x1b[K"
	if got := w.take(); got != want {
		t.Fatalf("\n got %q\nwant %q", got, want)
	}
}

// TestTTYNoHeartbeat: in TTY mode ticks only redraw; long steps get no
// heartbeat lines.
func TestTTYNoHeartbeat(t *testing.T) {
	clk := newFakeClock()
	w := &syncBuffer{}
	tr := NewTree(w, NewStyle(false), TTY(true), WithClock(clk), WithHeartbeat(Heartbeat{Interval: time.Millisecond}))
	tr.Start(clk.Now())
	tr.Event(start("s1", "rule", "r", 1))
	w.take()
	clk.advance(90 * time.Second)
	tr.tick()
	if got, want := w.take(), "\r"+runningPlain("90.0s")+"\x1b[K"; got != want {
		t.Fatalf("\n got %q\nwant %q", got, want)
	}
	tr.Stop()
}

// TestLoop runs the ticker goroutine with the fake ticker: ticks are drawn,
// Stop stops the ticker, and nothing is written after Stop returns.
func TestLoop(t *testing.T) {
	clk := newFakeClock()
	w := &syncBuffer{}
	tr := NewTree(w, NewStyle(false), TTY(true), WithClock(clk))
	tr.Start(clk.Now())
	clk.advance(time.Second)
	clk.c <- clk.Now()
	w.waitWrites(t, 2)
	clk.advance(time.Second)
	clk.c <- clk.Now()
	w.waitWrites(t, 3)
	tr.Stop()
	w.close()
	want := "\n" + runningPlain("0.0s") + "\r" + runningPlain("1.0s") + "\x1b[K" + "\r" + runningPlain("2.0s") + "\x1b[K" + "\r\x1b[K"
	if got := w.take(); got != want {
		t.Fatalf("\n got %q\nwant %q", got, want)
	}
	clk.mu.Lock()
	stopped := clk.stopped
	clk.mu.Unlock()
	if !stopped {
		t.Fatal("ticker not stopped")
	}
	select {
	case clk.c <- clk.Now():
		t.Fatal("loop still receiving ticks after Stop")
	case <-time.After(20 * time.Millisecond):
	}
}

// TestStopWithoutStart: Stop is a no-op before Start, and Start after Stop
// does nothing.
func TestStopWithoutStart(t *testing.T) {
	w := &syncBuffer{}
	tr := NewTree(w, NewStyle(false), TTY(true))
	tr.Stop()
	tr.Start(time.Now())
	tr.Stop()
	if got := w.take(); got != "" {
		t.Fatalf("wrote %q", got)
	}
}

// TestRealClockRace drives the real ticker fast while events and stray
// stderr arrive from several goroutines (run with -race); nothing may be
// written after Stop.
func TestRealClockRace(t *testing.T) {
	for _, tty := range []bool{false, true} {
		w := &syncBuffer{}
		tr := NewTree(w, NewStyle(true), TTY(tty), WithHeartbeat(Heartbeat{Interval: time.Millisecond, Dim: true}))
		stray := tr.StrayWriter(&syncBuffer{})
		tr.Start(time.Now())
		var wg sync.WaitGroup
		for g := range 4 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 50 {
					id := fmt.Sprintf("%d-%d", g, i)
					tr.Event(start(id, "workflow", "w", 1+i%3))
					fmt.Fprint(stray, "x\n")
					time.Sleep(100 * time.Microsecond)
					tr.Event(end(id, "workflow", "w", 1+i%3, 0, 0))
				}
			}()
		}
		wg.Wait()
		tr.Stop()
		w.close()
		time.Sleep(5 * time.Millisecond)
		if len(w.late) > 0 {
			t.Fatalf("tty=%v: writes after Stop: %q", tty, w.late)
		}
	}
}

// TestHeartbeatSchedule: the first line once the step has run First, then
// only when Interval has passed since the last line; the prefix is the
// step's start prefix.
func TestHeartbeatSchedule(t *testing.T) {
	clk := newFakeClock()
	w := &syncBuffer{}
	tr := NewTree(w, NewStyle(false), WithClock(clk), WithHeartbeat(Heartbeat{First: 60 * time.Second, Interval: 30 * time.Second}))
	tr.Start(clk.Now())
	if clk.period != 30*time.Second {
		t.Fatalf("heartbeat period %v, want 30s", clk.period)
	}
	tr.Event(start("s1", "workflow", "slow", 2))
	if got := w.take(); got != "  ·   ▸ workflow slow\n" {
		t.Fatalf("start line %q", got)
	}
	var got []string
	for _, at := range []time.Duration{30, 59, 60, 75, 89, 91, 120, 150} {
		clk.mu.Lock()
		clk.now = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC).Add(at*time.Second + 500*time.Millisecond)
		clk.mu.Unlock()
		tr.tick()
		if s := w.take(); s != "" {
			got = append(got, fmt.Sprintf("%d:%s", at, s))
		}
	}
	want := []string{
		"60:  ·   · workflow slow (running 60s)\n",
		"91:  ·   · workflow slow (running 91s)\n",
		"150:  ·   · workflow slow (running 150s)\n",
	}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("\n got %q\nwant %q", got, want)
	}
	tr.Stop()
}

// TestHeartbeatSecondsGrow: with a short interval a line needs a larger
// whole-second count than the previous one.
func TestHeartbeatSecondsGrow(t *testing.T) {
	clk := newFakeClock()
	w := &syncBuffer{}
	tr := NewTree(w, NewStyle(false), WithClock(clk), WithHeartbeat(Heartbeat{First: 0, Interval: 250 * time.Millisecond}))
	tr.Event(start("s1", "rule", "check", 1))
	w.take()
	var lines []string
	for range 10 { // 0.25 s … 2.5 s
		clk.advance(250 * time.Millisecond)
		tr.tick()
		if s := w.take(); s != "" {
			lines = append(lines, s)
		}
	}
	want := []string{"  · rule check (running 0s)\n", "  · rule check (running 1s)\n", "  · rule check (running 2s)\n"}
	if strings.Join(lines, "") != strings.Join(want, "") {
		t.Fatalf("\n got %q\nwant %q", lines, want)
	}
}

// TestHeartbeatInnermost: the most recently started open step is reported;
// when it ends the previous one is again, with its own schedule; the root
// and ended steps never are.
func TestHeartbeatInnermost(t *testing.T) {
	clk := newFakeClock()
	w := &syncBuffer{}
	tr := NewTree(w, NewStyle(false), WithClock(clk), WithHeartbeat(Heartbeat{First: 0, Interval: time.Second}))
	tr.Event(&event.Event{Type: event.StepStart, ID: "root", Kind: "workflow", Name: "default"})
	clk.advance(5 * time.Second)
	tr.tick()
	if got := w.take(); got != "" {
		t.Fatalf("root heartbeat %q", got)
	}
	tr.Event(start("a", "workflow", "outer", 1))
	clk.advance(2 * time.Second)
	tr.tick()
	tr.Event(start("b", "workflow", "sib", 1)) // concurrent sibling
	clk.advance(3 * time.Second)
	tr.tick()
	tr.Event(end("a", "workflow", "outer", 1, 0, 5000)) // b stays innermost
	clk.advance(time.Second)
	tr.tick()
	tr.Event(start("c", "function", "inner", 2))
	tr.Event(end("c", "function", "inner", 2, 0, 0))
	clk.advance(time.Second)
	tr.tick()
	tr.Event(end("b", "workflow", "sib", 1, 0, 5000))
	clk.advance(time.Second)
	tr.tick()
	want := "  ▸ workflow outer\n" +
		"  · workflow outer (running 2s)\n" +
		"  ▸ workflow sib\n" +
		"  · workflow sib (running 3s)\n" +
		"  ✓ workflow outer (5s)\n" +
		"  · workflow sib (running 4s)\n" +
		"  ·   ▸ function inner\n" +
		"  ·   ✓ function inner (0s)\n" +
		"  · workflow sib (running 5s)\n" +
		"  ✓ workflow sib (5s)\n"
	if got := w.take(); got != want {
		t.Fatalf("\n got %q\nwant %q", got, want)
	}
}

// TestHeartbeatDim: the line is wholly dim unless NO_COLOR, whatever the
// tree's style (a non-TTY tree has no colour).
func TestHeartbeatDim(t *testing.T) {
	for _, dim := range []bool{true, false} {
		clk := newFakeClock()
		w := &syncBuffer{}
		tr := NewTree(w, NewStyle(false), WithClock(clk), WithHeartbeat(Heartbeat{First: time.Second, Interval: time.Second, Dim: dim}))
		tr.Event(start("s", "prompt", "prompt", 1))
		w.take()
		clk.advance(1999 * time.Millisecond)
		tr.tick()
		want := "  · prompt prompt (running 1s)"
		if dim {
			want = esc + "2m" + want + esc + "0m"
		}
		if got := w.take(); got != want+"\n" {
			t.Fatalf("dim=%v:\n got %q\nwant %q", dim, got, want+"\n")
		}
	}
}

func TestHeartbeatFromEnv(t *testing.T) {
	cases := []struct {
		first, interval *string
		noColor         *string
		want            Heartbeat
	}{
		{want: Heartbeat{60 * time.Second, 30 * time.Second, true}},
		{first: ptr("0"), interval: ptr("250"), want: Heartbeat{0, 250 * time.Millisecond, true}},
		{first: ptr(""), interval: ptr(""), noColor: ptr(""), want: Heartbeat{60 * time.Second, 30 * time.Second, false}},
		{first: ptr("-1"), interval: ptr("249"), want: Heartbeat{60 * time.Second, 30 * time.Second, true}},
		{first: ptr("abc"), interval: ptr("1s"), want: Heartbeat{60 * time.Second, 30 * time.Second, true}},
		{first: ptr(" 1.5 "), interval: ptr("1e3"), noColor: ptr("1"), want: Heartbeat{1500 * time.Millisecond, time.Second, false}},
		{first: ptr("Infinity"), interval: ptr("NaN"), want: Heartbeat{60 * time.Second, 30 * time.Second, true}},
		{first: ptr("  "), interval: ptr("0x100"), want: Heartbeat{0, 256 * time.Millisecond, true}},
		{first: ptr("-0"), interval: ptr("1_000"), want: Heartbeat{0, 30 * time.Second, true}},
		{first: ptr("0b11"), interval: ptr("-500"), want: Heartbeat{3 * time.Second, 30 * time.Second, true}},
	}
	for i, c := range cases {
		env := map[string]*string{"JAIPH_NON_TTY_HEARTBEAT_FIRST_SEC": c.first, "JAIPH_NON_TTY_HEARTBEAT_INTERVAL_MS": c.interval, "NO_COLOR": c.noColor}
		got := HeartbeatFromEnv(func(k string) (string, bool) {
			if v := env[k]; v != nil {
				return *v, true
			}
			return "", false
		})
		if got != c.want {
			t.Errorf("case %d: got %+v, want %+v", i, got, c.want)
		}
	}
}

func ptr(s string) *string { return &s }

func TestHeartbeatPeriod(t *testing.T) {
	if p := (Heartbeat{Interval: 30 * time.Second}).period(); p != 30*time.Second {
		t.Errorf("period %v", p)
	}
	if p := (Heartbeat{Interval: 3e9 * time.Millisecond}).period(); p != time.Millisecond {
		t.Errorf("period above Node's TIMEOUT_MAX %v, want 1ms", p)
	}
}

func TestFixed1(t *testing.T) {
	for ms, want := range map[int64]string{0: "0.0", 49: "0.0", 50: "0.1", 250: "0.3", 350: "0.3", 750: "0.8", 1050: "1.1", 1250: "1.3", 61949: "61.9", 61950: "62.0"} {
		if got := fixed1(time.Duration(ms) * time.Millisecond); got != want {
			t.Errorf("fixed1(%dms) = %q, want %q", ms, got, want)
		}
	}
	for d, want := range map[time.Duration]string{400 * time.Millisecond: "0.4s", 2 * time.Second: "2s", 1250 * time.Millisecond: "1.3s", 75 * time.Second: "1m 15s"} {
		if got := Duration(d); got != want {
			t.Errorf("Duration(%v) = %q, want %q", d, got, want)
		}
	}
}
