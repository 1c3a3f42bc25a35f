package main

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/jaiph-go/jaiph/internal/buildinfo"
	"github.com/jaiph-go/jaiph/internal/engine"
	"github.com/jaiph-go/jaiph/internal/tools/completion"
	"github.com/jaiph-go/jaiph/internal/tools/serve/inlets"
	"github.com/jaiph-go/jaiph/parser"
	"github.com/jaiph-go/jaiph/runtime"
)

func newVersionCmd(stdout io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print jaiph-go's version and the Jaiph language version",
		Long: `Print the version of this implementation (jaiph-go) and of the Jaiph
language it is compatible with. "jaiph --version" prints only the language
version, as the reference does.`,
		Args: positional(0, 0),
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprintf(stdout, "jaiph-go %s\nJaiph language %s\n", buildinfo.Version(), buildinfo.Language)
			return nil
		},
	}
}

// positional takes from min to max positional arguments (max 1: a
// RUN_DIR); anything else is a usage error (exit 2).
func positional(min, max int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		switch {
		case len(args) > max && max == 0:
			return &usageError{cmd.Name() + " takes no arguments, got " + args[0]}
		case len(args) > max:
			return &usageError{fmt.Sprintf("%s takes one RUN_DIR, got %d arguments: %s", cmd.Name(), len(args), strings.Join(args, " "))}
		case len(args) < min:
			return &usageError{cmd.Name() + " needs RUN_DIR, a run directory (jaiph runs lists them)"}
		}
		return nil
	}
}

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// usageError marks a command-line mistake (exit 2).
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// exitError carries a specific exit code; msg, when set, is printed on
// stderr as it is (the rest was printed already).
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// failed is err said as `jaiph NAME: …` with exit status 1 (nil: nil).
func failed(name string, err error) error {
	if err == nil {
		return nil
	}
	return &exitError{exitFailure, "jaiph " + name + ": " + err.Error()}
}

// exitCode is the error for an exit status (nil for 0).
func exitCode(code int) error {
	if code == 0 {
		return nil
	}
	return &exitError{code: code}
}

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches like the reference (docs/cli.md#dispatch): only the first argument is
// inspected for global options and the file shorthand; everything else goes
// to the named command.
func run(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == runtime.ReadOnlyExecArg {
		// A rule's external command under Landlock: jaiph re-executes
		// itself for each one, so this skips building the commands.
		return runtime.ReadOnlyExecMain(args[1:])
	}
	root := newRootCmd(stdout, stderr)
	if len(args) > 0 {
		switch a := args[0]; {
		case a == "-v" || a == "--version":
			fmt.Fprintf(stdout, "jaiph %s\n", buildinfo.Language)
			return exitOK
		case a == "-h" || a == "--help":
			fmt.Fprint(stdout, usage(root))
			return exitOK
		case completion.IsRequest(a):
			// The hidden command the completion scripts call.
		case shorthand(a) != "":
			root.SetArgs(append([]string{shorthand(a)}, args...))
			return execute(root, stderr)
		case !strings.HasPrefix(a, "-") && !isCommand(root, a):
			fmt.Fprintf(stderr, "Unknown command: %s\n", a)
			fmt.Fprint(stdout, usage(root))
			return exitFailure
		case a == "help" && len(args) > 1 && !isCommand(root, args[1]):
			fmt.Fprintf(stderr, "Unknown help topic: %s\n", args[1])
			fmt.Fprint(stdout, usage(root))
			return exitFailure
		}
	}
	root.SetArgs(args)
	return execute(root, stderr)
}

// usage returns the root usage text (first line "Usage:") as `jaiph` with no
// arguments prints it, including the help command and flag cobra adds lazily.
func usage(root *cobra.Command) string {
	root.InitDefaultHelpCmd()
	root.InitDefaultHelpFlag()
	return root.UsageString()
}

func isCommand(root *cobra.Command, name string) bool {
	c, _, err := root.Find([]string{name})
	return name == "help" || (err == nil && c != root)
}

func execute(root *cobra.Command, stderr io.Writer) int {
	var ue *usageError
	var ee *exitError
	switch err := root.Execute(); {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		if ee.msg != "" {
			fmt.Fprintln(stderr, ee.msg)
		}
		return ee.code
	default:
		fmt.Fprintf(stderr, "jaiph: %s\n", err)
		if errors.As(err, &ue) {
			return exitUsage
		}
		return exitFailure
	}
}

// flagError makes a mistake in a flag a usage error (exit 2), with the
// flag's own message when its value says why (inboxURL, replicas), a
// missing value included.
func flagError(_ *cobra.Command, err error) error {
	var ue *usageError
	var missing *pflag.ValueRequiredError
	if errors.As(err, &missing) {
		if e := missing.GetFlag().Value.Set(""); errors.As(e, &ue) {
			return ue
		}
	}
	if errors.As(err, &ue) {
		return ue
	}
	return &usageError{err.Error()}
}

func newRootCmd(stdout, stderr io.Writer) *cobra.Command {
	root := &cobra.Command{
		Use:   "jaiph",
		Short: "Compile, check and run Jaiph workflows (.jh files)",
		Long: `Jaiph runs AI-agent workflows written as a few keywords around ordinary Bash.

Run "jaiph <command> --help" for the flags of a command.`,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			fmt.Fprint(stdout, usage(cmd))
			return nil
		},
	}
	root.SetOut(stdout)
	root.SetErr(stderr)
	// Handled in run before cobra sees the arguments; declared so that help
	// lists it.
	root.Flags().BoolP("version", "v", false, "print the Jaiph language version (jaiph version: also jaiph-go's)")
	root.SetFlagErrorFunc(flagError)
	root.AddCommand(newBrokerCmd(), newBuildCmd(stdout), newCheckCmd(stdout, stderr), newFmtCmd(os.Stdin, stdout, stderr), newInboxCmd(stdout), newInitCmd(stdout, stderr), newLspCmd(stdout), newMcpCmd(stderr), newRedriveCmd(stdout, stderr), newReportCmd(stdout), newResumeCmd(stdout, stderr), newRunCmd(stdout, stderr), newRunsCmd(stdout), newSendCmd(os.Stdin, stdout), newServeCmd(stderr), inlets.Command(stdout, failed), newTestCmd(stdout, stderr), newVerifyCmd(stdout), newVersionCmd(stdout), newWorkerCmd(), newSandboxCmd(stdout))
	// cobra's `completion bash|zsh|fish|powershell`, added now so the
	// command dispatch above knows it.
	root.InitDefaultCompletionCmd()
	completion.Add(root)
	return root
}

// shorthand is the command `jaiph FILE …` stands for (docs/cli.md#dispatch): test
// for an existing test file, run for another existing .jh/.jph file (so
// shebang scripts run), "" for anything else.
func shorthand(a string) string {
	st, err := os.Stat(a)
	switch {
	case err != nil || !st.Mode().IsRegular() || !parser.IsSourceFile(a):
		return ""
	case parser.IsTestFile(a):
		return "test"
	}
	return "run"
}

// ownArgs is the RunE of a command that parses its own arguments (run,
// build, test, init; docs/cli.md#dispatch) against the flags it declares, which help
// shows and cobra does not parse (DisableFlagParsing). -h/--help as the
// first argument shows the help. `--target DIR` is read anywhere before
// "--" (without DIR: `--target requires a directory path`, exit 1);
// another declared flag (run's --inbox, --replicas) as `--NAME VALUE` or
// `--NAME=VALUE`; any other argument that looks like a flag is a usage
// error. "--" ends the flags, and so, when untilFirstArg, does the first
// positional argument (run's FILE: what follows is the workflow's,
// verbatim). A value a flag refuses is reported before any other mistake.
func ownArgs(untilFirstArg bool, fn func(pos []string) error) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		var pos []string
		var later error // the first other mistake
		for i := 0; i < len(args); i++ {
			a := args[i]
			name, value, withValue := strings.Cut(strings.TrimPrefix(a, "--"), "=")
			f := cmd.Flags().Lookup(name)
			switch {
			case a == "--":
				pos = append(pos, args[i+1:]...)
				i = len(args)
			case a == "--target" && f != nil:
				if i+1 >= len(args) {
					later = cmp.Or(later, error(&exitError{exitFailure, "--target requires a directory path"}))
					break
				}
				f.Value.Set(args[i+1])
				i++
			case untilFirstArg && len(pos) > 0, !strings.HasPrefix(a, "-"), a == "-":
				pos = append(pos, a)
			case strings.HasPrefix(a, "--") && f != nil && name != "target" && name != "help":
				if !withValue && i+1 < len(args) {
					value, i = args[i+1], i+1
				}
				if err := f.Value.Set(value); err != nil {
					return err
				}
			default:
				later = cmp.Or(later, error(&usageError{"unknown flag: " + a}))
			}
		}
		switch {
		case len(args) > 0 && (args[0] == "-h" || args[0] == "--help"):
			return cmd.Help()
		case later != nil:
			return later
		}
		return fn(pos)
	}
}

// inboxFlags declares --inbox and --replicas into in: run shows them,
// resume and redrive take them hidden (docs/distributed.md).
func inboxFlags(fs *pflag.FlagSet, in *engine.Inbox) {
	fs.Var(inboxURL{&in.URL}, "inbox", "carry the run's messages on the broker at `URL` (nats://HOST:PORT; JAIPH_INBOX_URL) for jaiph worker processes (docs/distributed.md)")
	fs.Var(replicas{&in.Replicas}, "replicas", "with --inbox: replicas of the run's streams on a NATS cluster (`N`; JAIPH_INBOX_REPLICAS)")
}

// inboxURL is --inbox: a broker URL, never empty.
type inboxURL struct{ url *string }

func (v inboxURL) Set(s string) error {
	if s == "" {
		return &usageError{"--inbox needs a broker URL (nats://HOST:PORT)"}
	}
	*v.url = s
	return nil
}

func (v inboxURL) String() string { return *v.url }
func (inboxURL) Type() string     { return "string" }

// replicas is --replicas: 1 to 5, as a NATS cluster takes them. Unset (0),
// JAIPH_INBOX_REPLICAS or a resumed run's own count holds; help shows the
// broker's default, 1.
type replicas struct{ n *int }

func (v replicas) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > 5 {
		return &usageError{fmt.Sprintf("--replicas needs a number from 1 to 5 (the broker's stream replicas), got %q", s)}
	}
	*v.n = n
	return nil
}

func (v replicas) String() string { return strconv.Itoa(max(*v.n, 1)) }
func (replicas) Type() string     { return "int" }
