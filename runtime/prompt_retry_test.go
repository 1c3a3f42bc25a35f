package runtime

import (
	"testing"
	"time"
)

// TestRetryDelay: attempt n waits backoff × 2^(n-1) with equal jitter (a
// value in [d/2, d]), the doubling capped at 5 minutes unless the backoff
// itself is longer; a zero backoff never waits.
func TestRetryDelay(t *testing.T) {
	for _, c := range []struct {
		backoff time.Duration
		n       int
		want    time.Duration // the un-jittered delay
	}{
		{time.Second, 1, time.Second},
		{time.Second, 2, 2 * time.Second},
		{time.Second, 4, 8 * time.Second},
		{time.Second, 30, maxBackoff},
		{time.Second, 1000, maxBackoff},
		{10 * time.Minute, 3, 10 * time.Minute},
		{0, 5, 0},
	} {
		for i := 0; i < 50; i++ {
			got := retryDelay(c.backoff, c.n)
			if got < c.want/2 || got > c.want {
				t.Fatalf("retryDelay(%v, %d) = %v, want within [%v, %v]", c.backoff, c.n, got, c.want/2, c.want)
			}
		}
	}
}

// TestPromptPolicyFrom: defaults (no retries, 1s backoff, no idle warning),
// valid values, and errors naming the variable for bad ones.
func TestPromptPolicyFrom(t *testing.T) {
	for _, c := range []struct {
		env     map[string]string
		want    promptPolicy
		wantErr string
	}{
		{nil, promptPolicy{backoff: time.Second}, ""},
		{map[string]string{"JAIPH_AGENT_RETRIES": "3", "JAIPH_AGENT_RETRY_BACKOFF": "250ms", "JAIPH_AGENT_IDLE_WARN": "1m30s"},
			promptPolicy{retries: 3, backoff: 250 * time.Millisecond, idleWarn: 90 * time.Second}, ""},
		{map[string]string{"JAIPH_AGENT_RETRIES": "-1"}, promptPolicy{},
			`jaiph: JAIPH_AGENT_RETRIES (agent.retries) must be a non-negative integer: "-1"`},
		{map[string]string{"JAIPH_AGENT_RETRY_BACKOFF": "5"}, promptPolicy{},
			`jaiph: JAIPH_AGENT_RETRY_BACKOFF (agent.retry_backoff) must be a duration such as "1s", "500ms" or "2m": "5"`},
		{map[string]string{"JAIPH_AGENT_IDLE_WARN": "-2s"}, promptPolicy{},
			`jaiph: JAIPH_AGENT_IDLE_WARN (agent.idle_warn) must be a duration such as "1s", "500ms" or "2m": "-2s"`},
	} {
		got, err := promptPolicyFrom(func(k string) string { return c.env[k] })
		if c.wantErr != "" {
			if err == nil || err.Error() != c.wantErr {
				t.Errorf("%v: error %v, want %q", c.env, err, c.wantErr)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("%v: got %+v, %v; want %+v", c.env, got, err, c.want)
		}
	}
}
