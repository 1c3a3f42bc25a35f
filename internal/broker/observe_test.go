package broker

import (
	"context"
	"slices"
	"testing"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/runtime"
)

// shown is a runtime.Host that keeps what a drain shows.
type shown struct {
	runtime.Host // the rest is not called by observe
	events       []*event.Event
}

func (s *shown) Emit(e *event.Event)       { s.events = append(s.events, e) }
func (s *shown) EmitAll(es []*event.Event) { s.events = append(s.events, es...) }

// TestObserveHandedBack: a delivery claimed by worker a, handed back as a
// stopped, and claimed by b. The ledger watch sees only a key's newest
// revision when it falls behind, so it may miss a's claim, or a's claim
// and the release both: the run shows a's attempt started and lost as
// handed back, then b's, whichever revisions it saw.
func TestObserveHandedBack(t *testing.T) {
	claimedA := record{State: stClaimed, Target: "flow::work", Worker: "a", Claims: 1}
	released := record{State: stQueued, Target: "flow::work", Claims: 1, Released: 1, ReleasedBy: "a"}
	claimedB := record{State: stClaimed, Target: "flow::work", Worker: "b", Claims: 2, Released: 1, ReleasedBy: "a"}
	const handedBack = "worker a handed it back as it stopped"
	for _, c := range []struct {
		name string
		seen []record
		want []string
	}{
		{"every revision", []record{claimedA, released, claimedB},
			[]string{"start a", "end a: " + handedBack, "start b"}},
		{"the claim missed", []record{released, claimedB},
			[]string{"start a", "end a: " + handedBack, "start b"}},
		{"the claim and the release missed", []record{claimedB},
			[]string{"start a", "end a: " + handedBack + "; b took it over", "start b"}},
		{"the release missed", []record{claimedA, claimedB},
			[]string{"start a", "end a: " + handedBack + "; b took it over", "start b"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := &shown{}
			q := &queue{h: h, t: &Transport{}, known: map[string]*known{}, pending: map[string]bool{}}
			q.track("d.001.0", &known{seq: "001", target: "flow::work"})
			for i, r := range c.seen {
				q.observe(context.Background(), "d.001.0", &r, uint64(i+2))
			}
			var got []string
			for _, e := range h.events {
				switch e.Type {
				case event.DispatchStart:
					got = append(got, "start "+e.Worker)
				case event.DispatchFinish:
					got = append(got, "end "+e.Worker+": "+e.Lost)
				}
			}
			if !slices.Equal(got, c.want) {
				t.Errorf("shown %q\nwant  %q", got, c.want)
			}
		})
	}
}
