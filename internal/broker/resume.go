package broker

// This file answers: what does a resumed orchestrator (jaiph resume after
// a kill -9) take from its interrupted attempt? The ledger on the broker
// says what every delivery did; the run directory says what was already
// shown: the last event of the event stream (the cursor) and, in
// run_summary.jsonl, the dispatch events and the remote steps still open.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/jaiph-go/jaiph/runtime"
)

// prior is what the interrupted attempt showed and numbered.
type prior struct {
	starts    map[string]int  // "NNN target" → INBOX_DISPATCH_STARTs shown
	completed map[string]bool // "NNN target" → INBOX_DISPATCH_COMPLETE shown
	ids       map[string]int  // open remote step id → its step number here
	highest   int             // the highest message number the ledger knows
	// interrupted are the remote steps resume ended as interrupted, by
	// id: their step numbers here, whose artifacts hold the parts of
	// their output that reached the run.
	interrupted map[string]int
	// open are, by delivery key, the attempt whose events were shown last
	// and its steps still open when the orchestrator was killed (resume
	// ended them in the summary as interrupted): an attempt that goes on
	// shows them starting again (queue.resumeAttempt).
	open map[string]*shownAttempt
}

// shownAttempt is a delivery's attempt as the killed orchestrator showed
// it: its number and its steps still open, their STEP_STARTs as the worker
// sent them, outermost first.
type shownAttempt struct {
	attempt int
	steps   []*event.Event
}

// readOpen reads the run's event stream up to upTo, the last event shown
// (the cursor), and returns by delivery key the last attempt shown and its
// steps still open. A stream that cannot be read gives what was read:
// those steps then show starting again only as their ends come.
func readOpen(ctx context.Context, js jetstream.JetStream, run string, upTo uint64) map[string]*shownAttempt {
	out := map[string]*shownAttempt{}
	if upTo == 0 {
		return out
	}
	cons, err := js.OrderedConsumer(ctx, eventStream(run), jetstream.OrderedConsumerConfig{})
	if err != nil {
		return out
	}
	for {
		next, cancel := context.WithTimeout(ctx, 10*time.Second)
		m, err := cons.Next(jetstream.FetchContext(next))
		cancel()
		if err != nil {
			return out
		}
		md, err := m.Metadata()
		if err != nil || md.Sequence.Stream > upTo {
			return out
		}
		var b wireBatch
		if json.Unmarshal(m.Data(), &b) == nil {
			a := out[b.Key]
			if a == nil || b.Attempt > a.attempt {
				a = &shownAttempt{attempt: b.Attempt}
				out[b.Key] = a
			}
			if b.Attempt == a.attempt {
				for _, w := range b.Events {
					if w.Part != nil {
						continue
					}
					e, err := event.Parse(w.Event)
					if err != nil {
						continue
					}
					switch e.Type {
					case event.StepStart:
						a.steps = append(a.steps, e)
					case event.StepEnd:
						a.steps = slices.DeleteFunc(a.steps, func(s *event.Event) bool { return s.ID == e.ID })
					}
				}
			}
		}
		if md.Sequence.Stream == upTo {
			return out
		}
	}
}

func readPrior(ctx context.Context, kv *ledger, runDir string) (*prior, error) {
	p := &prior{starts: map[string]int{}, completed: map[string]bool{}, ids: map[string]int{}, interrupted: map[string]int{}}
	if err := readShown(p, filepath.Join(runDir, runs.SummaryFile)); err != nil {
		return nil, err
	}
	keys, err := kv.kv.ListKeys(ctx)
	if err != nil {
		return nil, err
	}
	for key := range keys.Keys() {
		if parts := strings.Split(key, "."); len(parts) == 3 && parts[0] == "d" {
			p.highest = max(p.highest, atoi(parts[1]))
			if e, err := kv.get(ctx, key); err == nil {
				if r, err := decodeRecord(e.value); err == nil {
					for _, n := range r.Numbers {
						p.highest = max(p.highest, atoi(n))
					}
				}
			}
		}
	}
	return p, nil
}

// readShown takes from the summary at path (none: nothing shown) the
// dispatch events and the remote steps still open; a line that is no
// event (a torn last line) is skipped.
func readShown(p *prior, path string) error {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	defer f.Close()
	return event.ReadEvents(f, func(e *event.Event) error {
		switch e.Type {
		case event.DispatchStart:
			p.starts[e.InboxSeq+" "+e.Target]++
		case event.DispatchFinish:
			// An attempt lost with its worker, or ended as interrupted
			// when the run was resumed, did not complete the delivery.
			if !e.Replayed && e.Lost == "" {
				p.completed[e.InboxSeq+" "+e.Target] = true
			}
		case event.StepStart:
			p.ids[e.ID] = e.Seq
		case event.StepEnd:
			if e.Lost == runtime.InterruptedWhy {
				if n, ok := p.ids[e.ID]; ok {
					p.interrupted[e.ID] = n
				}
			} else {
				delete(p.interrupted, e.ID)
			}
			delete(p.ids, e.ID)
		}
		return nil
	})
}

// cursor keeps the sequence of the last remote event shown in the run
// directory (inbox/.events), rewritten in place after each one: a resumed
// orchestrator goes on after it. A crash between showing an event and
// recording it shows that one event twice.
type cursor struct {
	f    *os.File
	last uint64
}

func openCursor(inboxDir string) (*cursor, error) {
	f, err := os.OpenFile(filepath.Join(inboxDir, ".events"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, fmt.Errorf("inbox/.events: %w", err)
	}
	c := &cursor{f: f}
	var buf [20]byte
	if n, _ := f.ReadAt(buf[:], 0); n > 0 {
		c.last, _ = strconv.ParseUint(strings.TrimSpace(string(buf[:n])), 10, 64)
	}
	return c, nil
}

func (c *cursor) set(seq uint64) {
	c.last = seq
	_, _ = c.f.WriteAt([]byte(fmt.Sprintf("%20d", seq)), 0)
}

func (c *cursor) close() { c.f.Close() }
