package testrun

import (
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/ast"
	"github.com/jaiph-go/jaiph/internal/observe/progress"
)

func TestPromptQueue(t *testing.T) {
	b := &block{queue: []string{"one", "", "three"}}
	for _, want := range []struct {
		answer  string
		handled bool
	}{{"one", true}, {"", false}, {"three", true}, {"", false}} {
		got, handled, err := b.prompt("any text")
		if got != want.answer || handled != want.handled || err != nil {
			t.Fatalf("prompt = %q, %v, %v; want %q, %v", got, handled, err, want.answer, want.handled)
		}
	}
}

func TestPromptDispatcher(t *testing.T) {
	d := &ast.MockDispatcher{Branches: []ast.MockBranch{
		{Pattern: "billing", Response: "payments"},
		{Pattern: "", Response: "empty pattern matches all"},
	}}
	b := &block{dispatcher: d, queue: []string{"ignored"}}
	if got, ok, _ := b.prompt("a billing question"); got != "payments" || !ok {
		t.Errorf("first branch: %q %v", got, ok)
	}
	if got, ok, _ := b.prompt("other"); got != "empty pattern matches all" || !ok {
		t.Errorf("second branch: %q %v", got, ok)
	}
	d.Branches = []ast.MockBranch{{Pattern: "x", Response: "x"}, {Else: true, Response: "fallback"}}
	if got, ok, _ := b.prompt("nothing"); got != "fallback" || !ok {
		t.Errorf("else: %q %v", got, ok)
	}
	d.Branches = d.Branches[:1]
	long := strings.Repeat("é", 90)
	_, ok, err := b.prompt(long)
	want := "jaiph: no mock matched prompt (no branch matched). Prompt preview: " + strings.Repeat("é", 80) + "..."
	if ok || err == nil || err.Error() != want {
		t.Errorf("no match: %v %v", ok, err)
	}
}

func TestExpectMessages(t *testing.T) {
	b := &block{file: &File{opts: Options{Style: progress.NewStyle(false)}}}
	for _, tc := range []struct {
		kind, expected, value, msg string
	}{
		{"expectContain", "", "anything", ""},
		{"expectNotContain", "", "anything", ""},
		{"expectContain", "éll", "héllo", ""},
		{"expectContain", "bye", "héllo\nworld",
			"jaiph: expectContain failed: expected to find:\n---\nbye\n---\nin output (11 chars):\n---\nhéllo\nworld\n---\n"},
		{"expectNotContain", "wor", "héllo\nworld",
			"jaiph: expectNotContain failed: did not expect to find:\n---\nwor\n---\nin output (11 chars):\n---\nhéllo\nworld\n---\n"},
		{"expectEqual", "a", "a", ""},
		{"expectEqual", "a", "b", "expectEqual failed:\n- a\n+ b\n"},
	} {
		msg, ok := b.expect(&ast.Expect{Kind: tc.kind, Expected: tc.expected}, tc.value)
		if msg != tc.msg || ok != (tc.msg == "") {
			t.Errorf("%s %q in %q: %q, %v; want %q", tc.kind, tc.expected, tc.value, msg, ok, tc.msg)
		}
	}
	msg, _ := b.expect(&ast.Expect{Kind: "expectContain", Expected: "x"}, strings.Repeat("l\n", 150))
	if n := strings.Count(msg, "l\n"); n != 100 {
		t.Errorf("value lines shown = %d, want 100", n)
	}
}
