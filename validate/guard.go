package validate

import (
	"strings"

	"github.com/jaiph-go/jaiph/internal/shellscan"
)

// guardMode selects the message set of the keyword-first guard.
type guardMode int

const (
	managedShell guardMode = iota // lines of a workflow shell step
	substitution                  // the inside of $( … )
)

// fragmentKind is what the guard found in one shell fragment.
type fragmentKind int

const (
	fragOK fragmentKind = iota
	fragKeyword
	fragSend
	fragRule
	fragWorkflow
	fragFunction
	fragUnknown
)

var guardMessages = map[guardMode]map[fragmentKind]string{
	managedShell: {
		fragKeyword:  `workflow shell cannot use "run" or "ensure" as shell commands; use Jaiph step forms instead`,
		fragSend:     `channel send (<-) must be a dedicated send step, not embedded in shell`,
		fragRule:     `rule "%w" must be invoked with ensure, not as a shell command`,
		fragWorkflow: `workflow "%w" must be invoked with run, not as a shell command`,
		fragFunction: `direct function call "%w" is not allowed in a workflow; use: run %w ...`,
		fragUnknown:  `unknown imported symbol "%w" used as a shell command`,
	},
	substitution: {
		fragKeyword:  `command substitution cannot use Jaiph keywords "run" or "ensure"; use managed steps outside $(...)`,
		fragSend:     `command substitution cannot contain channel send (<-); use a workflow send step instead`,
		fragRule:     `command substitution cannot invoke rule "%w"; use ensure %w ... in a workflow step`,
		fragWorkflow: `command substitution cannot invoke workflow "%w"; use run %w ... in a workflow step`,
		fragFunction: `command substitution cannot invoke function "%w"; use run %w ... for managed calls (or use pure shell inside $(...))`,
		fragUnknown:  `command substitution references unknown imported symbol "%w"`,
	},
}

// guardMessage returns the diagnostic text for a fragment, or "".
func guardMessage(mode guardMode, kind fragmentKind, word string) string {
	if kind == fragOK {
		return ""
	}
	return strings.ReplaceAll(guardMessages[mode][kind], "%w", word)
}

// symbolKind resolves a command word to the kind of Jaiph symbol it names in
// module m (fragOK when it names none).
type symbolKind func(word string) fragmentKind

// checkShell applies the keyword-first guard to shell text: substitutions
// first, then (for workflow shell) every non-empty, non-comment line. It
// returns the first message, or "".
func checkShell(text string, lines bool, kindOf symbolKind) string {
	for _, sub := range shellscan.Substitutions(text) {
		k, w := classifyFragment(sub, kindOf)
		if msg := guardMessage(substitution, k, w); msg != "" {
			return msg
		}
	}
	if !lines {
		return ""
	}
	// delims are the here-documents still open: their bodies are data
	// (`cat <<EOF` then `run the tests`), not commands to classify.
	// open is the quoted string a line left open: the lines up to the
	// one that closes it are its text (`echo "…` then `run x"`).
	var delims []string
	var open byte
	for _, line := range strings.Split(text, "\n") {
		if open != 0 {
			open = shellscan.QuoteAfter("\n"+line, open)
			continue
		}
		line = strings.TrimSpace(line)
		if len(delims) > 0 {
			if line == delims[0] {
				delims = delims[1:]
			}
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		for _, h := range shellscan.Heredocs(line) {
			delims = append(delims, h.Delim)
		}
		open = shellscan.QuoteAfter(line, 0)
		k, w := classifyFragment(line, kindOf)
		if msg := guardMessage(managedShell, k, w); msg != "" {
			return msg
		}
	}
	return ""
}

// classifyFragment applies the guard's tests to one fragment (docs/language.md#the-keyword-first-guard).
func classifyFragment(frag string, kindOf symbolKind) (fragmentKind, string) {
	t := strings.TrimSpace(frag)
	if shellscan.HasWordPrefix(t, "run") || shellscan.HasWordPrefix(t, "ensure") {
		return fragKeyword, ""
	}
	if shellscan.IndexSend(t) >= 0 {
		return fragSend, ""
	}
	word := shellscan.FirstCommandWord(t)
	switch word {
	case "", "echo", "printf":
		return fragOK, word
	}
	return kindOf(word), word
}
