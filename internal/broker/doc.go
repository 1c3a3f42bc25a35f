// Package broker carries a run's inbox over NATS JetStream (issue 21,
// docs/distributed.md): the orchestrating `jaiph run --inbox nats://…`
// publishes each message × route target as one delivery (Transport), any
// number of `jaiph worker` processes claim deliveries with leases and run
// their targets (Worker), and `jaiph broker` serves an embedded JetStream
// server (Serve).
//
// JetStream does not fence a stale worker (its late ack and heartbeats are
// accepted; ../shared/design/broker-notes.md), so the claim lives in a KV
// ledger updated by compare-and-set on its revision: a worker whose claim
// was taken over stops its target and reports nothing.
//
// Only the jaiph-full build links this package (cmd/jaiph, build tag
// nats): the default binary pays none of its start-up cost.
package broker
