package runtime

import (
	"strings"
	"testing"
	"time"
)

// TestDeliveryPolicyFrom: defaults (no retries: the reference's behaviour,
// 1s backoff), valid values, and errors naming the variable for bad ones.
func TestDeliveryPolicyFrom(t *testing.T) {
	for _, c := range []struct {
		env     map[string]string
		want    deliveryPolicy
		wantErr string
	}{
		{nil, deliveryPolicy{backoff: time.Second}, ""},
		{map[string]string{"JAIPH_INBOX_RETRIES": "3", "JAIPH_INBOX_RETRY_BACKOFF": "250ms"}, deliveryPolicy{3, 250 * time.Millisecond}, ""},
		{map[string]string{"JAIPH_INBOX_RETRIES": "0", "JAIPH_INBOX_RETRY_BACKOFF": "0s"}, deliveryPolicy{0, 0}, ""},
		{map[string]string{"JAIPH_INBOX_RETRIES": "-1"}, deliveryPolicy{}, `JAIPH_INBOX_RETRIES (run.inbox_retries) must be a non-negative integer: "-1"`},
		{map[string]string{"JAIPH_INBOX_RETRIES": "2x"}, deliveryPolicy{}, `JAIPH_INBOX_RETRIES (run.inbox_retries) must be a non-negative integer: "2x"`},
		{map[string]string{"JAIPH_INBOX_RETRY_BACKOFF": "5"}, deliveryPolicy{}, `JAIPH_INBOX_RETRY_BACKOFF (run.inbox_retry_backoff) must be a duration such as "1s", "500ms" or "2m": "5"`},
		{map[string]string{"JAIPH_INBOX_RETRY_BACKOFF": "-2s"}, deliveryPolicy{}, `JAIPH_INBOX_RETRY_BACKOFF (run.inbox_retry_backoff) must be a duration`},
	} {
		got, err := deliveryPolicyFrom(func(k string) string { return c.env[k] })
		switch {
		case c.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), c.wantErr) {
				t.Errorf("%v: err = %v, want %q", c.env, err, c.wantErr)
			}
		case err != nil:
			t.Errorf("%v: %v", c.env, err)
		case got != c.want:
			t.Errorf("%v: %+v, want %+v", c.env, got, c.want)
		}
	}
}
