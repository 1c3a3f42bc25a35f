//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package runs

import (
	"errors"
	"os"
	"syscall"
)

// Lock holds an exclusive flock on the run directory itself (no lock file
// to create: one file less per run) until the returned descriptor is
// closed or the process dies (the kernel releases it then, even after
// kill -9). The descriptor is close-on-exec, so commands the run starts do
// not keep it.
func Lock(dir string) (*os.File, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.ENOLCK) || errors.Is(err, syscall.EOPNOTSUPP) || errors.Is(err, syscall.ENOSYS) {
		// A file system without locks: the run goes on, unlocked, as runs
		// did before there were locks (docs/durability.md).
		return f, nil
	}
	if err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Locked tells, without blocking, whether a live process holds dir's lock.
func Locked(dir string) bool {
	f, err := os.Open(dir)
	if err != nil {
		return false
	}
	defer f.Close()
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_SH|syscall.LOCK_NB)
	if err == nil {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
	}
	return errors.Is(err, syscall.EWOULDBLOCK)
}

// alive tells whether process pid exists (0: unknown, taken as alive).
func alive(pid int) bool {
	if pid <= 0 {
		return true
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
