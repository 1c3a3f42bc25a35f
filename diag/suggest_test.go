package diag

import "testing"

func TestSuggest(t *testing.T) {
	for _, c := range []struct {
		name  string
		cands []string
		want  string
	}{
		{"deploi", []string{"default", "deploy", "build"}, `. Did you mean "deploy"?`},
		{"agent.bakend", []string{"agent.backend", "agent.command"}, `. Did you mean "agent.backend"?`},
		{"agent.retrys", []string{"agent.retries", "run.inbox_retries"}, `. Did you mean "agent.retries"?`},
		{"x", []string{"y", "z"}, `. Did you mean "y"?`},
		{"agent.temperature", []string{"agent.backend", "agent.command"}, ""},
		{"build", []string{"build"}, ""},
		{"evnts", []string{"events", "other"}, `. Did you mean "events"?`},
		{"ütil", []string{"util"}, `. Did you mean "util"?`},
		{"completely", nil, ""},
	} {
		if got := Suggest(c.name, c.cands); got != c.want {
			t.Errorf("Suggest(%q, %q) = %q, want %q", c.name, c.cands, got, c.want)
		}
	}
}
