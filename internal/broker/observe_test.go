package broker

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"testing"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/store/inbox"
	"github.com/jaiph-go/jaiph/runtime"
)

// shown is a runtime.Host that keeps what a drain shows.
type shown struct {
	runtime.Host // the rest is not called by observe and settle
	events       []*event.Event
}

func (s *shown) Emit(e *event.Event)       { s.events = append(s.events, e) }
func (s *shown) EmitAll(es []*event.Event) { s.events = append(s.events, es...) }

// dispatches is the run's account of a delivery's attempts: each start,
// end (its worker, status and why it was lost) and retry.
func dispatches(events []*event.Event) []string {
	var got []string
	for _, e := range events {
		switch e.Type {
		case event.DispatchStart:
			got = append(got, "start "+e.Worker)
		case event.DispatchFinish:
			got = append(got, fmt.Sprintf("end %s %d: %s", e.Worker, *e.Status, e.Lost))
		case event.InboxRetry:
			got = append(got, fmt.Sprintf("retry %d", e.Attempt))
		}
	}
	return got
}

// TestObserveCoalescedRevisions: a delivery's ledger record goes through
// the revisions of a story (claims, hand-backs, failures, lost leases);
// the orchestrator's watch sees only a key's newest revision when it falls
// behind, so it may see any of them, and always the last. Whichever it
// saw, the run tells the same story: every attempt started, ended with its
// worker, status and reason, each retry.
func TestObserveCoalescedRevisions(t *testing.T) {
	three, four, five, zero := 3, 4, 5, 0
	const target = "flow::work"
	claimA := record{State: stClaimed, Target: target, Worker: "a", Claims: 1}
	handedA := ended{Worker: "a", Released: true}
	failedA, failedB := ended{Worker: "a", Status: &three}, ended{Worker: "b", Status: &five}
	lostA, lostB, lostC := ended{Worker: "a"}, ended{Worker: "b"}, ended{Worker: "c"}
	for _, story := range []struct {
		name      string
		revisions []record
		want      []string
	}{
		{"handed back", []record{
			claimA,
			{State: stQueued, Target: target, Claims: 1, Released: 1, Ended: []ended{handedA}},
			{State: stClaimed, Target: target, Worker: "b", Claims: 2, Released: 1, Ended: []ended{handedA}},
			{State: stDone, Target: target, Worker: "b", Claims: 2, Released: 1, Ended: []ended{handedA}, Status: &zero},
		}, []string{"start a", "end a 1: worker a handed it back as it stopped", "start b", "end b 0: "}},
		{"failed, retried, delivered", []record{
			claimA,
			{State: stQueued, Target: target, Worker: "a", Claims: 1, Failures: 1, Status: &three, Ended: []ended{failedA}},
			{State: stClaimed, Target: target, Worker: "b", Claims: 2, Failures: 1, Status: &three, Ended: []ended{failedA}},
			{State: stDone, Target: target, Worker: "b", Claims: 2, Failures: 1, Status: &zero, Ended: []ended{failedA}},
		}, []string{"start a", "end a 3: ", "retry 1", "start b", "end b 0: "}},
		{"failed, retried, dead", []record{
			claimA,
			{State: stQueued, Target: target, Worker: "a", Claims: 1, Failures: 1, Status: &three, Ended: []ended{failedA}},
			{State: stClaimed, Target: target, Worker: "b", Claims: 2, Failures: 1, Status: &three, Ended: []ended{failedA}},
			{State: stDead, Target: target, Worker: "b", Claims: 2, Failures: 2, Status: &four, Ended: []ended{failedA}},
		}, []string{"start a", "end a 3: ", "retry 1", "start b", "end b 4: "}},
		{"lease lost, queued again by the watchdog", []record{
			claimA,
			{State: stQueued, Target: target, Claims: 1, Republished: 1, Ended: []ended{lostA}},
			{State: stClaimed, Target: target, Worker: "b", Claims: 2, Republished: 1, Ended: []ended{lostA}},
			{State: stDone, Target: target, Worker: "b", Claims: 2, Republished: 1, Ended: []ended{lostA}, Status: &zero},
		}, []string{"start a", "end a 1: worker a stopped renewing its lease", "start b", "end b 0: "}},
		{"lease lost, taken over", []record{
			claimA,
			{State: stClaimed, Target: target, Worker: "b", Claims: 2, Ended: []ended{lostA}},
			{State: stDone, Target: target, Worker: "b", Claims: 2, Ended: []ended{lostA}, Status: &zero},
		}, []string{"start a", "end a 1: worker a stopped renewing its lease", "start b", "end b 0: "}},
		{"failed twice, delivered", []record{
			claimA,
			{State: stQueued, Target: target, Worker: "a", Claims: 1, Failures: 1, Status: &three, Ended: []ended{failedA}},
			{State: stClaimed, Target: target, Worker: "b", Claims: 2, Failures: 1, Status: &three, Ended: []ended{failedA}},
			{State: stQueued, Target: target, Worker: "b", Claims: 2, Failures: 2, Status: &five, Ended: []ended{failedA, failedB}},
			{State: stClaimed, Target: target, Worker: "c", Claims: 3, Failures: 2, Status: &five, Ended: []ended{failedA, failedB}},
			{State: stDone, Target: target, Worker: "c", Claims: 3, Failures: 2, Status: &zero, Ended: []ended{failedA, failedB}},
		}, []string{"start a", "end a 3: ", "retry 1", "start b", "end b 5: ", "retry 2", "start c", "end c 0: "}},
		{"handed back, failed, taken over, delivered", []record{
			claimA,
			{State: stQueued, Target: target, Claims: 1, Released: 1, Ended: []ended{handedA}},
			{State: stClaimed, Target: target, Worker: "b", Claims: 2, Released: 1, Ended: []ended{handedA}},
			{State: stQueued, Target: target, Worker: "b", Claims: 2, Released: 1, Failures: 1, Status: &five, Ended: []ended{handedA, failedB}},
			{State: stClaimed, Target: target, Worker: "c", Claims: 3, Released: 1, Failures: 1, Status: &five, Ended: []ended{handedA, failedB}},
			{State: stClaimed, Target: target, Worker: "a", Claims: 4, Released: 1, Failures: 1, Status: &five, Ended: []ended{handedA, failedB, lostC}},
			{State: stDone, Target: target, Worker: "a", Claims: 4, Released: 1, Failures: 1, Status: &zero, Ended: []ended{handedA, failedB, lostC}},
		}, []string{"start a", "end a 1: worker a handed it back as it stopped", "start b", "end b 5: ", "retry 2",
			"start c", "end c 1: worker c stopped renewing its lease", "start a", "end a 0: "}},
		{"workers lost until a dead letter", []record{
			claimA,
			{State: stClaimed, Target: target, Worker: "b", Claims: 2, Ended: []ended{lostA}},
			{State: stQueued, Target: target, Claims: 2, Republished: 1, Ended: []ended{lostA, lostB}},
			{State: stClaimed, Target: target, Worker: "c", Claims: 3, Republished: 1, Ended: []ended{lostA, lostB}},
			{State: stDead, Target: target, Worker: "c", Claims: 3, Republished: 1, Ended: []ended{lostA, lostB, lostC},
				Why: "it lost its worker 3 times (a worker crashed or stalled past the lease each time)"},
		}, []string{"start a", "end a 1: worker a stopped renewing its lease", "start b", "end b 1: worker b stopped renewing its lease",
			"start c", "end c 1: worker c stopped renewing its lease"}},
	} {
		last := len(story.revisions) - 1
		for seen := range 1 << last { // which revisions before the last the watch saw
			var revs []int
			for i := range last {
				if seen&(1<<i) != 0 {
					revs = append(revs, i)
				}
			}
			revs = append(revs, last)
			t.Run(fmt.Sprintf("%s/%v", story.name, revs), func(t *testing.T) {
				files := inbox.New(false)
				if err := files.Open(t.TempDir(), func(*event.Event) {}); err != nil {
					t.Fatal(err)
				}
				h := &shown{}
				q := &queue{h: h, t: &Transport{files: files}, known: map[string]*known{}, pending: map[string]bool{}, retries: 2}
				q.track("d.001.0", &known{seq: "001", target: target})
				for _, i := range revs {
					r := story.revisions[i]
					q.observe(context.Background(), "d.001.0", &r, uint64(i+2))
				}
				q.settle(context.Background(), math.MaxUint64, io.Discard)
				if got := dispatches(h.events); !slices.Equal(got, story.want) {
					t.Errorf("shown %q\nwant  %q", got, story.want)
				}
			})
		}
	}
}
