package interp

import (
	"cmp"
	"errors"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/expand"
)

// readElem assigns value to the element name names for read (jaiph-go
// patch), through [HandlerContext.SetVar]: an error is printed as bash's
// (a subscript's named after no builtin and ending the shell with status
// 1, a declare -i value's named after read), a readonly array fails the
// read. allKeys is false for an element a nameref names, whose @ or *
// is refused for an associative array too.
func (r *Runner) readElem(name, value string, allKeys bool, exit *exitStatus) bool {
	err := HandlerContext{runner: r}.setVar(name, value, allKeys)
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
