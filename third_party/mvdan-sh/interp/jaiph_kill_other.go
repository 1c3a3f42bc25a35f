// jaiph-go patch (see PATCHES.md): kill sends real signals to real pids.

//go:build !unix

package interp

import (
	"os"
	"syscall"
)

func killPid(pid, sig int) error {
	p, err := os.FindProcess(pid)
	if err != nil {
		return syscall.ESRCH
	}
	if err := p.Signal(syscall.Signal(sig)); err != nil {
		return syscall.ESRCH
	}
	return nil
}
