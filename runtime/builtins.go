package runtime

import (
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/lowered"
)

// builtin implements one `jaiph::…` command; it returns the exit status.
type builtin func(ctx context.Context, f *frame, args []string) int

var builtins map[string]builtin

func init() {
	builtins = map[string]builtin{
		"jaiph::run":           builtinRun,
		"jaiph::ensure":        builtinEnsure,
		"jaiph::return":        builtinReturn,
		"jaiph::log":           builtinLog,
		"jaiph::logerr":        builtinLogErr,
		"jaiph::retries":       builtinRetries,
		"jaiph::ensure_failed": builtinEnsureFailed,
		"jaiph::send":          builtinSend,
		"jaiph::drain":         builtinDrain,
		"jaiph::prompt":        builtinPrompt,
		"jaiph::receive":       builtinReceive,
	}
}

// stepRecord resolves the step id a `jaiph::<builtin> <id> …` call starts
// with to the calling body's record of that kind; it reports a lowering
// mismatch (an internal error) on stderr.
func stepRecord(ctx context.Context, f *frame, kind lowered.StepKind, args []string) (*lowered.Step, []string) {
	var st *lowered.Step
	if len(args) > 0 && f.body != nil {
		if id, err := strconv.Atoi(args[0]); err == nil {
			st = f.body.Step(id)
		}
	}
	if st == nil || st.Kind != kind {
		fmt.Fprintf(interp.HandlerCtx(ctx).Stderr, "jaiph: internal error: jaiph::%s without a step record\n", kind)
		return nil, nil
	}
	return st, args[1:]
}

func managedBuiltin(ctx context.Context, f *frame, kind lowered.StepKind, args []string) int {
	st, args := stepRecord(ctx, f, kind, args)
	if st == nil {
		return 1
	}
	b := f.rt.bodies[st.Target]
	if b == nil {
		fmt.Fprintf(interp.HandlerCtx(ctx).Stderr, "jaiph: unknown symbol %s\n", st.Target)
		return 127
	}
	return f.rt.managedFromShell(ctx, f, b, args, callFlags{capture: st.Capture, always: st.Always})
}

func builtinRun(ctx context.Context, f *frame, args []string) int {
	return managedBuiltin(ctx, f, lowered.StepRun, args)
}
func builtinEnsure(ctx context.Context, f *frame, args []string) int {
	return managedBuiltin(ctx, f, lowered.StepEnsure, args)
}

// builtinReturn records the value return of the current body; the lowered
// code follows it with `return 0`. The value stays in memory unless the
// script pointed JAIPH_RETURN_VALUE_FILE elsewhere.
func builtinReturn(ctx context.Context, f *frame, args []string) int {
	v := ""
	if len(args) > 0 {
		v = args[0]
	}
	path := interp.HandlerCtx(ctx).Env.Get("JAIPH_RETURN_VALUE_FILE").String()
	if path == "" || path == f.rvPath {
		f.setReturn(v)
		return 0
	}
	if err := os.WriteFile(path, []byte(v), 0o644); err != nil {
		fmt.Fprintf(interp.HandlerCtx(ctx).Stderr, "jaiph: cannot write return value: %v\n", err)
		return 1
	}
	return 0
}

func builtinLog(ctx context.Context, f *frame, args []string) int {
	return logMessage(ctx, f, args, false)
}
func builtinLogErr(ctx context.Context, f *frame, args []string) int {
	return logMessage(ctx, f, args, true)
}

func logMessage(ctx context.Context, f *frame, args []string, isErr bool) int {
	msg := strings.Join(args, " ")
	typ := event.Log
	hc := interp.HandlerCtx(ctx)
	var w io.Writer = hc.Stdout
	if isErr {
		typ, w = event.LogErr, hc.Stderr
	}
	f.rt.emit(&event.Event{Type: typ, Message: msg, Depth: f.stackLen, Time: time.Now()})
	_, _ = io.WriteString(w, msg+"\n")
	return 0
}

// builtinRetries prints the ensure retry limit.
func builtinRetries(ctx context.Context, f *frame, args []string) int {
	hc := interp.HandlerCtx(ctx)
	fmt.Fprintln(hc.Stdout, retryLimit(hc.Env.Get("JAIPH_ENSURE_MAX_RETRIES").String()))
	return 0
}

func retryLimit(v string) int {
	if n, err := strconv.Atoi(strings.TrimSpace(v)); err == nil && n >= 0 {
		return n
	}
	return 10
}

func builtinEnsureFailed(ctx context.Context, f *frame, args []string) int {
	hc := interp.HandlerCtx(ctx)
	fmt.Fprintf(hc.Stderr, "jaiph: ensure condition did not pass after %d retries\n", retryLimit(hc.Env.Get("JAIPH_ENSURE_MAX_RETRIES").String()))
	return 1
}

func builtinPrompt(ctx context.Context, f *frame, args []string) int {
	return builtinPromptStep(ctx, f, args)
}
