package brokercmd

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"
)

// Set by the jaiph-full build (cmd/jaiph/dist_full.go).
var (
	ServeBroker func(cmd *cobra.Command, o BrokerOptions) error
	ServeWorker func(cmd *cobra.Command, o WorkerOptions) error
)

// BrokerOptions are `jaiph broker`'s flags.
type BrokerOptions struct {
	Listen, Store string
	// Retention: the broker prunes the state of runs inactive for longer,
	// at start and hourly (0: never; docs/distributed.md, "Retention").
	Retention time.Duration
	// A cluster node: its server name, the address it takes routes on,
	// the seed routes to the other nodes, the cluster's name.
	Name, Cluster, ClusterName string
	Routes                     []string
}

// WorkerOptions are `jaiph worker`'s flags.
type WorkerOptions struct {
	Inbox, Name, Dir string
	Concurrency      int
	Replicas         int
	Sandbox          string
	ShutdownTimeout  time.Duration
}

// UsageError is a command-line mistake (exit 2).
type UsageError struct{ Msg string }

func (e *UsageError) Error() string { return e.Msg }

// Route handles what comes before the commands: it takes `--inbox URL`
// into JAIPH_INBOX_URL and, in the default build, hands what needs code
// only jaiph-full links (NeedsFull) to it (Forward). done means the
// process is over with status.
func Route(args []string, isRunFile func(string) bool, stderr io.Writer) (rest []string, status int, done bool) {
	args, url, err := TakeInbox(args)
	if err != nil {
		fmt.Fprintf(stderr, "jaiph: %s\n", err)
		return nil, 2, true
	}
	if url != "" {
		os.Setenv("JAIPH_INBOX_URL", url)
	}
	if NeedsFull(args, isRunFile) {
		return nil, Forward(args, stderr), true
	}
	return args, 0, false
}

// fullBinary is the name of the build that links the broker, the report
// server, the MCP server and the OTLP exporter.
const fullBinary = "jaiph-full"

// TakeInbox removes `--inbox URL` (or --inbox=URL) from the options of
// run, resume and redrive (before run's FILE: what follows is the
// workflow's) and returns the URL.
func TakeInbox(args []string) ([]string, string, error) {
	if len(args) == 0 {
		return args, "", nil
	}
	cmd := args[0]
	if cmd != "run" && cmd != "resume" && cmd != "redrive" {
		return args, "", nil
	}
	out := []string{cmd}
	url := ""
	for i := 1; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return append(out, args[i:]...), url, nil
		case a == "--inbox":
			if i+1 >= len(args) || args[i+1] == "" {
				return nil, "", &UsageError{"--inbox needs a broker URL (nats://HOST:PORT)"}
			}
			url = args[i+1]
			i++
		case a == "--replicas" || strings.HasPrefix(a, "--replicas="):
			n, ok := strings.CutPrefix(a, "--replicas=")
			if !ok && i+1 < len(args) {
				n, i = args[i+1], i+1
			}
			if r, err := strconv.Atoi(n); err != nil || r < 1 || r > 5 {
				return nil, "", &UsageError{fmt.Sprintf("--replicas needs a number from 1 to 5 (the broker's stream replicas), got %q", n)}
			}
			os.Setenv("JAIPH_INBOX_REPLICAS", n)
		case strings.HasPrefix(a, "--inbox="):
			url = strings.TrimPrefix(a, "--inbox=")
		case cmd == "run" && a == "--target" && i+1 < len(args):
			out = append(out, a, args[i+1])
			i++
		case cmd == "run" && !strings.HasPrefix(a, "-"):
			return append(out, args[i:]...), url, nil
		default:
			out = append(out, a)
		}
	}
	return out, url, nil
}

// NeedsFull tells whether args must run in the jaiph-full build: the
// broker and its worker, the report and MCP servers (their help too: their
// flags are defined there), and runs with an inbox URL or whose trace goes
// to an OTLP endpoint. A FILE shorthand (jaiph FILE …) is a run when
// isRunFile says so.
func NeedsFull(args []string, isRunFile func(string) bool) bool {
	if len(args) == 0 || ServeBroker != nil {
		return false
	}
	switch args[0] {
	case "broker", "worker":
		return !(len(args) > 1 && (args[1] == "-h" || args[1] == "--help")) && !brokerSubcommandHelp(args)
	case "report", "mcp":
		return true
	case "run", "resume":
		return os.Getenv("JAIPH_INBOX_URL") != "" || traced()
	case "redrive":
		return os.Getenv("JAIPH_INBOX_URL") != ""
	}
	return isRunFile(args[0]) && (os.Getenv("JAIPH_INBOX_URL") != "" || traced())
}

// traced tells whether the environment names an OTLP endpoint, as
// internal/observe/otlp.Enabled reads it (runs export their trace live).
func traced() bool {
	return os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") != "" || os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

// Forward replaces this process with jaiph-full (beside this
// binary, else on PATH) running args; it returns only when it cannot.
func Forward(args []string, stderr io.Writer) int {
	path := ""
	if self, err := os.Executable(); err == nil {
		if p := filepath.Join(filepath.Dir(self), fullBinary); isExecutable(p) {
			path = p
		}
	}
	if path == "" {
		path, _ = exec.LookPath(fullBinary)
	}
	if path == "" {
		fmt.Fprintf(stderr, "jaiph: %s needs %s, the build of jaiph with the broker, report, MCP and OTLP code linked in; `make build` writes it beside jaiph (bin/%s), or put it on PATH\n",
			describe(args), fullBinary, fullBinary)
		return 1
	}
	err := syscall.Exec(path, append([]string{path}, args...), os.Environ())
	fmt.Fprintf(stderr, "jaiph: cannot start %s: %v\n", path, err)
	return 1
}

func describe(args []string) string {
	switch {
	case args[0] == "broker" || args[0] == "worker" || args[0] == "report" || args[0] == "mcp":
		return "jaiph " + args[0]
	case os.Getenv("JAIPH_INBOX_URL") != "":
		return "a run with an inbox URL (--inbox, JAIPH_INBOX_URL)"
	}
	return "a run that exports its trace (OTEL_EXPORTER_OTLP_ENDPOINT)"
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0
}

// NewBrokerCmd is `jaiph broker`.
func NewBrokerCmd(stderr io.Writer) *cobra.Command {
	var o BrokerOptions
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
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if len(o.Routes) > 0 && o.Cluster == "" {
				return &UsageError{"--routes needs --cluster HOST:PORT (the address this node takes the other nodes' routes on)"}
			}
			if cmd.Flags().Changed("cluster-name") && o.Cluster == "" {
				return &UsageError{"--cluster-name needs --cluster HOST:PORT"}
			}
			if ServeBroker == nil {
				os.Exit(Forward(os.Args[1:], stderr))
			}
			return ServeBroker(cmd, o)
		}}
	cmd.Flags().StringVar(&o.Listen, "listen", "127.0.0.1:4222", "address to listen on for clients (`HOST:PORT`; port 0 picks a free one)")
	cmd.Flags().StringVar(&o.Store, "store", "", "directory of the broker's streams (`DIR`; default .jaiph/broker in the working directory)")
	// Retention (issue 32): the janitor's window and the runs and prune
	// subcommands (retention part at the end of this file).
	o.Retention = DefaultRetention
	cmd.Flags().Var(retentionValue{&o.Retention}, "retention", "prune the state of runs inactive for longer than `DURATION`, at start and every hour (e.g. 168h, 7d; 0 never)")
	cmd.AddCommand(newBrokerRunsCmd(stderr), newBrokerPruneCmd(stderr))
	cmd.Flags().StringVar(&o.Name, "name", "", "the server's name, unique in a cluster, the same across restarts (`NAME`: letters, digits, - _ .; default HOSTNAME-PORT from the client port)")
	cmd.Flags().StringVar(&o.Cluster, "cluster", "", "serve as a cluster node taking routes on this address (`HOST:PORT`; port 0 picks a free one; needs --routes)")
	cmd.Flags().StringSliceVar(&o.Routes, "routes", nil, "seed routes to the other nodes' --cluster addresses (`URL[,URL...]`: nats://HOST:PORT; needs --cluster)")
	cmd.Flags().StringVar(&o.ClusterName, "cluster-name", "jaiph", "the cluster's name, the same on every node (`NAME`)")
	return cmd
}

// NewWorkerCmd is `jaiph worker`.
func NewWorkerCmd(stderr io.Writer) *cobra.Command {
	var o WorkerOptions
	cmd := &cobra.Command{Use: "worker --inbox URL [--concurrency N] [--name NAME] [--dir DIR]", Short: "Claim and run deliveries of broker runs (jaiph run --inbox)",
		Long: `Claim deliveries of any run on the broker at URL (nats://HOST:PORT, or JAIPH_INBOX_URL)
and run their target workflows, N at a time, until Ctrl-C or SIGTERM
(docs/distributed.md). The first signal stops claiming and lets the deliveries it
holds finish; a second one, or --shutdown-timeout, stops them and hands them back
to the queue for another worker. A worker needs no checkout: it fetches the run's sources from
the broker and verifies their hash; bodies run with DIR as their working directory.
A delivery is held by a lease that heartbeats renew; a worker whose claim was taken
over stops its target and reports nothing.`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if ServeWorker == nil {
				os.Exit(Forward(os.Args[1:], stderr))
			}
			if o.Inbox == "" {
				o.Inbox = os.Getenv("JAIPH_INBOX_URL")
			}
			if o.Inbox == "" {
				return &UsageError{"jaiph worker needs --inbox URL (nats://HOST:PORT) or JAIPH_INBOX_URL"}
			}
			if o.Sandbox != "" && o.Sandbox != "docker" {
				return &UsageError{fmt.Sprintf("--sandbox takes docker, got %q", o.Sandbox)}
			}
			if o.Concurrency < 1 {
				return &UsageError{fmt.Sprintf("--concurrency must be at least 1, got %d", o.Concurrency)}
			}
			return ServeWorker(cmd, o)
		}}
	cmd.Flags().StringVar(&o.Inbox, "inbox", "", "the broker (`URL`: nats://HOST:PORT; credentials and TLS as NATS URLs take them)")
	cmd.Flags().IntVar(&o.Concurrency, "concurrency", 1, "deliveries run at once (`N`)")
	cmd.Flags().StringVar(&o.Name, "name", "", "the worker's name in progress and logs (`NAME`; default host:pid)")
	cmd.Flags().StringVar(&o.Sandbox, "sandbox", "", "run each delivery in the Docker sandbox (`docker`; docs/sandbox.md): image, network and timeout as JAIPH_DOCKER_* set them for a run")
	cmd.Flags().IntVar(&o.Replicas, "replicas", 0, "replicas of the work queue when this worker creates it (`N`; a cluster: 3; JAIPH_INBOX_REPLICAS)")
	cmd.Flags().StringVar(&o.Dir, "dir", "", "working directory of the bodies (`DIR`; default the current one)")
	cmd.Flags().DurationVar(&o.ShutdownTimeout, "shutdown-timeout", 25*time.Second, "after Ctrl-C or SIGTERM, how long held deliveries may finish before they are handed back (`DURATION`; 0: no limit)")
	return cmd
}

func noArgs(cmd *cobra.Command, args []string) error {
	if len(args) > 0 {
		return &UsageError{cmd.Name() + " takes no arguments, got " + args[0]}
	}
	return nil
}

// NewForwardedCmd is a command of the default build whose body is linked
// into jaiph-full only (report, mcp): Route hands it there, help included,
// before it runs; it shows in the command list and `jaiph help NAME`.
func NewForwardedCmd(use, short string, stderr io.Writer) *cobra.Command {
	return &cobra.Command{Use: use, Short: short, Long: short + " (runs in " + fullBinary + ").", DisableFlagParsing: true,
		RunE: func(*cobra.Command, []string) error {
			os.Exit(Forward(os.Args[1:], stderr))
			return nil
		}}
}

// ---- Retention (issue 32): jaiph broker runs, jaiph broker prune ----

// Set by the jaiph-full build (internal/broker/install.go).
var (
	ListRuns  func(cmd *cobra.Command, o RunsOptions) error
	PruneRuns func(cmd *cobra.Command, o PruneOptions) error
)

// DefaultRetention is how long the broker keeps the state of a run that
// did not complete (a failed or killed one, for jaiph resume) after its
// last activity: 7 days.
const DefaultRetention = 7 * 24 * time.Hour

// RunsOptions are `jaiph broker runs`'s flags.
type RunsOptions struct {
	Inbox string
	JSON  bool
}

// PruneOptions are `jaiph broker prune`'s flags.
type PruneOptions struct {
	Inbox     string
	OlderThan time.Duration
	DryRun    bool
}

// brokerSubcommandHelp tells `jaiph broker runs|prune … --help`, which
// the default build answers itself (the flags are declared here).
func brokerSubcommandHelp(args []string) bool {
	if args[0] != "broker" || len(args) < 3 || (args[1] != "runs" && args[1] != "prune") {
		return false
	}
	for _, a := range args[2:] {
		if a == "--" {
			return false
		}
		if a == "-h" || a == "--help" {
			return true
		}
	}
	return false
}

// inboxOf is --inbox, else JAIPH_INBOX_URL.
func inboxOf(name, flag string) (string, error) {
	if flag == "" {
		flag = os.Getenv("JAIPH_INBOX_URL")
	}
	if flag == "" {
		return "", &UsageError{"jaiph broker " + name + " needs --inbox URL (nats://HOST:PORT) or JAIPH_INBOX_URL"}
	}
	return flag, nil
}

func newBrokerRunsCmd(stderr io.Writer) *cobra.Command {
	var o RunsOptions
	cmd := &cobra.Command{Use: "runs --inbox URL [--json]", Short: "List the runs that have state on the broker",
		Long: `List every run with state on the broker at URL (nats://HOST:PORT, or JAIPH_INBOX_URL):
its ledger, event stream and artifact store (which of them exist, their messages and
bytes), its last activity, the deliveries it still has in the work queue and the hash
of its sources. A run whose drain completed removed its state; what is listed is
failed, killed or still running (docs/distributed.md, "Retention").`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if ListRuns == nil {
				os.Exit(Forward(os.Args[1:], stderr))
			}
			var err error
			if o.Inbox, err = inboxOf("runs", o.Inbox); err != nil {
				return err
			}
			return ListRuns(cmd, o)
		}}
	cmd.Flags().StringVar(&o.Inbox, "inbox", "", "the broker (`URL`: nats://HOST:PORT; default JAIPH_INBOX_URL)")
	cmd.Flags().BoolVar(&o.JSON, "json", false, "print one JSON document {\"runs\": [...]} (fields: docs/distributed.md)")
	return cmd
}

func newBrokerPruneCmd(stderr io.Writer) *cobra.Command {
	o := PruneOptions{OlderThan: DefaultRetention}
	cmd := &cobra.Command{Use: "prune --inbox URL [--older-than DURATION] [--dry-run]", Short: "Remove the broker state of runs inactive for longer than a duration",
		Long: `Remove from the broker at URL (nats://HOST:PORT, or JAIPH_INBOX_URL) the ledger, event
stream and artifact store of every run inactive for longer than DURATION (default
168h, 7 days), and its deliveries left in the work queue; then the sources no
remaining run uses, stored longer ago than DURATION. A run active within DURATION is
never touched; a removed run can no longer be resumed with jaiph resume
(docs/distributed.md, "Retention"). Prints what it removed (with --dry-run, what it
would remove).`,
		Args: noArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if PruneRuns == nil {
				os.Exit(Forward(os.Args[1:], stderr))
			}
			var err error
			if o.Inbox, err = inboxOf("prune", o.Inbox); err != nil {
				return err
			}
			if o.OlderThan <= 0 {
				return &UsageError{"--older-than needs a duration above 0 (e.g. 168h, 7d)"}
			}
			return PruneRuns(cmd, o)
		}}
	cmd.Flags().StringVar(&o.Inbox, "inbox", "", "the broker (`URL`: nats://HOST:PORT; default JAIPH_INBOX_URL)")
	cmd.Flags().Var(retentionValue{&o.OlderThan}, "older-than", "remove runs inactive for longer than `DURATION` (e.g. 168h, 90m, 7d)")
	cmd.Flags().BoolVar(&o.DryRun, "dry-run", false, "print what would be removed and remove nothing")
	return cmd
}

// ParseRetention reads a retention window: a Go duration (168h, 90m,
// 1ns) or a number of days (7d); never negative.
func ParseRetention(s string) (time.Duration, error) {
	s = strings.TrimSpace(s)
	if days, ok := strings.CutSuffix(s, "d"); ok {
		n, err := strconv.ParseUint(days, 10, 32)
		if err != nil || n > 100000 {
			return 0, fmt.Errorf("want a duration such as 168h, 90m or 7d")
		}
		return time.Duration(n) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("want a duration such as 168h, 90m or 7d")
	}
	if d < 0 {
		return 0, fmt.Errorf("a duration cannot be negative")
	}
	return d, nil
}

// FormatRetention shows a window as ParseRetention reads it: 168h, 90m, 1ns.
func FormatRetention(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// retentionValue is a flag holding a ParseRetention duration.
type retentionValue struct{ d *time.Duration }

func (v retentionValue) Set(s string) error {
	d, err := ParseRetention(s)
	if err == nil {
		*v.d = d
	}
	return err
}

func (v retentionValue) String() string {
	if v.d == nil {
		return ""
	}
	return FormatRetention(*v.d)
}

func (v retentionValue) Type() string { return "duration" }
