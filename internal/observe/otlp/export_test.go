package otlp_test

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jaiph-go/jaiph/internal/observe/otlp"
)

// The fixture is the summary of a run of workflow (live_test.go), its paths
// under /ws: replayed, it gives the live run's tree.
func TestExportRunDir(t *testing.T) {
	rcv := newReceiver(t)
	// The settings come from the environment given, not the process's.
	env := []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + rcv.URL + "/", "OTEL_SERVICE_NAME=nightly",
		"OTEL_RESOURCE_ATTRIBUTES=service.name=ignored,team=q%20a"}
	if err := otlp.ExportRunDir(context.Background(), "testdata/run", env); err != nil {
		t.Fatal(err)
	}
	root := rcv.trace(t)
	if got := render(root); got != wantTree {
		t.Errorf("trace:\n%s\nwant:\n%s", got, wantTree)
	}
	if root.resource["service.name"] != "nightly" || root.resource["team"] != "q a" {
		t.Errorf("resource = %v, want OTEL_SERVICE_NAME's service.name and team \"q a\"", root.resource)
	}
	checkStepAttrs(t, root, "/ws/.jaiph/runs/2026-11-23/07-22-00-main.jh")
	// Second-resolution times: spans start at their ts and last elapsed_ms.
	ts := time.Date(2026, 11, 23, 7, 22, 0, 0, time.UTC)
	top := root.children[0]
	if root.StartTimeUnixNano != uint64(ts.UnixNano()) || top.StartTimeUnixNano != uint64(ts.UnixNano()) {
		t.Errorf("start times %d %d, want %d", root.StartTimeUnixNano, top.StartTimeUnixNano, ts.UnixNano())
	}
	if d := time.Duration(top.EndTimeUnixNano - top.StartTimeUnixNano); d != 79*time.Millisecond {
		t.Errorf("workflow default lasted %v, want its elapsed_ms 79", d)
	}
	if root.EndTimeUnixNano != top.EndTimeUnixNano {
		t.Errorf("the run ends at %d, its last call at %d", root.EndTimeUnixNano, top.EndTimeUnixNano)
	}
}

// A crash can leave a torn last line: the calls it did not end are errors
// and so is the run.
func TestExportRunDirTorn(t *testing.T) {
	data, err := os.ReadFile("testdata/run/run_summary.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.SplitAfter(string(data), "\n")
	// Up to the analyst's LOG, then half a line.
	cut := strings.Join(lines[:17], "") + lines[17][:40]
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "run_summary.jsonl"), []byte(cut), 0o644); err != nil {
		t.Fatal(err)
	}
	rcv := newReceiver(t)
	if err := otlp.ExportRunDir(context.Background(), dir, []string{"OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=" + rcv.URL + "/v1/traces"}); err != nil {
		t.Fatal(err)
	}
	want := `jaiph run main.jh ERROR(the run failed)
  * INBOX_ENQUEUE channel="findings" sender="default" inbox_seq="001" payload_preview="payload"
  * INBOX_DISPATCH_START channel="findings" sender="default" target="main::analyst" inbox_seq="001"
  workflow default ERROR(no STEP_END: the run was interrupted) func="main::default"
    * LOG message="hello log"
    * LOGERR message="flaky failed; carrying on"
    rule ready func="main::ready" status="0" param.arg1="yes"
    function helper func="main::helper" status="0" param.arg1="x y"
    workflow flaky ERROR(exit status 3) func="main::flaky" status="3"
    workflow analyst ERROR(no STEP_END: the run was interrupted) func="main::analyst" dispatched="true" channel="findings" sender="default" param.arg1="payload" param.arg2="findings" param.arg3="default"
      * LOG message="analyst got payload"
`
	if got := render(rcv.trace(t)); got != want {
		t.Errorf("trace:\n%s\nwant:\n%s", got, want)
	}
}

func TestExportRunDirErrors(t *testing.T) {
	t.Setenv("OTEL_EXPORTER_OTLP_ENDPOINT", "http://127.0.0.1:1") // not what counts
	err := otlp.ExportRunDir(context.Background(), "testdata/run", []string{"PATH=/bin", "OTEL_EXPORTER_OTLP_ENDPOINT="})
	if err == nil || !strings.Contains(err.Error(), "OTEL_EXPORTER_OTLP_ENDPOINT") {
		t.Errorf("without an endpoint: %v, want an error naming OTEL_EXPORTER_OTLP_ENDPOINT", err)
	}

	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	env := []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://" + ln.Addr().String()}
	ln.Close()
	err = otlp.ExportRunDir(context.Background(), "testdata/run", env)
	if err == nil || !strings.Contains(err.Error(), "refused") {
		t.Errorf("with nobody listening: %v, want connection refused", err)
	}

	err = otlp.ExportRunDir(context.Background(), t.TempDir(), env)
	if err == nil || !strings.HasSuffix(err.Error(), " is not a run directory (it has no run_summary.jsonl)") {
		t.Errorf("a directory without a summary: %v, want not a run directory", err)
	}
}

// The exporter's standard variables: traces-specific ones win, headers are
// percent-decoded, gzip is sent as such; a collector's error status and an
// endpoint that is not a URL are errors.
func TestExporterSettings(t *testing.T) {
	rcv := newReceiver(t)
	env := []string{"OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:1", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=" + rcv.URL + "/v1/traces",
		"OTEL_EXPORTER_OTLP_HEADERS=x-general=1", "OTEL_EXPORTER_OTLP_TRACES_HEADERS=Authorization=Bearer%20t0k,x-team = qa ",
		"OTEL_EXPORTER_OTLP_COMPRESSION=gzip"}
	if err := otlp.ExportRunDir(context.Background(), "testdata/run", env); err != nil {
		t.Fatal(err)
	}
	if got := render(rcv.trace(t)); got != wantTree {
		t.Errorf("trace:\n%s", got)
	}
	h := rcv.headers[0]
	if h.Get("Authorization") != "Bearer t0k" || h.Get("X-Team") != "qa" || h.Get("X-General") != "" || h.Get("Content-Encoding") != "gzip" {
		t.Errorf("headers %v", h)
	}

	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "no", http.StatusServiceUnavailable)
	}))
	defer failing.Close()
	err := otlp.ExportRunDir(context.Background(), "testdata/run", []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + failing.URL})
	if err == nil || !strings.Contains(err.Error(), "503") {
		t.Errorf("a collector answering 503: %v", err)
	}
	err = otlp.ExportRunDir(context.Background(), "testdata/run", []string{"OTEL_EXPORTER_OTLP_ENDPOINT=localhost:4318"})
	if err == nil || !strings.Contains(err.Error(), "http://") {
		t.Errorf("an endpoint without a scheme: %v", err)
	}
}

// A collector that cannot take a batch for now (429, 502, 503, 504) gets
// it again, after a backoff or the Retry-After it asked for, up to 5
// attempts; any other refusal, or the fifth, is an error at once.
func TestExportRetries(t *testing.T) {
	for _, tc := range []struct {
		name       string
		refuse     []int
		retryAfter string
		requests   int    // the collector saw
		err        string // "" when the export succeeds
	}{
		{"503 then 502 then taken", []int{503, 502}, "", 3, ""},
		{"429 with Retry-After 0, 504, taken", []int{429, 504}, "0", 3, ""},
		{"400 is not retried", []int{400}, "", 1, "400 Bad Request"},
		{"413 is not retried", []int{413}, "", 1, "413 Request Entity Too Large"},
		{"503 five times", []int{503, 503, 503, 503, 503, 503}, "", 5, "503 Service Unavailable (attempt 5)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rcv := newReceiver(t)
			rcv.refuse, rcv.retryAfter = tc.refuse, tc.retryAfter
			err := otlp.ExportRunDir(context.Background(), "testdata/run", []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + rcv.URL})
			if n := len(rcv.headers); n != tc.requests {
				t.Errorf("the collector saw %d requests, want %d", n, tc.requests)
			}
			switch {
			case tc.err == "" && err != nil:
				t.Fatal(err)
			case tc.err == "":
				if got := render(rcv.trace(t)); got != wantTree {
					t.Errorf("trace after the retries:\n%s", got)
				}
			case err == nil || !strings.HasSuffix(err.Error(), tc.err):
				t.Errorf("error %v, want one ending %q", err, tc.err)
			}
		})
	}

	// A Retry-After past the export's deadline is not waited for.
	rcv := newReceiver(t)
	// A wait would last until the context's end (4 s); not waiting takes one
	// request. The bound between them (3 s) leaves a loaded machine room:
	// with a 1 s deadline and a 0.9 s bound it did not.
	rcv.refuse, rcv.retryAfter = []int{503}, "5"
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
	defer cancel()
	start := time.Now()
	err := otlp.ExportRunDir(ctx, "testdata/run", []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + rcv.URL})
	if err == nil || !strings.Contains(err.Error(), "503") || len(rcv.headers) != 1 {
		t.Errorf("Retry-After past the deadline: %v after %d requests, want the 503 after 1", err, len(rcv.headers))
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the export waited %v for a Retry-After past its deadline", d)
	}
}

// Start and Close in-process (under -race in make test): the first events
// arrive on another goroutine (the runtime serialises its calls but not on
// one goroutine), the batch processor sends from its own, Close from this.
func TestLiveInProcess(t *testing.T) {
	if otlp.Start([]string{"OTEL_EXPORTER_OTLP_ENDPOINT="}, nil) != nil {
		t.Error("an empty endpoint started an exporter")
	}
	events, err := otlp.ReadSummary("testdata/run/run_summary.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	rcv := newReceiver(t)
	var stderr strings.Builder
	live := otlp.Start([]string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + rcv.URL, "JAIPH_DEBUG=true"}, &stderr)
	done := make(chan bool)
	go func() {
		for _, e := range events[:3] {
			live.Event(e)
		}
		done <- true
	}()
	<-done
	for _, e := range events[3:] {
		live.Event(e)
	}
	live.Close()
	if got := render(rcv.trace(t)); got != wantTree {
		t.Errorf("trace:\n%s\nwant:\n%s", got, wantTree)
	}
	if stderr.Len() != 0 {
		t.Errorf("stderr %q", stderr.String())
	}
}

// A big run goes in requests of at most 512 spans, one trace still.
func TestExportRunDirBatches(t *testing.T) {
	var b strings.Builder
	step := func(typ, id, parent string, seq, depth int) {
		p, status := `null`, `"status":null,"elapsed_ms":null,"out_file":"","err_file":""`
		if parent != "" {
			p = `"` + parent + `"`
		}
		if typ == "STEP_END" {
			status = `"status":0,"elapsed_ms":1,"out_file":"","err_file":""`
		}
		fmt.Fprintf(&b, `{"type":"%s","func":"main::s","kind":"workflow","name":"s","ts":"2026-11-23T07:00:00Z",%s,"id":"%s","parent_id":%s,"seq":%d,"depth":%d,"run_id":"r","params":[],"event_version":1}`+"\n",
			typ, status, id, p, seq, depth)
	}
	step("STEP_START", "r:1:1", "", 1, 0)
	for i := 2; i <= 700; i++ {
		id := fmt.Sprintf("r:1:%d", i)
		step("STEP_START", id, "r:1:1", i, 1)
		step("STEP_END", id, "r:1:1", i, 1)
	}
	step("STEP_END", "r:1:1", "", 1, 0)
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "run_summary.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	rcv := newReceiver(t)
	if err := otlp.ExportRunDir(context.Background(), dir, []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + rcv.URL}); err != nil {
		t.Fatal(err)
	}
	root := rcv.trace(t)
	if len(rcv.requests) != 2 || len(root.children) != 1 || len(root.children[0].children) != 699 {
		t.Errorf("%d requests, %d root calls, %d children", len(rcv.requests), len(root.children), len(root.children[0].children))
	}
}

// `jaiph report --otlp RUN_DIR` is ExportRunDir from the command line, with
// the process's environment: the same trace, nothing on stdout, exit 0.
func TestReportOTLPCommand(t *testing.T) {
	rcv := newReceiver(t)
	cmd := exec.Command(jaiph, "report", "--otlp", "testdata/run")
	cmd.Env = append(os.Environ(), "OTEL_EXPORTER_OTLP_ENDPOINT="+rcv.URL)
	out, err := cmd.CombinedOutput()
	if err != nil || len(out) != 0 {
		t.Fatalf("jaiph report --otlp: %v\n%s", err, out)
	}
	if got := render(rcv.trace(t)); got != wantTree {
		t.Errorf("trace:\n%s\nwant:\n%s", got, wantTree)
	}
}

// `jaiph report --otlp` tells the collector whether the run's summary
// verifies (jaiph.integrity on the resource) and refuses a tampered run
// unless --force; a run without a key (testdata/run: no records) is sent,
// marked unverifiable.
func TestReportOTLPIntegrity(t *testing.T) {
	r := runJaiph(t)
	send := func(args ...string) (*receiver, string, error) {
		rcv := newReceiver(t)
		cmd := exec.Command(jaiph, append([]string{"report", "--otlp"}, args...)...)
		cmd.Env = append(cleanEnv(), "OTEL_EXPORTER_OTLP_ENDPOINT="+rcv.URL)
		out, err := cmd.CombinedOutput()
		return rcv, string(out), err
	}
	rcv, out, err := send(r.runDir)
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if got := rcv.trace(t).resource["jaiph.integrity"]; got != "sealed" {
		t.Errorf("jaiph.integrity = %q, want sealed", got)
	}
	rcv, _, _ = send("testdata/run")
	if got := rcv.trace(t).resource["jaiph.integrity"]; got != "unverifiable" {
		t.Errorf("jaiph.integrity = %q, want unverifiable", got)
	}
	p := filepath.Join(r.runDir, "run_summary.jsonl")
	data, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, bytes.Replace(data, []byte(`"status":3`), []byte(`"status":0`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	rcv, out, err = send(r.runDir)
	if err == nil || !strings.Contains(out, "is tampered: run_summary.jsonl line ") || !strings.Contains(out, "--force") || len(rcv.requests) != 0 {
		t.Fatalf("a tampered run: %v, %d requests\n%s", err, len(rcv.requests), out)
	}
	rcv, out, err = send(r.runDir, "--force")
	if err != nil {
		t.Fatalf("--force: %v\n%s", err, out)
	}
	if got := rcv.trace(t).resource["jaiph.integrity"]; got != "tampered" {
		t.Errorf("jaiph.integrity = %q, want tampered", got)
	}
}
