// Package event holds the record of one thing that happened during a run:
// the Event type, its type constants, the Observer that receives events as
// they happen, and the JSON line each event becomes in run_summary.jsonl
// (docs/run-directory.md#run_summaryjsonl; the byte layout is a contract), and Parse,
// which reads such a line back.
//
// It must not do I/O beyond encoding and decoding (the runtime writes the summary file),
// and must not depend on runtime, progress, hooks or any other jaiph package:
// those import event, so any of them can read an event without the others.
package event
