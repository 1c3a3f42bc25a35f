package runtime

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/interp"

	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/internal/exec/agent"
	"github.com/jaiph-go/jaiph/internal/exec/shellbuiltin"
	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/jaiph-go/jaiph/lowered"
)

// PromptMock answers prompts in test mode instead of an agent
// (docs/language.md#mocks): text is the prompt as the agent would see it (expanded,
// schema suffix included). handled=false runs the real backend; a non-nil
// error fails the prompt step (status 1) with the error's text as its
// stderr.
type PromptMock func(text string) (answer string, handled bool, err error)

// builtinPromptStep runs a prompt as a managed step (docs/language.md#managed-calls, #prompts-at-run-time):
// its own seq and `NNNNNN-jaiph__prompt.out/.err` artifacts, STEP_START and
// STEP_END, the agent as a real process. Plain prompts also copy the
// transcript to the statement's stdout; `x = prompt` prints the answer (for
// the command substitution); typed prompts print shell assignments for
// `eval` and fail the statement (1/2/3) when the answer does not fit the
// schema, after the step itself ended 0.
func builtinPromptStep(ctx context.Context, f *frame, args []string) int {
	hc := interp.HandlerCtx(ctx)
	rt := f.rt
	// jaiph::prompt <id> [value of each of pc.Vars]… <<EOF
	// text (schema suffix included)
	// EOF
	pc, values := stepRecord(ctx, f, lowered.StepPrompt, args)
	if pc == nil {
		return 1
	}
	fields := pc.Fields
	stdin, err := io.ReadAll(hc.Stdin)
	if err != nil {
		fmt.Fprintf(hc.Stderr, "jaiph: cannot read prompt text: %v\n", err)
		return 1
	}
	// The reference reads the text with $(cat): trailing newlines go.
	text := strings.TrimRight(string(stdin), "\n")
	if err := rt.ensureRunDir(); err != nil {
		fmt.Fprintf(hc.Stderr, "jaiph: cannot create run directory: %v\n", err)
		return 1
	}

	// Where the transcript goes besides the prompt's .out: the statement's
	// stdout for a plain prompt (not a pipe); for a typed prompt, whose
	// stdout is the `eval` input, the enclosing step's own output.
	var stmtOut io.Writer
	switch {
	case pc.Typed:
		if f.out != nil {
			stmtOut = f.out
		}
	case pc.Capture:
	case isPipe(hc.Stdout):
	default:
		stmtOut = hc.Stdout
	}

	jid := f.callID("jaiph::prompt", []string{text})
	var status int
	var answer string
	if r := rt.journal.begin(f, jid, "prompt", "jaiph::prompt", []string{text}, false); r != nil {
		rt.emitReplayed(f, "jaiph::prompt", "prompt", "prompt", r)
		if stmtOut != nil && r.Out != "" {
			rt.copyArtifact(stmtOut, filepath.Join(rt.runDir, r.Out))
		}
		status, answer = 0, r.Value
	} else if status, answer = rt.livePrompt(ctx, f, pc, values, text, stmtOut, jid); status != 0 {
		return status
	}

	value := strings.TrimRight(answer, "\n")
	switch {
	case pc.Typed:
		res, terr := agent.ParseTyped(value, fields)
		if terr != nil {
			_, _ = io.WriteString(hc.Stderr, terr.Message)
			return terr.Code
		}
		code, err := res.Assignments(pc.Name, fields)
		if err != nil {
			fmt.Fprintf(hc.Stderr, "jaiph: internal error: prompt: %v\n", err)
			return 1
		}
		_, _ = io.WriteString(hc.Stdout, code)
	case pc.Capture:
		_, _ = io.WriteString(hc.Stdout, value)
	}
	return 0
}

// runPrompt runs the agent once and produces the attempt's artifacts: the
// transcript (to .out and stmtOut) and the agent's stderr (.err). It
// returns the status, the answer, and whether another attempt could help
// (agent.retries): the agent ran and exited non-zero or gave no answer — not
// a bad setting, a missing program, a test mock or an interruption. watch,
// if not nil, reports a silent agent.
func (rt *Runtime) runPrompt(ctx context.Context, hc interp.HandlerContext, text string, stmtOut io.Writer, outPath, errPath string, watch *idleWatch) (int, string, bool) {
	// Artifacts appear on their first byte, as for other steps.
	out := rt.newArtifact(outPath, nil)
	defer out.closeAndPrune()
	errFile := rt.newArtifact(errPath, rt.opts.StrayStderr)
	defer errFile.closeAndPrune()
	var transcript io.Writer = out
	if stmtOut != nil {
		transcript = io.MultiWriter(out, stmtOut)
	}
	if in := Interruption(ctx); in != nil {
		return in.Status(), "", false
	}

	if mock := rt.opts.PromptMock; mock != nil {
		answer, handled, err := mock(text)
		if err != nil {
			fmt.Fprintln(errFile, err.Error())
			return 1, "", false
		}
		if handled {
			_, _ = io.WriteString(transcript, answer)
			return 0, answer, false
		}
	}

	get := func(name string) string { return hc.Env.Get(name).String() }
	settings := agent.SettingsFrom(get, runs.WorkspaceRoot(hc.Dir))
	inv, err := agent.Build(settings, text, get)
	if err != nil {
		fmt.Fprintln(errFile, err.Error())
		return 1, "", false
	}
	if text != "" {
		fmt.Fprintf(transcript, "Command:\n%s\n\nPrompt:\n%s\n\n", inv.Display, text)
	}
	path, err := interp.LookPathDir(hc.Dir, hc.Env, inv.Argv[0])
	if err != nil {
		if inv.Backend == agent.Claude {
			fmt.Fprintln(errFile, agent.ClaudeNotFound.Error())
			return 1, "", false
		}
		fmt.Fprintln(errFile, agent.CursorNotFound(inv.Argv[0]).Error())
		return 127, "", false
	}

	parser := agent.NewParser(transcript)
	var stdout, stderr io.Writer = parser, errFile
	if watch != nil {
		stdout, stderr = watch.wrap(stdout), watch.wrap(stderr)
		defer watch.start()()
	}
	if inv.MergeStderr {
		stderr = stdout // one pipe for both, as without the watch
	}
	newCmd := func() *exec.Cmd {
		cmd := exec.CommandContext(ctx, path, inv.Argv[1:]...)
		cmd.Args[0] = inv.Argv[0]
		cmd.Env = shellbuiltin.ExportedList(hc.Env)
		cmd.Dir = hc.Dir
		cmd.Stdout = stdout
		cmd.Stderr = stderr
		if inv.Backend == agent.Claude {
			cmd.Stdin = strings.NewReader(inv.Stdin)
		}
		return cmd
	}
	cmd, err := shellbuiltin.StartInterruptible(ctx, newCmd)
	if err == nil {
		err = cmd.Wait()
	}
	_ = parser.Close()
	if in := Interruption(ctx); in != nil {
		return in.Status(), parser.Answer(), false
	}
	var exitErr *exec.ExitError
	switch {
	case err == nil, errors.Is(err, exec.ErrWaitDelay):
		answer := parser.Answer()
		if answer == "" {
			// Beyond the reference (docs/differences.md): an agent that
			// ends successfully without any answer has failed its prompt.
			fmt.Fprintf(errFile, "jaiph: agent %s exited 0 without an answer (no final text in its output)\n", inv.Argv[0])
			return 1, "", true
		}
		return 0, answer, false
	case errors.As(err, &exitErr):
		if ws, ok := exitErr.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			fmt.Fprintf(errFile, "jaiph: agent %s terminated by signal %d (%s)\n", inv.Argv[0], int(ws.Signal()), ws.Signal())
			return 128 + int(ws.Signal()), parser.Answer(), true
		}
		return exitErr.ExitCode(), parser.Answer(), true
	default:
		fmt.Fprintf(errFile, "jaiph: cannot run agent %s: %v\n", inv.Argv[0], err)
		return 126, parser.Answer(), false
	}
}

// isPipe reports whether w is a pipe (the reference does not copy a
// prompt's transcript into a pipe).
func isPipe(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeNamedPipe != 0
}

// livePrompt runs a prompt step's agent (builtinPromptStep) and journals
// how it ended as call jid.
func (rt *Runtime) livePrompt(ctx context.Context, f *frame, pc *lowered.Step, values []string, text string, stmtOut io.Writer, jid string) (int, string) {
	hc := interp.HandlerCtx(ctx)
	seq := rt.nextSeq()
	id := fmt.Sprintf("%s:%d:%d", rt.runID, rt.pid, seq)
	parentID := ""
	if f.body != nil {
		parentID = f.id
	}
	params := [][2]string{{"__preview", pc.Preview}}
	for i, name := range pc.Vars {
		v := ""
		if i < len(values) {
			v = values[i]
		}
		params = append(params, [2]string{name, v})
	}
	dispatchCh := hc.Env.Get("JAIPH_DISPATCH_CHANNEL")
	stepEvent := func(e *event.Event) {
		if dispatchCh.IsSet() {
			e.Dispatched, e.Channel, e.Sender = true, dispatchCh.String(), hc.Env.Get("JAIPH_DISPATCH_SENDER").String()
		}
		rt.emit(e)
	}
	start := time.Now()
	stepEvent(&event.Event{Type: event.StepStart, Func: "jaiph::prompt", Kind: "prompt", Name: "prompt", Time: start,
		ID: id, ParentID: parentID, Seq: seq, Depth: f.stackLen, Params: params})

	base := filepath.Join(rt.runDir, fmt.Sprintf("%06d-jaiph__prompt", seq))
	outPath, errPath := base+".out", base+".err"
	status, answer := rt.runPromptAttempts(ctx, hc, text, stmtOut, base, id, f.stackLen)

	elapsed := time.Since(start).Milliseconds()
	end := &event.Event{Type: event.StepEnd, Func: "jaiph::prompt", Kind: "prompt", Name: "prompt", Time: time.Now(),
		ID: id, ParentID: parentID, Seq: seq, Depth: f.stackLen, Status: &status, ElapsedMS: &elapsed}
	_, errKept := rt.attachArtifacts(end, outPath, errPath, true, true)
	stepEvent(end)
	if Interruption(ctx) == nil { // an interrupted prompt stays started, not ended
		rt.journal.end(jid, status, answer, end.OutFile)
	}
	if status != 0 {
		if errKept {
			if rt.opts.TestMode {
				// Test mode: a failed step's stderr goes to the statement's
				// output (never into a capture or an eval).
				if stmtOut != nil {
					rt.copyArtifact(stmtOut, errPath)
				}
			} else {
				rt.copyArtifact(hc.Stderr, errPath)
			}
		}
		return status, ""
	}

	return status, answer
}
