package shellbuiltin

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"
	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

type termCause struct{}

func (termCause) Error() string          { return "terminated" }
func (termCause) CauseSignal() os.Signal { return syscall.SIGTERM }

func runExternal(t *testing.T, src string, mws ...func(interp.ExecHandlerFunc) interp.ExecHandlerFunc) (string, string, int) {
	t.Helper()
	file, err := syntax.NewParser().Parse(strings.NewReader(src), "")
	if err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	r, err := interp.New(interp.StdIO(nil, &out, &errb), interp.Dir(t.TempDir()),
		interp.ExecHandlers(append(mws, External(nil))...))
	if err != nil {
		t.Fatal(err)
	}
	err = r.Run(context.Background(), file)
	status := 0
	var es interp.ExitStatus
	if errors.As(err, &es) {
		status = int(es)
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), status
}

// A job killed just before its program starts ends by the signal, silently,
// as in bash (no "sleep: context canceled").
func TestExternalCancelledBeforeStart(t *testing.T) {
	cancelFirst := func(next interp.ExecHandlerFunc) interp.ExecHandlerFunc {
		return func(ctx context.Context, args []string) error {
			ctx, cancel := context.WithCancelCause(ctx)
			cancel(termCause{})
			return next(ctx, args)
		}
	}
	_, stderr, status := runExternal(t, "sleep 5", cancelFirst)
	if stderr != "" || status != 143 {
		t.Errorf("got stderr %q status %d, want no output and 143", stderr, status)
	}
}

// External programs see the shell's descriptors 3 and up, as in bash.
func TestExternalExtraFiles(t *testing.T) {
	out, stderr, status := runExternal(t, `exec 3>f; sh -c 'echo to3 >&3'; exec 3>&-; cat f; exec 4<f; sh -c 'cat <&4'`)
	if out != "to3\nto3\n" || stderr != "" || status != 0 {
		t.Errorf("got %q %q %d", out, stderr, status)
	}
}
