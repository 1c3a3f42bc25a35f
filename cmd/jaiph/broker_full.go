//go:build full

package main

// The bodies of the broker's commands (broker.go declares them and parses
// their flags): one call into internal/broker each.

import (
	"errors"
	"os"
	"time"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/broker"
	"github.com/jaiph-go/jaiph/internal/envflag"
)

func serveBroker(cmd *cobra.Command, o brokerOptions) error {
	err := broker.RunNode(broker.ServerOptions{Listen: o.listen, StoreDir: o.store, SyncAlways: envflag.True(os.Getenv("JAIPH_INBOX_FSYNC")),
		Name: o.name, Cluster: o.cluster, Routes: o.routes, ClusterName: o.clusterName}, o.retention, cmd.OutOrStdout(), cmd.ErrOrStderr())
	if oe := (*broker.OptionError)(nil); errors.As(err, &oe) {
		return &usageError{oe.Msg}
	}
	return err
}

func serveWorker(cmd *cobra.Command, o workerOptions) error {
	return broker.RunWorker(&broker.Worker{Sandbox: o.sandbox, URL: o.inbox, Name: o.name, Dir: o.dir, Concurrency: o.concurrency,
		Replicas: o.replicas, Environ: os.Environ(), Log: cmd.ErrOrStderr(), ShutdownTimeout: o.shutdownTimeout, ClaimAfter: o.claimAfter})
}

func listBrokerRuns(cmd *cobra.Command, url string, asJSON bool) error {
	return broker.RunsCommand(url, asJSON, cmd.OutOrStdout())
}

func pruneBrokerRuns(cmd *cobra.Command, url string, olderThan time.Duration, dryRun bool) error {
	return broker.PruneCommand(url, olderThan, dryRun, cmd.OutOrStdout())
}
