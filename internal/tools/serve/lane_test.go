package serve

import (
	"context"
	"sync"
	"testing"
	"time"
)

// fakeSlices is a lane's clock: the slices that were started, ended by
// the test.
type fakeSlices struct {
	mu sync.Mutex
	fs []func()
}

func (c *fakeSlices) after(_ time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.fs = append(c.fs, f)
	return func() bool { return true }
}

func (c *fakeSlices) end(i int) {
	c.mu.Lock()
	f := c.fs[i]
	c.mu.Unlock()
	f()
}

// waitQueued waits until n runs wait for a place (a condition, polled).
func waitQueued(t *testing.T, l *lane, n int) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); l.queued() != n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d runs queued, want %d", l.queued(), n)
		}
	}
}

// TestLaneOrder: runs get the lane's places in the order they came; a
// place is given up when its run leaves or when its slice ends (once,
// whichever comes first); a run whose context ends stops waiting.
func TestLaneOrder(t *testing.T) {
	clock := &fakeSlices{}
	l := newLane(1)
	l.after = clock.after
	leaveA := l.enter(context.Background())

	entered := make(chan string, 3)
	leaves := make(chan func(), 3)
	for _, name := range []string{"B", "C"} {
		go func() {
			leave := l.enter(context.Background())
			entered <- name
			leaves <- leave
		}()
		waitQueued(t, l, map[string]int{"B": 1, "C": 2}[name])
	}
	leaveA()
	if got := <-entered; got != "B" {
		t.Fatalf("first in after A: %s, want B", got)
	}
	leaveB := <-leaves
	// B's slice ends: C starts while B still runs.
	clock.end(1)
	if got := <-entered; got != "C" {
		t.Fatalf("next in: %s, want C", got)
	}
	leaveC := <-leaves
	leaveB() // its place was given up already: nothing more
	leaveC()
	// The lane is empty: a new run starts at once.
	done := make(chan struct{})
	go func() { l.enter(context.Background())(); close(done) }()
	<-done

	// A run cancelled while it waits stops waiting.
	hold := l.enter(context.Background())
	ctx, cancel := context.WithCancel(context.Background())
	gone := make(chan struct{})
	go func() { l.enter(ctx)(); close(gone) }()
	waitQueued(t, l, 1)
	cancel()
	<-gone
	if l.queued() != 0 {
		t.Errorf("%d queued after the cancel", l.queued())
	}
	hold()
	if newLane(0) != nil {
		t.Error("JAIPH_SERVE_LANES=0 should make no lane")
	}
	newLane(0).enter(context.Background())() // no lane: never waits
}
