package otlp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/jaiph-go/jaiph/internal/engine"
	"github.com/jaiph-go/jaiph/internal/envflag"
)

// ShutdownWait bounds how long a live export may delay the end of `jaiph
// run` once the run is over (a dead or black-holed collector).
const ShutdownWait = 2 * time.Second

// ExportWait bounds an offline export (ExportRunDir), as
// OTEL_EXPORTER_OTLP_TIMEOUT's default bounds one request.
const ExportWait = 10 * time.Second

// exportBatch is the batch span processor's default batch size.
const exportBatch = 512

// errNoEndpoint names the variables that switch export on.
var errNoEndpoint = errors.New("no OTLP endpoint: set OTEL_EXPORTER_OTLP_ENDPOINT (e.g. http://127.0.0.1:4318) or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT")

// Enabled reports whether environ asks for trace export.
func Enabled(environ []string) bool {
	return lookup(environ, "OTEL_EXPORTER_OTLP_ENDPOINT") != "" || lookup(environ, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != ""
}

func lookup(environ []string, name string) string {
	v := ""
	for _, kv := range environ {
		if k, val, ok := strings.Cut(kv, "="); ok && k == name {
			v = val // the last one wins, as in exec
		}
	}
	return v
}

// provider is a tracer provider whose spans go to proc(the OTLP exporter),
// its resource service.name "jaiph" unless OTEL_SERVICE_NAME or
// OTEL_RESOURCE_ATTRIBUTES (read from environ, like the exporter's
// variables) say otherwise.
func provider(ctx context.Context, environ []string, proc func(sdktrace.SpanExporter) sdktrace.SpanProcessor, extra ...attribute.KeyValue) (*sdktrace.TracerProvider, sdktrace.SpanExporter, error) {
	exp, err := newExporter(environ)
	if err != nil {
		return nil, nil, err
	}
	attrs := append([]attribute.KeyValue{attribute.String("service.name", "jaiph")}, extra...)
	for _, kv := range pairs(lookup(environ, "OTEL_RESOURCE_ATTRIBUTES")) {
		attrs = append(attrs, attribute.String(kv[0], kv[1]))
	}
	if name := lookup(environ, "OTEL_SERVICE_NAME"); name != "" {
		attrs = append(attrs, attribute.String("service.name", name))
	}
	// Later attributes win.
	res, err := resource.New(ctx, resource.WithTelemetrySDK(), resource.WithAttributes(attrs...))
	if err != nil {
		return nil, nil, err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithResource(res), sdktrace.WithSpanProcessor(proc(exp)))
	return tp, exp, nil
}

// Live exports a run's trace while it runs: it is the run's event.Observer
// and Close sends what is left.
type Live struct {
	*Spans
	tp    *sdktrace.TracerProvider
	debug io.Writer // where the first export error goes; nil: nowhere
	errs  *firstError
}

// Start returns the live exporter when environ asks for one, else nil.
// Export never changes the run's output or status: errors (an unreachable
// collector, a rejected batch) are dropped, or reported as one line on
// stderr by Close when JAIPH_DEBUG=true.
func Start(environ []string, stderr io.Writer) *Live {
	if !Enabled(environ) {
		return nil
	}
	errs := &firstError{}
	// The SDK reports batch failures to the global handler, whose default
	// logs to stderr mid-run.
	otel.SetErrorHandler(otel.ErrorHandlerFunc(errs.note))
	tp, _, err := provider(context.Background(), environ, func(e sdktrace.SpanExporter) sdktrace.SpanProcessor {
		return sdktrace.NewBatchSpanProcessor(e)
	})
	l := &Live{tp: tp, errs: errs}
	if envflag.True(lookup(environ, "JAIPH_DEBUG")) {
		l.debug = stderr
	}
	if err != nil {
		errs.note(err)
		l.Spans = NewSpans(sdktrace.NewTracerProvider().Tracer("jaiph")) // spans go nowhere
		return l
	}
	l.Spans = NewSpans(tp.Tracer("jaiph"))
	return l
}

// Close ends the trace and sends the spans not yet sent, waiting at most
// ShutdownWait.
func (l *Live) Close() {
	l.End()
	if l.tp != nil {
		ctx, cancel := context.WithTimeout(context.Background(), ShutdownWait)
		defer cancel()
		l.errs.note(l.tp.Shutdown(ctx))
	}
	if err := l.errs.get(); err != nil && l.debug != nil {
		fmt.Fprintf(l.debug, "jaiph: OTLP trace export failed: %v\n", oneLine(err))
	}
}

// ExportRunDir sends the trace of a finished (or interrupted) run from its
// run_summary.jsonl, replayed through the same Spans as a live run. It
// fails when environ sets no endpoint, the summary cannot be read or the
// collector does not accept the spans.
func ExportRunDir(ctx context.Context, runDir string, environ []string) error {
	return ExportRunDirMarked(ctx, runDir, environ, "")
}

// ExportRunDirMarked is ExportRunDir with the verdict on the run's summary
// (sealed, unsealed, tampered or unverifiable: internal/store/chain) as
// the trace's resource attribute jaiph.integrity ("": none).
func ExportRunDirMarked(ctx context.Context, runDir string, environ []string, integrity string) error {
	if !Enabled(environ) {
		return errNoEndpoint
	}
	ctx, cancel := context.WithTimeout(ctx, ExportWait)
	defer cancel()
	events, err := ReadSummary(filepath.Join(runDir, "run_summary.jsonl"))
	if errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s is not a run directory (it has no run_summary.jsonl)", runDir)
	}
	if err != nil {
		return err
	}
	if len(events) == 0 {
		return fmt.Errorf("%s: no events in run_summary.jsonl", runDir)
	}
	// Spans are collected, then sent here, so that an export error is ours
	// to return (a batch processor would hand it to the global handler).
	rec := &recorder{}
	var mark []attribute.KeyValue
	if integrity != "" {
		mark = append(mark, attribute.String("jaiph.integrity", integrity))
	}
	tp, exp, err := provider(ctx, environ, func(sdktrace.SpanExporter) sdktrace.SpanProcessor { return rec }, mark...)
	if err != nil {
		return err
	}
	spans := NewSpans(tp.Tracer("jaiph"))
	for _, e := range events {
		spans.Event(e)
	}
	spans.End()
	// Requests of at most exportBatch spans, as the live batch processor
	// sends them: collectors cap a request's size.
	for sent := 0; sent < len(rec.ended); sent += exportBatch {
		if err := exp.ExportSpans(ctx, rec.ended[sent:min(sent+exportBatch, len(rec.ended))]); err != nil {
			return fmt.Errorf("OTLP export: %v", oneLine(err))
		}
	}
	return exp.Shutdown(ctx)
}

// recorder keeps the spans ExportRunDir ends (it ends them on one
// goroutine).
type recorder struct{ ended []sdktrace.ReadOnlySpan }

func (r *recorder) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (r *recorder) OnEnd(s sdktrace.ReadOnlySpan)                   { r.ended = append(r.ended, s) }
func (r *recorder) Shutdown(context.Context) error                  { return nil }
func (r *recorder) ForceFlush(context.Context) error                { return nil }

// firstError keeps the first error of several goroutines.
type firstError struct {
	mu  sync.Mutex
	err error
}

func (f *firstError) note(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err == nil {
		f.err = err
	}
}

func (f *firstError) get() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.err
}

func oneLine(err error) string {
	return strings.Join(strings.Fields(err.Error()), " ")
}

// Install makes runs export their trace live when their environment names
// an endpoint (the jaiph-full build calls it; engine.RegisterTracer).
func Install() {
	engine.RegisterTracer(func(environ []string, stderr io.Writer) engine.Tracer {
		if l := Start(environ, stderr); l != nil {
			return l
		}
		return nil // not a typed nil: the watchers test for none
	})
}
