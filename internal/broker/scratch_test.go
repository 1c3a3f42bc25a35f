package broker_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// twoJobs: a target that leaves files in its run directory, its
// temporary directory and its artifacts (whose mode it changes), and says
// when it finds a previous delivery's.
const twoJobs = `channel jobs

workflow work {
  for f in "$JAIPH_RUN_DIR/left" "$JAIPH_RUN_DIR/.tmp/left" "$JAIPH_ARTIFACTS_DIR/left"; do
    if [ -e "$f" ]; then echo "found $f" >> seen.txt; fi
    touch "$f"
  done
  stat -c %a "$JAIPH_ARTIFACTS_DIR" >> modes.txt
  chmod 700 "$JAIPH_ARTIFACTS_DIR"
  echo "$JAIPH_RUN_DIR" >> dirs.txt
  echo "ran $1" >> done.txt
}

workflow default {
  jobs <- echo "m1"
  jobs <- echo "m2"
  jobs -> work
}
`

// TestScratchReused: one slot's deliveries share a run directory, each
// finding it as empty as a new one (nothing a previous delivery left).
func TestScratchReused(t *testing.T) {
	srv := startServer(t)
	dir := workspace(t, twoJobs)
	startWorker(t, srv.url(), "a", dir, 1)
	r := startRun(t, srv.url(), dir, "flow.jh", nil)
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d\nstderr:\n%s", code, r.stderr.String())
	}
	if got := strings.Join(lines(t, filepath.Join(dir, "done.txt")), "\n"); got != "ran m1\nran m2" {
		t.Fatalf("done.txt: %q", got)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "seen.txt")); err == nil {
		t.Fatalf("a delivery found what the previous one left:\n%s", b)
	}
	if got := strings.Join(lines(t, filepath.Join(dir, "modes.txt")), " "); got != "755 755" {
		t.Fatalf("artifacts' modes %q, want 755 for each delivery", got)
	}
	dirs := lines(t, filepath.Join(dir, "dirs.txt"))
	if len(dirs) != 2 || dirs[0] != dirs[1] {
		t.Fatalf("run directories %q, want one slot's, twice", dirs)
	}
	if !strings.HasPrefix(dirs[0], filepath.Join(dir, ".jaiph", "worker", "slots")+string(filepath.Separator)) {
		t.Fatalf("run directory %s, want one under .jaiph/worker/slots", dirs[0])
	}
}
