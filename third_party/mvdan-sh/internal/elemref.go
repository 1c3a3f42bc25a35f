// Copyright (c) 2026, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package internal

import (
	"strings"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// ValidElemRef says name is an array element reference NAME[SUBSCRIPT]
// with a subscript, as bash's valid_array_reference accepts it (jaiph-go
// patch): for read and printf -v, and for the value a nameref without a
// value takes (valid_nameref_value). The `]` closing the first `[` ends
// name, brackets nesting, quotes and backslashes read as skipsubscript
// does, so `a[x]y]` and `a[]]` are not element references.
func ValidElemRef(name string) bool {
	i := strings.IndexByte(name, '[')
	if i <= 0 || !syntax.ValidName(name[:i]) || len(name) < i+3 {
		return false
	}
	depth := 0
	for j := i; j < len(name); j++ {
		switch c := name[j]; c {
		case '\\':
			j++
		case '\'', '"':
			k := j + 1
			for k < len(name) && name[k] != c {
				if c == '"' && name[k] == '\\' {
					k++
				}
				k++
			}
			if k >= len(name) {
				return false
			}
			j = k
		case '[':
			depth++
		case ']':
			if depth--; depth == 0 {
				return j == len(name)-1
			}
		}
	}
	return false
}

// ValidNameOrElem says s names a variable or an array element, what
// bash's valid_nameref_value lets a nameref without a value take and read
// lets a name be (jaiph-go patch).
func ValidNameOrElem(s string) bool {
	return syntax.ValidName(s) || ValidElemRef(s)
}
