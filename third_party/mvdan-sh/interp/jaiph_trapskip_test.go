// jaiph-go: a cancellation cause that stops a shell without its traps.

package interp

import (
	"bytes"
	"context"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

type skipCause struct{ sigCause }

func (skipCause) SkipTraps() bool { return true }

// TestJaiphTrapSkipper: a shell whose context is cancelled with a signal
// cause that is also a TrapSkipper ends with 128+signal and runs neither
// the signal's trap nor the EXIT trap (jaiph stops a run that waits for a
// message elsewhere and continues it later: it has not ended); the same
// signal without SkipTraps runs both, as before.
func TestJaiphTrapSkipper(t *testing.T) {
	for _, tc := range []struct {
		cause error
		want  string
	}{
		{skipCause{sigCause{syscall.SIGTERM}}, "before\n"},
		{sigCause{syscall.SIGTERM}, "before\nterm\nexit\n"},
	} {
		ctx, cancel := context.WithCancelCause(context.Background())
		// The body stops itself through a command, at a known point (no
		// timing).
		stop := func(next ExecHandlerFunc) ExecHandlerFunc {
			return func(ctx context.Context, args []string) error {
				if args[0] == "stopme" {
					cancel(tc.cause)
					<-ctx.Done()
					return ctx.Err()
				}
				return next(ctx, args)
			}
		}
		file, err := syntax.NewParser().Parse(strings.NewReader(
			"trap 'echo exit' EXIT; trap 'echo term' TERM; echo before; f() { stopme; }; f; echo after"), "")
		if err != nil {
			t.Fatal(err)
		}
		var out bytes.Buffer
		r, err := New(StdIO(nil, &out, os.Stderr), ExecHandlers(stop))
		if err != nil {
			t.Fatal(err)
		}
		err = r.Run(ctx, file)
		if st, ok := err.(ExitStatus); !ok || st != 143 {
			t.Errorf("%T: Run = %v, want exit status 143", tc.cause, err)
		}
		if out.String() != tc.want {
			t.Errorf("%T: output %q, want %q", tc.cause, out.String(), tc.want)
		}
		cancel(nil)
	}
}
