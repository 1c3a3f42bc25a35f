// Package sandbox runs a workflow somewhere other than the jaiph process
// that was asked to run it, behind one small interface (Box). Docker is the
// implementation (docker.go): the jaiph binary is mounted read-only into a
// hardened container and re-executed there as `jaiph __sandbox`, which runs
// the workflow with jaiph's own interpreter and reports the run back over
// its stdout (protocol.go). The host keeps everything a host run has: the
// progress tree, hooks and OTLP see the container's events, and the run
// directory on the host receives the artifacts and run_summary.jsonl.
//
// The engine decides whether a run is sandboxed (Resolve) and hands a Box
// the job; nothing else in the runtime knows about containers.
// docs/sandbox.md describes the sandbox for users.
package sandbox

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jaiph-go/jaiph/internal/envflag"
	"github.com/jaiph-go/jaiph/internal/event"
)

// Box runs jobs in a sandbox.
type Box interface {
	// Run runs the job and returns once the sandbox has stopped and
	// nothing of it is left running. The error is a failure to run the
	// job at all (the sandbox could not start); the job's own failure is
	// in the result.
	Run(ctx context.Context, j Job) (Result, error)
}

// Job is one run of an entry file's workflow in the sandbox.
type Job struct {
	Entry     string   // the entry file, absolute (the same path inside)
	Workspace string   // the workspace root W, absolute (the same path inside)
	Args      []string // the workflow's arguments
	Resume    string   // a run directory to continue ("" for a new run)
	Workflow  string   // the workflow to call ("" is default)
	RunID     string   // the new run's id ("" makes one: runtime.Options.RunID)
	// Deliver, when set, is a broker delivery (`jaiph worker --sandbox
	// docker`): the target workflow's symbol, called with Args as the
	// message ($1 payload, $2 channel symbol, $3 sender); what it sends
	// comes back in Result.Sends.
	Deliver string
	Environ []string // the caller's environment (filtered by the allowlist)
	// Event receives each event of the run, in order; Stray receives what
	// reached the run's stray stderr inside.
	Event func(*event.Event)
	Stray io.Writer
	// Stderr receives the sandbox's own messages (the docker CLI's), once
	// the sandboxed jaiph has started.
	Stderr io.Writer
	// Started is called when the sandboxed jaiph sends its first record
	// (the run has started in the sandbox).
	Started func()
	// Opened names the run's directory and id once the sandboxed run has
	// one; Append receives the lines of its summary and journal (file
	// run_summary.jsonl or journal), which the host writes (protocol.go).
	Opened func(runDir, runID string)
	Append func(file string, lines []byte)
}

// Result is how a job ended.
type Result struct {
	ExitCode int      // the sandboxed process's exit status
	Outcome  *Outcome // nil when the sandboxed jaiph never reported one
	TimedOut bool     // stopped by the sandbox timeout
	// Error is a preparation error of the sandboxed run (nothing ran), as
	// the sandboxed jaiph reported it.
	Error string
	// NotStarted is why the sandboxed jaiph never started (the docker
	// CLI's last message), "" when it did.
	NotStarted string
	// Sends are the messages a delivered target sent (Job.Deliver).
	Sends []Sent
}

// Sent is a message a delivered target sent.
type Sent struct {
	Channel string `json:"channel"`
	Sender  string `json:"sender"`
	Content string `json:"content"`
}

// Outcome is what the sandboxed jaiph reports when its run ends.
type Outcome struct {
	Status     int     `json:"status"`
	Failed     bool    `json:"failed"`
	RunID      string  `json:"run_id"`
	RunDir     string  `json:"run_dir"`
	LastOut    string  `json:"last_out,omitempty"`
	LastErr    string  `json:"last_err,omitempty"`
	FailedOut  *string `json:"failed_out,omitempty"`
	FailedErr  *string `json:"failed_err,omitempty"`
	Value      string  `json:"value"`
	Signal     int     `json:"signal,omitempty"`
	ExitStatus int     `json:"exit_status"`
}

// The container paths of the sandbox (docs/sandbox.md).
const (
	ContainerWorkspace = "/jaiph/workspace"
	ContainerBinary    = "/jaiph/bin/jaiph"
	// InnerCommand is the hidden subcommand the sandboxed jaiph runs.
	InnerCommand = "__sandbox"
)

// Defaults: docs/sandbox.md, "Settings".
const (
	DefaultImage   = "ubuntu:24.04"
	DefaultNetwork = "default"
	DefaultTimeout = 300 * time.Second
	// BuiltImage is the tag `.jaiph/Dockerfile` is built as.
	BuiltImage = "jaiph-runtime:latest"
)

// Config is a run's resolved sandbox settings: JAIPH_DOCKER_* from the
// environment over the entry module's runtime.* config over the defaults.
type Config struct {
	Enabled bool
	Image   string // "" means: .jaiph/Dockerfile if present, else DefaultImage
	Network string
	Timeout time.Duration // 0: none
	Mounts  []Mount
	// Binary is the jaiph mounted into the container (JAIPH_DOCKER_BINARY,
	// else this executable).
	Binary string
}

// Mount is one bind mount of runtime.workspace.
type Mount struct {
	Host, Container string
	ReadOnly        bool
}

// Resolve reads the sandbox settings of a run: getenv is the run's
// environment, file the entry module's runtime.* settings (key → value;
// arrays one element per line), workspace the workspace root. A setting
// that would let the workflow file weaken its own sandbox is refused.
func Resolve(getenv func(string) string, file map[string]string, workspace string) (Config, error) {
	c := Config{Network: DefaultNetwork, Timeout: DefaultTimeout, Binary: getenv("JAIPH_DOCKER_BINARY")}
	if v := getenv("JAIPH_DOCKER_ENABLED"); v != "" {
		c.Enabled = envflag.True(v)
	} else {
		c.Enabled = file["runtime.docker_enabled"] == "true"
	}
	if !c.Enabled {
		return c, nil
	}
	if v := getenv("JAIPH_DOCKER_IMAGE"); v != "" {
		c.Image = v
	} else if v, ok := file["runtime.docker_image"]; ok {
		return c, fmt.Errorf("E_DOCKER_IMAGE runtime.docker_image %q is set in the workflow file, and a workflow cannot choose its own sandbox image; "+
			"the workflow was not run. To use that image, set it yourself: JAIPH_DOCKER_IMAGE=%s", v, shellWord(v))
	}
	if v := getenv("JAIPH_DOCKER_NETWORK"); v != "" {
		c.Network = v
	} else if v, ok := file["runtime.docker_network"]; ok && v != "" {
		if breaksIsolation(v) {
			return c, fmt.Errorf("E_DOCKER_NETWORK runtime.docker_network %q is set in the workflow file, and a workflow cannot leave its sandbox's network isolation; "+
				"the workflow was not run. To allow it, set it yourself: JAIPH_DOCKER_NETWORK=%s", v, shellWord(v))
		}
		c.Network = v
	}
	timeout, fromEnv := getenv("JAIPH_DOCKER_TIMEOUT"), true
	if timeout == "" {
		timeout, fromEnv = file["runtime.docker_timeout"], false
	}
	if timeout != "" {
		n, err := strconv.Atoi(timeout)
		if err != nil || n < 0 {
			src := "runtime.docker_timeout"
			if fromEnv {
				src = "JAIPH_DOCKER_TIMEOUT"
			}
			return c, fmt.Errorf("E_DOCKER_TIMEOUT %s must be a non-negative integer (seconds; 0 for none), got %q", src, timeout)
		}
		c.Timeout = time.Duration(n) * time.Second
	}
	for _, spec := range strings.Split(file["runtime.workspace"], "\n") {
		if strings.TrimSpace(spec) == "" {
			continue
		}
		m, err := parseMount(spec, workspace)
		if err != nil {
			return c, err
		}
		c.Mounts = append(c.Mounts, m)
	}
	return c, nil
}

// breaksIsolation reports a network mode that shares the host's or another
// container's network stack.
func breaksIsolation(network string) bool {
	return network == "host" || strings.HasPrefix(network, "container:") || strings.HasPrefix(network, "ns:")
}

// parseMount reads a runtime.workspace element `host:container[:ro|rw]`.
// The host path is relative to the workspace and must stay inside it (the
// file may not mount the rest of the machine into its sandbox).
func parseMount(spec, workspace string) (Mount, error) {
	bad := func(why string) error {
		return fmt.Errorf("E_DOCKER_MOUNT runtime.workspace %q: %s; the workflow was not run", spec, why)
	}
	parts := strings.Split(spec, ":")
	if len(parts) < 2 || len(parts) > 3 {
		return Mount{}, bad("expected host:container or host:container:ro|rw")
	}
	m := Mount{Host: parts[0], Container: parts[1]}
	if len(parts) == 3 {
		switch parts[2] {
		case "ro":
			m.ReadOnly = true
		case "rw":
		default:
			return Mount{}, bad("the mode must be ro or rw")
		}
	}
	if !filepath.IsAbs(m.Host) {
		m.Host = filepath.Join(workspace, m.Host)
	}
	m.Host = filepath.Clean(m.Host)
	if !inside(m.Host, workspace) {
		return Mount{}, bad("a workflow file may only mount paths inside its workspace " + workspace)
	}
	if !filepath.IsAbs(m.Container) || filepath.Clean(m.Container) == "/" {
		return Mount{}, bad("the container path must be absolute and not /")
	}
	m.Container = filepath.Clean(m.Container)
	return m, nil
}

// inside reports whether path is dir or below it.
func inside(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}

// shellWord quotes s for a shell command line when it needs it.
func shellWord(s string) string {
	if s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@=+", r))
	}) < 0 {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
