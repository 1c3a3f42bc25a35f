// Package completion is `jaiph completion bash|zsh|fish`: the candidates
// cobra's scripts ask `jaiph __complete …` for, and a bash script that works
// without the bash-completion package.
package completion

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/jaiph-go/jaiph/parser"
)

// `jaiph completion bash|zsh|fish` prints cobra's script, which asks
// `jaiph __complete ARGS… WORD` for the candidates; cmd/jaiph lets that
// hidden command through its reference-compatible dispatch (IsRequest). The candidates are computed here, the same for every shell:
// commands and flags by cobra, and for the arguments that name Jaiph
// files the .jh/.jph files and the directories that match the word being
// completed (listed by jaiph itself, since not every shell's script can
// filter files by extension).

// IsRequest reports whether a is cobra's hidden completion command (with
// or without descriptions).
func IsRequest(a string) bool {
	return a == cobra.ShellCompRequestCmd || a == cobra.ShellCompNoDescRequestCmd
}

// sourceCandidates lists, for the partial path word, the directories
// (ending in "/") and, unless dirsOnly, the Jaiph source files it may
// become. Hidden entries appear only when the word's last element starts
// with a dot. noSpace is set when a directory is among them, so that
// completing one lets the user go on into it.
func sourceCandidates(word string, dirsOnly bool) (out []string, noSpace bool) {
	dir, base := filepath.Split(word)
	read := dir
	if read == "" {
		read = "."
	}
	entries, err := os.ReadDir(read)
	if err != nil {
		return nil, false
	}
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, base) || (strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".")) {
			continue
		}
		isDir := e.IsDir()
		if e.Type()&os.ModeSymlink != 0 {
			if st, err := os.Stat(filepath.Join(read, name)); err == nil {
				isDir = st.IsDir()
			}
		}
		switch {
		case isDir:
			out = append(out, dir+name+"/")
			noSpace = true
		case !dirsOnly && parser.IsSourceFile(name):
			out = append(out, dir+name)
		}
	}
	return out, noSpace
}

// completeSources is the ValidArgsFunction of a command whose arguments
// are .jh files or directories of them.
func completeSources(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	return sourceDirective(sourceCandidates(toComplete, false))
}

func sourceDirective(c []string, noSpace bool) ([]string, cobra.ShellCompDirective) {
	d := cobra.ShellCompDirectiveNoFileComp
	if noSpace {
		d |= cobra.ShellCompDirectiveNoSpace
	}
	return c, d
}

// completeRunDir is the ValidArgsFunction of a command whose first
// argument is a run directory (verify, resume, inbox, redrive, send): the
// workspace's run directories that start with the word, as paths from the
// working directory (.jaiph/runs/<date>/<time>-<source>), and the
// directories that match it, for a run elsewhere. Later arguments (send's
// channel and payload) are not completed.
func completeRunDir(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	var runDirs []string
	// fish shows no candidate starting with a dot until the word starts
	// with one: for an empty word it gets the run directories as absolute
	// paths, else `.jaiph/runs/…` would all be hidden.
	absolute := toComplete == "" && os.Getenv(fishMarker) == "1"
	if wd, err := os.Getwd(); err == nil {
		root := runs.Root(runs.WorkspaceRoot(wd), os.Getenv("JAIPH_RUNS_DIR"))
		dirs, _ := runs.Dirs(root)
		for _, d := range dirs {
			p := filepath.Join(root, d)
			if rel, err := filepath.Rel(wd, p); err == nil && !strings.HasPrefix(rel, "..") && !absolute {
				p = rel
			}
			if strings.HasPrefix(p, toComplete) {
				runDirs = append(runDirs, p)
			}
		}
	}
	dirs, _ := sourceCandidates(toComplete, true)
	var out []string
	noSpace := false
	for _, d := range dirs {
		if !slices.Contains(runDirs, strings.TrimSuffix(d, "/")) {
			out = append(out, d)
			noSpace = true // a directory to go on into
		}
	}
	return sourceDirective(append(out, runDirs...), noSpace)
}

// completeSelfParsing is the ValidArgsFunction of a command that parses
// its own arguments (cobra passes it every word, flags included): flags
// for a word starting with "-" (cobra adds the declared ones), a directory after --target, a Jaiph
// file for the first positional argument when fileArg, and the shell's
// own file completion after it (a workflow's arguments are its own).
func completeSelfParsing(flags []string, withTarget, fileArg bool) func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
	return func(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		pos := 0
		for i := 0; i < len(args); i++ {
			switch a := args[i]; {
			case a == "--":
				pos += len(args) - i - 1
				i = len(args)
			case a == "--target" && withTarget:
				i++
			case strings.HasPrefix(a, "-") && a != "-" && pos == 0:
			default:
				pos++
			}
		}
		switch {
		case withTarget && len(args) > 0 && args[len(args)-1] == "--target":
			return sourceDirective(sourceCandidates(toComplete, true))
		case pos > 0 || !fileArg:
			return nil, cobra.ShellCompDirectiveDefault
		case strings.HasPrefix(toComplete, "-"):
			var out []string
			for _, f := range flags {
				if strings.HasPrefix(f, toComplete) {
					out = append(out, f)
				}
			}
			return out, cobra.ShellCompDirectiveNoFileComp
		}
		return completeSources(nil, nil, toComplete)
	}
}

// Add wires the candidates of every command's arguments and flag values
// into the command tree root (after its completion command exists).
func Add(root *cobra.Command) {
	// `jaiph FILE …` runs or tests FILE (docs/cli.md#dispatch).
	root.ValidArgsFunction = func(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		if len(args) > 0 {
			return nil, cobra.ShellCompDirectiveDefault
		}
		return completeSources(nil, nil, toComplete)
	}
	for _, c := range root.Commands() {
		if c.ValidArgsFunction != nil {
			continue // the default build's stand-ins ask jaiph-full (Forwarded)
		}
		switch c.Name() {
		case "run":
			c.ValidArgsFunction = completeSelfParsing([]string{"--help"}, true, true)
		case "build":
			c.ValidArgsFunction = completeSelfParsing([]string{"--help"}, true, true)
		case "test":
			c.ValidArgsFunction = completeSelfParsing([]string{"--help"}, false, true)
		case "init":
			c.ValidArgsFunction = func(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
				if strings.HasPrefix(toComplete, "-") {
					return []string{"--help"}, cobra.ShellCompDirectiveNoFileComp
				}
				return sourceDirective(sourceCandidates(toComplete, true))
			}
		case "check", "fmt", "mcp":
			c.ValidArgsFunction = completeSources
		case "verify", "resume", "inbox", "redrive", "send":
			c.ValidArgsFunction = completeRunDir
		case "runs", "lsp", "version", "report":
			c.ValidArgsFunction = cobra.NoFileCompletions
		}
	}
	fixBashCompletion(root)
	markFishCompletion(root)
	if c, _, err := root.Find([]string{"check"}); err == nil {
		_ = c.RegisterFlagCompletionFunc("format", cobra.FixedCompletions([]string{"text", "json", "github"}, cobra.ShellCompDirectiveNoFileComp))
	}
	if c, _, err := root.Find([]string{"runs"}); err == nil {
		_ = c.RegisterFlagCompletionFunc("status", cobra.FixedCompletions(runs.Statuses, cobra.ShellCompDirectiveNoFileComp))
	}
	if c, _, err := root.Find([]string{"report"}); err == nil {
		_ = c.RegisterFlagCompletionFunc("runs-dir", func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
			return sourceDirective(sourceCandidates(toComplete, true))
		})
	}
}

// bashWords stands in for bash-completion's _get_comp_words_by_ref when
// that package is not loaded (cobra's script calls it unconditionally,
// and a plain bash has no such function): the words up to the cursor,
// with "=" and ":" joined to their neighbours as `-n =:` asks.
const bashWords = `__jaiph_init_completion()
{
    COMPREPLY=()
    if declare -F _get_comp_words_by_ref >/dev/null 2>&1; then
        _get_comp_words_by_ref "$@" cur prev words cword
        return
    fi
    words=()
    cword=-1
    local i w joined=0
    for ((i = 0; i <= COMP_CWORD; i++)); do
        w=${COMP_WORDS[i]}
        if ((i > 0)) && [[ $w == [=:] || $joined == 1 ]]; then
            words[cword]+=$w
        else
            words+=("$w")
            cword=$((cword + 1))
        fi
        joined=0
        [[ $w == [=:] ]] && joined=1
    done
    cur=${words[cword]}
    prev=${words[cword-1]}
}
`

// fixBashCompletion makes `jaiph completion bash` work in a bash without
// the bash-completion package.
func fixBashCompletion(root *cobra.Command) {
	bash, _, err := root.Find([]string{"completion", "bash"})
	if err != nil || bash.Name() != "bash" {
		return
	}
	bash.Long = strings.Replace(bash.Long, "This script depends on the 'bash-completion' package.\nIf it is not installed already, you can install it via your OS's package manager.",
		"The script uses the 'bash-completion' package when it is loaded and works without it.", 1)
	bash.RunE = func(cmd *cobra.Command, _ []string) error {
		noDesc, _ := cmd.Flags().GetBool("no-descriptions")
		var b strings.Builder
		if err := root.GenBashCompletionV2(&b, !noDesc); err != nil {
			return err
		}
		s := b.String()
		start := strings.Index(s, "__jaiph_init_completion()\n{")
		end := -1
		if start >= 0 {
			end = strings.Index(s[start:], "\n}\n")
		}
		if end < 0 {
			return errors.New("completion bash: unexpected script from cobra")
		}
		end += start
		_, err := io.WriteString(cmd.OutOrStdout(), s[:start]+bashWords+s[end+3:])
		return err
	}
}

// fishMarker is set in the environment of the `jaiph __complete` that
// `jaiph completion fish`'s script runs (markFishCompletion).
const fishMarker = "JAIPH_COMPLETE_FISH"

// markFishCompletion makes `jaiph completion fish`'s script say so to
// `jaiph __complete` (fishMarker=1), for the candidates fish would hide.
func markFishCompletion(root *cobra.Command) {
	fish, _, err := root.Find([]string{"completion", "fish"})
	if err != nil || fish.Name() != "fish" {
		return
	}
	fish.RunE = func(cmd *cobra.Command, _ []string) error {
		noDesc, _ := cmd.Flags().GetBool("no-descriptions")
		var b strings.Builder
		if err := root.GenFishCompletion(&b, !noDesc); err != nil {
			return err
		}
		const request = `set -l requestComp "`
		s := b.String()
		if !strings.Contains(s, request) {
			return errors.New("completion fish: unexpected script from cobra")
		}
		_, err := io.WriteString(cmd.OutOrStdout(), strings.Replace(s, request, request+fishMarker+"=1 ", 1))
		return err
	}
}
