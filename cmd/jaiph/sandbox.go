package main

import (
	"fmt"
	"io"
	"os"

	"github.com/jaiph-go/jaiph/internal/engine"
	"github.com/jaiph-go/jaiph/runtime"
)

// sandboxMain is `jaiph __sandbox [--workspace W] [--resume DIR]
// [--workflow NAME] -- FILE [ARGS...]`: the jaiph inside the Docker
// sandbox, started by the host's jaiph (internal/sandbox), never by hand.
// It reports the run on stdout for the host to show.
func sandboxMain(args []string, stdout, stderr io.Writer) int {
	var a engine.SandboxArgs
	for len(args) > 0 && args[0] != "--" {
		if len(args) < 2 {
			fmt.Fprintf(stderr, "jaiph __sandbox: %s needs a value\n", args[0])
			return exitUsage
		}
		switch args[0] {
		case "--workspace":
			a.Workspace = args[1]
		case "--resume":
			a.Resume = args[1]
		case "--workflow":
			a.Workflow = args[1]
		default:
			fmt.Fprintf(stderr, "jaiph __sandbox: unknown flag %s\n", args[0])
			return exitUsage
		}
		args = args[2:]
	}
	if len(args) < 2 {
		fmt.Fprintln(stderr, "jaiph __sandbox: expected -- FILE [ARGS...]")
		return exitUsage
	}
	a.Entry, a.Args = args[1], args[2:]
	ctx, stop := runtime.NotifyInterrupt()
	defer stop()
	return engine.ServeSandbox(ctx, a, os.Environ(), os.Stdin, stdout)
}
