package otlp

import (
	"bufio"
	"os"

	"github.com/jaiph-go/jaiph/internal/event"
)

// ReadSummary reads a run_summary.jsonl file's events in file order. A line
// that is not an event (a torn last line after a crash) is skipped; bad
// counts them.
func ReadSummary(path string) (events []*event.Event, bad int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	// out_content/err_content are capped at 1 MiB characters, up to 4 bytes
	// each after escaping and UTF-8.
	sc.Buffer(make([]byte, 64*1024), 16<<20)
	for sc.Scan() {
		if len(sc.Bytes()) == 0 {
			continue
		}
		e, perr := event.Parse(sc.Bytes())
		if perr != nil {
			bad++
			continue
		}
		events = append(events, e)
	}
	return events, bad, sc.Err()
}
