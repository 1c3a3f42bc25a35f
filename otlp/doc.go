// Package otlp turns a run's events into one OpenTelemetry trace and sends
// it to an OTLP/HTTP collector: live, as an event.Observer of `jaiph run`
// when OTEL_EXPORTER_OTLP_ENDPOINT (or …_TRACES_ENDPOINT) is set, or
// afterwards from a run directory's run_summary.jsonl (ExportRunDir).
package otlp
