package runtime

import (
	"context"
	"errors"
	"os/exec"
	"time"

	"github.com/jaiph-go/jaiph/internal/lowered"
)

// The reference can run a workflow inside a Docker container
// (runtime.docker_enabled, runtime.md §12). jaiph-go has no container
// sandbox yet, and a sandbox that was asked for must never silently become
// a run on the host: Sandbox refuses such runs before anything starts.

// ErrDockerNotFound is the reference's error when Docker is enabled but
// `docker info` fails.
var ErrDockerNotFound = errors.New("E_DOCKER_NOT_FOUND docker is not available. Install Docker and ensure the daemon is running.")

// ErrNoSandbox is returned when Docker is available but this build cannot
// run workflows in it.
var ErrNoSandbox = errors.New("E_DOCKER_UNSUPPORTED runtime.docker_enabled is true, but this build of jaiph-go has no Docker sandbox yet; " +
	"the workflow was not run. Set runtime.docker_enabled = false (or JAIPH_DOCKER_ENABLED=false) to run it on this machine.")

// DockerEnabled reports whether the run asks for the Docker sandbox:
// JAIPH_DOCKER_ENABLED when set and not empty (only "true" enables), else
// the entry module's runtime.docker_enabled.
func DockerEnabled(env *Env, entry *lowered.Module) bool {
	if v := env.Get("JAIPH_DOCKER_ENABLED"); v != "" {
		return v == "true"
	}
	e := entry.Setting("runtime.docker_enabled")
	return e != nil && e.Kind == lowered.Bool && e.Value == "true"
}

// Sandbox returns nil when the run may proceed on the host, else the error
// that stops it: Docker enabled without a working `docker info` (the
// reference's check, bounded like its 10 s timeout), or enabled with Docker
// present.
func Sandbox(ctx context.Context, env *Env, entry *lowered.Module) error {
	if !DockerEnabled(env, entry) {
		return nil
	}
	path, err := exec.LookPath("docker")
	if err != nil {
		return ErrDockerNotFound
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "info")
	cmd.Env = env.List()
	if cmd.Run() != nil {
		return ErrDockerNotFound
	}
	return ErrNoSandbox
}
