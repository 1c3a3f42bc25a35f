package broker

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// ServerOptions configure an embedded JetStream server.
type ServerOptions struct {
	Listen   string // HOST:PORT; port 0 picks a free one
	StoreDir string // where streams are kept (a restart on it loses nothing acknowledged)
	// SyncAlways fsyncs every write (JAIPH_INBOX_FSYNC=true).
	SyncAlways bool

	// Name is the server's name, unique in a cluster and the same across
	// restarts of a node (JetStream knows its peers by it); "" is
	// DefaultServerName's.
	Name string
	// Cluster is the HOST:PORT the server accepts routes from other nodes
	// on (port 0 picks a free one); "" serves a single node.
	Cluster string
	// Routes are the seed routes (nats://HOST:PORT) to the other nodes'
	// Cluster addresses; the node's own may be among them.
	Routes []string
	// ClusterName names the cluster; "" is "jaiph". Every node of a
	// cluster has the same.
	ClusterName string
}

// OptionError is a ServerOptions value Serve cannot take (the caller's
// mistake, not the server's).
type OptionError struct{ Msg string }

func (e *OptionError) Error() string { return e.Msg }

func optionErr(format string, a ...any) error { return &OptionError{fmt.Sprintf(format, a...)} }

// validName is a server or cluster name: NATS refuses spaces, and subjects
// and peer lists get along with these characters only.
var validName = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

// DefaultServerName is a node's name without --name: the host's name and
// the client port (jaiph-host-4222); with port 0, the process id takes the
// port's place (a name that does not survive a restart: give --name).
func DefaultServerName(port int) string {
	host, _ := os.Hostname()
	host = regexp.MustCompile(`[^A-Za-z0-9_-]+`).ReplaceAllString(strings.SplitN(host, ".", 2)[0], "-")
	host = strings.Trim(host, "-")
	if host == "" {
		host = "jaiph"
	}
	if port == 0 {
		return host + "-pid" + strconv.Itoa(os.Getpid())
	}
	return host + "-" + strconv.Itoa(port)
}

// hostPort parses flag's HOST:PORT; example is a good value.
func hostPort(flag, addr, example string) (string, int, error) {
	host, portText, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, optionErr("%s %q: want HOST:PORT (for example %s)", flag, addr, example)
	}
	port, err := strconv.Atoi(portText)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, optionErr("%s %q: the port must be a number from 0 to 65535", flag, addr)
	}
	return host, port, nil
}

// parseRoute checks one seed route: nats://HOST:PORT (nats-route:// as
// NATS takes it too).
func parseRoute(r string) (*url.URL, error) {
	bad := func(why string) error {
		return optionErr("--routes %q: %s; want nats://HOST:PORT (another node's --cluster address)", r, why)
	}
	u, err := url.Parse(strings.TrimSpace(r))
	if err != nil {
		return nil, bad("not a URL")
	}
	if u.Scheme != "nats" && u.Scheme != "nats-route" {
		return nil, bad("the scheme must be nats")
	}
	if u.Hostname() == "" {
		return nil, bad("no host")
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil || port < 1 || port > 65535 {
		return nil, bad("the port must be a number from 1 to 65535")
	}
	if (u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return nil, bad("a route has no path or query")
	}
	return u, nil
}

// natsOptions turns o into the server's options.
func (o ServerOptions) natsOptions() (*server.Options, error) {
	host, port, err := hostPort("--listen", o.Listen, "127.0.0.1:4222")
	if err != nil {
		return nil, err
	}
	if o.StoreDir == "" {
		return nil, optionErr("a store directory is needed (--store DIR)")
	}
	name := o.Name
	if name == "" {
		name = DefaultServerName(port)
	}
	if !validName.MatchString(name) {
		return nil, optionErr("--name %q: a server name is letters, digits, '-', '_' and '.'", name)
	}
	if port == 0 {
		port = server.RANDOM_PORT
	}
	opts := &server.Options{ServerName: name, Host: host, Port: port,
		JetStream: true, StoreDir: o.StoreDir, SyncAlways: o.SyncAlways, NoLog: true, NoSigs: true,
		MaxPayload: 8 << 20}
	if o.Cluster == "" {
		if len(o.Routes) > 0 {
			return nil, optionErr("--routes needs --cluster HOST:PORT (the address this node takes routes on)")
		}
		return opts, nil
	}
	chost, cport, err := hostPort("--cluster", o.Cluster, "127.0.0.1:6222")
	if err != nil {
		return nil, err
	}
	if cport == 0 {
		cport = server.RANDOM_PORT
	}
	cname := o.ClusterName
	if cname == "" {
		cname = "jaiph"
	}
	if !validName.MatchString(cname) {
		return nil, optionErr("--cluster-name %q: a cluster name is letters, digits, '-', '_' and '.'", cname)
	}
	opts.Cluster = server.ClusterOpts{Name: cname, Host: chost, Port: cport}
	for _, r := range o.Routes {
		if strings.TrimSpace(r) == "" {
			continue
		}
		u, err := parseRoute(r)
		if err != nil {
			return nil, err
		}
		opts.Routes = append(opts.Routes, u)
	}
	if len(opts.Routes) == 0 {
		// JetStream refuses a cluster without them.
		return nil, optionErr("--cluster needs --routes URL[,URL...] (the nodes' --cluster addresses, nats://HOST:PORT; this node's own may be among them)")
	}
	return opts, nil
}

// Serve starts a JetStream server, a single node or, with o.Cluster, a
// node of a cluster, and returns once it accepts connections (a cluster
// node may not have found its peers yet). Shut it down with Shutdown and
// WaitForShutdown. A mistake in o is an *OptionError.
func Serve(o ServerOptions) (*server.Server, error) {
	opts, err := o.natsOptions()
	if err != nil {
		return nil, err
	}
	// The server keeps a listener's error to itself (without a log):
	// say which address is taken rather than time out.
	if err := canListen("--listen", opts.Host, opts.Port); err != nil {
		return nil, err
	}
	if o.Cluster != "" {
		if err := canListen("--cluster", opts.Cluster.Host, opts.Cluster.Port); err != nil {
			return nil, err
		}
	}
	s, err := server.NewServer(opts)
	if err != nil {
		return nil, err
	}
	// While it starts, a logger keeps why it cannot (Start returns early,
	// having said so, when JetStream cannot start); then none, as NoLog.
	l := &startLog{}
	s.SetLogger(l, false, false)
	s.Start()
	defer s.SetLogger(nil, false, false)
	if why := l.why(); why != "" {
		s.Shutdown()
		return nil, fmt.Errorf("the broker cannot start: %s", why)
	}
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		if why := l.why(); why != "" {
			return nil, fmt.Errorf("the broker cannot start: %s", why)
		}
		what := o.Listen
		if o.Cluster != "" {
			what += " (clients) and " + o.Cluster + " (routes)"
		}
		return nil, fmt.Errorf("the broker did not start listening on %s within 10s", what)
	}
	return s, nil
}

// startLog is the server's logger while it starts: it keeps the first
// fatal error (the server does not exit on one) and drops the rest.
type startLog struct {
	mu    sync.Mutex
	fatal string
}

func (l *startLog) why() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.fatal
}

func (l *startLog) Fatalf(format string, v ...any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.fatal == "" {
		l.fatal = fmt.Sprintf(format, v...)
	}
}

func (l *startLog) Noticef(string, ...any) {}
func (l *startLog) Warnf(string, ...any)   {}
func (l *startLog) Errorf(string, ...any)  {}
func (l *startLog) Debugf(string, ...any)  {}
func (l *startLog) Tracef(string, ...any)  {}

// canListen tells why the server could not listen on host:port (a
// random port always can).
func canListen(flag, host string, port int) error {
	if port == server.RANDOM_PORT {
		return nil
	}
	l, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		var op *net.OpError
		if errors.As(err, &op) && op.Err != nil {
			err = op.Err
		}
		return fmt.Errorf("%s %s: cannot listen: %v", flag, net.JoinHostPort(host, strconv.Itoa(port)), err)
	}
	return l.Close()
}

// ClusterURL is the address a clustered server takes routes on, as other
// nodes' --routes name it ("" for a single node).
func ClusterURL(s *server.Server) string {
	a := s.ClusterAddr()
	if a == nil {
		return ""
	}
	return "nats://" + net.JoinHostPort(a.IP.String(), strconv.Itoa(a.Port))
}
