package shellbuiltin

import (
	"context"
	"io"
	"strconv"

	"mvdan.cc/sh/v3/interp"
)

// Middleware runs the commands CallHandler routes to (`jaiph::echo`,
// `jaiph::printf`, the refusal of a bad `printf -v`) and `jaiph::status N`,
// which exits with N; every other command goes to next.
func Middleware(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
	return func(ctx context.Context, args []string) error {
		hc := interp.HandlerCtx(ctx)
		switch args[0] {
		case "jaiph::echo":
			if _, err := io.WriteString(hc.Stdout, bashEcho(args[1:])); err != nil {
				return interp.ExitStatus(1)
			}
			return nil
		case "jaiph::printf":
			return Status(bashPrintf(hc.Stdout, hc.Stderr, args[1:]))
		case "jaiph::printf_error": // a refused printf -v (CallHandler)
			if len(args) > 1 && args[1] != "" {
				_, _ = io.WriteString(hc.Stderr, args[1]+"\n")
			}
			return interp.ExitStatus(2)
		case "jaiph::status":
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
