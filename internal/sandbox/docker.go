package sandbox

// Docker through its CLI. The Engine API's Go client
// (github.com/docker/docker/client) would bring a large dependency tree
// into a binary that must stay small and static, for a handful of calls
// (info, image inspect, pull, build, run, kill, rm) the CLI makes as well,
// with the user's own contexts, DOCKER_HOST and credentials honoured.

import (
	"bytes"
	"context"
	"crypto/rand"
	"debug/elf"
	"encoding/csv"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/jaiph-go/jaiph/internal/store/runs"
)

// ErrNotFound is the reference's error when Docker is enabled but `docker
// info` fails.
var ErrNotFound = errors.New("E_DOCKER_NOT_FOUND docker is not available. Install Docker and ensure the daemon is running.")

// Labels every sandbox container carries (docs/sandbox.md).
const (
	LabelSandbox = "jaiph.sandbox"
	LabelHostPID = "jaiph.host-pid"
)

// Resource limits of the container (docs/sandbox.md).
const (
	pidsLimit = "4096"
	memory    = "4g"
	tmpfsSize = "1g"
	// stopGrace is how long a stopped container may take to end its run
	// before it is removed by force.
	stopGrace = 10 * time.Second
)

// Docker is a Box that runs jobs in Docker containers.
type Docker struct {
	cli       string
	cfg       Config
	image     string
	binary    string
	workspace string
	uid, gid  int
	environ   []string // the docker CLI's environment
}

// OpenDocker checks that Docker works (E_DOCKER_NOT_FOUND), that the
// binary to mount can run in a Linux container, and that the image is
// there (building .jaiph/Dockerfile or pulling it when not). Nothing of
// the workflow runs. Progress messages (pulling, building) go to stderr.
func OpenDocker(ctx context.Context, cfg Config, workspace string, environ []string, stderr io.Writer) (*Docker, error) {
	cli := lookPath("docker", envOf(environ)["PATH"])
	if cli == "" {
		return nil, ErrNotFound
	}
	d := &Docker{cli: cli, cfg: cfg, workspace: workspace, environ: environ}
	if _, err := d.docker(ctx, 10*time.Second, "info", "--format", "{{.ServerVersion}}"); err != nil {
		return nil, ErrNotFound
	}
	var err error
	if d.binary, err = binary(cfg.Binary); err != nil {
		return nil, err
	}
	st, err := os.Stat(workspace)
	if err != nil {
		return nil, err
	}
	if sys, ok := st.Sys().(*syscall.Stat_t); ok {
		d.uid, d.gid = int(sys.Uid), int(sys.Gid)
	}
	if d.image, err = d.prepareImage(ctx, stderr); err != nil {
		return nil, err
	}
	return d, nil
}

// binary is the jaiph to mount: path, or this executable; it must be a
// static Linux executable, since the image may have no libc.
func binary(path string) (string, error) {
	src := "JAIPH_DOCKER_BINARY"
	if path == "" {
		exe, err := os.Executable()
		if err != nil {
			return "", err
		}
		path, src = exe, "this jaiph"
	}
	path, err := filepath.EvalSymlinks(path)
	if err != nil {
		return "", fmt.Errorf("E_DOCKER_BINARY %s: %v", src, err)
	}
	f, err := elf.Open(path)
	if err != nil {
		return "", fmt.Errorf("E_DOCKER_BINARY %s (%s) is not a Linux executable, so it cannot run in the container; "+
			"set JAIPH_DOCKER_BINARY to a jaiph built for linux (make release)", src, path)
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return "", fmt.Errorf("E_DOCKER_BINARY %s (%s) is dynamically linked, so it cannot run in an image without its libraries; "+
				"set JAIPH_DOCKER_BINARY to a static jaiph (CGO_ENABLED=0, as make build does)", src, path)
		}
	}
	return path, nil
}

// prepareImage returns the image to run: the configured one, else
// .jaiph/Dockerfile built as BuiltImage, else DefaultImage; pulled when
// it is not present.
func (d *Docker) prepareImage(ctx context.Context, stderr io.Writer) (string, error) {
	image := d.cfg.Image
	if image == "" {
		dockerfile := filepath.Join(d.workspace, ".jaiph", "Dockerfile")
		if _, err := os.Stat(dockerfile); err == nil {
			fmt.Fprintf(stderr, "jaiph: building %s from .jaiph/Dockerfile\n", BuiltImage)
			if _, err := d.docker(ctx, 0, "build", "-q", "--force-rm", "-t", BuiltImage, "-f", dockerfile, filepath.Dir(dockerfile)); err != nil {
				return "", fmt.Errorf("E_DOCKER_BUILD failed to build .jaiph/Dockerfile: %s", reason(err))
			}
			return BuiltImage, nil
		}
		image = DefaultImage
	}
	if _, err := d.docker(ctx, 30*time.Second, "image", "inspect", "--format", "{{.Id}}", image); err == nil {
		return image, nil
	}
	fmt.Fprintf(stderr, "jaiph: pulling image %s\n", image)
	if _, err := d.docker(ctx, 0, "pull", "-q", image); err != nil {
		return "", fmt.Errorf("E_DOCKER_PULL failed to pull image %q: %s", image, reason(err))
	}
	return image, nil
}

// docker runs a short docker command and returns its stdout; its error
// carries the daemon's reason (stderr).
func (d *Docker) docker(ctx context.Context, timeout time.Duration, args ...string) (string, error) {
	if timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	cmd := exec.CommandContext(ctx, d.cli, args...)
	cmd.Env = d.environ
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		msg := strings.TrimSpace(errb.String())
		if msg == "" {
			msg = err.Error()
		}
		return "", errors.New(msg)
	}
	return out.String(), nil
}

// reason is the last line of a docker error, without the CLI's prefix.
func reason(err error) string {
	lines := strings.Split(strings.TrimSpace(err.Error()), "\n")
	r := strings.TrimSpace(lines[len(lines)-1])
	r = strings.TrimPrefix(r, "Error: ")
	return strings.TrimPrefix(r, "Error response from daemon: ")
}

// Run runs the job in a new container and returns once the container is
// gone.
func (d *Docker) Run(ctx context.Context, j Job) (Result, error) {
	var res Result
	name, err := containerName()
	if err != nil {
		return res, err
	}
	args, err := d.args(j, name)
	if err != nil {
		return res, err
	}
	cmd := exec.Command(d.cli, args...)
	cmd.Env = j.Environ
	// The docker CLI is not in the terminal's process group: Ctrl-C is
	// jaiph's to forward (--sig-proxy=false), once.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// The CLI's messages wait until the container has started: when it
	// never does, they are the reason, said once.
	gate := &gate{w: j.Stderr}
	cmd.Stderr = gate
	// The container's stdin is a pipe jaiph holds open and never writes:
	// when jaiph dies, even by SIGKILL, the pipe ends and the sandboxed
	// jaiph stops its run (the watchdog, docs/sandbox.md).
	keepR, keepW, err := os.Pipe()
	if err != nil {
		return res, err
	}
	defer keepW.Close()
	cmd.Stdin = keepR
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		keepR.Close()
		return res, err
	}
	if err := cmd.Start(); err != nil {
		keepR.Close()
		return res, err
	}
	keepR.Close()

	exited := make(chan struct{})
	var waitErr error
	started := false
	go func() {
		read(stdout, j, &res, func() {
			started = true
			gate.open()
			if j.Started != nil {
				j.Started()
			}
		})
		waitErr = cmd.Wait()
		close(exited)
	}()
	var timeout <-chan time.Time
	if d.cfg.Timeout > 0 {
		t := time.NewTimer(d.cfg.Timeout)
		defer t.Stop()
		timeout = t.C
	}
	var stopped sync.WaitGroup
	stopping := false
	done := ctx.Done()
wait:
	for {
		select {
		case <-exited:
			break wait
		case <-done:
			done, timeout, stopping = nil, nil, true
			stopped.Add(1)
			go func() { defer stopped.Done(); d.stop(name, signalOf(ctx), exited, keepW) }()
		case <-timeout:
			done, timeout, stopping = nil, nil, true
			res.TimedOut = true
			stopped.Add(1)
			go func() { defer stopped.Done(); d.stop(name, "SIGTERM", exited, keepW) }()
		}
	}
	stopped.Wait()
	if stopping { // make sure nothing of it is left
		d.docker(context.Background(), 30*time.Second, "rm", "-f", name)
	}
	res.ExitCode = 0
	var ee *exec.ExitError
	switch {
	case errors.As(waitErr, &ee):
		res.ExitCode = ee.ExitCode()
	case waitErr != nil:
		return res, waitErr
	}
	if !started {
		res.NotStarted = gate.reason()
		if res.NotStarted == "" {
			res.NotStarted = "docker run exited with status " + strconv.Itoa(res.ExitCode)
		}
	}
	return res, nil
}

// gate holds what is written to it until it is opened, then passes it on.
type gate struct {
	mu     sync.Mutex
	opened bool
	buf    bytes.Buffer
	w      io.Writer
}

func (g *gate) Write(p []byte) (int, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.opened {
		return g.w.Write(p)
	}
	if g.buf.Len() < 64*1024 {
		g.buf.Write(p)
	}
	return len(p), nil
}

func (g *gate) open() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.opened {
		g.opened = true
		g.w.Write(g.buf.Bytes())
		g.buf.Reset()
	}
}

// reason is the first line of what the gate held, without the CLI's
// prefixes.
func (g *gate) reason() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	line, _, _ := strings.Cut(strings.TrimSpace(g.buf.String()), "\n")
	line = strings.TrimPrefix(line, "docker: ")
	return strings.TrimSuffix(strings.TrimPrefix(line, "Error response from daemon: "), ".")
}

// stop sends sig to the container (its init forwards it to jaiph), retrying
// while the container is still being created, then removes it by force if
// it has not ended within stopGrace, and last closes the watchdog pipe.
func (d *Docker) stop(name, sig string, exited <-chan struct{}, keepW *os.File) {
	deadline := time.Now().Add(stopGrace)
	for {
		if _, err := d.docker(context.Background(), 10*time.Second, "kill", "--signal", sig, name); err == nil {
			break
		}
		select {
		case <-exited:
			return
		case <-time.After(200 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			break
		}
	}
	select {
	case <-exited:
		return
	case <-time.After(time.Until(deadline)):
	}
	d.docker(context.Background(), 30*time.Second, "rm", "-f", name)
	keepW.Close()
}

// signalOf is the signal that cancelled ctx, as docker kill names it.
func signalOf(ctx context.Context) string {
	var s interface{ CauseSignal() os.Signal }
	if errors.As(context.Cause(ctx), &s) {
		if sig, ok := s.CauseSignal().(syscall.Signal); ok {
			switch sig {
			case syscall.SIGINT:
				return "SIGINT"
			case syscall.SIGHUP:
				return "SIGHUP"
			}
		}
	}
	return "SIGTERM"
}

func containerName() (string, error) {
	b := make([]byte, 8)
	if _, err := rand.Read(b); err != nil {
		return "", err
	}
	return "jaiph-sandbox-" + hex.EncodeToString(b), nil
}

// args is the `docker run` command line of a job.
func (d *Docker) args(j Job, name string) ([]string, error) {
	a := []string{"run", "--rm", "-i", "--init", "--sig-proxy=false", "--name", name,
		"--label", LabelSandbox + "=1", "--label", LabelHostPID + "=" + strconv.Itoa(os.Getpid()),
		// Hardening (docs/sandbox.md).
		"--cap-drop", "ALL", "--security-opt", "no-new-privileges",
		"--user", strconv.Itoa(d.uid) + ":" + strconv.Itoa(d.gid),
		"--read-only", "--tmpfs", "/tmp:rw,nosuid,nodev,mode=1777,size=" + tmpfsSize,
		"--pids-limit", pidsLimit, "--memory", memory,
	}
	if d.cfg.Network != DefaultNetwork {
		a = append(a, "--network", d.cfg.Network)
	}
	mount := func(src, dst string, ro bool) error {
		if err := denied(src); err != nil {
			return err
		}
		var b strings.Builder
		w := csv.NewWriter(&b)
		f := []string{"type=bind", "source=" + src, "target=" + dst}
		if ro {
			f = append(f, "readonly")
		}
		w.Write(f)
		w.Flush()
		a = append(a, "--mount", strings.TrimSuffix(b.String(), "\n"))
		return nil
	}
	if err := mount(d.binary, ContainerBinary, true); err != nil {
		return nil, err
	}
	// The workspace at its own path (so every path a run records is the
	// same on the host) and at /jaiph/workspace (docs/sandbox.md).
	wsRO := false
	for _, m := range d.cfg.Mounts {
		if m.Container == ContainerWorkspace && m.Host == d.workspace {
			wsRO = m.ReadOnly
		}
	}
	if err := mount(d.workspace, d.workspace, wsRO); err != nil {
		return nil, err
	}
	if err := mount(d.workspace, ContainerWorkspace, wsRO); err != nil {
		return nil, err
	}
	for _, m := range d.cfg.Mounts {
		if m.Container == ContainerWorkspace && m.Host == d.workspace {
			continue
		}
		if err := mount(m.Host, m.Container, m.ReadOnly); err != nil {
			return nil, err
		}
	}
	// The runs root is always writable (a read-only workspace still
	// records its runs), at its own path.
	env := envOf(j.Environ)
	root := runs.Root(d.workspace, env["JAIPH_RUNS_DIR"])
	if wsRO || !inside(root, d.workspace) {
		if err := d.makeRoot(root); err != nil {
			return nil, err
		}
		if err := mount(root, root, false); err != nil {
			return nil, err
		}
	}
	// -w names the mount point, never a directory docker would create
	// (creating one below the tmpfs /tmp takes its sticky 1777 mode away).
	a = append(a, "-w", ContainerWorkspace, "-e", "HOME=/tmp")
	for _, kv := range j.Environ {
		k, _, _ := strings.Cut(kv, "=")
		if Forwarded(k) {
			a = append(a, "-e", k) // the value comes from the CLI's environment, not its command line
		}
	}
	a = append(a, d.image, ContainerBinary, InnerCommand, "--workspace", d.workspace)
	if j.Resume != "" {
		a = append(a, "--resume", j.Resume)
	}
	if j.Workflow != "" {
		a = append(a, "--workflow", j.Workflow)
	}
	if j.RunID != "" {
		a = append(a, "--run-id", j.RunID)
	}
	if j.Deliver != "" {
		a = append(a, "--deliver", j.Deliver)
	}
	a = append(a, "--", j.Entry)
	return append(a, j.Args...), nil
}

// makeRoot creates a runs root outside the workspace for the container's
// user.
func (d *Docker) makeRoot(root string) error {
	if _, err := os.Stat(root); err == nil {
		return nil
	}
	if err := os.MkdirAll(root, 0o755); err != nil {
		return err
	}
	if os.Geteuid() == 0 {
		return os.Chown(root, d.uid, d.gid)
	}
	return nil
}

// denied refuses host paths no sandbox may see.
func denied(path string) error {
	clean := filepath.Clean(path)
	if clean == "/" {
		return fmt.Errorf("E_DOCKER_MOUNT refusing to mount the host's root directory into the container")
	}
	for _, p := range []string{"/proc", "/sys", "/dev", "/var/run/docker.sock", "/run/docker.sock", "/run/containerd", "/var/lib/docker"} {
		if inside(clean, p) {
			return fmt.Errorf("E_DOCKER_MOUNT refusing to mount %s into the container", path)
		}
	}
	return nil
}

// lookPath finds an executable in path (the run's PATH, which may not be
// this process's).
func lookPath(name, path string) string {
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		p := filepath.Join(dir, name)
		if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() && st.Mode()&0o111 != 0 {
			return p
		}
	}
	return ""
}

func envOf(environ []string) map[string]string {
	m := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok {
			m[k] = v
		}
	}
	return m
}

// credentials are the agent CLIs' credential variables the sandbox
// forwards by name (docs/sandbox.md).
var credentials = map[string]bool{
	"ANTHROPIC_API_KEY": true, "ANTHROPIC_AUTH_TOKEN": true, "ANTHROPIC_BASE_URL": true,
	"CLAUDE_CODE_OAUTH_TOKEN": true, "CURSOR_API_KEY": true, "OPENAI_API_KEY": true,
}

// Forwarded reports whether the host environment variable k reaches the
// container: the run's JAIPH_* settings (not the run directory's, which
// the sandboxed run sets), agent credentials by name, and the locale and
// terminal variables. Nothing else, not even PATH. JAIPH_DOCKER_* go in
// so that the run's records keep them: `jaiph resume` of a run the
// environment sandboxed goes into the sandbox again (inside, a nested
// `jaiph run` that asks for Docker stops with E_DOCKER_NOT_FOUND).
func Forwarded(k string) bool {
	switch {
	case credentials[k]:
		return true
	case k == "NO_COLOR" || k == "TERM" || k == "LANG" || k == "TZ" || strings.HasPrefix(k, "LC_"):
		return true
	}
	switch k {
	case "JAIPH_RUN_DIR", "JAIPH_RUN_ID", "JAIPH_RUN_SUMMARY_FILE", "JAIPH_WORKSPACE", "JAIPH_TEST_AS_JAIPH":
		return false
	}
	return strings.HasPrefix(k, "JAIPH_")
}
