// Package inbox is a run's inbox directory on disk (docs/inbox-files.md):
// the names of its files (layout.go) and reading them back for `jaiph
// inbox`, `jaiph runs`, the FAIL block's dead-letter list and `jaiph
// redrive`: the queue journals (which messages exist), the delivery log
// inbox/.deliveries (each attempt's start and end, dead letters) or, for
// runs without one, the dispatch events of run_summary.jsonl. Message
// files hold payloads with the run's credentials masked; the real ones
// are kept among the run's records (private.go). It reads what a run
// killed with kill -9 left too, and never imports the runtime.
package inbox
