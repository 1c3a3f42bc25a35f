package fileinbox

import (
	"context"
	"io"
	"iter"

	"github.com/jaiph-go/jaiph/internal/store/inbox"
	"github.com/jaiph-go/jaiph/runtime"
)

var (
	_ runtime.Transport = (*Transport)(nil)
	_ runtime.Mailbox   = (*queue)(nil) // what its Drain hands to Host.DrainHere
)

// Transport is the file inbox of one run: every orchestrator's queue
// shares the run's inbox files (message numbers, the delivery log).
type Transport struct {
	files *inbox.Files
}

// New returns the file inbox writing files, which a broker transport of
// the same run may share (its first orchestrator's messages are stored
// there too).
func New(files *inbox.Files) *Transport { return &Transport{files: files} }

// Open implements runtime.Transport: the run's inbox directory, created by
// the first orchestrator, and a journal of this orchestrator's own.
func (t *Transport) Open(_ context.Context, o runtime.Orchestrator, h runtime.Host) (runtime.Queue, error) {
	if err := t.files.Open(h.RunDir(), h.Emit); err != nil {
		return nil, err
	}
	j, err := t.files.OpenJournal(o.Seq)
	if err != nil {
		return nil, err
	}
	return &queue{files: t.files, journal: j, h: h}, nil
}

// Close records what the run's inbox keeps when the run ends (inbox.Files.Close).
func (t *Transport) Close() error {
	t.files.Close()
	return nil
}

// queue is one orchestrator's queue: a runtime.Mailbox, which the
// runtime's drain delivers.
type queue struct {
	files   *inbox.Files
	journal *inbox.Journal
	h       runtime.Host
}

// Send stores the message: it returns once the message's file and journal
// line are complete (inbox.Files.Enqueue).
func (q *queue) Send(_ context.Context, channel, sender, content string) error {
	return q.files.Enqueue(q.journal, channel, sender, content)
}

// Drain delivers the messages in this process.
func (q *queue) Drain(ctx context.Context, stderr io.Writer) int {
	return q.h.DrainHere(ctx, q, stderr)
}

func (q *queue) Close() { q.journal.Close() }

func (q *queue) Dir() string { return q.files.Dir() }

func (q *queue) Take() iter.Seq[runtime.Message] {
	taken := q.journal.Take()
	return func(yield func(runtime.Message) bool) {
		for m := range taken {
			if !yield(runtime.Message(m)) {
				return
			}
		}
	}
}

func (q *queue) Content(seq, channel string) (string, error) { return q.files.Content(seq, channel) }

func (q *queue) Started(seq, target string, attempt int) error {
	return q.files.Started(seq, target, attempt)
}

func (q *queue) Ended(seq, target string, attempt, status int) error {
	return q.files.Ended(seq, target, attempt, status)
}

func (q *queue) Dead(seq, channel, sender, target string, attempts, status, depth int) error {
	return q.files.Dead(seq, channel, sender, target, attempts, status, depth)
}

func (q *queue) Commit() error { return q.files.Commit() }
