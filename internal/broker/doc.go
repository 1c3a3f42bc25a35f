// Package broker carries a run's inbox over NATS JetStream
// (docs/distributed.md): the orchestrating `jaiph run --inbox nats://…`
// publishes each message × route target as one delivery (Transport), any
// number of `jaiph worker` processes claim deliveries with leases and run
// their targets (Worker), `jaiph broker` serves an embedded JetStream
// server, alone or as one node of a cluster (Serve), and prunes the state
// of runs inactive past a window (Prune, StartJanitor).
//
// JetStream does not fence a stale worker (its late ack and heartbeats are
// accepted), so the claim lives in a KV ledger updated by compare-and-set
// on its revision: a worker whose claim was taken over stops its target and
// reports nothing. Each run has its own lease; the orchestrator's watchdog
// queues again a delivery nothing is moving, so no fault leaves a run
// waiting for ever.
//
// Only the jaiph-full build links this package (cmd/jaiph, build tag
// full): the default binary pays none of its start-up cost.
package broker
