package report

import (
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTraversal: no request reads a file outside the runs root, whether
// it names one through the run path (.., %2e%2e, absolute, NUL,
// backslash), through a run directory or summary that is a symlink out,
// or through a step's artifact path (absolute outside, .., relative, a
// symlink out, a directory).
func TestTraversal(t *testing.T) {
	f := setup(t)
	const secret = "TOPSECRET"
	write := func(p, data string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	link := func(target, p string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(target, p); err != nil {
			t.Fatal(err)
		}
	}
	step := func(id, out, errf string) string {
		return `{"type":"STEP_END","kind":"shell","name":"` + id + `","ts":"2026-11-25T00:00:00Z","status":0,"elapsed_ms":1,"out_file":"` + out + `","err_file":"` + errf + `","id":"` + id + `","parent_id":null,"seq":1,"depth":0,"run_id":"r"}` + "\n"
	}
	secretFile := filepath.Join(f.ws, "secret.txt")
	write(secretFile, secret)
	outside := filepath.Join(f.ws, "outside-run")
	write(filepath.Join(outside, "x.out"), secret)
	write(filepath.Join(outside, "run_summary.jsonl"), step("s1", filepath.Join(outside, "x.out"), ""))
	link(outside, filepath.Join(f.root, "2026-11-25", "evil"))
	link(filepath.Join(outside, "run_summary.jsonl"), filepath.Join(f.root, "2026-11-25", "linked-summary", "run_summary.jsonl"))
	esc := filepath.Join(f.root, "2026-11-25", "escape")
	link(secretFile, filepath.Join(esc, "link.out"))
	write(filepath.Join(esc, "run_summary.jsonl"),
		step("abs", secretFile, "")+
			step("link", filepath.Join(esc, "link.out"), "")+
			step("dotdot", esc+"/../../../../secret.txt", "")+
			step("rel", "../../../secret.txt", "")+
			step("dir", "", esc))

	escRun := "/api/runs/" + enc("2026-11-25/escape")
	for _, c := range []struct {
		url  string
		code int
	}{
		{"/api/runs/..%2Fsecret.txt/tree", 400},
		{"/api/runs/%2e%2e%2Fsecret.txt/tree", 400},
		{"/api/runs/%2E%2E/tree", 400},
		{"/api/runs/%2Fetc%2Fpasswd/tree", 400},
		{"/api/runs/" + enc(secretFile) + "/tree", 400},
		{"/api/runs/2026-11-23%2F..%2F..%2F..%2Fsecret.txt/tree", 400},
		{"/api/runs/2026-11-23%2F.%2F07-22-43-pass.jh/tree", 400},
		{"/api/runs/" + enc(passRun) + "%00/tree", 400},
		{"/api/runs/..%5C..%5Csecret.txt/tree", 400},
		{"/api/runs/2026-11-25%2Fevil/tree", 404},
		{"/api/runs/2026-11-25%2Fevil/steps/s1/logs", 404},
		{"/api/runs/2026-11-25%2Fevil/aggregate", 404},
		{"/api/runs/2026-11-25%2Flinked-summary/tree", 404},
		{escRun + "/steps/abs/logs", 404},
		{escRun + "/steps/link/logs", 404},
		{escRun + "/steps/dotdot/logs", 404},
		{escRun + "/steps/rel/logs", 404},
		{escRun + "/steps/dir/logs?stream=err", 404},
		{escRun + "/aggregate", 200},
		{"/../secret.txt", 404},
		{"/%2e%2e/secret.txt", 404},
		{"/..%2fsecret.txt", 404},
		{"/" + strings.TrimPrefix(secretFile, "/"), 404},
	} {
		code, _, body := f.get(t, c.url)
		if code != c.code || strings.Contains(body, secret) {
			t.Errorf("GET %s: %d, want %d; body %q", c.url, code, c.code, body)
		}
	}
	code, _, body := f.get(t, "/api/runs?limit=200")
	if code != http.StatusOK || strings.Contains(body, "evil") || strings.Contains(body, "linked-summary") || !strings.Contains(body, "2026-11-25/escape") {
		t.Errorf("list: %d %s", code, body)
	}
}
