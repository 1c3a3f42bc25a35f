package inbox

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestParseRecord(t *testing.T) {
	for _, c := range []struct {
		line string
		want Record
		ok   bool
	}{
		{"start 001 m::w 1", Record{Kind: "start", Seq: "001", Target: "m::w", Attempt: 1}, true},
		{"end 012 m::w 2 130", Record{Kind: "end", Seq: "012", Target: "m::w", Attempt: 2, Status: 130}, true},
		{"dead 1000 m::w 3 4", Record{Kind: "dead", Seq: "1000", Target: "m::w", Attempt: 3, Status: 4}, true},
		{"", Record{}, false},
		{"start", Record{}, false},
		{"start 001 m::w", Record{}, false},     // no attempt
		{"start 001 m::w 1 0", Record{}, false}, // a start has no status
		{"end 001 m::w 1", Record{}, false},     // an end needs one
		{"end 001 m::w 1 -1", Record{}, false},
		{"end 001 m::w 0 0", Record{}, false}, // attempts count from 1
		{"start 0x1 m::w 1", Record{}, false},
		{"start 001  1", Record{}, false},
		{"start 001 m::w one", Record{}, false},
		{"begin 001 m::w 1", Record{}, false},
		{"start 001 m::w 1 ", Record{}, false},
		{"\x00\xff garbage", Record{}, false},
	} {
		got, ok := ParseRecord(c.line)
		if ok != c.ok || got != c.want {
			t.Errorf("ParseRecord(%q) = %+v, %v; want %+v, %v", c.line, got, ok, c.want, c.ok)
		}
	}
}

// run writes a run directory with the given inbox files.
func run(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// states renders each message as `seq state attempts target=state…`.
func states(in *Inbox) string {
	var b strings.Builder
	for _, m := range in.Messages {
		b.WriteString(m.Seq + " " + m.Channel + " " + m.State)
		for _, d := range m.Targets {
			b.WriteString(" " + d.Target + "=" + d.State)
		}
		b.WriteString("\n")
	}
	return b.String()
}

func TestRead(t *testing.T) {
	queue := "jobs:001:default\njobs:002:default\nnews:003:w\njobs:004:default\n"
	msgs := map[string]string{"inbox/001-jobs.txt": "a\nb", "inbox/002-jobs.txt": "b", "inbox/003-news.txt": "c", "inbox/004-jobs.txt": "d"}
	for _, c := range []struct {
		name    string
		files   map[string]string
		want    string // states, or the error's text
		wantErr bool
	}{
		{"states from the log", map[string]string{
			"inbox/.queue": queue,
			"inbox/.deliveries": "start 001 m::a 1\nend 001 m::a 1 0\nstart 001 m::b 1\nend 001 m::b 1 3\nstart 001 m::b 2\nend 001 m::b 2 3\ndead 001 m::b 2 3\n" +
				"start 002 m::a 1\nend 002 m::a 1 2\nstart 003 m::a 1\n",
		}, "001 jobs dead m::a=delivered m::b=dead\n002 jobs failed m::a=failed\n003 news delivering m::a=delivering\n004 jobs queued\n", false},
		{"a torn last line is a cut write, not a record", map[string]string{
			"inbox/.queue":      queue + "jobs:005:def",
			"inbox/.deliveries": "start 001 m::a 1\nend 001 m::a 1 0\nstart 002 m::a 1\nend 002 m::",
		}, "001 jobs delivered m::a=delivered\n002 jobs delivering m::a=delivering\n003 news queued\n004 jobs queued\n", false},
		{"a retried attempt that is running", map[string]string{
			"inbox/.queue": queue, "inbox/.deliveries": "start 001 m::a 1\nend 001 m::a 1 1\nstart 001 m::a 2\n",
		}, "001 jobs delivering m::a=delivering\n002 jobs queued\n003 news queued\n004 jobs queued\n", false},
		{"nested queues", map[string]string{
			"inbox/.queue": "jobs:001:default\njobs:004:default\n", "inbox/.queue-000007": "jobs:002:default\nnews:003:w\n",
		}, "001 jobs queued\n002 jobs queued\n003 news queued\n004 jobs queued\n", false},
		{"from the summary", map[string]string{
			"inbox/.queue": queue,
			"run_summary.jsonl": `{"type":"INBOX_DISPATCH_START","inbox_seq":"001","target":"m::a"}` + "\n" +
				`{"type":"INBOX_DISPATCH_COMPLETE","inbox_seq":"001","target":"m::a","status":0}` + "\n" +
				"garbage\n" + `{"type":"INBOX_DISPATCH_START","inbox_seq":"009","target":"m::a"}` + "\n" +
				`{"type":"INBOX_DISPATCH_START","inbox_seq":"002","target":"m::a"}` + "\n" + `{"type":"INBOX_DISPATCH_COMP`,
		}, "001 jobs delivered m::a=delivered\n002 jobs delivering m::a=delivering\n003 news queued\n004 jobs queued\n", false},
		{"garbage in the log", map[string]string{"inbox/.queue": queue, "inbox/.deliveries": "start 001 m::a 1\nhello\n"},
			`garbled delivery log .deliveries line 2: "hello"`, true},
		{"a delivery of an unknown message", map[string]string{"inbox/.queue": queue, "inbox/.deliveries": "start 009 m::a 1\n"},
			`garbled delivery log .deliveries line 1: "start 009 m::a 1"`, true},
		{"garbage in the journal", map[string]string{"inbox/.queue": "jobs:001:default\n\x00\x01\n"},
			`garbled queue journal .queue line 2: "\x00\x01"`, true},
		{"a number twice", map[string]string{"inbox/.queue": "jobs:001:default\njobs:001:default\n"},
			`garbled queue journal .queue line 2: "jobs:001:default"`, true},
		{"no journal", map[string]string{"inbox/001-jobs.txt": "a"}, "no queue journal", true},
		{"no inbox", map[string]string{"run_summary.jsonl": ""}, ErrNoInbox.Error(), true},
	} {
		t.Run(c.name, func(t *testing.T) {
			files := map[string]string{}
			for k, v := range msgs {
				files[k] = v
			}
			for k, v := range c.files {
				files[k] = v
			}
			if c.name == "no inbox" {
				files = c.files
			}
			in, err := Read(run(t, files))
			switch {
			case c.wantErr && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Fatalf("err = %v, want %q", err, c.want)
			case !c.wantErr && err != nil:
				t.Fatal(err)
			case !c.wantErr && states(in) != c.want:
				t.Errorf("states:\n%s\nwant:\n%s", states(in), c.want)
			}
		})
	}
}

func TestDeadAndText(t *testing.T) {
	dir := run(t, map[string]string{
		"inbox/.queue":       "jobs:001:default\njobs:002:default\n",
		"inbox/001-jobs.txt": "first line\x1b[2J\nsecond", "inbox/002-jobs.txt": strings.Repeat("é", 100),
		"inbox/.deliveries": "start 001 m::b 1\nend 001 m::b 1 4\nstart 001 m::b 2\nend 001 m::b 2 4\ndead 001 m::b 2 4\n",
	})
	dead := Dead(dir)
	if len(dead) != 1 || dead[0] != (DeadLetter{Seq: "001", Channel: "jobs", Target: "m::b", Attempts: 2, Status: 4}) {
		t.Errorf("Dead = %+v", dead)
	}
	in, _ := Read(dir)
	var b bytes.Buffer
	WriteText(&b, in)
	want := "Inbox of " + dir + "\n" +
		"SEQ  CHANNEL  SENDER   STATE   ATTEMPTS  TARGETS             PAYLOAD\n" +
		"001  jobs     default  dead    2         m::b=dead/2/exit 4  first line?[2J\n" +
		"002  jobs     default  queued  0         -                   " + strings.Repeat("é", 77) + "...\n"
	if b.String() != want {
		t.Errorf("text:\n%s\nwant:\n%s", b.String(), want)
	}
	if Dead(t.TempDir()) != nil {
		t.Error("dead letters in an empty directory")
	}
	if _, err := Read(filepath.Join(dir, "missing")); err == nil || errors.Is(err, ErrNoInbox) {
		t.Errorf("missing run dir: %v", err)
	}
}

// TestLetters: which dead letters a redrive still has to deliver, after
// redrives that succeeded, failed, or stopped half-way (a crash).
func TestLetters(t *testing.T) {
	dir := run(t, map[string]string{
		"inbox/.queue": "jobs:001:default\njobs:002:w\njobs:003:default\njobs:004:default\njobs:005:default\n",
		"inbox/.deliveries": "start 001 m::a 1\nend 001 m::a 1 0\n" +
			"start 002 m::a 1\nend 002 m::a 1 4\ndead 002 m::a 1 4\nstart 002 m::a 2\nend 002 m::a 2 0\n" + // redriven
			"start 003 m::a 1\nend 003 m::a 1 4\ndead 003 m::a 1 4\nstart 003 m::a 2\nend 003 m::a 2 4\ndead 003 m::a 2 4\n" + // redrive failed
			"start 004 m::a 1\nend 004 m::a 1 4\ndead 004 m::a 1 4\nstart 004 m::a 2\n" + // redrive cut by a crash
			"start 005 m::a 1\nend 005 m::a 1 4\ndead 005 m::a 1 4\n",
	})
	ls, err := Letters(dir)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range ls {
		got = append(got, fmt.Sprintf("%s %s %s %s %d %v", l.Seq, l.Sender, l.Target, l.File, l.Attempts, l.Done))
	}
	want := []string{"002 w m::a inbox/002-jobs.txt 2 true", "003 default m::a inbox/003-jobs.txt 2 false",
		"004 default m::a inbox/004-jobs.txt 2 false", "005 default m::a inbox/005-jobs.txt 1 false"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("letters:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	in, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s, w := states(in), "001 jobs delivered m::a=delivered\n002 jobs delivered m::a=delivered\n003 jobs dead m::a=dead\n004 jobs delivering m::a=delivering\n005 jobs dead m::a=dead\n"; s != w {
		t.Errorf("states:\n%s\nwant:\n%s", s, w)
	}
}

// TestRemoveDelivered: a message's dead/ file goes only when every target
// it was dead for has been delivered.
func TestRemoveDelivered(t *testing.T) {
	dir := t.TempDir()
	dead := filepath.Join(dir, "inbox", "dead")
	if err := os.MkdirAll(dead, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"001-jobs.txt", "002-jobs.txt"} {
		if err := os.WriteFile(filepath.Join(dead, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	RemoveDelivered(dir, []Letter{
		{Seq: "001", Target: "m::a", File: "inbox/001-jobs.txt", Done: true},
		{Seq: "001", Target: "m::b", File: "inbox/001-jobs.txt"},
		{Seq: "002", Target: "m::a", File: "inbox/002-jobs.txt", Done: true},
		{Seq: "002", Target: "m::b", File: "inbox/002-jobs.txt", Done: true},
	})
	left, _ := os.ReadDir(dead)
	if len(left) != 1 || left[0].Name() != "001-jobs.txt" {
		t.Errorf("left in dead/: %v, want only 001-jobs.txt", left)
	}
}
