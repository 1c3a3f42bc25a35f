package inlets

// This file answers: has this delivery come before? Senders retry (GitHub
// redelivers on a timeout), so a delivery id seen within the window is
// answered "duplicate" and does nothing. The memory is this process's: on
// a broker with several replicas each remembers what it saw, and a start
// is still made once by its Idempotency-Key (serve derives it from the
// delivery id); a Seen kept on the broker is the seam for the rest.

import (
	"context"
	"sync"
	"time"
)

// Seen remembers delivery ids.
type Seen interface {
	// Seen records id and tells whether it was recorded within the window
	// already.
	Seen(ctx context.Context, id string) (bool, error)
	// Forget drops id (its delivery failed: a retry must be acted on).
	Forget(ctx context.Context, id string)
}

// Memory is a Seen in this process.
type Memory struct {
	Window time.Duration
	Now    func() time.Time // nil: time.Now

	mu     sync.Mutex
	at     map[string]time.Time
	pruned time.Time
}

func (m *Memory) now() time.Time {
	if m.Now != nil {
		return m.Now()
	}
	return time.Now()
}

func (m *Memory) Seen(_ context.Context, id string) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if m.at == nil {
		m.at = map[string]time.Time{}
	}
	// Expired ids go at most once a minute: a delivery costs no walk of
	// the map.
	if now.Sub(m.pruned) > time.Minute {
		for k, t := range m.at {
			if now.Sub(t) >= m.Window {
				delete(m.at, k)
			}
		}
		m.pruned = now
	}
	if t, ok := m.at[id]; ok && now.Sub(t) < m.Window {
		return true, nil
	}
	m.at[id] = now
	return false, nil
}

func (m *Memory) Forget(_ context.Context, id string) {
	m.mu.Lock()
	delete(m.at, id)
	m.mu.Unlock()
}
