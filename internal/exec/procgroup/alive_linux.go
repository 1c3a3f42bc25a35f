package procgroup

import (
	"bytes"
	"os"
	"strconv"
)

// groupAlive reports whether a live process is in process group pgid, from
// /proc: zombies do not count (they are dead; a container's init may never
// reap them).
func groupAlive(pgid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	want := strconv.Itoa(pgid)
	for _, e := range entries {
		if e.Name()[0] < '0' || e.Name()[0] > '9' {
			continue
		}
		stat, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid pgrp …; comm may contain spaces and ')'.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 {
			continue
		}
		f := bytes.Fields(stat[i+1:])
		if len(f) >= 3 && string(f[0]) != "Z" && string(f[2]) == want {
			return true
		}
	}
	return false
}
