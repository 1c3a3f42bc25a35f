package broker

// This file answers: what does the jaiph-full build add to the CLI? The
// "nats" inbox transport and the bodies of `jaiph broker` and `jaiph
// worker` (internal/tools/brokercmd declares them for every build).

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/engine"
	"github.com/jaiph-go/jaiph/internal/tools/brokercmd"
	"github.com/jaiph-go/jaiph/runtime"
)

// Install registers the transport and the commands (cmd/jaiph with -tags
// nats calls it from init).
func Install() {
	engine.RegisterTransport("nats", func(ctx context.Context, url string, src engine.Sources) (runtime.Transport, error) {
		replicas, _ := strconv.Atoi(os.Getenv("JAIPH_INBOX_REPLICAS"))
		return Dial(ctx, url, Sources{Entry: src.Entry, Files: src.Files}, Options{Replicas: replicas})
	})
	brokercmd.ServeBroker = func(cmd *cobra.Command, o brokercmd.BrokerOptions) error {
		if os.Getenv("GOMEMLIMIT") == "" {
			// Without a limit the server's heap grows with the messages it
			// has seen (GC slack): peak RSS 51 -> 112 -> 154 MB for 2,000,
			// 10,000, 20,000 messages; with this soft limit 45 -> 68 -> 72 MB
			// (docs/performance.md). GOMEMLIMIT overrides it.
			debug.SetMemoryLimit(brokerMemoryLimit)
		}
		if o.Store == "" {
			o.Store = filepath.Join(".jaiph", "broker")
		}
		// Before the startup line: a signal right after it stops the
		// broker as it says, not by the default action.
		ctx, stop := runtime.NotifyInterrupt()
		defer stop()
		s, err := Serve(ServerOptions{Listen: o.Listen, StoreDir: o.Store, SyncAlways: os.Getenv("JAIPH_INBOX_FSYNC") == "true",
			Name: o.Name, Cluster: o.Cluster, Routes: o.Routes, ClusterName: o.ClusterName})
		var oe *OptionError
		if errors.As(err, &oe) {
			return &brokercmd.UsageError{Msg: oe.Msg}
		}
		if err != nil {
			return err
		}
		if c := ClusterURL(s); c != "" {
			fmt.Fprintf(cmd.OutOrStdout(), "jaiph broker: listening on %s, routes on %s (node %s of cluster %s, store %s); Ctrl-C stops it\n",
				s.ClientURL(), c, s.Name(), s.ClusterName(), o.Store)
		} else {
			fmt.Fprintf(cmd.OutOrStdout(), "jaiph broker: listening on %s (store %s); Ctrl-C stops it\n", s.ClientURL(), o.Store)
		}
		<-ctx.Done()
		s.Shutdown()
		s.WaitForShutdown()
		return nil
	}
	brokercmd.ServeWorker = func(cmd *cobra.Command, o brokercmd.WorkerOptions) error {
		if o.Dir == "" {
			o.Dir, _ = os.Getwd()
		}
		dir, err := filepath.Abs(o.Dir)
		if err != nil {
			return err
		}
		if o.Name == "" {
			host, _ := os.Hostname()
			o.Name = host + ":" + strconv.Itoa(os.Getpid())
		}
		ctx, stop := runtime.NotifyInterrupt()
		defer stop()
		if o.Replicas > 0 {
			os.Setenv("JAIPH_INBOX_REPLICAS", strconv.Itoa(o.Replicas))
		}
		w := &Worker{Sandbox: o.Sandbox, URL: o.Inbox, Name: o.Name, Dir: dir, Concurrency: o.Concurrency, Environ: os.Environ(), Log: cmd.ErrOrStderr()}
		return w.Run(ctx)
	}
}

// brokerMemoryLimit is `jaiph broker`'s soft memory limit (GOMEMLIMIT).
const brokerMemoryLimit = 48 << 20
