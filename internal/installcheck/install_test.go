package installcheck_test

import (
	"bytes"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/mod/modfile"
	"golang.org/x/mod/module"
	modzip "golang.org/x/mod/zip"
)

// file is a module file for modzip.Create: its content is the working
// tree's, so that uncommitted changes are checked too.
type file struct{ root, path string }

func (f file) Path() string                 { return f.path }
func (f file) Lstat() (os.FileInfo, error)  { return os.Lstat(filepath.Join(f.root, f.path)) }
func (f file) Open() (io.ReadCloser, error) { return os.Open(filepath.Join(f.root, f.path)) }

func output(t *testing.T, dir string, env []string, name string, args ...string) string {
	t.Helper()
	cmd := exec.Command(name, args...)
	cmd.Dir, cmd.Env = dir, env
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s %s: %v\n%s%s", name, strings.Join(args, " "), err, out, stderr.Bytes())
	}
	return string(out)
}

// TestGoInstall installs jaiph as a user does, `go install
// github.com/jaiph-go/jaiph/cmd/jaiph@latest` and the full build with
// `-tags full` at the version, from a file:// module proxy that serves
// this checkout (the files git tracks or would add, as they are on disk)
// at a pseudo-version; every other module comes from the local module
// cache (file://$GOMODCACHE/cache/download), so no network is used. The
// installs go to a module cache of their own. The default build hands
// `mcp` to jaiph-full, which is nowhere on PATH; the full build runs it.
func TestGoInstall(t *testing.T) {
	if os.Getenv("JAIPH_INSTALL_CHECK") == "" {
		t.Skip("run by `make install-check` (JAIPH_INSTALL_CHECK=1): it compiles the module twice")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	mf, err := modfile.Parse("go.mod", gomod, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(mf.Replace) > 0 || len(mf.Exclude) > 0 {
		t.Fatalf("go.mod has replace or exclude directives: `go install %s/cmd/jaiph@VERSION` refuses the module", mf.Module.Mod.Path)
	}
	modPath := mf.Module.Mod.Path
	env := os.Environ()

	// The pseudo-version: now, and the checkout's commit.
	rev := strings.TrimSpace(output(t, root, env, "git", "rev-parse", "HEAD"))
	version := module.PseudoVersion("v0", "", time.Now().UTC(), rev[:12])
	mv := module.Version{Path: modPath, Version: version}

	var files []modzip.File
	for p := range strings.SplitSeq(output(t, root, env, "git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"), "\x00") {
		if p == "" {
			continue
		}
		if _, err := os.Lstat(filepath.Join(root, p)); os.IsNotExist(err) {
			continue // deleted, not yet committed
		}
		files = append(files, file{root, p})
	}

	// The proxy: <proxy>/<module>/@v/{list,VERSION.info,.mod,.zip} and @latest.
	proxy := t.TempDir()
	escPath, err := module.EscapePath(modPath)
	if err != nil {
		t.Fatal(err)
	}
	escVersion, err := module.EscapeVersion(version)
	if err != nil {
		t.Fatal(err)
	}
	vdir := filepath.Join(proxy, escPath, "@v")
	if err := os.MkdirAll(vdir, 0o755); err != nil {
		t.Fatal(err)
	}
	info, _ := json.Marshal(map[string]string{"Version": version, "Time": time.Now().UTC().Format(time.RFC3339)})
	zf, err := os.Create(filepath.Join(vdir, escVersion+".zip"))
	if err != nil {
		t.Fatal(err)
	}
	if err := modzip.Create(zf, mv, files); err != nil {
		t.Fatalf("the module zip: %v", err)
	}
	if err := zf.Close(); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		filepath.Join(vdir, "list"):              []byte(version + "\n"),
		filepath.Join(vdir, escVersion+".info"):  info,
		filepath.Join(vdir, escVersion+".mod"):   gomod,
		filepath.Join(proxy, escPath, "@latest"): info,
	} {
		if err := os.WriteFile(name, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}

	cache := strings.TrimSpace(output(t, root, env, "go", "env", "GOMODCACHE"))
	modcache := t.TempDir()
	goEnv := append(env,
		"GOPROXY=file://"+filepath.ToSlash(proxy)+",file://"+filepath.ToSlash(filepath.Join(cache, "cache", "download")),
		"GOMODCACHE="+modcache,
		"GOFLAGS=-modcacherw", // lets t.TempDir remove the module cache
		"GOSUMDB=off", "GONOSUMDB=", "GOPRIVATE=", "GONOPROXY=", "GOWORK=off", "GOTOOLCHAIN=local")
	outside := t.TempDir() // go install pkg@version ignores the current module; run it elsewhere anyway
	binEnv := []string{"PATH=/usr/bin:/bin", "HOME=" + t.TempDir()}

	// The default build: `mcp` is handed to jaiph-full, which is not there.
	gobin := t.TempDir()
	start := time.Now()
	output(t, outside, append(goEnv, "GOBIN="+gobin), "go", "install", modPath+"/cmd/jaiph@latest")
	t.Logf("go install %s/cmd/jaiph@latest (%s): %v", modPath, version, time.Since(start).Round(time.Second))
	jaiph := filepath.Join(gobin, "jaiph")
	if out := output(t, outside, binEnv, jaiph, "version"); !strings.Contains(out, version) {
		t.Errorf("jaiph version of the installed default build does not name %s:\n%s", version, out)
	}
	cmd := exec.Command(jaiph, "mcp", "--help")
	cmd.Env = binEnv
	out, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "needs jaiph-full") {
		t.Errorf("the default build ran `jaiph mcp --help` itself (%v), want a hand-over to jaiph-full:\n%s", err, out)
	}
	wf := filepath.Join(outside, "hello.jh")
	if err := os.WriteFile(wf, []byte("workflow default {\n  log \"hello from $1\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if out := output(t, outside, binEnv, jaiph, "run", wf, "install"); !strings.Contains(out, "hello from install") {
		t.Errorf("jaiph run of the installed default build:\n%s", out)
	}

	// The full build, from the same proxy at the explicit version.
	fullbin := t.TempDir()
	start = time.Now()
	output(t, outside, append(goEnv, "GOBIN="+fullbin), "go", "install", "-tags", "full", modPath+"/cmd/jaiph@"+version)
	t.Logf("go install -tags full %s/cmd/jaiph@%s: %v", modPath, version, time.Since(start).Round(time.Second))
	full := filepath.Join(fullbin, "jaiph")
	if _, err := os.Stat(filepath.Join(fullbin, "jaiph-full")); err == nil {
		t.Fatal("go install wrote a jaiph-full")
	}
	for _, c := range []string{"mcp", "report", "broker", "worker"} {
		if out := output(t, outside, binEnv, full, c, "--help"); !strings.Contains(out, "Usage:") {
			t.Errorf("jaiph %s --help of the installed full build:\n%s", c, out)
		}
	}
}
