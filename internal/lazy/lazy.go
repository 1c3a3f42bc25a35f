// Package lazy builds package-level values on first use, so that a command
// pays only for the grammars, patterns and tables it uses: a package-level
// regexp.MustCompile runs in every process that links the package, `jaiph
// --version` included (docs/performance.md, "Start-up").
package lazy

import (
	"regexp"
	"sync"
)

// Regexp returns a function that compiles expr on its first call and returns
// the same *regexp.Regexp on every call; it panics, as regexp.MustCompile
// does, if expr is not a valid expression.
func Regexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}
