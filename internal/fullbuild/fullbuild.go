// Package fullbuild hands a command line from the default jaiph build to
// jaiph-full, the same CLI built with `-tags full` (the broker, the report
// and MCP servers and the live OTLP exporter linked in), which `make
// build` writes beside jaiph. The default build links none of that code:
// its package initialisation and size would cost every command start-up
// time (docs/architecture.md, "Two builds of one CLI"). Only the default
// build calls this package (cmd/jaiph/forward.go); it must import nothing
// that only jaiph-full links.
package fullbuild

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/spf13/cobra"
)

// Binary is the name of the full build.
const Binary = "jaiph-full"

// RunNeeds names what of a run this build cannot do ("" nothing): its
// inbox on a broker (inboxURL, the --inbox flag, else JAIPH_INBOX_URL;
// for resume and redrive, which name an existing run, the broker its
// run.json records) or, when traced (run and resume, not redrive's
// deliveries), the live export of its trace to an OTLP endpoint the
// environment names, as internal/observe/otlp reads it. runDir is the run
// resume or redrive names, workspace where resume looks for the newest
// resumable one when runDir is ""; both "" for a new run.
func RunNeeds(inboxURL string, traced bool, workspace, runDir string) string {
	switch {
	case inboxURL != "" || os.Getenv("JAIPH_INBOX_URL") != "":
		return "a run with an inbox URL (--inbox, JAIPH_INBOX_URL)"
	case (workspace != "" || runDir != "") && recordedBroker(workspace, runDir):
		return "a run whose inbox is on a broker (its run.json records JAIPH_INBOX_URL)"
	case traced && (os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""):
		return "a run that exports its trace (OTEL_EXPORTER_OTLP_ENDPOINT)"
	}
	return ""
}

// Exec replaces this process with jaiph-full (beside this binary, else on
// PATH) running args with the same environment. It returns only when it
// cannot, having said so on stderr naming what needed it: the exit status.
func Exec(args []string, what string, stderr io.Writer) int {
	path := find()
	if path == "" {
		fmt.Fprintf(stderr, "jaiph: %s needs %s, the build of jaiph with the broker, report, MCP and OTLP code linked in; `make build` writes it beside jaiph (bin/%s), or put it on PATH\n",
			what, Binary, Binary)
		return 1
	}
	err := syscall.Exec(path, append([]string{path}, args...), os.Environ())
	fmt.Fprintf(stderr, "jaiph: cannot start %s: %v\n", path, err)
	return 1
}

// find is jaiph-full's path: beside this binary, else on PATH ("" when
// neither has it).
func find() string {
	if self, err := os.Executable(); err == nil {
		if p := filepath.Join(filepath.Dir(self), Binary); isExecutable(p) {
			return p
		}
	}
	path, _ := exec.LookPath(Binary)
	return path
}

// Complete asks jaiph-full for the completion candidates of args (the
// command's words, the last the one being completed), through cobra's
// hidden `__complete` command: the default build's stand-ins for its
// commands (report, mcp, serve) declare none of their flags. It returns
// the candidates ("word\tdescription") and cobra's directive; ok is false
// when jaiph-full cannot be found or gives no answer in that protocol.
func Complete(args []string) (cands []string, directive int, ok bool) {
	path := find()
	if path == "" {
		return nil, 0, false
	}
	out, err := exec.Command(path, append([]string{"__complete"}, args...)...).Output()
	if err != nil {
		return nil, 0, false
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	last := lines[len(lines)-1]
	d, err := strconv.Atoi(strings.TrimPrefix(last, ":"))
	if !strings.HasPrefix(last, ":") || err != nil {
		return nil, 0, false
	}
	return lines[:len(lines)-1], d, true
}

// CompleteArgs is the ValidArgsFunction of the default build's stand-in
// for a jaiph-full command: Complete for the command's words, no
// candidates when jaiph-full does not answer.
func CompleteArgs(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	c, d, ok := Complete(append(append([]string{cmd.Name()}, args...), toComplete))
	if !ok {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return c, cobra.ShellCompDirective(d)
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// recordedBroker tells whether the run resume or redrive names was started
// with a broker URL. A run it cannot read is left to the command, which
// says why.
func recordedBroker(workspace, runDir string) bool {
	dir, err := runs.ResumableDir(runDir, workspace, os.Getenv("JAIPH_RUNS_DIR"))
	if err != nil {
		return false
	}
	m, err := runs.ReadMeta(dir)
	if err != nil {
		return false
	}
	for _, s := range m.Settings {
		if s.Key == "JAIPH_INBOX_URL" && s.Value != "" {
			return true
		}
	}
	return false
}
