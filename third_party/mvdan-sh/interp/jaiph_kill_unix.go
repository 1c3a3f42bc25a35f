// jaiph-go patch (see PATCHES.md): kill sends real signals to real pids.

//go:build unix

package interp

import "syscall"

func killPid(pid, sig int) error { return syscall.Kill(pid, syscall.Signal(sig)) }
