// Package sandboxtest gives tests of the Docker sandbox a real Docker
// Engine and local test images (no registry is reachable in tests): an
// image with the distribution's static busybox, and one with no shell at
// all. Without a daemon or busybox-static the tests skip, saying so
// loudly; under CI=true they fail instead. Only tests import it.
package sandboxtest

import (
	"debug/elf"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// The test images.
const (
	Busybox = "jaiph-test-busybox:sandbox"
	Empty   = "jaiph-test-empty:sandbox"
)

var setup struct {
	once sync.Once
	why  string // why there is no sandbox ("" when there is)
}

// Need builds the test images once, or skips t (fails it under CI=true)
// when Docker or busybox-static is missing.
func Need(t testing.TB) {
	t.Helper()
	setup.once.Do(func() { setup.why = prepare() })
	if setup.why != "" {
		msg := "!!! DOCKER SANDBOX TESTS SKIPPED: " + setup.why + " (.ci/run installs docker.io and busybox-static and starts dockerd) !!!"
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + "; CI=true forbids skipping them")
		}
		fmt.Fprintln(os.Stderr, msg)
		t.Skip(msg)
	}
}

func prepare() string {
	if _, err := exec.LookPath("docker"); err != nil {
		return "no docker CLI"
	}
	if out, err := exec.Command("docker", "info", "--format", "{{.ServerVersion}}").CombinedOutput(); err != nil {
		return "no Docker daemon: " + strings.TrimSpace(string(out))
	}
	busybox := ""
	for _, p := range []string{"/bin/busybox", "/usr/bin/busybox"} {
		if static(p) {
			busybox = p
			break
		}
	}
	if busybox == "" {
		return "no static busybox (apt-get install -y busybox-static)"
	}
	dir, err := os.MkdirTemp("", "jaiph-sandbox-images-")
	if err != nil {
		return err.Error()
	}
	defer os.RemoveAll(dir)
	ctx := filepath.Join(dir, "busybox")
	empty := filepath.Join(dir, "empty")
	for _, d := range []string{ctx, empty} {
		if err := os.Mkdir(d, 0o755); err != nil {
			return err.Error()
		}
	}
	b, err := os.ReadFile(busybox)
	if err != nil {
		return err.Error()
	}
	files := map[string]string{
		filepath.Join(ctx, "busybox"):      string(b),
		filepath.Join(ctx, "Dockerfile"):   "FROM scratch\nCOPY busybox /bin/busybox\nRUN [\"/bin/busybox\", \"--install\", \"-s\", \"/bin\"]\n",
		filepath.Join(empty, "README"):     "an image with no shell and no programs\n",
		filepath.Join(empty, "Dockerfile"): "FROM scratch\nCOPY README /README\n",
	}
	for p, text := range files {
		if err := os.WriteFile(p, []byte(text), 0o755); err != nil {
			return err.Error()
		}
	}
	for tag, d := range map[string]string{Busybox: ctx, Empty: empty} {
		if out, err := exec.Command("docker", "build", "-q", "-t", tag, d).CombinedOutput(); err != nil {
			return fmt.Sprintf("cannot build the test image %s: %v\n%s", tag, err, out)
		}
	}
	return ""
}

// static reports whether path is a statically linked ELF executable.
func static(path string) bool {
	f, err := elf.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	for _, p := range f.Progs {
		if p.Type == elf.PT_INTERP {
			return false
		}
	}
	return true
}
