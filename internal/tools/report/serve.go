package report

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/jaiph-go/jaiph/internal/redact"
	"github.com/jaiph-go/jaiph/internal/store/chain"
	"github.com/jaiph-go/jaiph/internal/store/runs"
	rt "github.com/jaiph-go/jaiph/runtime"
)

// Run does the first full pass over the runs (a Warm server answers the
// first page from its index meanwhile), then polls every interval until ctx
// ends.
func (s *Server) Run(ctx context.Context, every time.Duration) {
	if s.reg.warming.Load() {
		s.reg.index()
	}
	s.tick()
	s.reg.warming.Store(false)
	s.Poll(ctx, every)
}

// Poll refreshes the registry every interval until ctx ends, sending each
// change to the /api/events subscribers.
func (s *Server) Poll(ctx context.Context, every time.Duration) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
			s.tick()
		}
	}
}

// tick is one poll: refresh, then tell the subscribers which runs changed
// since the last tick (a request's refresh may have read the change first)
// and which went away.
func (s *Server) tick() {
	s.reg.refresh(time.Now(), false)
	now := s.reg.versions()
	s.mu.Lock()
	defer s.mu.Unlock()
	var changed, removed []string
	for rel, v := range now {
		if old, ok := s.sent[rel]; !ok || old != v {
			changed = append(changed, rel)
		}
	}
	for rel := range s.sent {
		if _, ok := now[rel]; !ok {
			removed = append(removed, rel)
		}
	}
	s.sent = now
	if len(changed)+len(removed) == 0 {
		return
	}
	sort.Strings(changed)
	sort.Strings(removed)
	data, _ := json.Marshal(map[string][]string{"changed": nonNil(changed), "removed": nonNil(removed)})
	msg := []byte("event: runs\ndata: " + string(data) + "\n\n")
	for c := range s.subs {
		select {
		case c <- msg:
		default: // a slow client misses this one; the next names its runs again if they change
		}
	}
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

// events streams the changes Poll finds as Server-Sent Events.
func (s *Server) events(w http.ResponseWriter, r *http.Request) {
	fl, ok := w.(http.Flusher)
	if !ok {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": "no_streaming"})
		return
	}
	c := make(chan []byte, 16)
	s.mu.Lock()
	s.subs[c] = true
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		delete(s.subs, c)
		s.mu.Unlock()
	}()
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	io.WriteString(w, ": ok\n\n")
	fl.Flush()
	ping := time.NewTicker(15 * time.Second)
	defer ping.Stop()
	for {
		select {
		case <-r.Context().Done():
			return
		case msg := <-c:
			w.Write(msg)
		case <-ping.C:
			io.WriteString(w, ": ping\n\n")
		}
		fl.Flush()
	}
}

// Config is `jaiph report`'s command line.
type Config struct {
	Host      string
	Port      int
	Root      string // the runs root; "" is Workspace's (runs.Root, JAIPH_RUNS_DIR)
	Workspace string
	PollMS    int
	Open      bool // open the URL in a browser
	UI        fs.FS
	Out       io.Writer // where the URL is printed
}

// Flags declares the command's flags on fs, with their defaults. A port
// or poll interval out of range is refused while parsing (a usage error).
func (c *Config) Flags(fs *pflag.FlagSet) {
	c.Host, c.Port, c.PollMS = "127.0.0.1", 8787, 1000
	fs.StringVar(&c.Host, "host", c.Host, "address to bind")
	fs.Var(&ranged{&c.Port, 0, 65535}, "port", "port to listen on, 0 for any free one")
	fs.StringVar(&c.Root, "runs-dir", "", "runs directory (default: the workspace's, as jaiph runs finds it)")
	fs.Var(&ranged{&c.PollMS, 50, 1 << 30}, "poll-ms", "how often to look for changes, in milliseconds, at least 50")
	fs.BoolVar(&c.Open, "open", false, "open the URL in a browser (xdg-open, open)")
}

// ranged is an int flag with bounds.
type ranged struct {
	p        *int
	min, max int
}

func (r *ranged) String() string {
	if r.p == nil {
		return ""
	}
	return strconv.Itoa(*r.p)
}

func (r *ranged) Set(s string) error {
	n, err := strconv.Atoi(s)
	if err != nil || n < r.min || n > r.max {
		return fmt.Errorf("want a whole number from %d to %d", r.min, r.max)
	}
	*r.p = n
	return nil
}

func (r *ranged) Type() string { return "int" }

// Serve serves c.Root until ctx ends (Ctrl-C), then shuts down: requests
// in flight get a second to finish, event streams are closed.
func Serve(ctx context.Context, c Config) error {
	if c.Root != "" {
		// A runs dir named on the command line must be there: a typo would
		// otherwise serve an empty list that looks like "no runs yet". The
		// workspace's own may not exist until its first run.
		if fi, err := os.Stat(c.Root); err != nil || !fi.IsDir() {
			return fmt.Errorf("--runs-dir %s: not a directory; name the runs directory (.jaiph/runs of a workspace, or JAIPH_RUNS_DIR of its runs)", c.Root)
		}
	} else {
		c.Root = runs.Root(c.Workspace, os.Getenv("JAIPH_RUNS_DIR"))
	}
	if abs, err := filepath.Abs(c.Root); err == nil {
		c.Root = abs
	}
	ln, err := net.Listen("tcp", net.JoinHostPort(c.Host, strconv.Itoa(c.Port)))
	if errors.Is(err, syscall.EADDRINUSE) {
		return fmt.Errorf("%s:%d is in use (another jaiph report?); choose another port with --port, or --port 0 for any free one", c.Host, c.Port)
	}
	if err != nil {
		return err
	}
	every := time.Duration(c.PollMS) * time.Millisecond
	keys, _ := chain.StoreDir(os.Getenv)
	h := Handler(Options{Root: c.Root, UI: c.UI, PollMS: c.PollMS, ScanEvery: max(every, 2*time.Second), Warm: true,
		Redact: redact.FromEnv(os.Environ()), Keys: &chain.Store{Dir: keys}})
	srv := &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, BaseContext: func(net.Listener) context.Context { return ctx }}
	url := "http://" + ln.Addr().String() + "/"
	fmt.Fprintf(c.Out, "jaiph report: %s (runs: %s)\n", url, c.Root)
	if c.Open {
		openBrowser(url)
	}
	// The warm-up starts with the server: 5,000 runs take a second or two
	// to read in full, the first page a few milliseconds.
	go h.Run(ctx, every)
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil && !errors.Is(err, context.DeadlineExceeded) {
		return err
	}
	return nil
}

// openBrowser starts the desktop's opener on url, if there is one; a
// failure is ignored (the URL is printed anyway).
func openBrowser(url string) {
	name := "xdg-open"
	if runtime.GOOS == "darwin" {
		name = "open"
	}
	if p, err := exec.LookPath(name); err == nil {
		cmd := exec.Command(p, url)
		if cmd.Start() == nil {
			go cmd.Wait()
		}
	}
}

// Help is `jaiph report`'s help text.
const Help = `Serve a read-only web view and JSON API (internal/tools/report/doc.go) over the workspace's runs
(.jaiph/runs, JAIPH_RUNS_DIR, or --runs-dir), following live runs as they write.
Prints the URL; Ctrl-C stops it (exit 0). Binds 127.0.0.1 unless --host says otherwise.
With --otlp it serves nothing: it sends the trace of the run at RUN_DIR to the OTLP/HTTP
endpoint OTEL_EXPORTER_OTLP_ENDPOINT (or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) and exits.
The trace carries the run's jaiph verify verdict as jaiph.integrity; a tampered run is
refused unless --force.`

// Main is `jaiph report`: with otlpDir, the export of that run's trace
// (force: although its summary does not verify); else the server, until
// SIGINT or SIGTERM.
func Main(c Config, otlpDir string, force bool) error {
	ctx, stop := rt.NotifyInterrupt()
	defer stop()
	if otlpDir != "" {
		return ExportRun(ctx, otlpDir, os.Environ(), force)
	}
	return Serve(ctx, c)
}
