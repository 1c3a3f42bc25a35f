package broker_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRemoteArtifactsMasked: a worker whose environment lacks the run's
// credential prints it (it came as the message); the step's artifact the
// orchestrator writes into the run directory is masked with the run's
// credentials, as the run's own artifacts are.
func TestRemoteArtifactsMasked(t *testing.T) {
	const secret = "tok-4f9d2a7c1e8b"
	srv := startServer(t)
	flow := "channel jobs\n\nworkflow work {\n  echo \"got $1\"\n}\n\nworkflow default {\n  jobs <- echo \"$MY_API_TOKEN\"\n  jobs -> work\n}\n"
	dir := workspace(t, flow)
	startWorker(t, srv.url(), "w1", t.TempDir(), 1)
	r := startRun(t, srv.url(), dir, "flow.jh", []string{"MY_API_TOKEN=" + secret})
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d\n%s\n%s", code, r.stdout.String(), r.stderr.String())
	}
	runDir := newestRun(t, dir)
	found := false
	err := filepath.Walk(runDir, func(p string, fi os.FileInfo, err error) error {
		if err != nil || fi.IsDir() {
			return err
		}
		b, _ := os.ReadFile(p)
		if strings.Contains(string(b), secret) {
			t.Errorf("%s holds the run's credential", p)
		}
		if strings.HasSuffix(p, "flow__work.out") {
			found = strings.Contains(string(b), "got ")
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if !found {
		t.Errorf("no artifact of the remote step in %s", runDir)
	}
}
