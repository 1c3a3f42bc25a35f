package inbox

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/lowered"
)

// TestWriteThenRead: what the writer leaves is what the reader reads, by
// the same names: messages from concurrent senders numbered without gaps
// and taken in number order, a broker's stored message, deliveries and a
// dead letter, and the last number in .seq.
func TestWriteThenRead(t *testing.T) {
	runDir := t.TempDir()
	var mu sync.Mutex
	var events []*event.Event
	fs := New(false)
	if err := fs.Open(runDir, func(e *event.Event) { mu.Lock(); events = append(events, e); mu.Unlock() }); err != nil {
		t.Fatal(err)
	}
	j, err := fs.OpenJournal(1)
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for _, c := range []string{"m::jobs", "m::jobs", "lib::news", "m::jobs"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := fs.Enqueue(j, c, "default", "payload of "+c); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	var seqs []string
	names := map[string]string{} // a message's channel name, by number: the senders race for numbers
	for m := range j.Take() {
		seqs = append(seqs, m.Seq)
		names[m.Seq] = lowered.ChannelName(m.Channel)
		if got, err := fs.Content(m.Seq, lowered.ChannelName(m.Channel)); err != nil || got != "payload of "+m.Channel {
			t.Errorf("message %s: content %q, %v", m.Seq, got, err)
		}
	}
	if !slices.Equal(seqs, []string{"001", "002", "003", "004"}) {
		t.Errorf("taken %v, want 001…004 in order", seqs)
	}
	if n := len(slices.Collect(j.Take())); n != 0 {
		t.Errorf("a second Take gave %d messages", n)
	}
	if err := fs.Store("005", "m::jobs", "w", "from a worker"); err != nil {
		t.Fatal(err)
	}
	if err := fs.Store("005", "m::jobs", "w", "from a worker"); err != nil { // a resume stores it again
		t.Fatal(err)
	}
	for _, err := range []error{
		fs.Started("001", "m::a", 1), fs.Ended("001", "m::a", 1, 0),
		fs.Started("002", "m::a", 1), fs.Ended("002", "m::a", 1, 3), fs.Dead("002", names["002"], "default", "m::a", 1, 3, 1),
	} {
		if err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	fs.Close()

	if b, _ := os.ReadFile(filepath.Join(runDir, Dir, seqFile)); string(b) != "5" {
		t.Errorf(".seq = %q, want 5", b)
	}
	if _, err := os.Stat(filepath.Join(runDir, Dir, tmpDir)); !os.IsNotExist(err) {
		t.Errorf(".tmp left after Close: %v", err)
	}
	if n := DeadLetterFiles(runDir); n != 1 {
		t.Errorf("%d dead letter files, want 1", n)
	}
	in, err := Read(runDir)
	if err != nil {
		t.Fatal(err)
	}
	var states []string
	for _, m := range in.Messages {
		states = append(states, m.Seq+" "+m.State)
	}
	if want := []string{"001 delivered", "002 dead", "003 queued", "004 queued", "005 queued"}; !slices.Equal(states, want) {
		t.Errorf("read %v, want %v (the stored message once)", states, want)
	}
	letters, err := Letters(runDir)
	if err != nil || len(letters) != 1 || letters[0].Seq != "002" || letters[0].File != "inbox/002-"+names["002"]+".txt" {
		t.Errorf("letters %+v, %v", letters, err)
	}
	kinds := map[string]int{}
	for _, e := range events {
		kinds[e.Type]++
	}
	if kinds[event.InboxEnqueue] != 6 || kinds[event.InboxDead] != 1 {
		t.Errorf("events %v, want 6 INBOX_ENQUEUE (one per store) and 1 INBOX_DEAD", kinds)
	}
}

// TestStoreAfterKill: a broker run killed between writing a message's file
// and its line in .queue; the resumed run stores the message again, and
// the inbox lists it, once, however often it is stored.
func TestStoreAfterKill(t *testing.T) {
	runDir := t.TempDir()
	killed := New(false)
	if err := killed.Open(runDir, func(*event.Event) {}); err != nil {
		t.Fatal(err)
	}
	if err := killed.Store("001", "m::jobs", "default", "first"); err != nil {
		t.Fatal(err)
	}
	killed.Close()
	// The kill: 002's file is there, its line is not.
	if err := os.WriteFile(filepath.Join(runDir, Dir, MessageFile("002", "jobs")), []byte("second"), 0o644); err != nil {
		t.Fatal(err)
	}
	resumed := New(false)
	if err := resumed.Open(runDir, func(*event.Event) {}); err != nil {
		t.Fatal(err)
	}
	for range 2 {
		for _, m := range [][2]string{{"001", "first"}, {"002", "second"}, {"003", "third"}} {
			if err := resumed.Store(m[0], "m::jobs", "default", m[1]); err != nil {
				t.Fatal(err)
			}
		}
	}
	resumed.Close()
	in, err := Read(runDir)
	if err != nil {
		t.Fatal(err)
	}
	var seqs []string
	for _, m := range in.Messages {
		seqs = append(seqs, m.Seq+" "+m.Preview)
	}
	if want := []string{"001 first", "002 second", "003 third"}; !slices.Equal(seqs, want) {
		t.Errorf("messages %q, want %q", seqs, want)
	}
}
