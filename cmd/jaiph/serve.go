//go:build full

package main

import (
	"io"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/tools/report/ui"
	"github.com/jaiph-go/jaiph/internal/tools/serve"
)

func newServeCmd(stderr io.Writer) *cobra.Command {
	c := serve.Config{Log: stderr, UI: ui.FS}
	cmd := &cobra.Command{Use: serve.Use, Short: serve.Short, Long: serve.Help,
		RunE: func(_ *cobra.Command, args []string) error { return failed("serve", serve.Main(c, args)) }}
	c.Flags(cmd.Flags())
	return cmd
}
