package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/observe/progress"
	"github.com/jaiph-go/jaiph/internal/tools/scaffold"
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
		RunE:               ownArgs(false, func(pos []string) error { return exitCode(runInit(pos, stdout, stderr)) }),
	}
}

func runInit(args []string, stdout, stderr io.Writer) int {
	dir := "."
	if len(args) > 0 {
		dir = args[0]
	}
	style := progress.NewStyle(progress.ColourWanted(stdout))
	if err := scaffold.Run(dir, scaffold.Skill(os.Getenv("JAIPH_SKILL_PATH")), stdout, style); err != nil {
		fmt.Fprintln(stderr, err)
		return exitFailure
	}
	return exitOK
}
