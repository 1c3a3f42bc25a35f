package shellbuiltin

import (
	"context"
	"errors"
	"fmt"
	"syscall"
)

type faultKey struct{}

// WithFaultReporter returns a context in which External tells report about
// every program that could not start because the system ran out of a
// resource (EMFILE, ENFILE, EAGAIN, ENOMEM). The command's status alone can
// be ignored (a background job's is), so the run fails through report.
func WithFaultReporter(ctx context.Context, report func(error)) context.Context {
	return context.WithValue(ctx, faultKey{}, report)
}

func reportFault(ctx context.Context, name string, err error) {
	if report, ok := ctx.Value(faultKey{}).(func(error)); ok && IsResourceFault(err) {
		report(fmt.Errorf("%s: %s", name, errnoText(err)))
	}
}

// IsResourceFault reports whether err says the system ran out of a resource.
func IsResourceFault(err error) bool {
	for _, e := range []error{syscall.EMFILE, syscall.ENFILE, syscall.EAGAIN, syscall.ENOMEM} {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// ErrnoText is an error's text as bash prints it ("Too many open files").
func ErrnoText(err error) string { return errnoText(err) }
