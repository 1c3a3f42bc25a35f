package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/jaiph-go/jaiph/bashcheck"
	"github.com/jaiph-go/jaiph/codegen"
	"github.com/jaiph-go/jaiph/diag"
	"github.com/jaiph-go/jaiph/hooks"
	"github.com/jaiph-go/jaiph/internal/atomicfile"
	"github.com/jaiph-go/jaiph/parser"
	"github.com/jaiph-go/jaiph/progress"
	"github.com/jaiph-go/jaiph/runtime"
	"github.com/jaiph-go/jaiph/validate"
)

func newRunCmd(stdout, stderr io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "run [--target DIR] FILE [--] [ARGS...]",
		Short: "Run the default workflow of a .jh file",
		Long: `Run the workflow named "default" in FILE with ARGS as $1, $2, ….

Steps write their output to .jaiph/runs/<date>/<time>-<file>/ under the
workspace root; the progress tree goes to stdout, failures to stderr.
Exit status: 0 on success, 1 on failure or a compile error.`,
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
				return cmd.Help()
			}
			code := runFile(args, stdout, stderr)
			if code != 0 {
				return &exitError{code}
			}
			return nil
		},
	}
}

// splitRunArgs separates `--target DIR` (anywhere before `--`) from the
// positional arguments.
func splitRunArgs(args []string) (target string, pos []string, err error) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			pos = append(pos, args[i+1:]...)
			return target, pos, nil
		case a == "--target":
			if i+1 >= len(args) {
				return "", nil, errors.New("--target requires a directory path")
			}
			target = args[i+1]
			i++
		default:
			pos = append(pos, a)
		}
	}
	return target, pos, nil
}

func runFile(args []string, stdout, stderr io.Writer) int {
	target, pos, err := splitRunArgs(args)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if len(pos) == 0 {
		fmt.Fprintln(stderr, "jaiph run requires a .jh or .jph file path")
		return 1
	}
	file, wfArgs := pos[0], pos[1:]
	abs, err := filepath.Abs(file)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	workspace := runtime.WorkspaceRoot(filepath.Dir(abs))
	home, _ := os.UserHomeDir()
	hk := hooks.Load(home, workspace, stderr)
	defer hk.Wait(hookWait)
	if st, err := os.Stat(abs); err != nil || !st.Mode().IsRegular() || !parser.IsSourceFile(abs) {
		if err != nil && os.IsNotExist(err) && parser.IsSourceFile(abs) {
			fmt.Fprintf(stderr, "jaiph run: no such file: %s\n", file)
			return 1
		}
		fmt.Fprintln(stderr, "jaiph run expects a single .jh or .jph file")
		return 1
	}
	if strings.HasSuffix(abs, ".jph") && isTerminal(stderr) {
		fmt.Fprintln(stderr, "jaiph: .jph extension is deprecated; use .jh for new files. Migration: mv *.jph *.jh")
	}
	prog, err := validate.LoadEntry(abs)
	if err != nil {
		printLoadError(stderr, err)
		return 1
	}
	mods := codegen.LowerProgram(prog.Modules, codegen.RootOf(abs), prog.Loader.Resolved)
	if ds := bashcheck.Lowered(prog, mods); len(ds) > 0 {
		printLoadError(stderr, ds[0]) // like the first validation problem
		return 1
	}
	if target != "" {
		// D5: keep the lowered shell of the entry and its imports, as
		// `jaiph build --target` writes it.
		outRoot, err := filepath.Abs(target)
		if err == nil {
			for _, o := range planBuild(prog, filepath.Dir(abs), outRoot, abs) {
				if err = atomicfile.Write(o.path, o.content, 0o644); err != nil {
					break
				}
			}
		}
		if err != nil {
			fmt.Fprintf(stderr, "jaiph run: --target: %v\n", err)
			return 1
		}
	}
	ctx, stop := interruptible()
	defer stop()

	var entry *codegen.Module
	for _, m := range mods {
		if m.Path == prog.Entry.Path {
			entry = m
		}
	}
	source := filepath.Base(abs)
	// A requested sandbox never becomes a run on the host: checked before
	// module locals run anything.
	if err := runtime.Sandbox(ctx, runtime.NewEnv(os.Environ()), entry); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	env, locals, err := runtime.PrepareEnv(ctx, os.Environ(), entry, mods, workspace, source, wfArgs)
	// Interrupted while module locals were evaluated: the run below stops
	// at once and reports the signal like any interrupted run.
	if err != nil && interruption(ctx) == nil {
		fmt.Fprintf(stderr, "jaiph: %v\n", err)
		return 1
	}
	colour := colourWanted(stdout)
	style := progress.NewStyle(colour)
	// TTY: a live RUNNING line and stray stderr kept off the screen; else
	// heartbeats for long steps (cli.md §5).
	tree := progress.NewTree(stdout, style, progress.TTY(isTerminal(stdout)),
		progress.WithHeartbeat(progress.HeartbeatFromEnv(os.LookupEnv)))
	stray := &strayStderr{w: tree.StrayWriter(stderr)}
	hk.SetMessageWriter(tree.NoticeWriter(stderr)) // above the RUNNING line once live
	rt := runtime.New(runtime.Options{
		Modules: mods, Entry: entry, Workspace: workspace, SourceFile: source,
		Env: env.List(), Stdin: os.Stdin, StrayStderr: stray, Observer: observers{tree, hk}, Locals: locals,
	})
	defer rt.Close()

	started := time.Now()
	rootParams := make([][2]string, len(wfArgs))
	for i, a := range wfArgs {
		rootParams[i] = [2]string{fmt.Sprint(i + 1), a}
	}
	hk.WorkflowStart(abs, workspace)
	fmt.Fprintf(stdout, "\nJaiph: Running %s\n\n", tree.Shown(source))
	rootSuffix := "" // dim params only when args are given (cli.md §5)
	if len(wfArgs) > 0 {
		rootSuffix = style.Dim(tree.Shown(progress.FormatParams(rootParams, 0)))
	}
	fmt.Fprintf(stdout, "%s default%s\n", style.Bold("workflow"), rootSuffix)
	tree.Start(started)
	defer tree.Stop()
	if err := os.Chdir(workspace); err != nil {
		fmt.Fprintf(stderr, "jaiph: %v\n", err)
		return 1
	}
	status, runErr := rt.Run(ctx, wfArgs)
	if errors.Is(runErr, runtime.ErrNoDefault) {
		fmt.Fprintln(stray, runErr.Error())
	} else if runErr != nil && !errors.Is(runErr, context.Canceled) {
		fmt.Fprintf(stray, "jaiph: %v\n", runErr)
	}
	tree.Stop() // the RUNNING line goes and the ticker ends before the result
	resolved := 0
	if status != 0 || (stray.len() > 0 && env.Get("JAIPH_DEBUG") != "true") {
		resolved = 1
	}
	runDir, summaryFile := rt.RunDir(), ""
	if runDir != "" {
		summaryFile = filepath.Join(runDir, "run_summary.jsonl")
	}
	hk.WorkflowEnd(rt.RunID(), resolved, time.Since(started), runDir, summaryFile)
	dur := progress.Duration(time.Since(started))
	if resolved == 0 {
		fmt.Fprintf(stdout, "%s %s\n", style.Green("✓ PASS"), style.Dim("workflow default ("+dur+")"))
		return 0
	}
	summary := "Workflow execution failed."
	in := interruption(ctx)
	if in != nil {
		summary = "Process terminated by signal " + in.SignalName()
	}
	printFailBlock(stderr, style, rt, stray, dur, summary)
	if in != nil {
		return in.Status()
	}
	return 1
}

// interruptible returns a context cancelled by SIGINT or SIGTERM with a
// *runtime.Interrupted cause (D22). A second signal exits at once.
func interruptible() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigc := make(chan os.Signal, 1)
	signal.Notify(sigc, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigc:
			in := &runtime.Interrupted{Signal: s.(syscall.Signal)}
			cancel(in)
			select {
			case <-sigc:
				os.Exit(in.Status())
			case <-done:
			}
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigc)
		close(done)
		cancel(nil)
	}
}

// interruption returns the signal that stopped the run, if any.
func interruption(ctx context.Context) *runtime.Interrupted {
	var in *runtime.Interrupted
	if errors.As(context.Cause(ctx), &in) {
		return in
	}
	return nil
}

// printFailBlock writes the FAIL block of cli.md §6.
// summary is shown when there is neither failed-step output nor stray
// stderr.
func printFailBlock(w io.Writer, style *progress.Style, rt *runtime.Runtime, stray *strayStderr, dur, summary string) {
	fmt.Fprintf(w, "\n%s workflow default (%s)\n", style.Red("✗ FAIL"), dur)
	failed := failedOutput(rt.FirstFailure())
	if failed == "" {
		if last := stray.lastLine(); last != "" {
			summary = last
		}
		fmt.Fprintf(w, "  %s\n", summary)
	}
	if dir := rt.RunDir(); dir != "" {
		fmt.Fprintf(w, "  Logs: %s\n", dir)
		fmt.Fprintf(w, "  Summary: %s\n", filepath.Join(dir, "run_summary.jsonl"))
		out, errf := lastArtifacts(dir)
		if out != "" {
			fmt.Fprintf(w, "    out: %s\n", out)
		}
		if errf != "" {
			fmt.Fprintf(w, "    err: %s\n", errf)
		}
	}
	if failed != "" {
		fmt.Fprintf(w, "\n  Output of failed step:\n")
		for _, l := range strings.Split(failed, "\n") {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
}

// failedOutput is the output of the first failed step: out and err contents,
// each right-trimmed and cut to its last 30 lines.
func failedOutput(e *runtime.Event) string {
	if e == nil {
		return ""
	}
	var parts []string
	for _, c := range []*string{e.OutContent, e.ErrContent} {
		if c == nil {
			continue
		}
		s := strings.TrimRight(*c, " \t\r\n")
		if s == "" {
			continue
		}
		lines := strings.Split(s, "\n")
		if len(lines) > 30 {
			lines = lines[len(lines)-30:]
		}
		parts = append(parts, strings.Join(lines, "\n"))
	}
	return strings.Join(parts, "\n")
}

// lastArtifacts returns the lexicographically last *.out and *.err files.
func lastArtifacts(dir string) (string, string) {
	entries, _ := os.ReadDir(dir)
	var outs, errs []string
	for _, e := range entries {
		switch {
		case strings.HasSuffix(e.Name(), ".out"):
			outs = append(outs, e.Name())
		case strings.HasSuffix(e.Name(), ".err"):
			errs = append(errs, e.Name())
		}
	}
	sort.Strings(outs)
	sort.Strings(errs)
	last := func(l []string) string {
		if len(l) == 0 {
			return ""
		}
		return filepath.Join(dir, l[len(l)-1])
	}
	return last(outs), last(errs)
}

// strayStderr copies what reaches the run's stderr outside step artifacts to
// the terminal and remembers what the FAIL summary needs: whether there was
// any and its last non-blank line (the first strayLineMax bytes of it), so a
// huge stray output costs no memory.
type strayStderr struct {
	mu   sync.Mutex
	w    io.Writer
	n    int64
	cur  []byte // the line being written
	last string // the last complete non-blank line, trimmed
}

const strayLineMax = 64 << 10

func (s *strayStderr) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.n += int64(len(p))
	for rest := p; len(rest) > 0; {
		line, after, complete := bytes.Cut(rest, []byte{'\n'})
		if room := strayLineMax - len(s.cur); room > 0 {
			s.cur = append(s.cur, line[:min(room, len(line))]...)
		}
		if !complete {
			break
		}
		if t := strings.TrimSpace(string(s.cur)); t != "" {
			s.last = t
		}
		s.cur, rest = s.cur[:0], after
	}
	return s.w.Write(p)
}

func (s *strayStderr) len() int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.n
}

// lastLine is the last non-blank line, trimmed.
func (s *strayStderr) lastLine() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t := strings.TrimSpace(string(s.cur)); t != "" {
		return t
	}
	return s.last
}

// printLoadError prints a compile error the way run/build/test do.
func printLoadError(w io.Writer, err error) {
	var d *diag.Diagnostic
	if errors.As(err, &d) {
		fmt.Fprintln(w, d.Error())
		return
	}
	fmt.Fprintln(w, err.Error())
}

// colourWanted reports whether output to w gets colours: only on a terminal
// and only while NO_COLOR is unset (an empty NO_COLOR counts as set, as for
// the heartbeat lines; cli.md §5).
func colourWanted(w io.Writer) bool {
	_, noColor := os.LookupEnv("NO_COLOR")
	return isTerminal(w) && !noColor
}

// isTerminal reports whether w is a terminal (not merely a character
// device: /dev/null is one too).
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// hookWait bounds how long `jaiph run` waits, just before exiting, for hook
// commands that are still running (docs/differences.md).
const hookWait = 5 * time.Second

// observers fans the runtime's events out to the progress tree and the hooks.
type observers []runtime.Observer

func (o observers) Event(e *runtime.Event) {
	for _, x := range o {
		x.Event(e)
	}
}
