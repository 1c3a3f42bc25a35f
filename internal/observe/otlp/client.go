package otlp

import (
	"bytes"
	"compress/gzip"
	"context"
	"crypto/tls"
	"crypto/x509"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	sdktrace "go.opentelemetry.io/otel/sdk/trace"
)

// exporter posts spans to an OTLP/HTTP collector as protobuf
// (http/protobuf, the only protocol jaiph speaks), retrying a batch the
// collector asks to be sent again.
// Its settings are the standard OTEL_EXPORTER_OTLP_* variables, read from
// the run's environment.
type exporter struct {
	url      string
	headers  map[string]string
	gzip     bool
	client   *http.Client
	shutdown atomic.Bool // the batch processor's goroutine reads it
}

// newExporter reads the exporter's variables from environ; the
// traces-specific ones win over the general ones.
func newExporter(environ []string) (*exporter, error) {
	env := map[string]string{}
	for _, kv := range environ {
		if k, v, ok := strings.Cut(kv, "="); ok && strings.HasPrefix(k, "OTEL_EXPORTER_OTLP_") {
			env[k] = v
		}
	}
	get := func(name string) string {
		if v := env["OTEL_EXPORTER_OTLP_TRACES_"+name]; v != "" {
			return v
		}
		return env["OTEL_EXPORTER_OTLP_"+name]
	}
	e := &exporter{url: env["OTEL_EXPORTER_OTLP_TRACES_ENDPOINT"], headers: map[string]string{}}
	if e.url == "" {
		base := env["OTEL_EXPORTER_OTLP_ENDPOINT"]
		if base == "" {
			return nil, errNoEndpoint
		}
		e.url = strings.TrimSuffix(base, "/") + "/v1/traces" // the general endpoint is a base URL
	}
	if u, err := url.Parse(e.url); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("OTLP endpoint %q: want an http:// or https:// URL", e.url)
	}
	for _, kv := range pairs(get("HEADERS")) {
		e.headers[kv[0]] = kv[1]
	}
	e.gzip = get("COMPRESSION") == "gzip"
	timeout := 10 * time.Second
	if ms, err := strconv.Atoi(get("TIMEOUT")); err == nil && ms > 0 {
		timeout = time.Duration(ms) * time.Millisecond
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	if tc, err := tlsConfig(get("CERTIFICATE"), get("CLIENT_CERTIFICATE"), get("CLIENT_KEY")); err != nil {
		return nil, err
	} else if tc != nil {
		tr.TLSClientConfig = tc
	}
	e.client = &http.Client{Timeout: timeout, Transport: tr}
	return e, nil
}

// pairs reads the k=v,k2=v2 lists of OTEL_EXPORTER_OTLP_HEADERS and
// OTEL_RESOURCE_ATTRIBUTES (values percent-encoded); malformed pairs are
// skipped.
func pairs(list string) [][2]string {
	var out [][2]string
	for _, pair := range strings.Split(list, ",") {
		k, v, ok := strings.Cut(pair, "=")
		k = strings.TrimSpace(k)
		if !ok || k == "" {
			continue
		}
		if dv, err := url.PathUnescape(strings.TrimSpace(v)); err == nil {
			out = append(out, [2]string{k, dv})
		}
	}
	return out
}

// tlsConfig trusts caFile's certificates and presents certFile/keyFile,
// when given.
func tlsConfig(caFile, certFile, keyFile string) (*tls.Config, error) {
	if caFile == "" && certFile == "" {
		return nil, nil
	}
	tc := &tls.Config{}
	if caFile != "" {
		pem, err := os.ReadFile(caFile)
		if err != nil {
			return nil, err
		}
		tc.RootCAs = x509.NewCertPool()
		if !tc.RootCAs.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("%s: no PEM certificate", caFile)
		}
	}
	if certFile != "" {
		cert, err := tls.LoadX509KeyPair(certFile, keyFile)
		if err != nil {
			return nil, err
		}
		tc.Certificates = []tls.Certificate{cert}
	}
	return tc, nil
}

// Retries of a batch the collector could not take for now (OTLP/HTTP's
// retryable statuses: 429, 502, 503, 504): at most exportAttempts in all,
// waiting retryBase, then twice as long each time, or the Retry-After the
// collector asked for up to retryAfterMax; never past the context's
// deadline (ShutdownWait at the end of a run, ExportWait for --otlp).
const (
	exportAttempts = 5
	retryBase      = 50 * time.Millisecond
	retryAfterMax  = 5 * time.Second
)

// ExportSpans posts one ExportTraceServiceRequest, retrying the statuses
// OTLP/HTTP calls retryable; any other status but 2xx is an error (the
// body, a google.rpc.Status, is read and dropped).
func (e *exporter) ExportSpans(ctx context.Context, spans []sdktrace.ReadOnlySpan) error {
	if e.shutdown.Load() || len(spans) == 0 {
		return nil
	}
	body := encodeRequest(spans)
	if e.gzip {
		var z bytes.Buffer
		w := gzip.NewWriter(&z)
		w.Write(body)
		w.Close()
		body = z.Bytes()
	}
	wait := retryBase
	for attempt := 1; ; attempt++ {
		resp, err := e.post(ctx, body)
		if err != nil {
			return err
		}
		if resp.StatusCode/100 == 2 {
			return nil
		}
		err = fmt.Errorf("OTLP collector %s answered %s", e.url, resp.Status)
		if attempt > 1 {
			err = fmt.Errorf("%w (attempt %d)", err, attempt)
		}
		switch resp.StatusCode {
		case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		default:
			return err
		}
		if attempt == exportAttempts {
			return err
		}
		pause := wait
		if s, perr := strconv.Atoi(resp.Header.Get("Retry-After")); perr == nil && s >= 0 {
			pause = min(time.Duration(s)*time.Second, retryAfterMax)
		}
		if deadline, ok := ctx.Deadline(); ok && time.Until(deadline) < pause {
			return err
		}
		select {
		case <-ctx.Done():
			return err
		case <-time.After(pause):
		}
		wait *= 2
	}
}

// post sends body once; the response's body is read and closed.
func (e *exporter) post(ctx context.Context, body []byte) (*http.Response, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.url, bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	for k, v := range e.headers {
		req.Header.Set(k, v)
	}
	req.Header.Set("Content-Type", "application/x-protobuf")
	if e.gzip {
		req.Header.Set("Content-Encoding", "gzip")
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return nil, err
	}
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
	return resp, nil
}

// Shutdown makes later exports no-ops.
func (e *exporter) Shutdown(context.Context) error {
	e.shutdown.Store(true)
	e.client.CloseIdleConnections()
	return nil
}
