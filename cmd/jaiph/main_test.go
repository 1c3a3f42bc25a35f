package main

import (
	"errors"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary act as the jaiph command inside scripts.
func TestMain(m *testing.M) {
	os.Exit(testscript.RunMain(m, map[string]func() int{
		"jaiph": func() int { return run(os.Args[1:], os.Stdout, os.Stderr) },
	}))
}

// TestScripts runs the end-to-end CLI scripts in testdata/script. Besides the
// standard testscript commands they may use
//
//	exits N cmd [args...]
//
// which runs cmd like exec and fails unless it exits with status N, so
// scripts can tell diagnostics (1) from usage errors (2);
//
//	waitfile PATH
//
// which waits up to 10 s for PATH to exist and be non-empty; and
//
//	signal INT|TERM PIDFILE
//
// which sends the signal to the process whose pid PIDFILE holds.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exits":    cmdExits,
			"waitfile": cmdWaitFile,
			"signal":   cmdSignal,
		},
	})
}

func cmdExits(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exits")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exits N cmd [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exits: bad status %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exits: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}

func cmdWaitFile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitfile PATH")
	}
	path := ts.MkAbs(args[0])
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if st, err := os.Stat(path); err == nil && st.Size() > 0 {
			return
		}
	}
	ts.Fatalf("waitfile: %s did not appear within 10s", args[0])
}

func cmdSignal(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: signal INT|TERM PIDFILE")
	}
	sig := map[string]syscall.Signal{"INT": syscall.SIGINT, "TERM": syscall.SIGTERM}[args[0]]
	if sig == 0 {
		ts.Fatalf("signal: unknown signal %s", args[0])
	}
	pid, err := strconv.Atoi(strings.TrimSpace(ts.ReadFile(args[1])))
	if err != nil {
		ts.Fatalf("signal: bad pid file: %v", err)
	}
	ts.Check(syscall.Kill(pid, sig))
}
