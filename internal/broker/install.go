package broker

// This file answers: what does the jaiph-full build add to the CLI? The
// "nats" inbox transport and the bodies of `jaiph broker` and `jaiph
// worker` (internal/tools/brokercmd declares them for every build).

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"syscall"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/engine"
	"github.com/jaiph-go/jaiph/internal/store/inbox"
	"github.com/jaiph-go/jaiph/internal/tools/brokercmd"
	"github.com/jaiph-go/jaiph/runtime"
)

// Install registers the transport and the commands (cmd/jaiph with -tags
// full calls it from init, dist_full.go).
func Install() {
	engine.RegisterTransport("nats", func(ctx context.Context, url string, src engine.Sources, settings func(string) (string, bool), files *inbox.Files) (runtime.Transport, error) {
		// The run's replicas, as its run.json records them for a resume:
		// never this process's environment (a resume without --replicas
		// once turned a cluster's R3 streams into R1).
		v, _ := settings("JAIPH_INBOX_REPLICAS")
		replicas, _ := strconv.Atoi(v)
		return Dial(ctx, url, Sources{Entry: src.Entry, Files: src.Files}, Options{Replicas: replicas, Inbox: files})
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
		StartJanitor(ctx, s, o.Retention, cmd.ErrOrStderr()) // retention (issue 32): retention.go
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
		if o.Replicas == 0 {
			o.Replicas, _ = strconv.Atoi(os.Getenv("JAIPH_INBOX_REPLICAS"))
		}
		// The first SIGINT/SIGTERM stops claiming and lets what the worker
		// holds finish; a second one (or --shutdown-timeout) hands it back.
		soft, stopSoft := context.WithCancel(context.Background())
		hard, stopHard := context.WithCancel(context.Background())
		defer stopSoft()
		defer stopHard()
		sigc := make(chan os.Signal, 2)
		signal.Notify(sigc, os.Interrupt, syscall.SIGTERM)
		defer signal.Stop(sigc)
		go func() {
			<-sigc
			stopSoft()
			<-sigc
			stopHard()
		}()
		w := &Worker{Sandbox: o.Sandbox, URL: o.Inbox, Name: o.Name, Dir: dir, Concurrency: o.Concurrency, Replicas: o.Replicas,
			Environ: os.Environ(), Log: cmd.ErrOrStderr(), Hard: hard, ShutdownTimeout: o.ShutdownTimeout}
		return w.Run(soft)
	}
	// Retention (issue 32): the bodies of `jaiph broker runs` and `jaiph
	// broker prune` (retentioncmd.go).
	brokercmd.ListRuns = listRunsCommand
	brokercmd.PruneRuns = pruneRunsCommand
}

// brokerMemoryLimit is `jaiph broker`'s soft memory limit (GOMEMLIMIT).
const brokerMemoryLimit = 48 << 20
