package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// jaiphResult is what one real jaiph process did.
type jaiphResult struct {
	stdout, stderr string
	code           int
	runDir         string // the (only) run directory, "" if none
}

// runProcess runs the test binary as the jaiph command in dir with a clean
// JAIPH_* environment plus env, stdin from /dev/null and no TTY.
func runProcess(t *testing.T, dir string, env []string, args ...string) jaiphResult {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Dir = dir
	cmd.Env = append(testEnv(dir), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	res := jaiphResult{stdout: out.String(), stderr: errb.String()}
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		res.code = ee.ExitCode()
	case err != nil:
		t.Fatalf("running jaiph: %v", err)
	}
	runs, _ := filepath.Glob(filepath.Join(dir, ".jaiph", "runs", "*", "*"))
	if len(runs) == 1 {
		res.runDir = runs[0]
	}
	return res
}

// workspace makes a temp workspace (with .jaiph) holding the given files.
func workspace(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, ".jaiph"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
