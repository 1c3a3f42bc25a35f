package inlets

// This file answers: when does a schedule start its workflow, and how
// does it start it once? Each schedule waits for its next tick and fires
// it; a tick is skipped while the schedule's earlier runs fill its cap.
// Ticks missed while the service was down are not made up for: the first
// tick is the first one after the start. A tick's start carries an
// Idempotency-Key made of the schedule's name and the tick's time, the same
// on every replica, so that on a broker the tick starts one run however
// many replicas fire it.

import (
	"context"
	"sync"
	"time"
)

// TickKey is the Idempotency-Key of a schedule's tick.
func TickKey(name string, tick time.Time) string {
	return "sched:" + name + ":" + tick.UTC().Format(time.RFC3339)
}

// Runs is what the scheduler asks of the service.
type Runs interface {
	// Start starts the schedule's workflow with the tick's key and returns
	// the run's id (the earlier run's, when the key started one already).
	Start(ctx context.Context, s *Schedule, key string) (runID string, err error)
	// Running tells whether the run has not ended.
	Running(ctx context.Context, runID string) bool
}

// Clock is the scheduler's time (tests drive their own).
type Clock interface {
	Now() time.Time
	After(d time.Duration) <-chan time.Time
}

type realClock struct{}

func (realClock) Now() time.Time                         { return time.Now() }
func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

// Scheduler fires schedules.
type Scheduler struct {
	Schedules []*Schedule
	Runs      Runs
	Log       func(format string, args ...any)
	Clock     Clock // nil: the real one

	mu       sync.Mutex
	inflight map[string][]string // schedule → runs it started that had not ended when last looked at
}

// Run fires every schedule until ctx ends.
func (s *Scheduler) Run(ctx context.Context) {
	var wg sync.WaitGroup
	for _, sc := range s.Schedules {
		wg.Add(1)
		go func() { defer wg.Done(); s.loop(ctx, sc) }()
	}
	wg.Wait()
}

func (s *Scheduler) clock() Clock {
	if s.Clock == nil {
		return realClock{}
	}
	return s.Clock
}

func (s *Scheduler) loop(ctx context.Context, sc *Schedule) {
	c := s.clock()
	now := c.Now()
	for {
		next := sc.Next(now)
		if next.IsZero() { // an expression that never fires (Feb 30)
			return
		}
		select {
		case <-ctx.Done():
			return
		case <-c.After(next.Sub(c.Now())):
		}
		s.Fire(ctx, sc, next)
		// A tick that went by while this one fired (a slow start) is
		// skipped, not fired late.
		if now = c.Now(); now.Before(next) {
			now = next
		}
	}
}

// Fire fires sc's tick: it starts the workflow unless the cap is reached.
// It returns the run's id, "" when skipped.
func (s *Scheduler) Fire(ctx context.Context, sc *Schedule, tick time.Time) (string, error) {
	s.mu.Lock()
	if s.inflight == nil {
		s.inflight = map[string][]string{}
	}
	var still []string
	for _, id := range s.inflight[sc.Name] {
		if s.Runs.Running(ctx, id) {
			still = append(still, id)
		}
	}
	s.inflight[sc.Name] = still
	if sc.Concurrency > 0 && len(still) >= sc.Concurrency {
		s.mu.Unlock()
		s.logf("audit schedule=%s tick=%s skipped: %d run(s) of it still going (concurrency %d): %v",
			sc.Name, tick.UTC().Format(time.RFC3339), len(still), sc.Concurrency, still)
		return "", nil
	}
	s.mu.Unlock()
	key := TickKey(sc.Name, tick)
	id, err := s.Runs.Start(ctx, sc, key)
	if err != nil {
		s.logf("audit schedule=%s tick=%s failed: %v", sc.Name, tick.UTC().Format(time.RFC3339), err)
		return "", err
	}
	s.mu.Lock()
	known := false
	for _, x := range s.inflight[sc.Name] {
		known = known || x == id
	}
	if !known {
		s.inflight[sc.Name] = append(s.inflight[sc.Name], id)
	}
	s.mu.Unlock()
	return id, nil
}

func (s *Scheduler) logf(format string, args ...any) {
	if s.Log != nil {
		s.Log(format, args...)
	}
}
