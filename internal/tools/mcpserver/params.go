package mcpserver

// This file answers: which positional arguments does a workflow use?

import (
	"strconv"
	"strings"

	"github.com/jaiph-go/jaiph/internal/lazy"
)

// The patterns are compiled on first use (internal/lazy): a package-level
// regexp would cost every command.
var (
	// positionalRef is $1…$9 or ${N}, with or without a default (${1:-x}).
	positionalRef = lazy.Regexp(`\$(?:([1-9])|\{([1-9][0-9]*)(?:[:}]))`)
	// namedParam is a line that names one: `name="$1"`, `local name = "${1:-x}"`.
	namedParam = lazy.Regexp(`^\s*(?:local\s+|readonly\s+|export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*"?\$(?:([1-9])|\{([1-9][0-9]*)[:}])`)
	restRef    = lazy.Regexp(`\$(?:[@*]|\{[@*])`)
)

// Params reads the positional parameters a workflow body (its source
// lines) uses, for the tool's description: "$1 name", "$2", …, and "…"
// when it also takes the rest ("$@", "$*"). Only a guess from the text
// (a comment counts too), which is why the input stays an args array.
func Params(body []string) []string {
	names := map[int]string{}
	highest, rest := 0, false
	for _, line := range body {
		if m := namedParam().FindStringSubmatch(line); m != nil {
			if n := atoi(m[2] + m[3]); names[n] == "" {
				names[n] = m[1]
			}
		}
		for _, m := range positionalRef().FindAllStringSubmatch(line, -1) {
			highest = max(highest, atoi(m[1]+m[2]))
		}
		rest = rest || restRef().MatchString(line)
	}
	var out []string
	for n := 1; n <= highest; n++ {
		p := "$" + strconv.Itoa(n)
		if names[n] != "" {
			p += " " + names[n]
		}
		out = append(out, p)
	}
	if rest {
		out = append(out, "…")
	}
	return out
}

func atoi(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

// argsDescription is the args property's description for params.
func argsDescription(params []string) string {
	const base = "the workflow's positional arguments: $1, $2, …"
	if len(params) == 0 {
		return base + " (its body uses none)"
	}
	return base + " (its body uses " + strings.Join(params, ", ") + ")"
}
