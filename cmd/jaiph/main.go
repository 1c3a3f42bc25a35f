package main

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/buildinfo"
	"github.com/jaiph-go/jaiph/internal/engine"
	"github.com/jaiph-go/jaiph/internal/tools/brokercmd"
	"github.com/jaiph-go/jaiph/internal/tools/completion"
	"github.com/jaiph-go/jaiph/parser"
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

// exitError carries a specific exit code whose message was already printed.
type exitError struct{ code int }

func (e *exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr))
}

// run dispatches like the reference (docs/cli.md#dispatch): only the first argument is
// inspected for global options and the file shorthand; everything else goes
// to the named command.
func run(args []string, stdout, stderr io.Writer) int {
	if code, ok := engine.Hidden(args, stdout, stderr); ok { // re-executions of jaiph by itself
		return code
	}
	args, status, done := brokercmd.Route(args, func(a string) bool { return shorthand(a) == "run" }, stderr)
	if done {
		return status
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
	var bue *brokercmd.UsageError
	switch err := root.Execute(); {
	case err == nil:
		return exitOK
	case errors.As(err, &ee):
		return ee.code
	default:
		fmt.Fprintf(stderr, "jaiph: %s\n", err)
		if errors.As(err, &ue) || errors.As(err, &bue) {
			return exitUsage
		}
		return exitFailure
	}
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
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return &usageError{err.Error()} })
	root.AddCommand(brokercmd.NewBrokerCmd(stderr), newBuildCmd(stdout, stderr), newCheckCmd(stdout, stderr), newFmtCmd(os.Stdin, stdout, stderr), newInboxCmd(stdout), newInitCmd(stdout, stderr), newLspCmd(stdout), newMcpCmd(stderr), newRedriveCmd(stdout, stderr), newReportCmd(stdout), newResumeCmd(stdout, stderr), newRunCmd(stdout, stderr), newRunsCmd(stdout), newTestCmd(stdout, stderr), newVerifyCmd(stdout), newVersionCmd(stdout), brokercmd.NewWorkerCmd(stderr))
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

// cmdArgs are the arguments of a command that parses its own (docs/cli.md#dispatch).
type cmdArgs struct {
	target string   // --target DIR (run, build)
	pos    []string // positional arguments; after "--" everything is one
}

// selfParsing is the RunE of a command that parses its own arguments (run,
// build, test, init; docs/cli.md#dispatch). -h/--help as the first argument shows its
// help. `--target DIR` (when withTarget) is read anywhere before "--"
// (without DIR: `--target requires a directory path`, exit 1). Any other
// argument that looks like a flag is a usage error, up to "--" and, when
// untilFirstArg, up to the first positional argument (run's workflow
// arguments are the workflow's). fn's status is the exit status.
func selfParsing(withTarget, untilFirstArg bool, fn func(cmdArgs) int) func(*cobra.Command, []string) error {
	return func(cmd *cobra.Command, args []string) error {
		if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
			return cmd.Help()
		}
		var ca cmdArgs
		for i := 0; i < len(args); i++ {
			switch a := args[i]; {
			case a == "--":
				ca.pos = append(ca.pos, args[i+1:]...)
				i = len(args)
			case a == "--target" && withTarget:
				if i+1 >= len(args) {
					fmt.Fprintln(cmd.ErrOrStderr(), "--target requires a directory path")
					return &exitError{exitFailure}
				}
				ca.target = args[i+1]
				i++
			case strings.HasPrefix(a, "-") && a != "-" && !(untilFirstArg && len(ca.pos) > 0):
				return &usageError{"unknown flag: " + a}
			default:
				ca.pos = append(ca.pos, a)
			}
		}
		if code := fn(ca); code != 0 {
			return &exitError{code}
		}
		return nil
	}
}
