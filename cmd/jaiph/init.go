package main

import (
	_ "embed"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/progress"
)

// skillGuide is the agent guide `jaiph init` writes to .jaiph/jaiph-skill.md
// unless JAIPH_SKILL_PATH names another one.
//
//go:embed skill/jaiph-skill.md
var skillGuide []byte

// bootstrapWorkflow is .jaiph/bootstrap.jh as the reference writes it.
const bootstrapWorkflow = `#!/usr/bin/env jaiph

# Bootstraps Jaiph workflows for this repository.
workflow default {
  prompt "
    You are bootstrapping Jaiph for this repository.
    First, read the Jaiph agent bootstrap guide at:
    .jaiph/jaiph-skill.md
    Follow that guide and Jaiph language rules exactly.
    Perform these tasks in order:
    1) Analyze repository structure, languages, package manager, and build/test/lint commands.
    2) Detect existing contribution conventions (branching, commit style, CI checks).
    3) Create or update Jaiph workflows under .jaiph/ for safe feature implementation, including:
       - preflight checks (clean git state, branch guards when relevant)
       - implementation workflow
       - verification workflow (tests/lint/build)
    4) Keep workflows minimal, composable, and specific to this project.
    5) Print a short usage guide with exact jaiph run commands.
  "
}
`

func newInitCmd(stdout, stderr io.Writer) *cobra.Command {
	return &cobra.Command{
		Use:   "init [DIR]",
		Short: "Set up .jaiph/ with a bootstrap workflow and the agent guide",
		Long: `Prepare DIR (default: the current directory) for Jaiph.

Creates .jaiph/bootstrap.jh (kept if it exists), an executable workflow whose
prompt asks an agent to scaffold workflows for the project, and writes the
Jaiph authoring guide for agents to .jaiph/jaiph-skill.md (always refreshed;
from $JAIPH_SKILL_PATH when that names a readable file, else the built-in
guide).`,
		Example:            "  jaiph init\n  ./.jaiph/bootstrap.jh",
		DisableFlagParsing: true,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) > 0 && (args[0] == "-h" || args[0] == "--help") {
				return cmd.Help()
			}
			if code := runInit(args, stdout, stderr); code != 0 {
				return &exitError{code}
			}
			return nil
		},
	}
}

func runInit(args []string, stdout, stderr io.Writer) int {
	arg := "."
	if len(args) > 0 {
		arg = args[0]
	}
	root, err := filepath.Abs(arg)
	if err == nil {
		var st os.FileInfo
		if st, err = os.Stat(root); err == nil && !st.IsDir() {
			err = fmt.Errorf("not a directory")
		}
	}
	if err != nil {
		fmt.Fprintf(stderr, "jaiph init expects a directory path, got: %s\n", arg)
		return exitFailure
	}
	style := progress.NewStyle(colourWanted(stdout))
	bootstrapRel := filepath.Join(".jaiph", "bootstrap.jh")
	skillRel := filepath.Join(".jaiph", "jaiph-skill.md")

	fmt.Fprintf(stdout, "\nJaiph init\n\n")
	fmt.Fprintln(stdout, style.Dim(fmt.Sprintf("▸ Creating %s in %s...", bootstrapRel, root)))
	if err := os.MkdirAll(filepath.Join(root, ".jaiph"), 0o755); err != nil {
		fmt.Fprintf(stderr, "jaiph init: %v\n", err)
		return exitFailure
	}
	bootstrap := filepath.Join(root, bootstrapRel)
	created := false
	if _, err := os.Lstat(bootstrap); os.IsNotExist(err) {
		if err := os.WriteFile(bootstrap, []byte(bootstrapWorkflow), 0o755); err != nil {
			fmt.Fprintf(stderr, "jaiph init: %v\n", err)
			return exitFailure
		}
		created = true
	}
	if err := os.Chmod(bootstrap, 0o755); err != nil {
		fmt.Fprintf(stderr, "jaiph init: %v\n", err)
		return exitFailure
	}
	if err := os.WriteFile(filepath.Join(root, skillRel), skillSource(), 0o644); err != nil {
		fmt.Fprintf(stderr, "jaiph init: %v\n", err)
		return exitFailure
	}

	fmt.Fprintln(stdout, style.Green("✓ Initialized "+bootstrapRel))
	if !created {
		fmt.Fprintln(stdout, style.Dim("▸ Note: bootstrap file already existed; left unchanged."))
	}
	fmt.Fprintln(stdout, style.Green("✓ Synced "+skillRel))
	fmt.Fprint(stdout, "\nTry:\n  ./.jaiph/bootstrap.jh\n\n")
	fmt.Fprintln(stdout, "This asks an agent to analyze the project and scaffold recommended workflows.")
	fmt.Fprint(stdout, "Tip: add `.jaiph/` to `.gitignore`.\n\n")
	return exitOK
}

// skillSource is the guide to install: $JAIPH_SKILL_PATH when it names a
// readable file, else the embedded one.
func skillSource() []byte {
	if p := os.Getenv("JAIPH_SKILL_PATH"); p != "" {
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
			if data, err := os.ReadFile(p); err == nil {
				return data
			}
		}
	}
	return skillGuide
}
