package broker

// This file answers: what does a resumed orchestrator (jaiph resume after
// a kill -9) take from its interrupted attempt? The ledger on the broker
// says what every delivery did; the run directory says what was already
// shown: the last event of the event stream (the cursor) and, in
// run_summary.jsonl, the dispatch events and the remote steps still open.

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/store/runs"
)

// prior is what the interrupted attempt showed and numbered.
type prior struct {
	starts    map[string]int  // "NNN target" → INBOX_DISPATCH_STARTs shown
	completed map[string]bool // "NNN target" → INBOX_DISPATCH_COMPLETE shown
	ids       map[string]int  // open remote step id → its step number here
	highest   int             // the highest message number the ledger knows
}

func readPrior(ctx context.Context, kv *ledger, runDir string) (*prior, error) {
	p := &prior{starts: map[string]int{}, completed: map[string]bool{}, ids: map[string]int{}}
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
			if !e.Replayed {
				p.completed[e.InboxSeq+" "+e.Target] = true
			}
		case event.StepStart:
			p.ids[e.ID] = e.Seq
		case event.StepEnd:
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
