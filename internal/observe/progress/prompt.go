package progress

import (
	"strings"
	"unicode/utf8"
)

// promptStart renders what follows `▸ ` on a prompt step's start line
// (docs/cli.md#the-progress-tree): `prompt "<preview>"` plus the other parameters capped at 96
// characters, or `prompt prompt` when the preview is blank. shown escapes
// data for the terminal (Printable on a TTY).
func promptStart(s *Style, params [][2]string, shown func(string) string) string {
	var rest [][2]string
	for _, p := range params {
		if !internalValue(p[1]) {
			rest = append(rest, p)
		}
	}
	preview := ""
	if len(rest) > 0 {
		preview = rest[0][1]
		rest = rest[1:]
	}
	text := strings.Join(strings.Fields(preview), " ")
	if utf8.RuneCountInString(text) > 24 {
		text = string([]rune(text)[:24]) + "..."
	}
	label := s.Bold("prompt") + " prompt"
	if text != "" {
		text = strings.ReplaceAll(text, `\`, `\\`)
		label = s.Bold("prompt") + ` "` + shown(strings.ReplaceAll(text, `"`, `\"`)) + `"`
	}
	if len(rest) == 0 {
		return label
	}
	return label + s.Dim(shown(FormatParams(rest, 96)))
}

func internalValue(v string) bool {
	return strings.HasSuffix(v, "::impl") || v == "jaiph::execute_readonly" || v == "jaiph::prompt_impl"
}
