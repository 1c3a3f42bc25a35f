package progress

import (
	"bytes"
	"testing"

	"github.com/jaiph-go/jaiph/internal/event"
)

func TestPromptStart(t *testing.T) {
	plain, colour := NewStyle(false), NewStyle(true)
	tests := []struct {
		name   string
		s      *Style
		params [][2]string
		want   string
	}{
		{"preview only", plain, [][2]string{{"__preview", "Hi"}}, `prompt "Hi"`},
		{"vars", plain, [][2]string{{"__preview", "Say hello as the $role"}, {"role", "release manager"}},
			`prompt "Say hello as the $role" (role="release manager")`},
		{"white space collapsed, quotes and backslashes escaped", plain,
			[][2]string{{"__preview", "\n    a \"b\"\t\\c"}}, `prompt "a \"b\" \\c"`},
		{"blank preview", plain, [][2]string{{"__preview", " \n "}, {"x", "1"}}, `prompt prompt (x="1")`},
		{"internal values skipped (reference params)", plain,
			[][2]string{{"__prompt_impl", "jaiph::prompt_impl"}, {"__preview", "Hi $1"}, {"1", "one"}}, `prompt "Hi $1" (1="one")`},
		{"positional keys stay numbers next to names", plain,
			[][2]string{{"__preview", "p"}, {"1", "a"}, {"tone", "b"}}, `prompt "p" (1="a", tone="b")`},
		{"suffix capped at 96", plain,
			[][2]string{{"__preview", "Write for $audience in a"}, {"audience", "platform engineers who maintain the deployment pipeline"},
				{"tone", "friendly"}, {"1", "the quarterly infrastructure cost review"}, {"2", "next steps"}},
			`prompt "Write for $audience in a" (audience="platform engineers who maintain ...", tone="friendly", 1="the quarterly infrastru...`},
		{"colour: bold kind, dim suffix", colour, [][2]string{{"__preview", "Hi"}, {"a", "b"}},
			"\x1b[1mprompt\x1b[0m \"Hi\"\x1b[2m (a=\"b\")\x1b[0m"},
		{"colour: no empty dim piece without suffix", colour, [][2]string{{"__preview", "Hi"}},
			"\x1b[1mprompt\x1b[0m \"Hi\""},
	}
	for _, tt := range tests {
		if got := promptStart(tt.s, tt.params, Printable); got != tt.want {
			t.Errorf("%s: got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

// TestPromptNotices: retry and idle events are `!` lines one level below
// the prompt step, yellow with colour.
func TestPromptNotices(t *testing.T) {
	st := 3
	evs := []*event.Event{
		{Type: event.PromptRetry, Depth: 1, Attempt: 1, Status: &st, DelayMS: 1500},
		{Type: event.PromptIdle, Depth: 2, IdleMS: 200},
	}
	var plain, colour bytes.Buffer
	for _, e := range evs {
		NewTree(&plain, NewStyle(false)).Event(e)
		NewTree(&colour, NewStyle(true)).Event(e)
	}
	want := "  ·   ! prompt attempt 1 failed (exit 3); retrying in 1.5s\n" +
		"  ·   ·   ! prompt has produced no output for 200ms\n"
	if got := plain.String(); got != want {
		t.Errorf("plain:\n got %q\nwant %q", got, want)
	}
	wantColour := "\x1b[2m  ·   \x1b[0m\x1b[33m! prompt attempt 1 failed (exit 3); retrying in 1.5s\x1b[0m\n" +
		"\x1b[2m  ·   ·   \x1b[0m\x1b[33m! prompt has produced no output for 200ms\x1b[0m\n"
	if got := colour.String(); got != wantColour {
		t.Errorf("colour:\n got %q\nwant %q", got, wantColour)
	}
}

// TestLostAttempt: the end the run writes for a broker delivery's attempt
// lost with its worker is a failed end line saying why.
func TestLostAttempt(t *testing.T) {
	st, ms := 1, int64(2400)
	var plain bytes.Buffer
	tree := NewTree(&plain, NewStyle(false))
	tree.Event(&event.Event{Type: event.StepStart, Kind: "workflow", Name: "work", ID: "w:1:1", ParentID: "r:1:1", Depth: 1, Worker: "wB"})
	tree.Event(&event.Event{Type: event.StepEnd, Kind: "workflow", Name: "work", ID: "w:1:1", ParentID: "r:1:1", Depth: 1,
		Status: &st, ElapsedMS: &ms, Worker: "wB", Lost: "worker wB stopped renewing its lease"})
	want := "  ▸ workflow work on wB\n  ✗ workflow work (2s) lost: worker wB stopped renewing its lease\n"
	if got := plain.String(); got != want {
		t.Errorf("got %q\nwant %q", got, want)
	}
}
