package serve

// This file answers: how does `jaiph serve` start, and how does it stop?

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"path/filepath"
	goruntime "runtime"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jaiph-go/jaiph/internal/engine"
	"github.com/jaiph-go/jaiph/internal/redact"
	"github.com/jaiph-go/jaiph/internal/served"
	"github.com/jaiph-go/jaiph/internal/store/chain"
	"github.com/jaiph-go/jaiph/internal/store/runs"
	"github.com/jaiph-go/jaiph/internal/tools/mcpserver"
	"github.com/jaiph-go/jaiph/internal/tools/report"
	"github.com/jaiph-go/jaiph/internal/tools/serve/auth"
	"github.com/jaiph-go/jaiph/internal/tools/serve/inlets"
	"github.com/jaiph-go/jaiph/parser"
)

// DefaultPort is the port jaiph serve listens on without --port.
const DefaultPort = 5247

// Config is what `jaiph serve` is started with.
type Config struct {
	Host           string
	Port           int
	AllowAnonymous bool
	Paths          []string // FILE or DIR arguments; none: the workspace's (mcpserver.DefaultFiles)
	Dir            string   // the working directory
	Environ        []string // the server's environment
	Home           string
	Log            io.Writer // the request and audit log, start-up messages
	UI             fs.FS     // the run viewer's pages (report/ui), nil: none
	// Inbox, when set, keeps the runs on the broker at that URL (any
	// number of replicas serve the same runs; workers run them), with
	// Replicas for its buckets and streams; Execute makes this process a
	// worker too.
	Inbox    string
	Replicas int
	Execute  bool
	// Inlets is the file of webhooks and schedules (--inlets), "" none;
	// Clock, when set, is the schedules' time (tests).
	Inlets string
	Clock  inlets.Clock
	// Ready, when set, learns the address the server listens on.
	Ready func(addr string)
	// Backend, when set, keeps the runs (a broker: NewBackend receives
	// the served workflows); nil runs them in this process.
	NewBackend func(ctx context.Context, workflows []served.Workflow, environ []string) (served.Backend, error)
}

// Serve starts the service and answers until ctx ends (SIGINT, SIGTERM as
// runtime.NotifyInterrupt's context: the runs in progress are interrupted
// with that signal, and Serve returns once they ended).
func Serve(ctx context.Context, c Config) error {
	getenv := envLookup(c.Environ)
	files, strict, err := servedFiles(c)
	if err != nil {
		return err
	}
	tools, err := mcpserver.Tools(files, strict, func(err error) { fmt.Fprintf(c.Log, "jaiph serve: skipped: %v\n", err) })
	if err != nil {
		return err
	}
	authn, err := auth.FromEnv(ctx, getenv, nil)
	if err != nil {
		return err
	}
	if err := auth.CheckBind(authn.Mode(), c.AllowAnonymous, c.Host); err != nil {
		return err
	}
	limits, err := readLimits(getenv)
	if err != nil {
		return err
	}
	ws := runs.WorkspaceRoot(c.Dir)
	state := getenv("JAIPH_SERVE_STATE_DIR")
	if state == "" {
		state = filepath.Join(ws, ".jaiph", "serve")
	}
	keys, _ := chain.StoreDir(getenv)
	red := redact.FromEnv(c.Environ)
	s := &Server{workflows: map[string]workflow{}, auth: authn, maxArtifact: limits.maxArtifact, log: c.Log}
	for _, t := range tools {
		s.workflows[t.Name] = newWorkflow(t)
		s.names = append(s.names, t.Name)
	}
	if c.Execute && c.Inbox == "" {
		return errors.New("--execute needs --inbox URL: without a broker this process runs every run already")
	}
	if c.Inbox != "" {
		if err := engine.CheckInboxURL("--inbox", c.Inbox); err != nil {
			return err
		}
	}
	var hidden []string // variables no run may see
	inl := &inlets.Config{}
	if c.Inlets != "" {
		if inl, err = loadInlets(c, getenv, s.workflows); err != nil {
			return err
		}
		hidden = inl.Variables()
	}
	s.useInlets(inl)
	if c.Inbox != "" && c.NewBackend == nil {
		f := served.Broker()
		if f == nil {
			return errors.New("--inbox needs the build with the broker (jaiph-full)")
		}
		c.NewBackend = func(ctx context.Context, ws []served.Workflow, environ []string) (served.Backend, error) {
			return f(ctx, served.BrokerOptions{URL: c.Inbox, Replicas: c.Replicas, Execute: c.Execute, Environ: environ, Dir: c.Dir,
				Log: c.Log, Lease: limits.lease}, ws)
		}
	}
	if c.NewBackend != nil {
		var ws []served.Workflow
		for _, t := range tools {
			ws = append(ws, served.Workflow{Name: t.Name, Workflow: t.Workflow, File: t.File})
		}
		if s.backend, err = c.NewBackend(ctx, ws, runEnviron(c.Environ, hidden)); err != nil {
			return err
		}
	} else {
		l := &local{runs: newRegistry(state, limits.retain), workflows: s.workflows, maxActive: limits.maxActive, lane: newLane(limits.lanes),
			exec: &executor{environ: runEnviron(c.Environ, hidden), home: c.Home, stderr: c.Log, keys: keys, red: red}}
		if err := l.runs.load(); err != nil {
			return fmt.Errorf("cannot read the run records in %s: %w (JAIPH_SERVE_STATE_DIR names another directory)", state, err)
		}
		go l.interruptAll(ctx)
		s.backend = l
	}
	viewCtx, stopViewer := context.WithCancel(context.WithoutCancel(ctx))
	defer stopViewer()
	if c.UI != nil {
		root := runs.Root(ws, getenv("JAIPH_RUNS_DIR"))
		v := report.Handler(report.Options{Root: root, UI: c.UI, PollMS: 1000, ScanEvery: 2 * time.Second, Warm: true,
			Redact: red, Keys: &chain.Store{Dir: keys}})
		// The viewer polls the runs directory once it is used: a service
		// nobody looks at through a browser pays nothing for it.
		var once sync.Once
		s.viewer = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			once.Do(func() { go v.Run(viewCtx, time.Second) })
			v.ServeHTTP(w, r)
		})
	}
	s.routes()
	ln, err := net.Listen("tcp", net.JoinHostPort(c.Host, strconv.Itoa(c.Port)))
	if errors.Is(err, syscall.EADDRINUSE) {
		s.backend.Close(context.Background())
		return fmt.Errorf("%s:%d is in use (another jaiph serve?); choose another port with --port, or --port 0 for any free one", c.Host, c.Port)
	}
	if err != nil {
		s.backend.Close(context.Background())
		return err
	}
	base := "http://" + ln.Addr().String()
	if authn.Mode() == auth.ModeNone {
		fmt.Fprintf(c.Log, "jaiph serve: WARNING: no authentication (--allow-anonymous): every local user and process can run the workflows and read every run\n")
	}
	fmt.Fprintf(c.Log, "jaiph serve: listening on %s (%d workflow(s), auth: %s) — API %s/openapi.json, MCP %s/mcp, workflows %s/workflows\n",
		base, len(s.names), authn.Mode(), base, base, base)
	if len(s.names) == 0 {
		fmt.Fprintln(c.Log, "jaiph serve: no exported workflows: nothing to offer (declare them with export workflow)")
	}
	if c.Ready != nil {
		c.Ready(ln.Addr().String())
	}
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second,
		BaseContext: func(net.Listener) context.Context { return viewCtx }}
	schedCtx, stopSchedules := context.WithCancel(ctx)
	schedulesDone := s.startSchedules(schedCtx, inl, c.Clock)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		stopSchedules()
		schedulesDone()
		return err
	case <-ctx.Done():
	}
	// No tick starts a run once the service stops.
	stopSchedules()
	schedulesDone()
	// The runs of this process were interrupted with ctx's signal: let
	// them end and record it, then close the connections.
	closing, stopClosing := context.WithTimeout(context.Background(), 30*time.Second)
	s.backend.Close(closing)
	stopClosing()
	sctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	stopViewer() // ends SSE streams and waits
	srv.Shutdown(sctx)
	return nil
}

// servedFiles are the .jh files named (a directory stands for its .jh
// files, test files left out), else the workspace's; strict: named.
func servedFiles(c Config) ([]string, bool, error) {
	if len(c.Paths) == 0 {
		files := mcpserver.DefaultFiles(c.Dir)
		if len(files) == 0 {
			return nil, false, errors.New("no .jh files in the workspace's .jaiph/ or root: name the files to serve")
		}
		return files, false, nil
	}
	var files []string
	for _, p := range c.Paths {
		if !filepath.IsAbs(p) {
			p = filepath.Join(c.Dir, p)
		}
		fi, err := os.Stat(p)
		if err != nil {
			return nil, true, fmt.Errorf("no such file or directory: %s", p)
		}
		if !fi.IsDir() {
			files = append(files, p)
			continue
		}
		matches, _ := filepath.Glob(filepath.Join(p, "*.jh"))
		sort.Strings(matches)
		for _, m := range matches {
			if !parser.IsTestFile(m) {
				files = append(files, m)
			}
		}
	}
	return files, true, nil
}

// limits are the service's bounds, from the environment.
type limits struct {
	maxActive   int
	lanes       int // JAIPH_SERVE_LANES: runs that start executing at once (0: no lane)
	maxArtifact int64
	retain      int
	lease       time.Duration // JAIPH_SERVE_LEASE (on a broker)
}

func readLimits(getenv func(string) string) (limits, error) {
	l := limits{maxActive: 4, retain: 1000, lanes: goruntime.GOMAXPROCS(0)}
	if v := getenv("JAIPH_SERVE_LEASE"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d < 100*time.Millisecond {
			return l, fmt.Errorf("JAIPH_SERVE_LEASE=%q: want a duration of at least 100ms (e.g. 30s)", v)
		}
		l.lease = d
	}
	for _, v := range []struct {
		name string
		dst  *int64
		min  int64
	}{
		{"JAIPH_SERVE_MAX_CONCURRENT", new(int64), 0},
		{"JAIPH_SERVE_MAX_ARTIFACT_BYTES", &l.maxArtifact, 0},
		{"JAIPH_SERVE_RETAIN_RUNS", new(int64), 1},
		{"JAIPH_SERVE_LANES", new(int64), 0},
	} {
		s := getenv(v.name)
		if s == "" {
			continue
		}
		n, err := strconv.ParseInt(s, 10, 64)
		if err != nil || n < v.min {
			return l, fmt.Errorf("%s=%q: want a whole number ≥ %d", v.name, s, v.min)
		}
		*v.dst = n
		switch v.name {
		case "JAIPH_SERVE_MAX_CONCURRENT":
			l.maxActive = int(n)
		case "JAIPH_SERVE_RETAIN_RUNS":
			l.retain = int(n)
		case "JAIPH_SERVE_LANES":
			l.lanes = int(n)
		}
	}
	return l, nil
}

// runEnviron is the runs' environment: the server's without its own
// settings and credentials (JAIPH_SERVE_*) and the variables hidden (the
// inlets' secrets), which no workflow may read.
func runEnviron(environ, hidden []string) []string {
	out := make([]string, 0, len(environ))
	for _, kv := range environ {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "JAIPH_SERVE_") || isAuthVariable(k) || slices.Contains(hidden, k) {
			continue
		}
		out = append(out, kv)
	}
	return out
}

func isAuthVariable(k string) bool {
	for _, v := range auth.Variables {
		if k == v {
			return true
		}
	}
	return false
}

// envLookup is getenv over environ (the last value wins).
func envLookup(environ []string) func(string) string {
	return func(key string) string {
		for i := len(environ) - 1; i >= 0; i-- {
			if k, v, ok := strings.Cut(environ[i], "="); ok && k == key {
				return v
			}
		}
		return ""
	}
}
