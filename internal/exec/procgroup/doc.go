// Package procgroup gives a run one process group for every program it
// starts, so that a signal reaches all of their descendants, stragglers are
// killed after a grace period, and nothing keeps running after jaiph itself
// is killed with SIGKILL.
//
// The group is led by a keeper: a tiny /bin/sh script (keeper.go) that
// holds the group open for the whole run, so
// programs can always join it and its number is never reused while the run
// lives. The keeper's stdin is a pipe from jaiph. When jaiph ends normally
// it writes "q" and the keeper leaves quietly; when jaiph dies (any signal,
// SIGKILL included) the pipe reaches end of file and the keeper sends
// SIGTERM to the group, then SIGKILL to whatever is left 2 s later. A pipe
// is used rather than Linux's PR_SET_PDEATHSIG because the latter fires
// when the forking thread (not process) exits, and Go may end threads; a
// pipe works the same on every Unix.
//
// Programs in the run's group are not in the terminal's foreground group:
// Ctrl-C reaches jaiph alone, which records the signal before it forwards
// it, and a program that reads the terminal directly is stopped (SIGTTIN)
// as in any background job. This package does not decide when a run is
// interrupted; it is told (Interrupt) and does the signalling.
package procgroup
