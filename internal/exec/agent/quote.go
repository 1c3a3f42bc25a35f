package agent

import (
	"strings"

	"github.com/jaiph-go/jaiph/internal/shellscan"
)

// QuoteCommand renders argv as `%q`-quoted words joined by spaces.
func QuoteCommand(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		parts[i] = shellscan.QuoteQ(a)
	}
	return strings.Join(parts, " ")
}
