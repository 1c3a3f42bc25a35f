package procgroup

import (
	"os"
	"os/signal"
	"syscall"
	"time"
)

// keep is the keeper's whole life: hold the group until jaiph says "q" or
// is gone, and in the second case end the group.
func keep() {
	// Signals sent to the whole group are meant for the programs.
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT,
		syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGPIPE)
	var b [1]byte
	if n, _ := os.Stdin.Read(b[:]); n == 1 && b[0] == 'q' {
		return
	}
	// jaiph died without ending the run.
	pgid := syscall.Getpgrp()
	_ = syscall.Kill(-pgid, syscall.SIGTERM)
	deadline := time.Now().Add(KillDelay)
	for time.Now().Before(deadline) && othersAlive(pgid) {
		time.Sleep(20 * time.Millisecond)
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL) // the keeper too
}
