//go:build !linux

package procgroup

import "syscall"

// othersAlive cannot list a group's members without /proc: the keeper waits
// the whole grace period before it kills the group.
func othersAlive(int) bool { return true }

// groupAlive reports whether group pgid still has a process (zombies
// included, which only delays the end until the kill deadline).
func groupAlive(pgid int) bool { return syscall.Kill(-pgid, 0) == nil }
