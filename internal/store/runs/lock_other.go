//go:build !(darwin || dragonfly || freebsd || linux || netbsd || openbsd)

package runs

import "os"

// Lock opens the run directory; without flock nothing holds it, so a live
// run on this system is listed from its files alone.
func Lock(dir string) (*os.File, error) { return os.Open(dir) }

// Locked is always false without flock.
func Locked(dir string) bool { return false }

func alive(pid int) bool { return true }
