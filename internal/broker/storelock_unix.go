//go:build darwin || dragonfly || freebsd || linux || netbsd || openbsd

package broker

// This file answers: may this `jaiph broker` use its --store? Two servers
// writing one JetStream store corrupt it, and the second one used to
// start as if nothing were wrong.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

// storeLockName is the lock file in a broker's store directory.
const storeLockName = "jaiph-broker.lock"

// storeLock is a store directory held by this process: an exclusive flock
// on its lock file, released when closed or when the process dies (the
// kernel releases it, even after kill -9, so a stale file never blocks).
type storeLock struct{ f *os.File }

// lockStore takes dir's lock, or says which process holds it.
func lockStore(dir string) (*storeLock, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, err
	}
	path := filepath.Join(dir, storeLockName)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, err
	}
	err = syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if errors.Is(err, syscall.EWOULDBLOCK) {
		b, _ := os.ReadFile(path)
		f.Close()
		holder := strings.Join(strings.Fields(string(b)), " ")
		if holder == "" {
			holder = "another process"
		}
		return nil, fmt.Errorf("--store %s is in use by another jaiph broker (%s; lock %s): stop it, or give this one a --store of its own", dir, holder, path)
	}
	if err != nil && !errors.Is(err, syscall.ENOLCK) && !errors.Is(err, syscall.EOPNOTSUPP) && !errors.Is(err, syscall.ENOSYS) {
		f.Close()
		return nil, fmt.Errorf("--store %s: cannot lock %s: %v", dir, path, err)
	}
	// A file system without locks goes on unlocked, as brokers did.
	l := &storeLock{f: f}
	l.say("")
	return l, nil
}

// say writes who holds the lock, for the next broker's refusal.
func (l *storeLock) say(url string) {
	s := "pid " + strconv.Itoa(os.Getpid())
	if url != "" {
		s += ", listening on " + url
	}
	_ = l.f.Truncate(0)
	_, _ = l.f.WriteAt([]byte(s+"\n"), 0)
}

func (l *storeLock) release() { l.f.Close() }
