package serve

// This file answers: in what order do admitted runs start executing?

import (
	"context"
	"sync"
	"time"
)

// laneSlice is how long a run keeps its place in the lane: a trivial run
// ends well within it, a long one (an agent's prompt) gives its place up
// and goes on beside the lane, so it never holds others back.
const laneSlice = 50 * time.Millisecond

// lane lets runs start executing in the order they arrived, at most n at a
// time. Why: with many runs at once the Go scheduler favours the newest
// goroutines, so some trivial runs waited ten times the median (server
// side, 32 clients: p50 8 ms, p90 60 ms, p99 123 ms); started in order,
// 2 at a time, they all take about the same time (p50 29 ms, p99 63 ms) at
// the same throughput (docs/performance.md, "jaiph serve").
type lane struct {
	places chan struct{}
	slice  time.Duration
	// after runs f after d, returning a stop (time.AfterFunc; tests pass
	// a clock of their own).
	after func(d time.Duration, f func()) (stop func() bool)

	mu      sync.Mutex
	waiting int // runs queued for a place (tests read it)
}

// newLane is a lane of n places (n ≤ 0: no lane, every run starts at once).
func newLane(n int) *lane {
	if n <= 0 {
		return nil
	}
	return &lane{places: make(chan struct{}, n), slice: laneSlice,
		after: func(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }}
}

// enter waits for a place, in arrival order (blocked channel senders are
// served first come, first served), or for ctx to end (a cancelled run
// starts at once and ends as cancelled). leave gives the place up; the
// slice gives it up sooner.
func (l *lane) enter(ctx context.Context) (leave func()) {
	if l == nil {
		return func() {}
	}
	l.mu.Lock()
	l.waiting++
	l.mu.Unlock()
	select {
	case l.places <- struct{}{}:
	case <-ctx.Done():
		l.mu.Lock()
		l.waiting--
		l.mu.Unlock()
		return func() {}
	}
	l.mu.Lock()
	l.waiting--
	l.mu.Unlock()
	var once sync.Once
	give := func() { once.Do(func() { <-l.places }) }
	stop := l.after(l.slice, give)
	return func() {
		stop()
		give()
	}
}

// queued is how many runs wait for a place.
func (l *lane) queued() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.waiting
}
