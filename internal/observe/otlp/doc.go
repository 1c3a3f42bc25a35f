// Package otlp turns a run's events into one OpenTelemetry trace and sends
// it to an OTLP/HTTP collector: live, as an event.Observer of `jaiph run`
// when OTEL_EXPORTER_OTLP_ENDPOINT (or …_TRACES_ENDPOINT) is set (Start,
// Live.Close), or afterwards from a run directory's run_summary.jsonl
// (ExportRunDir; event.ReadEvents reads the summary back).
//
// Spans builds the trace with the OpenTelemetry SDK; the exporter is ours
// (http/protobuf only), because the SDK's otlptracehttp links gRPC into
// every jaiph start (docs/performance.md). Its settings are the standard
// OTEL_EXPORTER_OTLP_* variables, OTEL_SERVICE_NAME (default "jaiph") and
// OTEL_RESOURCE_ATTRIBUTES, read from the environment given, not the
// process's; the SDK's own (OTEL_BSP_*, OTEL_TRACES_SAMPLER) come from the
// process environment, which for `jaiph run` is the same. Export never
// changes a run's output or status: errors are dropped (one stderr line
// with JAIPH_DEBUG=true) and a dead collector delays the exit by at most
// ShutdownWait.
package otlp
