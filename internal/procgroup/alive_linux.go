package procgroup

import (
	"bytes"
	"os"
	"strconv"
)

// othersAlive reports whether a live process other than the caller is in
// process group pgid, from /proc (zombies do not count: they are dead).
func othersAlive(pgid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return true
	}
	self := os.Getpid()
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == self {
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
		if len(f) >= 3 && string(f[0]) != "Z" && string(f[2]) == strconv.Itoa(pgid) {
			return true
		}
	}
	return false
}

// groupAlive reports whether a live process is in group pgid (the caller is
// not in it).
func groupAlive(pgid int) bool { return othersAlive(pgid) }
