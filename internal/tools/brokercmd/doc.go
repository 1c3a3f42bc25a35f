// Package brokercmd holds the command-line side of broker runs: `jaiph
// broker`, `jaiph worker`, the `--inbox URL` option of run, resume and
// redrive, and the hand-over to jaiph-nats.
//
// The default jaiph build links no broker code (its package initialisation
// would cost every command start-up time): these commands and runs with an
// inbox URL replace the process with jaiph-nats, the same CLI built with
// `-tags nats` (cmd/jaiph/dist_nats.go sets ServeBroker and ServeWorker
// there), which `make build` writes beside jaiph. This package must not
// import internal/broker.
package brokercmd
