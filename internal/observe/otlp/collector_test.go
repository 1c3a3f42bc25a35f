package otlp_test

import (
	"bytes"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// collectorBinary is the OpenTelemetry Collector `make otelcol` builds
// (testdata/otelcol/manifest.yaml), or JAIPH_TEST_OTELCOL. Without it the
// test skips, or fails under CI=true.
func collectorBinary(t *testing.T) string {
	t.Helper()
	bin := os.Getenv("JAIPH_TEST_OTELCOL")
	if bin == "" {
		bin, _ = filepath.Abs(filepath.Join("..", "..", "..", "bin", "otelcol", "otelcol-jaiph"))
	}
	if _, err := os.Stat(bin); err != nil {
		msg := fmt.Sprintf("no OpenTelemetry Collector at %s (make otelcol builds it)", bin)
		if os.Getenv("CI") == "true" {
			t.Fatal(msg + "; CI=true forbids skipping this test")
		}
		t.Skip(msg)
	}
	return bin
}

// spans counts the spans the receiver got so far.
func (r *receiver) spans() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	n := 0
	for _, req := range r.requests {
		for _, rs := range req.ResourceSpans {
			for _, ss := range rs.ScopeSpans {
				n += len(ss.Spans)
			}
		}
	}
	return n
}

// lockedBuffer is the collector's log, written by its process.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestRealCollector sends a live run's trace through a real OpenTelemetry
// Collector (its OTLP/HTTP receiver, forwarding with its otlphttp
// exporter) to the test's receiver: the collector takes what jaiph sends
// (protobuf, its headers, resource and attributes) and the trace that
// comes out is the one jaiph sends straight to a receiver, span for span.
func TestRealCollector(t *testing.T) {
	bin := collectorBinary(t)
	direct := newReceiver(t)
	plain := runJaiph(t, "OTEL_EXPORTER_OTLP_ENDPOINT="+direct.URL, "OTEL_RESOURCE_ATTRIBUTES=team=qa")
	want := render(direct.trace(t))

	out := newReceiver(t)
	// A port for the collector's receiver: taken, then freed for it.
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	config := fmt.Sprintf(`receivers:
  otlp:
    protocols:
      http:
        endpoint: %s
exporters:
  otlphttp:
    endpoint: %s
    compression: none
    retry_on_failure:
      enabled: false
  debug:
    verbosity: basic
service:
  telemetry:
    metrics:
      level: none
  pipelines:
    traces:
      receivers: [otlp]
      exporters: [otlphttp, debug]
`, addr, out.URL)
	cfg := filepath.Join(t.TempDir(), "collector.yaml")
	if err := os.WriteFile(cfg, []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	var log lockedBuffer
	cmd := exec.Command(bin, "--config", "file:"+cfg)
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	done := make(chan struct{})
	go func() { exited <- cmd.Wait(); close(done) }()
	t.Cleanup(func() {
		cmd.Process.Kill()
		<-done
	})
	// Ready when its receiver accepts connections (a hang guard, not a
	// timing assumption: it is usually up in well under a second).
	for deadline := time.Now().Add(2 * time.Minute); ; {
		if c, err := net.Dial("tcp", addr); err == nil {
			c.Close()
			break
		}
		select {
		case err := <-exited:
			t.Fatalf("the collector exited (%v):\n%s", err, log.String())
		default:
		}
		if time.Now().After(deadline) {
			t.Fatalf("the collector did not listen on %s:\n%s", addr, log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}

	traced := runJaiph(t, "OTEL_EXPORTER_OTLP_ENDPOINT=http://"+addr, "OTEL_RESOURCE_ATTRIBUTES=team=qa")
	sameOutput(t, "through a collector", plain, traced)
	// The collector forwards on its own time: until every span is through.
	wantSpans := direct.spans()
	for deadline := time.Now().Add(2 * time.Minute); out.spans() < wantSpans; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the collector forwarded %d of %d spans:\n%s", out.spans(), wantSpans, log.String())
		}
	}
	root := out.trace(t)
	if got := render(root); got != want || got != wantTree {
		t.Errorf("trace through the collector:\n%s\nwant:\n%s", got, want)
	}
	if root.resource["service.name"] != "jaiph" || root.resource["team"] != "qa" {
		t.Errorf("resource = %v, want service.name jaiph and team qa", root.resource)
	}
	checkStepAttrs(t, root, traced.runDir)
	if strings.Contains(log.String(), "\terror\t") {
		t.Errorf("the collector logged an error:\n%s", log.String())
	}
}
