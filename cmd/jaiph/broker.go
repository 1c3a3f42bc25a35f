package main

// The broker's commands, declared for both builds so that the default one
// answers their help; their bodies are in jaiph-full only (broker_full.go;
// forward.go hands them over).

import (
	"fmt"
	"os"
	"strconv"
	"time"

	"github.com/spf13/cobra"

	"github.com/jaiph-go/jaiph/internal/engine"
	"github.com/jaiph-go/jaiph/internal/retention"
)

// brokerOptions are `jaiph broker`'s flags.
type brokerOptions struct {
	listen, store string
	// retention: the broker prunes the state of runs inactive for longer,
	// at start and hourly (0: never; docs/distributed.md, "Retention").
	retention time.Duration
	// A cluster node: its server name, the address it takes routes on,
	// the seed routes to the other nodes, the cluster's name.
	name, cluster, clusterName string
	routes                     []string
}

// workerOptions are `jaiph worker`'s flags.
type workerOptions struct {
	inbox, name, dir, sandbox string
	concurrency, replicas     int
	shutdownTimeout           time.Duration
	claimAfter                time.Duration
}

func newBrokerCmd() *cobra.Command {
	o := brokerOptions{retention: retention.Default}
	cmd := &cobra.Command{Use: "broker [--listen HOST:PORT] [--store DIR] [--name NAME --cluster HOST:PORT --routes URL,...]",
		Short: "Serve an embedded NATS JetStream broker for jaiph run --inbox and jaiph worker",
		Long: `Run a NATS JetStream server (docs/distributed.md) until Ctrl-C or SIGTERM.
Runs point at it with --inbox nats://HOST:PORT (or JAIPH_INBOX_URL); workers with
jaiph worker --inbox nats://HOST:PORT. A restart on the same --store loses nothing
the broker acknowledged.

With --cluster the broker is one node of a cluster: it takes routes from the other
nodes on --cluster HOST:PORT and connects to the seed routes --routes names (the
other nodes' --cluster addresses, nats://HOST:PORT; its own may be among them).
Each node needs its own --store and a --name unique in the cluster and the same
across its restarts. Three nodes and runs and workers with --replicas 3 lose
nothing when one node is lost; clients list every node:
--inbox nats://a:4222,nats://b:4222,nats://c:4222. A NATS deployment works as
well (docs/distributed.md).`,
		Args: positional(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			if len(o.routes) > 0 && o.cluster == "" {
				return &usageError{"--routes needs --cluster HOST:PORT (the address this node takes the other nodes' routes on)"}
			}
			if cmd.Flags().Changed("cluster-name") && o.cluster == "" {
				return &usageError{"--cluster-name needs --cluster HOST:PORT"}
			}
			return serveBroker(cmd, o)
		}}
	cmd.Flags().StringVar(&o.listen, "listen", "127.0.0.1:4222", "address to listen on for clients (`HOST:PORT`; port 0 picks a free one)")
	cmd.Flags().StringVar(&o.store, "store", "", "directory of the broker's streams (`DIR`; default .jaiph/broker in the working directory)")
	cmd.Flags().Var(retention.Flag{D: &o.retention}, "retention", "prune the state of runs inactive for longer than `DURATION`, at start and every hour (e.g. 168h, 7d; 0 never)")
	cmd.AddCommand(newBrokerRunsCmd(), newBrokerPruneCmd())
	cmd.Flags().StringVar(&o.name, "name", "", "the server's name, unique in a cluster, the same across restarts (`NAME`: letters, digits, - _ .; default HOSTNAME-PORT from the client port)")
	cmd.Flags().StringVar(&o.cluster, "cluster", "", "serve as a cluster node taking routes on this address (`HOST:PORT`; port 0 picks a free one; needs --routes)")
	cmd.Flags().StringSliceVar(&o.routes, "routes", nil, "seed routes to the other nodes' --cluster addresses (`URL[,URL...]`: nats://HOST:PORT; needs --cluster)")
	cmd.Flags().StringVar(&o.clusterName, "cluster-name", "jaiph", "the cluster's name, the same on every node (`NAME`)")
	return cmd
}

func newWorkerCmd() *cobra.Command {
	var o workerOptions
	cmd := &cobra.Command{Use: "worker --inbox URL [--concurrency N] [--name NAME] [--dir DIR]", Short: "Claim and run deliveries of broker runs (jaiph run --inbox)",
		Long: `Claim deliveries of any run on the broker at URL (nats://HOST:PORT, or JAIPH_INBOX_URL)
and run their target workflows, N at a time, until Ctrl-C or SIGTERM
(docs/distributed.md). The first signal stops claiming and lets the deliveries it
holds finish; a second one, or --shutdown-timeout, stops them and hands them back
to the queue for another worker. A worker needs no checkout: it fetches the run's sources from
the broker and verifies their hash; bodies run with DIR as their working directory.
A delivery is held by a lease that heartbeats renew; a worker whose claim was taken
over stops its target and reports nothing.`,
		Args: positional(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			var err error
			if o.inbox, err = inboxOf("jaiph worker", o.inbox); err != nil {
				return err
			}
			if o.sandbox != "" && o.sandbox != "docker" {
				return &usageError{fmt.Sprintf("--sandbox takes docker, got %q", o.sandbox)}
			}
			if o.concurrency < 1 {
				return &usageError{fmt.Sprintf("--concurrency must be at least 1, got %d", o.concurrency)}
			}
			if o.replicas == 0 {
				o.replicas, _ = strconv.Atoi(os.Getenv("JAIPH_INBOX_REPLICAS"))
			}
			return serveWorker(cmd, o)
		}}
	cmd.Flags().StringVar(&o.inbox, "inbox", "", "the broker (`URL`: nats://HOST:PORT; credentials and TLS as NATS URLs take them)")
	cmd.Flags().IntVar(&o.concurrency, "concurrency", 1, "deliveries run at once (`N`)")
	cmd.Flags().StringVar(&o.name, "name", "", "the worker's name in progress and logs (`NAME`; default host:pid)")
	cmd.Flags().StringVar(&o.sandbox, "sandbox", "", "run each delivery in the Docker sandbox (`docker`; docs/sandbox.md): image, network and timeout as JAIPH_DOCKER_* set them for a run")
	cmd.Flags().IntVar(&o.replicas, "replicas", 0, "replicas of the work queue when this worker creates it (`N`; a cluster: 3; JAIPH_INBOX_REPLICAS)")
	cmd.Flags().StringVar(&o.dir, "dir", "", "working directory of the bodies (`DIR`; default the current one)")
	cmd.Flags().DurationVar(&o.shutdownTimeout, "shutdown-timeout", 25*time.Second, "after Ctrl-C or SIGTERM, how long held deliveries may finish before they are handed back (`DURATION`; 0: no limit)")
	cmd.Flags().DurationVar(&o.claimAfter, "claim-after", 20*time.Millisecond, "how long a delivery's first attempt runs before its claim is written; one done sooner writes only its result (`DURATION`; 0 claims before the target runs)")
	return cmd
}

// inboxOf is a command's --inbox, else JAIPH_INBOX_URL; a URL no
// transport takes is refused naming the one that gave it.
func inboxOf(command, flag string) (string, error) {
	url, err := engine.BrokerURL(flag, os.Getenv("JAIPH_INBOX_URL"))
	if url == "" {
		return "", &usageError{command + " needs --inbox URL (nats://HOST:PORT) or JAIPH_INBOX_URL"}
	}
	return url, err
}

// ---- Retention (issue 32): jaiph broker runs, jaiph broker prune ----

func newBrokerRunsCmd() *cobra.Command {
	var inbox string
	var asJSON bool
	cmd := &cobra.Command{Use: "runs --inbox URL [--json]", Short: "List the runs that have state on the broker",
		Long: `List every run with state on the broker at URL (nats://HOST:PORT, or JAIPH_INBOX_URL):
its ledger, event stream and artifact store (which of them exist, their messages and
bytes), its last activity, the deliveries it still has in the work queue and the hash
of its sources. A run whose drain completed removed its state; what is listed is
failed, killed or still running (docs/distributed.md, "Retention").`,
		Args: positional(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			url, err := inboxOf("jaiph broker runs", inbox)
			if err != nil {
				return err
			}
			return listBrokerRuns(cmd, url, asJSON)
		}}
	cmd.Flags().StringVar(&inbox, "inbox", "", "the broker (`URL`: nats://HOST:PORT; default JAIPH_INBOX_URL)")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print one JSON document {\"runs\": [...]} (fields: docs/distributed.md)")
	return cmd
}

func newBrokerPruneCmd() *cobra.Command {
	var inbox string
	var dryRun bool
	olderThan := retention.Default
	cmd := &cobra.Command{Use: "prune --inbox URL [--older-than DURATION] [--dry-run]", Short: "Remove the broker state of runs inactive for longer than a duration",
		Long: `Remove from the broker at URL (nats://HOST:PORT, or JAIPH_INBOX_URL) the ledger, event
stream and artifact store of every run inactive for longer than DURATION (default
168h, 7 days), and its deliveries left in the work queue; then the sources no
remaining run uses, stored longer ago than DURATION. A run active within DURATION is
never touched; a removed run can no longer be resumed with jaiph resume
(docs/distributed.md, "Retention"). Prints what it removed (with --dry-run, what it
would remove).`,
		Args: positional(0, 0),
		RunE: func(cmd *cobra.Command, _ []string) error {
			url, err := inboxOf("jaiph broker prune", inbox)
			if err != nil {
				return err
			}
			if olderThan <= 0 {
				return &usageError{"--older-than needs a duration above 0 (e.g. 168h, 7d)"}
			}
			return pruneBrokerRuns(cmd, url, olderThan, dryRun)
		}}
	cmd.Flags().StringVar(&inbox, "inbox", "", "the broker (`URL`: nats://HOST:PORT; default JAIPH_INBOX_URL)")
	cmd.Flags().Var(retention.Flag{D: &olderThan}, "older-than", "remove runs inactive for longer than `DURATION` (e.g. 168h, 90m, 7d)")
	cmd.Flags().BoolVar(&dryRun, "dry-run", false, "print what would be removed and remove nothing")
	return cmd
}
