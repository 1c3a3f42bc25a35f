//go:build !linux

package procgroup

import "syscall"

// groupAlive reports whether group pgid still has a process (zombies
// included, which only delays the end until the kill deadline).
func groupAlive(pgid int) bool { return syscall.Kill(-pgid, 0) == nil }
