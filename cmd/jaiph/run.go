package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/buildinfo"
	"github.com/jaiph-go/jaiph/internal/engine"
	"github.com/jaiph-go/jaiph/internal/observe/progress"
	"github.com/jaiph-go/jaiph/runtime"
)

func newRunCmd(stdout, stderr io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		DisableFlagsInUseLine: true,
		Use:                   "run [--target DIR] FILE [--] [ARGS...]",
		Short:                 "Run the default workflow of a .jh file",
		Long: `Run the workflow named "default" in FILE with ARGS as $1, $2, ….

Steps write their output to .jaiph/runs/<date>/<time>-<file>/ under the
workspace root; the progress tree goes to stdout, failures to stderr.
Exit status: 0 on success, 1 on failure or a compile error.`,
		DisableFlagParsing: true,
		RunE:               selfParsing(true, true, func(ca cmdArgs) int { return runFile(ca, stdout, stderr) }),
	}
	// Parsed by the command itself (docs/cli.md#dispatch); declared for its help.
	cmd.Flags().String("target", "", "also write the lowered shell of the entry and its imports below DIR, as build --target does")
	cmd.Flags().String("inbox", "", "carry the run's messages on the broker at `URL` (nats://HOST:PORT; JAIPH_INBOX_URL) for jaiph worker processes (docs/distributed.md)")
	cmd.Flags().Int("replicas", 1, "with --inbox: replicas of the run's streams on a NATS cluster (`N`; JAIPH_INBOX_REPLICAS)")
	return cmd
}

func runFile(ca cmdArgs, stdout, stderr io.Writer) int {
	if len(ca.pos) == 0 {
		fmt.Fprintln(stderr, "jaiph run requires a .jh or .jph file path")
		return 1
	}
	prog, err := engine.Open(ca.pos[0])
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if strings.HasSuffix(prog.Path, ".jph") && progress.IsTerminal(stderr) {
		fmt.Fprintln(stderr, "jaiph: .jph extension is deprecated; use .jh for new files. Migration: mv *.jph *.jh")
	}
	if ca.target != "" { // D5: keep the lowered shell as build --target writes it
		if err := prog.Keep(ca.target, buildinfo.Generator); err != nil {
			fmt.Fprintf(stderr, "jaiph run: --target: %v\n", err)
			return 1
		}
	}
	ctx, stop := runtime.NotifyInterrupt()
	defer stop()
	// A requested sandbox never becomes a run on the host: checked before
	// module locals run anything.
	if err := prog.Refuse(ctx, os.Environ()); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return prog.RunInTerminal(ctx, engine.ProcessTerminal(stdout, stderr), ca.pos[1:])
}
