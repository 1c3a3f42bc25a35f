package report

import (
	"bytes"
	"encoding/json"
	"flag"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jaiph-go/jaiph/internal/store/runs"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// The fixture runs (testdata/runs/2026-11-23/…), made by jaiph-go itself
// except running (the first lines of pass, its lock held by the test) and
// half (pass with two garbage lines and its last line cut short).
const (
	passRun    = "2026-11-23/07-22-43-pass.jh"
	failRun    = "2026-11-23/07-22-44-fail.jh"
	inboxRun   = "2026-11-23/07-22-45-inbox.jh"
	killedRun  = "2026-11-23/07-22-46-killed.jh"
	resumedRun = "2026-11-23/07-22-49-resumed.jh"
	runningRun = "2026-11-23/07-23-00-running.jh"
	halfRun    = "2026-11-23/07-23-10-half.jh"

	failStep = "12568ead-9940-4336-a1b1-956cac125d09:29985:2" // function compile, status 2, stderr
	passRoot = "96a3afd0-e942-46d6-b6d3-d929c57dd5c5:29622:1"
	passRule = "96a3afd0-e942-46d6-b6d3-d929c57dd5c5:29622:3" // rule ready: an .out, no .err
)

type fixture struct {
	ws, root string
	srv      *Server
	ts       *httptest.Server
	lock     *os.File // the running run's
}

// setup copies testdata/runs into a fresh workspace's .jaiph/runs (the
// summaries' "@ROOT@" becomes its path), gives the passed run the records
// a jaiph run writes, holds the running run's lock, and serves it all.
func setup(t testing.TB) *fixture {
	t.Helper()
	ws, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(ws, ".jaiph", "runs")
	err = filepath.WalkDir("testdata/runs", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		dst := filepath.Join(root, strings.TrimPrefix(p, "testdata/runs"))
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, bytes.ReplaceAll(data, []byte("@ROOT@"), []byte(root)), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	pass := filepath.Join(root, passRun)
	start := time.Date(2026, 11, 23, 7, 22, 43, 0, time.UTC)
	if err := runs.WriteMeta(runs.RecordsDir(pass), &runs.Meta{Version: runs.MetaVersion, RunID: "96a3afd0-e942-46d6-b6d3-d929c57dd5c5", Source: "pass.jh", Start: start, Args: []string{}}); err != nil {
		t.Fatal(err)
	}
	if err := runs.WriteEnd(runs.RecordsDir(pass), &runs.End{Status: runs.Passed, End: start}); err != nil {
		t.Fatal(err)
	}
	lock, err := runs.Lock(filepath.Join(root, runningRun))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { lock.Close() })
	f := &fixture{ws: ws, root: root, srv: Handler(Options{Root: root, PollMS: 250}), lock: lock}
	f.ts = httptest.NewServer(f.srv)
	t.Cleanup(f.ts.Close)
	return f
}

// get fetches url; the body has the runs root replaced by "@ROOT@".
func (f *fixture) get(t testing.TB, url string) (int, string, string) {
	t.Helper()
	res, err := http.Get(f.ts.URL + url)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	if err != nil {
		t.Fatal(err)
	}
	return res.StatusCode, res.Header.Get("Content-Type"), strings.ReplaceAll(string(body), f.root, "@ROOT@")
}

// getJSON fetches url, wanting 200, into v.
func (f *fixture) getJSON(t testing.TB, url string, v any) {
	t.Helper()
	code, _, body := f.get(t, url)
	if code != http.StatusOK {
		t.Fatalf("GET %s: %d %s", url, code, body)
	}
	if err := json.Unmarshal([]byte(body), v); err != nil {
		t.Fatalf("GET %s: %v\n%s", url, err, body)
	}
}

// answer is what a golden file holds for url: the request, status, content
// type and body (JSON indented).
func (f *fixture) answer(t testing.TB, url string) string {
	t.Helper()
	code, ctype, body := f.get(t, url)
	if strings.HasPrefix(ctype, "application/json") {
		var b bytes.Buffer
		if err := json.Indent(&b, []byte(body), "", "  "); err != nil {
			t.Fatalf("not JSON: %v\n%s", err, body)
		}
		body = b.String()
	}
	return "GET " + url + "\n" + http.StatusText(code) + "\n" + ctype + "\n\n" + body
}

func enc(rel string) string { return strings.ReplaceAll(rel, "/", "%2F") }

// TestGolden: every endpoint's answer over the fixture runs, compared with
// testdata/golden/<name>.txt (go test ./report -update rewrites them).
func TestGolden(t *testing.T) {
	f := setup(t)
	for _, c := range []struct{ name, url string }{
		{"runs", "/api/runs"},
		{"runs_page2", "/api/runs?limit=3&page=2"},
		{"runs_offset", "/api/runs?limit=2&offset=5"},
		{"runs_status", "/api/runs?status=interrupted"},
		{"runs_q", "/api/runs?q=INBOX"},
		{"runs_date", "/api/runs?date=2026-11-24"},
		{"runs_huge", "/api/runs?page=9223372036854775807&limit=999999999999"},
		{"runs_junk", "/api/runs?page=-3&limit=x&offset=-9223372036854775808"},
		{"active", "/api/active"},
		{"run_pass", "/api/runs/" + enc(passRun)},
		{"tree_pass", "/api/runs/" + enc(passRun) + "/tree"},
		{"tree_fail", "/api/runs/" + enc(failRun) + "/tree"},
		{"tree_inbox", "/api/runs/" + enc(inboxRun) + "/tree"},
		{"tree_killed", "/api/runs/" + enc(killedRun) + "/tree"},
		{"tree_resumed", "/api/runs/" + enc(resumedRun) + "/tree"},
		{"tree_running", "/api/runs/" + enc(runningRun) + "/tree"},
		{"tree_half", "/api/runs/" + enc(halfRun) + "/tree"},
		{"aggregate_pass", "/api/runs/" + enc(passRun) + "/aggregate"},
		{"aggregate_fail", "/api/runs/" + enc(failRun) + "/aggregate"},
		{"output_fail", "/api/runs/" + enc(failRun) + "/steps/" + failStep + "/output"},
		{"logs_fail_out", "/api/runs/" + enc(failRun) + "/steps/" + failStep + "/logs"},
		{"logs_fail_err", "/api/runs/" + enc(failRun) + "/steps/" + failStep + "/logs?stream=err"},
		{"logs_no_err", "/api/runs/" + enc(passRun) + "/steps/" + passRule + "/logs?stream=err"},
		{"inbox", "/api/runs/" + enc(inboxRun) + "/inbox"},
		{"inbox_none", "/api/runs/" + enc(passRun) + "/inbox"},
		{"err_bad_run", "/api/runs/..%2Fx/tree"},
		{"err_run_not_found", "/api/runs/" + enc("2026-11-23/nope") + "/tree"},
		{"err_step_not_found", "/api/runs/" + enc(passRun) + "/steps/nope/output"},
		{"err_run_endpoint", "/api/runs/" + enc(passRun) + "/bogus"},
		{"err_runs_empty", "/api/runs/"},
		{"err_api", "/api/nope"},
		{"config", "/api/config"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := f.answer(t, c.url)
			path := filepath.Join("testdata", "golden", c.name+".txt")
			if *update {
				os.MkdirAll(filepath.Dir(path), 0o755)
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if got != string(want) {
				t.Errorf("GET %s differs from %s:\n%s", c.url, path, got)
			}
		})
	}
}
