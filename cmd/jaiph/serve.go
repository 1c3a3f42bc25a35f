//go:build full

package main

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/tools/report/ui"
	"github.com/jaiph-go/jaiph/internal/tools/serve"
	"github.com/jaiph-go/jaiph/runtime"
)

func newServeCmd(stderr io.Writer) *cobra.Command {
	c := serve.Config{Host: "127.0.0.1", Port: serve.DefaultPort, Log: stderr, UI: ui.FS}
	cmd := &cobra.Command{Use: "serve [--host H] [--port N] [--allow-anonymous] [FILE|DIR...]",
		Short: "Serve exported workflows over HTTP: REST and OpenAPI, live events, MCP, the run viewer",
		Long:  serve.Help,
		RunE: func(_ *cobra.Command, args []string) error {
			ctx, stop := runtime.NotifyInterrupt()
			defer stop()
			dir, err := os.Getwd()
			if err != nil {
				return err
			}
			c.Paths, c.Dir, c.Environ = args, dir, os.Environ()
			c.Home, _ = os.UserHomeDir()
			if err := serve.Serve(ctx, c); err != nil {
				fmt.Fprintf(stderr, "jaiph serve: %v\n", err)
				return &exitError{code: exitFailure}
			}
			return nil
		}}
	f := cmd.Flags()
	f.StringVar(&c.Host, "host", c.Host, "the address to listen on")
	f.IntVar(&c.Port, "port", c.Port, "the port to listen on (0: any free one)")
	f.BoolVar(&c.AllowAnonymous, "allow-anonymous", false, "serve without authentication (loopback only)")
	return cmd
}
