package agent

import "testing"

func TestQuoteCommand(t *testing.T) {
	got := QuoteCommand([]string{"cursor-agent", "--profile", "ci runner", ""})
	if want := `cursor-agent --profile ci\ runner ''`; got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
