// Package event holds the record of one thing that happened during a run:
// the Event type, its type constants, the Observer that receives events as
// they happen, and the JSON line each event becomes in run_summary.jsonl
// (docs/run-directory.md#run_summaryjsonl; the byte layout is a contract),
// and the one reader of such lines: Decode and Read give each line as
// written (a Record), Parse and ReadEvents the Event it is. Every package
// that reads a summary reads it through these, and names event types by
// the constants only (TestTypeNamesOnlyHere).
//
// It opens no files (the runtime writes the summary, its readers open it),
// and must not depend on runtime, progress, hooks or any other jaiph
// package: those import event, so any of them can read an event without
// the others.
package event
