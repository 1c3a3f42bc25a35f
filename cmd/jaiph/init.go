package main

import (
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/scaffold"
	"github.com/jaiph-go/jaiph/progress"
)

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
		RunE:               selfParsing(false, false, func(ca cmdArgs) int { return runInit(ca.pos, stdout, stderr) }),
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
	style := progress.NewStyle(progress.ColourWanted(stdout))
	bootstrapRel, skillRel := scaffold.BootstrapRel, scaffold.SkillRel
	fmt.Fprintf(stdout, "\nJaiph init\n\n")
	fmt.Fprintln(stdout, style.Dim(fmt.Sprintf("▸ Creating %s in %s...", bootstrapRel, root)))
	created, err := scaffold.Init(root, scaffold.Skill(os.Getenv("JAIPH_SKILL_PATH")))
	if err != nil {
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
