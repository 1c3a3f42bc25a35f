package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/buildinfo"
	"github.com/jaiph-go/jaiph/internal/engine"
)

func newBuildCmd(stdout io.Writer) *cobra.Command {
	cmd := &cobra.Command{
		DisableFlagsInUseLine: true,
		Use:                   "build [--target DIR] [PATH]",
		Short:                 "Validate .jh files and write their lowered shell for inspection",
		Long: `Validate Jaiph modules and write the shell each one is lowered to.

PATH (default ./) is a .jh/.jph file, built with its imports, or a directory,
whose modules (test files excluded) are all built. Each module M is written to
<DIR>/<M's path relative to PATH's directory, extension .sh>, where DIR is
--target or that directory. The output shows what jaiph run executes; it is
not a standalone script (run workflows with jaiph run).

Any diagnostic is printed as jaiph run prints it, nothing is written and the
exit status is 1.`,
		Example:            "  jaiph build\n  jaiph build flows/ --target out\n  jaiph build deploy.jh",
		DisableFlagParsing: true,
	}
	var target string
	cmd.RunE = ownArgs(false, func(pos []string) error {
		input := "./"
		if len(pos) > 0 {
			input = pos[0]
		}
		switch err := engine.Build(input, target, buildinfo.Generator, stdout); {
		case errors.Is(err, engine.ErrNoSources):
			fmt.Fprintln(stdout, err)
		case err != nil:
			return &exitError{exitFailure, err.Error()}
		}
		return nil
	})
	cmd.Flags().StringVar(&target, "target", "", "write the .sh files below DIR instead of beside the modules")
	return cmd
}
