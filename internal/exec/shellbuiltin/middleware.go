package shellbuiltin

import (
	"context"
	"strconv"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"
)

// Middleware runs `jaiph::status N`, which exits with N; every other
// command goes to next.
func Middleware(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
	return func(ctx context.Context, args []string) error {
		if args[0] == "jaiph::status" {
			return Status(StatusArg(args[1:]))
		}
		return next(ctx, args)
	}
}

// StatusArg is the status `jaiph::status N` exits with (used to fail a send
// whose command failed, D18, and a printf -v whose printf failed).
func StatusArg(args []string) int {
	if len(args) > 0 {
		if n, err := strconv.Atoi(args[0]); err == nil {
			return n
		}
	}
	return 1
}

// Status turns a shell status into what an exec handler returns.
func Status(status int) error {
	if status == 0 {
		return nil
	}
	if status > 255 {
		status = 255
	}
	return interp.ExitStatus(uint8(status))
}
