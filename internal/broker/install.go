package broker

// This file answers: what does the jaiph-full build add to the CLI? The
// "nats" inbox transport and the bodies of `jaiph broker` and `jaiph
// worker` (cmd/jaiph/broker.go declares them for every build and parses
// their flags; broker_full.go calls these).

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	goruntime "runtime"
	"runtime/debug"
	"strconv"
	"syscall"
	"time"

	"github.com/jaiph-go/jaiph/internal/engine"
	"github.com/jaiph-go/jaiph/internal/served"
	"github.com/jaiph-go/jaiph/internal/store/inbox"
	"github.com/jaiph-go/jaiph/runtime"
)

// Install registers the "nats" and "tls" inbox transport (cmd/jaiph with -tags full
// calls it from init, dist_full.go).
func Install() {
	served.RegisterBroker(func(ctx context.Context, o served.BrokerOptions, workflows []served.Workflow) (served.Backend, error) {
		b, err := NewServeBackend(ctx, ServeOptions{URL: o.URL, Replicas: o.Replicas, Log: o.Log, Lease: o.Lease}, workflows)
		if err != nil || !o.Execute {
			return b, err
		}
		return b.execute(o)
	})
	dial := func(ctx context.Context, url string, src engine.Sources, settings func(string) (string, bool), files *inbox.Files) (runtime.Transport, error) {
		// The run's replicas, as its run.json records them for a resume:
		// never this process's environment (a resume without --replicas
		// once turned a cluster's R3 streams into R1).
		v, _ := settings("JAIPH_INBOX_REPLICAS")
		replicas, _ := strconv.Atoi(v)
		return Dial(ctx, url, Sources{Entry: src.Entry, Files: src.Files}, Options{Replicas: replicas, Inbox: files})
	}
	// tls:// is a NATS URL whose connection must be TLS (the server's
	// certificate verified against the system's roots, or SSL_CERT_FILE's).
	engine.RegisterTransport("nats", dial)
	engine.RegisterTransport("tls", dial)
}

// RunNode is `jaiph broker`: it serves o, says where on stdout, prunes
// runs inactive for longer than retention (0: never; retention.go) and
// stops on SIGINT or SIGTERM. A mistake in o is an *OptionError.
func RunNode(o ServerOptions, retention time.Duration, stdout, stderr io.Writer) error {
	if os.Getenv("GOMEMLIMIT") == "" {
		// Without a limit the server's heap grows with the messages it
		// has seen (GC slack): peak RSS 51 -> 112 -> 154 MB for 2,000,
		// 10,000, 20,000 messages; with this soft limit 45 -> 68 -> 72 MB
		// (docs/performance.md). GOMEMLIMIT overrides it.
		debug.SetMemoryLimit(brokerMemoryLimit)
	}
	if o.StoreDir == "" {
		o.StoreDir = filepath.Join(".jaiph", "broker")
	}
	// Before the startup line: a signal right after it stops the
	// broker as it says, not by the default action.
	ctx, stop := runtime.NotifyInterrupt()
	defer stop()
	if _, err := o.natsOptions(); err != nil {
		return err // a usage mistake creates no store
	}
	lock, err := lockStore(o.StoreDir) // before the server touches the store
	if err != nil {
		return err
	}
	defer lock.release() // after the server's shutdown below
	s, err := Serve(o)
	if err != nil {
		return err
	}
	lock.say(s.ClientURL())
	if c := ClusterURL(s); c != "" {
		fmt.Fprintf(stdout, "jaiph broker: listening on %s, routes on %s (node %s of cluster %s, store %s); Ctrl-C stops it\n",
			s.ClientURL(), c, s.Name(), s.ClusterName(), o.StoreDir)
	} else {
		fmt.Fprintf(stdout, "jaiph broker: listening on %s (store %s); Ctrl-C stops it\n", s.ClientURL(), o.StoreDir)
	}
	StartJanitor(ctx, s, retention, stderr) // retention (issue 32): retention.go
	<-ctx.Done()
	s.Shutdown()
	s.WaitForShutdown()
	return nil
}

// RunWorker is `jaiph worker`: w claims and runs deliveries until a
// signal. The first SIGINT/SIGTERM stops claiming and lets what the worker
// holds finish; a second one (or w.ShutdownTimeout) hands it back. An
// empty w.Dir is the working directory, an empty w.Name host:pid.
func RunWorker(w *Worker) error {
	if w.Dir == "" {
		w.Dir, _ = os.Getwd()
	}
	dir, err := filepath.Abs(w.Dir)
	if err != nil {
		return err
	}
	w.Dir = dir
	if w.Name == "" {
		host, _ := os.Hostname()
		w.Name = host + ":" + strconv.Itoa(os.Getpid())
	}
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
	w.Hard = hard
	if os.Getenv("GOMAXPROCS") == "" {
		// As many Go processors as slots (at most the machine's): a slot's
		// interpreter, its heartbeats and the client then share threads
		// instead of waking one another across them, which on a machine
		// running several workers cost more than the deliveries' own work
		// (docs/performance.md). GOMAXPROCS in the environment decides
		// otherwise.
		goruntime.GOMAXPROCS(min(max(w.Concurrency, 1), goruntime.GOMAXPROCS(0)))
	}
	return w.Run(soft)
}

// brokerMemoryLimit is `jaiph broker`'s soft memory limit (GOMEMLIMIT).
const brokerMemoryLimit = 48 << 20
