// Package progress renders the run's event stream as the reference's progress
// tree (docs/cli.md#the-progress-tree): step start/end lines, log lines, parameter display,
// the PASS line and the FAIL block, and the live parts (the TTY RUNNING
// line, non-TTY heartbeats; live.go). It only formats; the runtime decides
// what happens.
//
// It must not import the runtime: it reads events (package event) and plain
// values, and it never decides a run's outcome.
package progress
