//go:build !linux

package runtime

import "syscall"

func LandlockAvailable() bool { return false }

func restrictWrites([]string) error { return syscall.ENOSYS }

func execProgram(path string, argv, env []string) error { return syscall.Exec(path, argv, env) }
