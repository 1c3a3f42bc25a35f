package inbox

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/redact"
)

const token = `s3cret pass@x"q\z`

// openMasked opens the inbox of a run at runDir whose records are in
// records, masking token; fsync as JAIPH_INBOX_FSYNC=true.
func openMasked(t *testing.T, runDir, records string, fsync bool, events *[]*event.Event) (*Files, *Journal) {
	t.Helper()
	fs := New(fsync)
	fs.Mask(redact.New(token), func() string { return records })
	if err := fs.Open(runDir, func(e *event.Event) { *events = append(*events, e) }); err != nil {
		t.Fatal(err)
	}
	j, err := fs.OpenJournal(1)
	if err != nil {
		t.Fatal(err)
	}
	return fs, j
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestMaskedFiles: a message holding a credential (raw, percent-encoded,
// JSON-escaped, and in a payload far bigger than any buffer) is written
// masked in the run directory, its preview and event masked too, and read
// back as sent; only the log among the records holds it, once per such
// message; a message without one gets no record.
func TestMaskedFiles(t *testing.T) {
	runDir, records := t.TempDir(), t.TempDir()
	var events []*event.Event
	fs, j := openMasked(t, runDir, records, false, &events)
	big := token + strings.Repeat("a", 200<<10) + token + strings.Repeat("b", 200<<10) + token
	payloads := []string{
		"job " + token + "\npct s3cret%20pass%40x%22q%5Cz\njson {\"t\":\"s3cret pass@x\\\"q\\\\z\"}",
		"plain",
		big,
	}
	for _, p := range payloads {
		if err := fs.Enqueue(j, "m::jobs", "default", p); err != nil {
			t.Fatal(err)
		}
	}
	if err := fs.Store("004", "m::jobs", "w", "from a worker "+token); err != nil {
		t.Fatal(err)
	}
	payloads = append(payloads, "from a worker "+token)
	for i, want := range payloads {
		seq := Number(i + 1)
		got, err := fs.Content(seq, "jobs")
		if err != nil || got != want {
			t.Errorf("message %s: content of %d bytes (%v), want the %d sent", seq, len(got), err, len(want))
		}
		file := readFile(t, filepath.Join(runDir, Dir, MessageFile(seq, "jobs")))
		if strings.Contains(file, "s3cret") {
			t.Errorf("message %s's file holds the credential: %.100q", seq, file)
		}
	}
	if got := readFile(t, filepath.Join(runDir, Dir, MessageFile("001", "jobs"))); got != "job ***\npct ***\njson {\"t\":\"***\"}" {
		t.Errorf("message 001's file: %q", got)
	}
	if got := readFile(t, filepath.Join(runDir, Dir, MessageFile("003", "jobs"))); len(got) != 400<<10+9 || strings.Count(got, "***") != 3 {
		t.Errorf("the big message's file: %d bytes, %d masks", len(got), strings.Count(got, "***"))
	}
	for _, e := range events {
		if strings.Contains(e.PayloadPreview, "s3cret") {
			t.Errorf("event preview %.80q holds the credential", e.PayloadPreview)
		}
	}
	// A dead letter is the masked file.
	if err := fs.Dead("001", "jobs", "default", "m::w", 1, 3, 1); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(runDir, Dir, deadDir, MessageFile("001", "jobs"))); strings.Contains(got, "s3cret") {
		t.Errorf("the dead letter holds the credential")
	}
	j.Close()
	fs.Close()

	log := readFile(t, filepath.Join(records, PayloadsFile))
	if n := strings.Count(log, token); n != 5 { // 001, 003 (three), 004
		t.Errorf("the log holds the credential %d times, want 5", n)
	}
	if strings.Contains(log, "plain") {
		t.Errorf("the log holds message 002, which had no credential")
	}
	if st, _ := os.Stat(filepath.Join(records, PayloadsFile)); st.Mode().Perm() != 0o600 {
		t.Errorf("the log's mode is %v, want 0600", st.Mode().Perm())
	}
	in, err := Read(runDir)
	if err != nil {
		t.Fatal(err)
	}
	if p := in.Messages[0].Preview; p != "job ***" {
		t.Errorf("jaiph inbox's preview %q, want the masked first line", p)
	}

	// A redrive (another process, its environment without the
	// credential) reads the payloads back from the log.
	again := New(false)
	again.Mask(nil, func() string { return records })
	again.Continue(4)
	if err := again.Open(runDir, func(*event.Event) {}); err != nil {
		t.Fatal(err)
	}
	for i, want := range payloads {
		if got, err := again.Content(Number(i+1), "jobs"); err != nil || got != want {
			t.Errorf("redrive: message %s: %d bytes (%v), want the %d sent", Number(i+1), len(got), err, len(want))
		}
	}
	again.Close()
}

// TestPayloadsResumed: a resumed run numbers its messages from 1 again:
// a number rewritten with a credential reads its new payload, one
// rewritten without reads its file (the old record is tombstoned), and a
// record whose file changed by other means is not used. A record cut
// short by a kill is cut off by the next writer, whose records follow.
// (Durable commits, JAIPH_INBOX_FSYNC=true, as the records are the same.)
func TestPayloadsResumed(t *testing.T) {
	runDir, records := t.TempDir(), t.TempDir()
	var events []*event.Event
	fs, j := openMasked(t, runDir, records, true, &events)
	for _, p := range []string{"one " + token, "two " + token, "three " + token} {
		if err := fs.Enqueue(j, "m::jobs", "default", p); err != nil {
			t.Fatal(err)
		}
	}
	j.Close()
	fs.Close()
	// The killed attempt's last record, cut short.
	f, err := os.OpenFile(filepath.Join(records, PayloadsFile), os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("004 100 0123456789abcdef0123456789abcdef\nfour " + token)
	f.Close()

	fs, j = openMasked(t, runDir, records, true, &events)
	for _, p := range []string{"one again " + token, "two ***"} {
		if err := fs.Enqueue(j, "m::jobs", "default", p); err != nil {
			t.Fatal(err)
		}
	}
	// Message 3's file, changed behind the log's back.
	os.WriteFile(filepath.Join(runDir, Dir, MessageFile("003", "jobs")), []byte("three ***!"), 0o644)
	for seq, want := range map[string]string{"001": "one again " + token, "002": "two ***", "003": "three ***!"} {
		if got, err := fs.Content(seq, "jobs"); err != nil || got != want {
			t.Errorf("message %s: %q (%v), want %q", seq, got, err, want)
		}
	}
	j.Close()
	fs.Close()
	log := readFile(t, filepath.Join(records, PayloadsFile))
	if strings.Contains(log, "four") {
		t.Errorf("the torn record was not cut off:\n%s", log)
	}
	if !strings.HasSuffix(log, "002 - -\n") {
		t.Errorf("no tombstone for 002 at the log's end:\n%s", log)
	}
	// Read again from disk, by a later process.
	again := New(false)
	again.Mask(nil, func() string { return records })
	if err := again.Open(runDir, func(*event.Event) {}); err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	for seq, want := range map[string]string{"001": "one again " + token, "002": "two ***", "003": "three ***!"} {
		if got, err := again.Content(seq, "jobs"); err != nil || got != want {
			t.Errorf("from disk: message %s: %q (%v), want %q", seq, got, err, want)
		}
	}
}

// TestPayloadsElsewhere: a run without records keeps the real payloads
// in memory; a run from before message files were masked (no log) and
// an inbox without Mask (jaiph test) read their files as the payloads;
// a run whose environment holds no credential never creates the log.
func TestPayloadsElsewhere(t *testing.T) {
	runDir := t.TempDir()
	var events []*event.Event
	fs, j := openMasked(t, runDir, "", false, &events)
	if err := fs.Enqueue(j, "m::jobs", "default", "job "+token); err != nil {
		t.Fatal(err)
	}
	if got, _ := fs.Content("001", "jobs"); got != "job "+token {
		t.Errorf("in memory: %q", got)
	}
	if got := readFile(t, filepath.Join(runDir, Dir, MessageFile("001", "jobs"))); got != "job ***" {
		t.Errorf("file %q", got)
	}
	j.Close()
	fs.Close()

	for _, mask := range []bool{true, false} {
		runDir, records := t.TempDir(), t.TempDir()
		fs := New(false)
		if mask {
			fs.Mask(nil, func() string { return records })
		}
		if err := fs.Open(runDir, func(*event.Event) {}); err != nil {
			t.Fatal(err)
		}
		j, _ := fs.OpenJournal(1)
		if err := fs.Enqueue(j, "m::jobs", "default", "job "+token); err != nil {
			t.Fatal(err)
		}
		if got, _ := fs.Content("001", "jobs"); got != "job "+token {
			t.Errorf("mask %v: %q", mask, got)
		}
		j.Close()
		fs.Close()
		if entries, _ := os.ReadDir(records); len(entries) != 0 {
			t.Errorf("mask %v: %d files among the records, want none", mask, len(entries))
		}
	}
}
