//go:build !full

package main

// The default build: what only jaiph-full links is handed to it
// (internal/fullbuild), with the command line and environment unchanged.
// report and mcp stand in the command list; the broker's commands parse
// their flags here (broker.go) and hand over to run.

import (
	"io"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/fullbuild"
)

// toFull replaces this process with jaiph-full when what (what needs it;
// "" nothing) is set. It returns only when jaiph-full cannot be started,
// with the exit status.
func toFull(what string, stderr io.Writer) error {
	if what == "" {
		return nil
	}
	return &exitError{code: fullbuild.Exec(os.Args[1:], what, stderr)}
}

// runNeeds names what of a run this build cannot do ("" nothing).
var runNeeds = fullbuild.RunNeeds

func serveBroker(cmd *cobra.Command, _ brokerOptions) error {
	return toFull("jaiph broker", cmd.ErrOrStderr())
}

func serveWorker(cmd *cobra.Command, _ workerOptions) error {
	return toFull("jaiph worker", cmd.ErrOrStderr())
}

func listBrokerRuns(cmd *cobra.Command, _ string, _ bool) error {
	return toFull("jaiph broker", cmd.ErrOrStderr())
}

func pruneBrokerRuns(cmd *cobra.Command, _ string, _ time.Duration, _ bool) error {
	return toFull("jaiph broker", cmd.ErrOrStderr())
}

// newForwardedCmd is a command whose body is in jaiph-full (report, mcp):
// it shows in the command list and `jaiph help NAME`; anything else, its
// own --help included (its flags are declared there), runs in jaiph-full.
func newForwardedCmd(use, short string) *cobra.Command {
	// Its flags and arguments are completed by jaiph-full, which declares them.
	return &cobra.Command{Use: use, Short: short, Long: short + " (runs in " + fullbuild.Binary + ").", DisableFlagParsing: true, ValidArgsFunction: fullbuild.CompleteArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return toFull("jaiph "+cmd.Name(), cmd.ErrOrStderr()) }}
}

func newReportCmd(io.Writer) *cobra.Command {
	return newForwardedCmd("report [--host H] [--port N] [--runs-dir DIR] [--poll-ms MS] [--open] | report --otlp RUN_DIR",
		"Browse the workspace's runs in a web browser (read-only)")
}

func newMcpCmd(io.Writer) *cobra.Command {
	return newForwardedCmd("mcp [FILE...]", "Serve exported workflows as Model Context Protocol tools over stdin and stdout")
}

// newServeCmd's words are serve.Use and serve.Short (not imported: the
// default build links nothing of the server).
func newServeCmd(io.Writer) *cobra.Command {
	return newForwardedCmd("serve [--host H] [--port N] [--allow-anonymous] [--inbox URL [--execute]] [--inlets FILE] [FILE|DIR...]", "Serve exported workflows over HTTP: REST and OpenAPI, live events, MCP, the run viewer")
}
