package progress

import (
	"io"
	"os"

	"golang.org/x/term"
)

// ColourWanted reports whether output to w gets colours: only on a terminal
// and only while NO_COLOR is unset (an empty NO_COLOR counts as set, as for
// the heartbeat lines; docs/cli.md#the-progress-tree).
func ColourWanted(w io.Writer) bool {
	_, noColor := os.LookupEnv("NO_COLOR")
	return IsTerminal(w) && !noColor
}

// IsTerminal reports whether w is a terminal (not merely a character
// device: /dev/null is one too).
func IsTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
