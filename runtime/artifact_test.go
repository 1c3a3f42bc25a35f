package runtime

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestArtifactFaults: an artifact that cannot be created or written reports
// its first error on the run's stderr and as a fault of the run (which then
// fails), and a .err artifact's text goes to its fallback instead of being
// lost.
func TestArtifactFaults(t *testing.T) {
	var stray, fallback bytes.Buffer
	rt := New(Options{StrayStderr: &stray})
	missing := t.TempDir() + "/no/such/dir/000002-m__w.err"
	a := rt.newArtifact(missing, &fallback)
	for _, s := range []string{"first\n", "second\n"} {
		if n, err := a.Write([]byte(s)); n != len(s) || err != nil {
			t.Errorf("write to the fallback: %d, %v", n, err)
		}
	}
	if got, want := fallback.String(), "first\nsecond\n"; got != want {
		t.Errorf("fallback got %q, want %q", got, want)
	}
	full := rt.newArtifact("/dev/full", nil)
	for range 2 {
		if _, err := full.Write([]byte("x\n")); err == nil {
			t.Errorf("write to /dev/full succeeded")
		}
	}
	full.closeAndPrune()
	want := "jaiph: cannot write " + missing + ": No such file or directory\n" +
		"jaiph: cannot write /dev/full: No space left on device\n"
	if got := stray.String(); got != want {
		t.Errorf("run's stderr:\n%s\nwant:\n%s", got, want)
	}
	err := rt.faultErr()
	if err == nil || !strings.Contains(err.Error(), "2 system errors; the first: cannot write "+missing) {
		t.Errorf("fault summary: %v", err)
	}
}

// TestCloseAndPrune: an artifact created but never written (an external
// command got its file) is removed when closed; one with content stays.
func TestCloseAndPrune(t *testing.T) {
	dir := t.TempDir()
	empty, kept := filepath.Join(dir, "empty.out"), filepath.Join(dir, "kept.out")
	a, b := (&Runtime{}).newArtifact(empty, nil), (&Runtime{}).newArtifact(kept, nil)
	if _, err := a.OSFile(); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	a.closeAndPrune()
	b.closeAndPrune()
	if _, err := os.Stat(empty); !os.IsNotExist(err) {
		t.Errorf("empty artifact kept: %v", err)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("artifact with content removed: %v", err)
	}
}

// TestArtifactMasked: with a credential in the run's environment the
// artifact's file holds it masked, also when it comes split across
// writes or held back at the close; external commands get no file to
// write to directly (their output must pass through the mask). Without
// one, the file is handed out as before.
func TestArtifactMasked(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "000002-m__w.out")
	rt := New(Options{Env: []string{"MY_API_TOKEN=s3cret-value-123"}})
	a := rt.newArtifact(path, nil)
	if _, err := a.OSFile(); err == nil {
		t.Fatal("a masked artifact handed out its file")
	}
	for _, s := range []string{"raw s3cret-value-123\n", "split s3cr", "et-value-123\n", "tail s3cret-val"} {
		if n, err := a.Write([]byte(s)); n != len(s) || err != nil {
			t.Fatalf("write %q: %d, %v", s, n, err)
		}
	}
	a.closeAndPrune()
	data, _ := os.ReadFile(path)
	if got, want := string(data), "raw ***\nsplit ***\ntail s3cret-val"; got != want {
		t.Errorf("artifact holds %q, want %q", got, want)
	}

	plain := New(Options{Env: []string{"HOME=/root"}}).newArtifact(filepath.Join(dir, "plain.out"), nil)
	if f, err := plain.OSFile(); err != nil || f == nil {
		t.Errorf("an artifact without credentials to mask: OSFile %v, %v", f, err)
	}
	plain.closeAndPrune()
}
