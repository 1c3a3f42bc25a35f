// Package fileinbox is the file inbox, the default transport of a run's
// messages (docs/architecture.md "A new inbox transport"): each
// orchestrator's queue is a journal in the run's inbox directory
// (internal/store/inbox writes it), and its deliveries run in this
// process, by the runtime's drain (runtime.Host.DrainHere). It implements
// runtime.Transport as internal/broker does; neither imports the other.
package fileinbox
