package engine

import (
	"slices"
	"testing"
)

// The command line's --inbox and --replicas replace the environment's
// JAIPH_INBOX_URL and JAIPH_INBOX_REPLICAS in the run's environment (one
// entry each, so every reader agrees), and leave it alone when not given.
func TestInboxApply(t *testing.T) {
	env := []string{"A=1", "JAIPH_INBOX_URL=nats://env:1", "JAIPH_INBOX_REPLICAS=3"}
	if got := (Inbox{}).apply(env); !slices.Equal(got, env) {
		t.Errorf("no flags: %q", got)
	}
	got := Inbox{URL: "nats://flag:2", Replicas: 1}.apply(env)
	want := []string{"A=1", "JAIPH_INBOX_URL=nats://flag:2", "JAIPH_INBOX_REPLICAS=1"}
	if !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
	if !slices.Equal(env, []string{"A=1", "JAIPH_INBOX_URL=nats://env:1", "JAIPH_INBOX_REPLICAS=3"}) {
		t.Errorf("the caller's environment changed: %q", env)
	}
	if got := (Inbox{URL: "nats://flag:2"}).apply(env); inboxURL(got) != "nats://flag:2" || !slices.Contains(got, "JAIPH_INBOX_REPLICAS=3") {
		t.Errorf("URL only: %q", got)
	}
}
