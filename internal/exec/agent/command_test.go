package agent

import (
	"reflect"
	"testing"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestBuild(t *testing.T) {
	tests := []struct {
		name     string
		s        Settings
		prompt   string
		argv     []string
		stdin    string
		merge    bool
		display  string
		errText  string
		backend  string
		vars     map[string]string
		settings map[string]string
	}{
		{name: "cursor defaults", s: Settings{Workspace: "/w"}, prompt: "hi there",
			argv:    []string{"cursor-agent", "--print", "--output-format", "stream-json", "--stream-partial-output", "--workspace", "/w", "--trust", "/w", "hi there"},
			display: `cursor-agent --print --output-format stream-json --stream-partial-output --workspace /w --trust /w hi\ there`},
		{name: "cursor: command words, model, trusted, flags",
			s:       Settings{Command: `cursor-agent --profile 'ci runner'`, Model: "m1", Workspace: "/w", Trusted: "/t x", CursorFlags: " --a\t--b  "},
			prompt:  "p",
			argv:    []string{"cursor-agent", "--profile", "ci runner", "--print", "--output-format", "stream-json", "--stream-partial-output", "--workspace", "/w", "--model", "m1", "--trust", "/t x", "--a", "--b", "p"},
			display: `cursor-agent --profile ci\ runner --print --output-format stream-json --stream-partial-output --workspace /w --model m1 --trust /t\ x --a --b p`},
		{name: "cursor: variables in the command expand", s: Settings{Command: `"$HOME/bin/agent" -x`, Workspace: "/w"},
			vars: map[string]string{"HOME": "/home/u"}, prompt: "",
			argv:    []string{"/home/u/bin/agent", "-x", "--print", "--output-format", "stream-json", "--stream-partial-output", "--workspace", "/w", "--trust", "/w", ""},
			display: `/home/u/bin/agent -x --print --output-format stream-json --stream-partial-output --workspace /w --trust /w ''`},
		{name: "claude: stdin, merged stderr, flags, no model",
			s:      Settings{Backend: "claude", Model: "ignored", Workspace: "/w", ClaudeFlags: "--max-turns 2", CursorFlags: "--nope"},
			prompt: "line1\nline2", stdin: "line1\nline2", merge: true,
			argv:    []string{"claude", "-p", "--verbose", "--output-format", "stream-json", "--include-partial-messages", "--max-turns", "2"},
			display: `printf %s $'line1\nline2' \| claude -p --verbose --output-format stream-json --include-partial-messages --max-turns 2`},
		{name: "unknown backend is cursor", s: Settings{Backend: "codex", Workspace: "/w"}, prompt: "p",
			argv:    []string{"cursor-agent", "--print", "--output-format", "stream-json", "--stream-partial-output", "--workspace", "/w", "--trust", "/w", "p"},
			display: `cursor-agent --print --output-format stream-json --stream-partial-output --workspace /w --trust /w p`},
		{name: "unbalanced quote", s: Settings{Command: `agent 'oops`}, errText: "jaiph: failed to parse agent.command: agent 'oops"},
		{name: "command substitution", s: Settings{Command: `agent $(whoami)`}, errText: "jaiph: failed to parse agent.command: agent $(whoami)"},
		{name: "operator", s: Settings{Command: `agent; rm -rf /`}, errText: "jaiph: failed to parse agent.command: agent; rm -rf /"},
		{name: "blank command", s: Settings{Command: "   "}, errText: "jaiph: agent.command resolved to empty command"},
		{name: "empty after expansion", s: Settings{Command: "$UNSET"}, errText: "jaiph: agent.command resolved to empty command"},
		{name: "claude still parses agent.command", s: Settings{Backend: "claude", Command: `'x`}, errText: "jaiph: failed to parse agent.command: 'x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inv, err := Build(tt.s, tt.prompt, env(tt.vars))
			if tt.errText != "" {
				if err == nil || err.Error() != tt.errText {
					t.Fatalf("error = %v, want %s", err, tt.errText)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(inv.Argv, tt.argv) {
				t.Errorf("argv = %q\nwant   %q", inv.Argv, tt.argv)
			}
			if inv.Stdin != tt.stdin || inv.MergeStderr != tt.merge {
				t.Errorf("stdin %q merge %v", inv.Stdin, inv.MergeStderr)
			}
			if inv.Display != tt.display {
				t.Errorf("display = %s\nwant      %s", inv.Display, tt.display)
			}
		})
	}
}

func TestSettingsFrom(t *testing.T) {
	s := SettingsFrom(env(map[string]string{"JAIPH_AGENT_BACKEND": "claude", "JAIPH_AGENT_MODEL": "m"}), "/detected")
	if s.Workspace != "/detected" || s.Backend != "claude" || s.Model != "m" {
		t.Errorf("%+v", s)
	}
	s = SettingsFrom(env(map[string]string{"JAIPH_WORKSPACE": "/ws"}), "/detected")
	if s.Workspace != "/ws" {
		t.Errorf("%+v", s)
	}
}

func TestClaudeNotFoundText(t *testing.T) {
	want := `jaiph: agent.backend is "claude" but the Claude CLI (claude) was not found in PATH. Install the Anthropic Claude CLI or set agent.backend = "cursor" (or JAIPH_AGENT_BACKEND=cursor).`
	if ClaudeNotFound.Error() != want {
		t.Error(ClaudeNotFound.Error())
	}
}
