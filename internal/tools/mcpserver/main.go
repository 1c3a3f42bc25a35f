package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
)

// Help is `jaiph mcp --help`'s text.
const Help = `Serve the exported workflows of FILE… as Model Context Protocol tools over
stdin and stdout. Without FILE: the .jh files of the workspace's .jaiph/
directory and of the workspace root (test files left out; one that does not
compile is reported on stderr and skipped).

Each "export workflow NAME" is a tool called NAME (STEM.NAME when several
files are served, STEM being the file name without .jh), described by the
comment lines right above it. Its input is {"args": ["…", …]}: the
workflow's $1, $2, … (the description of args lists those its body uses,
named after lines like name="$1"). A call runs the workflow as jaiph run does (run
directory, run_summary.jsonl, artifacts, hooks) and returns its output,
return value, run directory and status; a failed run is an error result
with the failed step's output. Each step start and end is a progress
notification when the call asks for progress; cancelling a call interrupts
the run as Ctrl-C does.

Stdout carries the protocol only; the runs' stray stderr goes to stderr.
SIGINT or SIGTERM interrupts the runs in progress as it would jaiph run,
and jaiph mcp exits once they ended.

Client configuration (the "mcpServers" block of Claude Desktop, Cursor and
other MCP clients):

  {
    "mcpServers": {
      "jaiph": {
        "command": "jaiph",
        "args": ["mcp", "/path/to/project/tools.jh"]
      }
    }
  }`

// Main is `jaiph mcp FILE…`: it lists the tools, then serves them on stdin
// and stdout until the client goes away.
func Main(files []string, stderr io.Writer) error {
	strict := len(files) > 0
	if !strict {
		dir, err := os.Getwd()
		if err != nil {
			return err
		}
		if files = DefaultFiles(dir); len(files) == 0 {
			return errors.New("no .jh files in the workspace's .jaiph/ or root: name the files to serve")
		}
	}
	tools, err := Tools(files, strict, func(err error) { fmt.Fprintf(stderr, "jaiph mcp: skipped: %v\n", err) })
	if err != nil {
		return err
	}
	if len(tools) == 0 {
		fmt.Fprintln(stderr, "jaiph mcp: no exported workflows: nothing to offer (declare them with export workflow)")
	}
	home, _ := os.UserHomeDir()
	return ServeStdio(context.Background(), tools, Options{Environ: os.Environ(), Home: home, Stderr: stderr})
}
