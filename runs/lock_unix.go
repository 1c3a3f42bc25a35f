//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package runs

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
)

// Lock creates dir's lock file and holds an exclusive flock on it until
// the returned file is closed or the process dies (the kernel releases it
// then, even after kill -9). The file is close-on-exec, so commands the
// run starts do not keep it.
func Lock(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, LockFile), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// Locked tells, without blocking, whether a live process holds dir's lock.
func Locked(dir string) bool {
	f, err := os.Open(filepath.Join(dir, LockFile))
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
