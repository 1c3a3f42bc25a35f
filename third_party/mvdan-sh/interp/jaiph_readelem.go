package interp

import (
	"cmp"
	"errors"
	"strings"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

// validElemRef says name is an array element reference NAME[SUBSCRIPT]
// with a subscript, as bash's valid_array_reference accepts for read and
// printf -v (jaiph-go patch): the `]` closing the first `[` ends name,
// brackets nesting, quotes and backslashes read as skipsubscript does.
func validElemRef(name string) bool {
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

// readElem assigns value to the element name names for read (jaiph-go
// patch), through [HandlerContext.SetVar]: an error is printed as bash's
// (a subscript's named after no builtin and ending the shell with status
// 1, a declare -i value's named after read), a readonly array fails the
// read.
func (r *Runner) readElem(name, value string, exit *exitStatus) bool {
	err := HandlerContext{runner: r}.SetVar(name, value)
	if err == nil {
		return true
	}
	var fatal FatalAssignError
	switch {
	case errors.As(err, &fatal) && fatal.Unnamed:
		r.errf("%v\n", err)
		exit.code, exit.exiting, exit.undoAll = cmp.Or(fatal.code, 1), true, true
	case errors.As(err, &fatal):
		r.errf("read: %v\n", err)
		exit.code, exit.exiting, exit.undoAll = fatal.code, true, true
	default:
		r.errf("%v\n", err)
		exit.code = 1
		if errors.Is(err, errReadOnly) || errors.Is(err, expand.ErrBadSubscript) {
			r.readonlyFailed(exit) // report_error: the end of the shell under errexit
		}
	}
	return false
}
