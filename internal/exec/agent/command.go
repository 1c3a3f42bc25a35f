package agent

import (
	"strings"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"

	"github.com/jaiph-go/jaiph/internal/shellscan"
)

// Backend names (JAIPH_AGENT_BACKEND); anything but "claude" means cursor.
const (
	Cursor = "cursor"
	Claude = "claude"
)

// Settings are the agent settings in effect for one prompt (docs/language.md#prompts-at-run-time),
// read from the environment at call time.
type Settings struct {
	Backend     string // JAIPH_AGENT_BACKEND; "" → cursor
	Command     string // JAIPH_AGENT_COMMAND; "" → cursor-agent
	Model       string // JAIPH_AGENT_MODEL (cursor only)
	Workspace   string // JAIPH_WORKSPACE or the detected workspace root
	Trusted     string // JAIPH_AGENT_TRUSTED_WORKSPACE; "" → Workspace
	CursorFlags string // JAIPH_AGENT_CURSOR_FLAGS, split on white space
	ClaudeFlags string // JAIPH_AGENT_CLAUDE_FLAGS, split on white space
}

// SettingsFrom reads the settings through get (a variable lookup);
// workspace is the root to use when JAIPH_WORKSPACE is empty.
func SettingsFrom(get func(string) string, workspace string) Settings {
	ws := get("JAIPH_WORKSPACE")
	if ws == "" {
		ws = workspace
	}
	return Settings{
		Backend:     get("JAIPH_AGENT_BACKEND"),
		Command:     get("JAIPH_AGENT_COMMAND"),
		Model:       get("JAIPH_AGENT_MODEL"),
		Workspace:   ws,
		Trusted:     get("JAIPH_AGENT_TRUSTED_WORKSPACE"),
		CursorFlags: get("JAIPH_AGENT_CURSOR_FLAGS"),
		ClaudeFlags: get("JAIPH_AGENT_CLAUDE_FLAGS"),
	}
}

// Invocation is the resolved command line of one prompt.
type Invocation struct {
	Backend string   // Cursor or Claude
	Argv    []string // program (looked up on PATH) and arguments
	// Stdin is the agent's standard input: the prompt for claude, nothing
	// for cursor (which gets the prompt as its last argument).
	Stdin string
	// MergeStderr sends the agent's stderr into the parser (claude, as the
	// reference's `2>&1 |`); otherwise stderr goes to the step's .err.
	MergeStderr bool
	// Display is the `Command:` line of the transcript.
	Display string
}

// Error is a prompt configuration failure; its text is the stderr line.
type Error struct{ Text string }

func (e *Error) Error() string { return e.Text }

// ClaudeNotFound is the failure when the claude backend is selected but no
// `claude` is on PATH (docs/language.md#prompts-at-run-time).
var ClaudeNotFound = &Error{`jaiph: agent.backend is "claude" but the Claude CLI (claude) was not found in PATH. Install the Anthropic Claude CLI or set agent.backend = "cursor" (or JAIPH_AGENT_BACKEND=cursor).`}

// CursorNotFound is the failure when the cursor backend's command (the
// first word of agent.command, cursor-agent by default) is not on PATH: a
// bare "command not found" does not say which setting chose it or what to
// do, as ClaudeNotFound does for claude.
func CursorNotFound(program string) *Error {
	return &Error{`jaiph: agent.backend is "cursor" but its command (` + program + `) was not found in PATH. Install the Cursor CLI (cursor-agent), set agent.command (or JAIPH_AGENT_COMMAND) to the agent's command, or set agent.backend = "claude" (or JAIPH_AGENT_BACKEND=claude).`}
}

// Build resolves the backend command line for prompt (docs/language.md#prompts-at-run-time).
// lookup resolves variables in the agent command (the reference splits it
// with `eval set --`). The command is split even for the claude backend,
// which does not use it, so a malformed agent.command fails every prompt
// as in the reference.
func Build(s Settings, prompt string, lookup func(string) string) (*Invocation, error) {
	command := s.Command
	if command == "" {
		command = "cursor-agent"
	}
	words, err := SplitCommand(command, lookup)
	if err != nil {
		return nil, &Error{"jaiph: failed to parse agent.command: " + command}
	}
	if len(words) == 0 {
		return nil, &Error{"jaiph: agent.command resolved to empty command"}
	}
	if s.Backend == Claude {
		argv := append([]string{"claude", "-p", "--verbose", "--output-format", "stream-json", "--include-partial-messages"},
			strings.Fields(s.ClaudeFlags)...)
		return &Invocation{
			Backend:     Claude,
			Argv:        argv,
			Stdin:       prompt,
			MergeStderr: true,
			Display:     "printf %s " + shellscan.QuoteQ(prompt) + ` \| ` + QuoteCommand(argv),
		}, nil
	}
	trusted := s.Trusted
	if trusted == "" {
		trusted = s.Workspace
	}
	argv := append(words, "--print", "--output-format", "stream-json", "--stream-partial-output", "--workspace", s.Workspace)
	if s.Model != "" {
		argv = append(argv, "--model", s.Model)
	}
	argv = append(argv, "--trust", trusted)
	argv = append(argv, strings.Fields(s.CursorFlags)...)
	argv = append(argv, prompt)
	return &Invocation{Backend: Cursor, Argv: argv, Display: QuoteCommand(argv)}, nil
}

// SplitCommand splits an agent command into words with shell quoting and
// parameter expansion (lookup resolves variables). Command substitution,
// operators and redirections are errors; globs are not expanded.
func SplitCommand(command string, lookup func(string) string) ([]string, error) {
	var words []*syntax.Word
	err := syntax.NewParser().Words(strings.NewReader(command), func(w *syntax.Word) bool {
		words = append(words, w)
		return true
	})
	if err != nil {
		return nil, err
	}
	cfg := &expand.Config{Env: expand.FuncEnviron(lookup)}
	return expand.Fields(cfg, words...)
}
