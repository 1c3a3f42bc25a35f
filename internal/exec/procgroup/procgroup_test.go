package procgroup

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestInterruptReachesGrandchildren: a program's own children get the
// signal too, one that ignores it is killed KillDelay later, and Close
// returns once nothing of the group is left.
func TestInterruptReachesGrandchildren(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	g := New(ctx, func(error) syscall.Signal { return syscall.SIGTERM })
	pids := filepath.Join(t.TempDir(), "pids")
	var cmds []*exec.Cmd
	for _, script := range []string{
		`sleep 30 & echo $! >> "$1"; wait`,               // grandchild behind a shell
		`trap "" TERM; sleep 30 & echo $! >> "$1"; wait`, // ignores TERM, so does its sleep
	} {
		cmd := exec.Command("/bin/sh", "-c", script, "sh", pids)
		if err := g.Prepare(cmd); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		cmds = append(cmds, cmd)
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		data, _ := os.ReadFile(pids)
		if strings.Count(string(data), "\n") == 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("programs never started")
		}
	}
	start := time.Now()
	cancel()
	for _, c := range cmds {
		_ = c.Wait()
	}
	g.Close()
	took := time.Since(start)
	data, _ := os.ReadFile(pids)
	for _, f := range strings.Fields(string(data)) {
		pid, _ := strconv.Atoi(f)
		if stat, err := os.ReadFile("/proc/" + f + "/stat"); err == nil && !strings.Contains(string(stat), ") Z") {
			_ = syscall.Kill(pid, syscall.SIGKILL)
			t.Errorf("grandchild %d still running after Close", pid)
		}
	}
	if took < KillDelay {
		t.Errorf("Close returned after %v: the program ignoring TERM cannot have been killed yet", took)
	}
}

// TestCloseWithoutInterruptLeavesPrograms: a run that ends normally leaves a
// program it started in the background running, as bash does.
func TestCloseWithoutInterruptLeavesPrograms(t *testing.T) {
	g := New(context.Background(), func(error) syscall.Signal { return syscall.SIGTERM })
	cmd := exec.Command("sleep", "30")
	if err := g.Prepare(cmd); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	g.Close()
	if err := cmd.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("program gone after a normal Close: %v", err)
	}
	if err := g.Prepare(exec.Command("true")); err == nil {
		t.Error("Prepare after Close succeeded")
	}
}
