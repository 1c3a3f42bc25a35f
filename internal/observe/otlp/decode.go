package otlp

import (
	"os"

	"github.com/jaiph-go/jaiph/internal/event"
)

// ReadSummary reads a run_summary.jsonl file's events in file order. A line
// that is not an event (a torn last line after a crash) is skipped.
func ReadSummary(path string) ([]*event.Event, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var events []*event.Event
	err = event.ReadEvents(f, func(e *event.Event) error {
		events = append(events, e)
		return nil
	})
	return events, err
}
