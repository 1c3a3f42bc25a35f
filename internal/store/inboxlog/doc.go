// Package inboxlog reads a run's inbox from disk (docs/inbox-files.md) for
// `jaiph inbox` and the FAIL block's dead-letter list: the queue journals
// (which messages exist), the delivery log inbox/.deliveries (each
// attempt's start and end, dead letters) or, for runs without one, the
// dispatch events of run_summary.jsonl. It reads what a run killed with
// kill -9 left too, and never imports the runtime that writes these files.
package inboxlog
