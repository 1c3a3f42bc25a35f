package broker_test

// A three-node JetStream cluster of separate OS processes, each with its
// own store and loopback ports, routed together: `jaiph broker --cluster`
// nodes, or the real nats-server binary (built from the module this
// repository already requires, so no network). Tests can kill -9, stop,
// continue, terminate and restart a node. Waits are for events (a node
// accepting connections, a JetStream leader, every replica current) with
// the deadline; nothing sleeps to synchronise.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// procNode is one server process of a procCluster.
type procNode struct {
	name          string
	port, cluster int    // client and route ports, kept across restarts
	store         string // kept across restarts
	cmd           *exec.Cmd
	log           *logWatcher // stdout and stderr
	exited        chan struct{}
	ended         *os.ProcessState // how the last process ended
}

// start starts the node's process in a process group of its own, its
// output (stdout and stderr) read into n.log; n.exited closes when it has
// exited.
func (n *procNode) start(t *testing.T, cmd *exec.Cmd) {
	t.Helper()
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = w, w
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		t.Fatalf("node %s: %v", n.name, err)
	}
	w.Close()
	n.cmd, n.log, n.exited = cmd, newLogWatcher(), make(chan struct{})
	read := make(chan struct{})
	go func() { n.log.read(bufio.NewScanner(r)); r.Close(); close(read) }()
	go func(exited chan struct{}) { <-read; _ = cmd.Wait(); close(exited) }(n.exited)
}

// procCluster is three clustered server processes.
type procCluster struct {
	t     *testing.T
	kind  string // "jaiph" or "nats-server"
	nodes []*procNode
	urls  []string // the client URLs, nats://127.0.0.1:PORT, by node
}

// startProcCluster starts three clustered server processes of kind
// "jaiph" (jaiph-full broker) or "nats-server" and returns once JetStream
// has a leader and every node is a current peer; t.Cleanup kills them.
func startProcCluster(t *testing.T, kind string) *procCluster {
	t.Helper()
	if kind != "jaiph" && kind != "nats-server" {
		t.Fatalf("startProcCluster: kind %q, want jaiph or nats-server", kind)
	}
	c := &procCluster{t: t, kind: kind}
	ports := loopbackPorts(t, 6)
	for i := range 3 {
		n := &procNode{name: fmt.Sprintf("n%d", i), port: ports[2*i], cluster: ports[2*i+1], store: t.TempDir()}
		c.nodes = append(c.nodes, n)
		c.urls = append(c.urls, fmt.Sprintf("nats://127.0.0.1:%d", n.port))
	}
	t.Cleanup(func() {
		for _, n := range c.nodes {
			if n.cmd != nil {
				_ = syscall.Kill(-n.cmd.Process.Pid, syscall.SIGCONT)
				_ = syscall.Kill(-n.cmd.Process.Pid, syscall.SIGKILL)
				<-n.exited
			}
		}
	})
	for i := range c.nodes {
		c.start(i)
	}
	c.waitReady()
	t.Logf("%s cluster ready: %s", kind, c.url())
	return c
}

// url is every node's client URL, comma-separated, as --inbox takes them.
func (c *procCluster) url() string { return strings.Join(c.urls, ",") }

// routes is every node's route URL, comma-separated; each node gets all
// three, its own included.
func (c *procCluster) routes() string {
	var r []string
	for _, n := range c.nodes {
		r = append(r, fmt.Sprintf("nats://127.0.0.1:%d", n.cluster))
	}
	return strings.Join(r, ",")
}

// start starts node i's process (its name, ports and store are the
// node's) and waits until it accepts client connections.
func (c *procCluster) start(i int) {
	t := c.t
	t.Helper()
	n := c.nodes[i]
	var cmd *exec.Cmd
	switch c.kind {
	case "jaiph":
		cmd = exec.Command(jaiphFull, "broker", "--name", n.name, "--store", n.store,
			"--listen", fmt.Sprintf("127.0.0.1:%d", n.port),
			"--cluster", fmt.Sprintf("127.0.0.1:%d", n.cluster), "--routes", c.routes())
	case "nats-server":
		cmd = exec.Command(natsServerBinary(t), "-js", "-sd", n.store, "-a", "127.0.0.1", "-p", strconv.Itoa(n.port),
			"-n", n.name, "--cluster_name", "jaiph", "--cluster", fmt.Sprintf("nats://127.0.0.1:%d", n.cluster),
			"--routes", c.routes())
	}
	n.start(t, cmd)
	// Accepting connections: a client connects to this node alone.
	stop := time.Now().Add(deadline)
	for {
		nc, err := nats.Connect(c.urls[i], nats.Timeout(2*time.Second), nats.NoReconnect())
		if err == nil {
			nc.Close()
			return
		}
		select {
		case <-n.exited:
			t.Fatalf("node %s exited while starting: %v\n%s", n.name, cmd.ProcessState, n.log.text())
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(stop) {
			t.Fatalf("node %s does not accept connections on %s: %v\n%s", n.name, c.urls[i], err, n.log.text())
		}
	}
}

// waitReady waits until the cluster's JetStream has a meta leader and all
// three nodes are current peers: through each node in turn, a probe R3
// stream (created once there is a meta leader to place it) must answer
// with a leader and both other replicas current and online. The probe is
// deleted afterwards.
func (c *procCluster) waitReady() {
	c.t.Helper()
	probe := fmt.Sprintf("JAIPH_PROBE_%d", rand.Uint32())
	for i, n := range c.nodes {
		c.eventually("the cluster is ready through node "+n.name, func() error { return c.probe(i, probe) })
	}
	c.eventually("deleting the probe stream", func() error {
		return c.withJS(func(ctx context.Context, js jetstream.JetStream) error {
			err := js.DeleteStream(ctx, probe)
			if errors.Is(err, jetstream.ErrStreamNotFound) {
				return nil // an earlier try deleted it, its answer lost
			}
			return err
		})
	})
}

// eventually retries f every 100 ms until it returns nil, failing the
// test with its last error and the nodes' logs at the deadline.
func (c *procCluster) eventually(what string, f func() error) {
	c.t.Helper()
	stop := time.Now().Add(deadline)
	for {
		err := f()
		if err == nil {
			return
		}
		if time.Now().After(stop) {
			c.t.Fatalf("%s cluster: %s: %v\n%s", c.kind, what, err, c.logs())
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// withJS calls f with a JetStream client of the whole cluster and a
// context of a few seconds.
func (c *procCluster) withJS(f func(context.Context, jetstream.JetStream) error) error {
	nc, err := nats.Connect(c.url(), nats.Timeout(2*time.Second))
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	return f(ctx, js)
}

// probe asks node i about the probe stream, creating it if need be, and
// says why the cluster is not ready yet (nil: it is).
func (c *procCluster) probe(i int, name string) error {
	nc, err := nats.Connect(c.urls[i], nats.Timeout(2*time.Second), nats.NoReconnect())
	if err != nil {
		return err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if _, err := js.AccountInfo(ctx); err != nil {
		return fmt.Errorf("account info: %w", err)
	}
	st, err := js.Stream(ctx, name)
	if errors.Is(err, jetstream.ErrStreamNotFound) {
		st, err = js.CreateStream(ctx, jetstream.StreamConfig{Name: name, Subjects: []string{strings.ToLower(name)},
			Storage: jetstream.MemoryStorage, Replicas: 3})
	}
	if err != nil {
		return fmt.Errorf("probe stream: %w", err)
	}
	info, err := st.Info(ctx)
	if err != nil {
		return fmt.Errorf("probe stream info: %w", err)
	}
	return replicasCurrent(info)
}

// replicasCurrent says why a stream's replicas are not all there (nil:
// they are).
func replicasCurrent(info *jetstream.StreamInfo) error {
	cl := info.Cluster
	if cl == nil || cl.Leader == "" {
		return fmt.Errorf("stream %s has no leader", info.Config.Name)
	}
	if len(cl.Replicas) != info.Config.Replicas-1 {
		return fmt.Errorf("stream %s: leader %s and %d other replicas, want %d", info.Config.Name, cl.Leader, len(cl.Replicas), info.Config.Replicas-1)
	}
	for _, p := range cl.Replicas {
		if !p.Current || p.Offline {
			return fmt.Errorf("stream %s: replica %s is not current (offline %t, lag %d)", info.Config.Name, p.Name, p.Offline, p.Lag)
		}
	}
	return nil
}

// waitStreamCurrent waits until every replica of the stream is current
// (after a node's restart: it caught up).
func (c *procCluster) waitStreamCurrent(stream string) {
	c.t.Helper()
	c.eventually("stream "+stream, func() error {
		return c.withJS(func(ctx context.Context, js jetstream.JetStream) error {
			st, err := js.Stream(ctx, stream)
			if err != nil {
				return err
			}
			info, err := st.Info(ctx)
			if err != nil {
				return err
			}
			return replicasCurrent(info)
		})
	})
}

// leader is the index of the node leading the stream.
func (c *procCluster) leader(stream string) int {
	c.t.Helper()
	leader := -1
	c.eventually("the leader of stream "+stream, func() error {
		return c.withJS(func(ctx context.Context, js jetstream.JetStream) error {
			st, err := js.Stream(ctx, stream)
			if err != nil {
				return err
			}
			cl := st.CachedInfo().Cluster
			if cl == nil {
				return errors.New("no cluster information")
			}
			for i, n := range c.nodes {
				if n.name == cl.Leader {
					leader = i
					return nil
				}
			}
			return fmt.Errorf("the leader is %q", cl.Leader)
		})
	})
	return leader
}

// signal sends sig to node i's process group.
func (c *procCluster) signal(i int, sig syscall.Signal) {
	c.t.Helper()
	n := c.nodes[i]
	if n.cmd == nil {
		c.t.Fatalf("node %s is not running", n.name)
	}
	if err := syscall.Kill(-n.cmd.Process.Pid, sig); err != nil {
		c.t.Fatalf("node %s: %v: %v", n.name, sig, err)
	}
}

// waitExit waits for node i's process to end.
func (c *procCluster) waitExit(i int) {
	c.t.Helper()
	n := c.nodes[i]
	select {
	case <-n.exited:
		n.ended, n.cmd = n.cmd.ProcessState, nil
	case <-time.After(deadline):
		c.t.Fatalf("node %s did not exit\n%s", n.name, n.log.text())
	}
}

// kill9 kills node i (SIGKILL) and waits for its end.
func (c *procCluster) kill9(i int) {
	c.t.Helper()
	c.signal(i, syscall.SIGKILL)
	c.waitExit(i)
}

// term stops node i with SIGTERM, as an operator would, and waits for its end.
func (c *procCluster) term(i int) {
	c.t.Helper()
	c.signal(i, syscall.SIGTERM)
	c.waitExit(i)
}

// stop freezes node i (SIGSTOP); cont lets it go on.
func (c *procCluster) stop(i int) { c.t.Helper(); c.signal(i, syscall.SIGSTOP) }
func (c *procCluster) cont(i int) { c.t.Helper(); c.signal(i, syscall.SIGCONT) }

// restart starts node i again, after kill9 or term, with its name, ports
// and store, and waits until the cluster is ready again with it.
func (c *procCluster) restart(i int) {
	c.t.Helper()
	if c.nodes[i].cmd != nil {
		c.t.Fatalf("restart: node %s is still running (kill9 or term it first)", c.nodes[i].name)
	}
	c.start(i)
	c.waitReady()
}

// logs is every node's output, for a failure's message.
func (c *procCluster) logs() string {
	var b strings.Builder
	for _, n := range c.nodes {
		if n.log != nil {
			fmt.Fprintf(&b, "--- node %s:\n%s\n", n.name, tail(n.log.text(), 40))
		}
	}
	return b.String()
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	l := strings.Split(s, "\n")
	if len(l) > n {
		l = l[len(l)-n:]
	}
	return strings.Join(l, "\n")
}

// loopbackPorts returns n distinct free ports on 127.0.0.1 below the
// kernel's ephemeral range, so that no connection's local port (nor
// another test's port 0) takes one between now and a node's start, or
// while a killed node is down.
func loopbackPorts(t *testing.T, n int) []int {
	t.Helper()
	lo, hi := 20000, 32000
	if b, err := os.ReadFile("/proc/sys/net/ipv4/ip_local_port_range"); err == nil {
		if f := strings.Fields(string(b)); len(f) == 2 {
			if first, err := strconv.Atoi(f[0]); err == nil && first > 2048 {
				lo, hi = 1024, first
				if first > 11024 {
					lo = first - 10000
				}
			}
		}
	}
	seen := map[int]bool{}
	var ports []int
	for tries := 0; len(ports) < n; tries++ {
		if tries == 10000 {
			t.Fatalf("no %d free loopback ports in %d-%d", n, lo, hi)
		}
		p := lo + rand.IntN(hi-lo)
		if seen[p] {
			continue
		}
		seen[p] = true
		l, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
		if err != nil {
			continue
		}
		l.Close()
		ports = append(ports, p)
	}
	return ports
}

var natsServer struct {
	once sync.Once
	path string
	err  error
}

// natsServerBinary builds the real nats-server, once per test binary,
// from the nats-server module go.mod already requires (its main package
// is the module's root: the build needs no network).
func natsServerBinary(t *testing.T) string {
	t.Helper()
	natsServer.once.Do(func() {
		path := filepath.Join(filepath.Dir(jaiphFull), "nats-server")
		build := exec.Command("go", "build", "-o", path, "github.com/nats-io/nats-server/v2")
		build.Env = append(os.Environ(), "CGO_ENABLED=0")
		if out, err := build.CombinedOutput(); err != nil {
			natsServer.err = fmt.Errorf("building nats-server: %v\n%s", err, out)
			return
		}
		natsServer.path = path
	})
	if natsServer.err != nil {
		t.Fatal(natsServer.err)
	}
	return natsServer.path
}

// waitLines waits until the file at path has at least n lines.
func waitLines(t *testing.T, path string, n int, r *run) {
	t.Helper()
	stop := time.Now().Add(deadline)
	got := 0
	for {
		if b, err := os.ReadFile(path); err == nil {
			if got = strings.Count(string(b), "\n"); got >= n {
				return
			}
		}
		select {
		case <-r.done:
			t.Fatalf("the run ended (exit %d) before %s had %d lines (%d)\nstderr:\n%s", r.code, path, n, got, r.stderr.String())
		case <-time.After(20 * time.Millisecond):
		}
		if time.Now().After(stop) {
			t.Fatalf("%s has %d lines, not %d; the run's stderr:\n%s", path, got, n, r.stderr.String())
		}
	}
}

// gated is steady whose messages past the first HALF wait for a file named
// gate: a test can act in the middle of the drain, deliveries in flight.
const gated = `channel jobs

config {
  run.inbox_max_dispatch_depth = 1000000
}

workflow work {
  if [ "${1#m}" -gt HALF ]; then
    while [ ! -e gate ]; do sleep 0.05; done
  fi
  echo "done $1" >> done.txt
}

workflow default {
  i=0
  while [ "$i" -lt "$1" ]; do
    i=$((i + 1))
    jobs <- echo "m$i"
  done
  jobs -> work
}
`

// TestProcClusterJaiph: three `jaiph broker --cluster` processes, R3
// streams. In the middle of the drain (half the messages delivered, the
// rest held or queued), the node leading the work queue is killed with
// SIGKILL; the drain goes on without it, and it is restarted on its store.
// Every delivery is made, the run passes, and the restarted node catches
// up.
func TestProcClusterJaiph(t *testing.T) {
	n := sizeFromEnv("JAIPH_STRESS_BROKER_MESSAGES", 100)
	c := startProcCluster(t, "jaiph")
	dir := workspace(t, strings.Replace(gated, "HALF", strconv.Itoa(n/2), 1))
	// A work message the killed node handed out, whose claim or ack died
	// with it, is delivered again when its lease ends: a short lease
	// keeps the test short (heartbeats renew it every lease/3).
	env := []string{"JAIPH_INBOX_REPLICAS=3", "JAIPH_INBOX_LEASE=5s"}
	var workers []*worker
	for i := range 3 {
		workers = append(workers, startWorker(t, c.url(), fmt.Sprintf("w%d", i), dir, 2, env...))
	}
	r := startRun(t, c.url(), dir, "flow.jh", env, strconv.Itoa(n))
	done := filepath.Join(dir, "done.txt")
	waitLines(t, done, n/2, r)
	checkReplicas(t, c.url(), "JAIPH_WORK", 3)
	lost := c.leader("JAIPH_WORK")
	t.Logf("killing node %s, the work queue's leader", c.nodes[lost].name)
	c.kill9(lost)
	if err := os.WriteFile(filepath.Join(dir, "gate"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	waitLines(t, done, n/2+n/4, r) // the drain goes on without it
	t.Logf("restarting node %s", c.nodes[lost].name)
	c.restart(lost)
	t.Logf("node %s is back", c.nodes[lost].name)
	c.waitRun(r, workers)
	// A delivery in flight when the node went may run again; no other repeats.
	checkDelivered(t, dir, n, 3*2)
	checkReplicas(t, c.url(), "JAIPH_WORK", 3)
	c.waitStreamCurrent("JAIPH_WORK")
}

// TestProcClusterNatsServer: the same run on three real nats-server
// processes, without a fault.
func TestProcClusterNatsServer(t *testing.T) {
	n := sizeFromEnv("JAIPH_STRESS_BROKER_MESSAGES", 100)
	c := startProcCluster(t, "nats-server")
	dir := workspace(t, steady)
	var workers []*worker
	for i := range 2 {
		workers = append(workers, startWorkerWith(t, c.url(), fmt.Sprintf("w%d", i), dir, []string{"--concurrency", "2", "--replicas", "3"}, nil))
	}
	r := startRun(t, c.url(), dir, "flow.jh", []string{"JAIPH_INBOX_REPLICAS=3"}, strconv.Itoa(n))
	c.waitRun(r, workers)
	checkDelivered(t, dir, n, 0)
	checkReplicas(t, c.url(), "JAIPH_WORK", 3)
}

// TestProcClusterHarness: the harness's faults. A node stopped and
// continued, and one terminated (it exits 0, as an operator's SIGTERM
// should make it) and restarted on its store, leave a ready cluster that
// still has the stream created before.
func TestProcClusterHarness(t *testing.T) {
	c := startProcCluster(t, "jaiph")
	c.eventually("creating a stream", func() error {
		return c.withJS(func(ctx context.Context, js jetstream.JetStream) error {
			_, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: "KEPT", Subjects: []string{"kept"}, Replicas: 3})
			return err
		})
	})
	c.stop(0)
	c.cont(0)
	c.term(1)
	if !c.nodes[1].ended.Success() {
		t.Fatalf("jaiph broker after SIGTERM: %v\n%s", c.nodes[1].ended, c.nodes[1].log.text())
	}
	c.restart(1)
	c.waitStreamCurrent("KEPT")
}

// waitRun waits for the run to pass, failing with everyone's logs when it
// fails or does not end by the deadline.
func (c *procCluster) waitRun(r *run, workers []*worker) {
	c.t.Helper()
	select {
	case <-r.done:
		if r.code == 0 {
			return
		}
		c.t.Errorf("the run failed: exit %d", r.code)
	case <-time.After(deadline):
		c.t.Errorf("the run did not end within %s", deadline)
	}
	c.t.Fatalf("stdout:\n%s\nstderr:\n%s\nworkers:\n%s\nnodes:\n%s", tail(r.stdout.String(), 40), tail(r.stderr.String(), 40), workerLogs(workers), c.logs())
}

// workerLogs is what the workers logged, for a failure's message: every
// line but their claims and deliveries, and their last lines.
func workerLogs(ws []*worker) string {
	var b strings.Builder
	for i, w := range ws {
		text := w.log.text()
		var odd []string
		for _, l := range strings.Split(text, "\n") {
			if !strings.Contains(l, "claimed message") && !strings.Contains(l, "delivered message") {
				odd = append(odd, l)
			}
		}
		fmt.Fprintf(&b, "--- worker %d, besides its claims and deliveries:\n%s\n--- its last lines:\n%s\n", i, tail(strings.Join(odd, "\n"), 40), tail(text, 10))
	}
	return b.String()
}

// TestBrokerClusterFlags: jaiph broker's cluster flags. A mistake is one
// line and exit 2; a clustered broker's startup line names its route
// address and it stops on SIGTERM.
func TestBrokerClusterFlags(t *testing.T) {
	store := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--routes", "nats://127.0.0.1:6222"}, "--routes needs --cluster HOST:PORT"},
		{[]string{"--cluster-name", "x"}, "--cluster-name needs --cluster HOST:PORT"},
		{[]string{"--cluster", "127.0.0.1"}, `--cluster "127.0.0.1": want HOST:PORT`},
		{[]string{"--cluster", "127.0.0.1:70000"}, `--cluster "127.0.0.1:70000": the port must be a number from 0 to 65535`},
		{[]string{"--cluster", "127.0.0.1:0", "--routes", "nats://a b:1"}, `--routes "nats://a b:1": not a URL`},
		{[]string{"--cluster", "127.0.0.1:0", "--routes", "http://127.0.0.1:6222"}, "the scheme must be nats"},
		{[]string{"--cluster", "127.0.0.1:0", "--routes", "nats://127.0.0.1"}, "the port must be a number from 1 to 65535"},
		{[]string{"--cluster", "127.0.0.1:0", "--routes", "nats://127.0.0.1:x"}, `--routes "nats://127.0.0.1:x"`},
		{[]string{"--name", "a b"}, `--name "a b": a server name is letters, digits`},
		{[]string{"--cluster", "127.0.0.1:0", "--routes", "nats://127.0.0.1:6222", "--cluster-name", "a*"}, `--cluster-name "a*"`},
		{[]string{"--cluster", "127.0.0.1:0"}, "--cluster needs --routes"},
	} {
		cmd := exec.Command(jaiphFull, append([]string{"broker", "--listen", "127.0.0.1:0", "--store", store}, tc.args...)...)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 {
			t.Fatalf("jaiph broker %s: %v, want exit 2\n%s", strings.Join(tc.args, " "), err, out)
		}
		if text := strings.TrimSpace(string(out)); strings.Count(text, "\n") != 0 || !strings.HasPrefix(text, "jaiph: ") || !strings.Contains(text, tc.want) {
			t.Fatalf("jaiph broker %s printed:\n%s\nwant one line with %q", strings.Join(tc.args, " "), out, tc.want)
		}
	}
	// A seed node: its own route is its only one.
	port := loopbackPorts(t, 1)[0]
	cmd := exec.Command(jaiphFull, "broker", "--name", "solo", "--listen", "127.0.0.1:0", "--store", store,
		"--cluster", fmt.Sprintf("127.0.0.1:%d", port), "--routes", fmt.Sprintf("nats://127.0.0.1:%d", port))
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	log := newLogWatcher()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error)
	go func() { log.read(bufio.NewScanner(stdout)); exited <- cmd.Wait() }()
	t.Cleanup(func() {
		if syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) == nil {
			<-exited
		}
	})
	line := log.wait(t, "jaiph broker: listening on")
	if !regexp.MustCompile(`listening on nats://127\.0\.0\.1:\d+, routes on nats://127\.0\.0\.1:` + strconv.Itoa(port) + ` \(node solo of cluster jaiph, store `).MatchString(line) {
		t.Fatalf("startup line: %s", line)
	}
	_ = cmd.Process.Signal(syscall.SIGTERM)
	select {
	case err := <-exited:
		if err != nil {
			t.Fatalf("jaiph broker after SIGTERM: %v", err)
		}
	case <-time.After(deadline):
		t.Fatal("jaiph broker did not stop on SIGTERM")
	}
}

// TestBrokerInUse: a jaiph broker whose address is taken, or whose store
// another live broker holds, refuses with one line naming the address, or
// the store and the process holding it (exit 1); the store's lock dies
// with its holder, so after a kill -9 a new broker starts on the store.
func TestBrokerInUse(t *testing.T) {
	store := t.TempDir()
	port := loopbackPorts(t, 1)[0]
	addr := fmt.Sprintf("127.0.0.1:%d", port)
	start := func() (*exec.Cmd, *logWatcher, chan error) {
		cmd := exec.Command(jaiphFull, "broker", "--listen", addr, "--store", store)
		cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		log := newLogWatcher()
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan error, 1)
		go func() { log.read(bufio.NewScanner(stdout)); exited <- cmd.Wait() }()
		t.Cleanup(func() { _ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
		log.wait(t, "jaiph broker: listening on")
		return cmd, log, exited
	}
	refused := func(want string, args ...string) {
		t.Helper()
		out, err := exec.Command(jaiphFull, append([]string{"broker"}, args...)...).CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 1 {
			t.Fatalf("jaiph broker %s: %v, want exit 1\n%s", strings.Join(args, " "), err, out)
		}
		if text := strings.TrimSpace(string(out)); strings.Count(text, "\n") != 0 || !strings.Contains(text, want) {
			t.Fatalf("jaiph broker %s printed:\n%s\nwant one line with %q", strings.Join(args, " "), out, want)
		}
	}
	first, _, exited := start()
	refused("jaiph: --listen "+addr+": cannot listen: bind: address already in use", "--listen", addr, "--store", t.TempDir())
	refused(fmt.Sprintf("jaiph: --store %s is in use by another jaiph broker (pid %d, listening on nats://%s;", store, first.Process.Pid, addr),
		"--listen", "127.0.0.1:0", "--store", store)
	_ = syscall.Kill(-first.Process.Pid, syscall.SIGKILL)
	<-exited
	again, _, exited := start()
	_ = again.Process.Signal(syscall.SIGTERM)
	if err := <-exited; err != nil {
		t.Fatalf("jaiph broker after SIGTERM: %v", err)
	}
}
