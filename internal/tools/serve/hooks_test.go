package serve

// These tests serve toolsJH with an inlets file (--inlets) and deliver
// webhooks over HTTP as GitHub would; schedules fire on a clock the test
// moves.

import (
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jaiph-go/jaiph/internal/tools/report/ui"
	"github.com/jaiph-go/jaiph/internal/tools/serve/inlets"
)

const hookSecret = "hook-secret-value"

const inletsJSON = `{
  "webhooks": {
    "github": {
      "secret_env": "GH_HOOK_SECRET",
      "scheme": "github",
      "rules": [
        {"match": {"headers": {"X-GitHub-Event": "pull_request"}, "payload": {"/action": "closed"}},
         "action": "start", "workflow": "greet", "args": {"name": "/pull_request/head/ref"}},
        {"match": {"headers": {"X-GitHub-Event": "issue_comment"}}, "action": "send", "channel": "comments", "key": "/issue/number"},
        {"action": "ignore"}
      ]
    },
    "generic": {
      "secret_env": "GENERIC_SECRET", "scheme": "hmac-sha256", "header": "X-Signature", "delivery_header": "X-Delivery",
      "rules": [{"action": "start", "workflow": "envdump"}]
    }
  },
  "schedules": {
    "sleeper": {"cron": "*/5 * * * *", "tz": "Europe/Berlin", "workflow": "slow", "args": {"secs": "30"}}
  }
}`

// startInlets serves toolsJH with the inlets file text and clock.
func startInlets(t *testing.T, file string, clock inlets.Clock, env ...string) (*server, error) {
	t.Helper()
	return startInletsWith(t, toolsJH, file, clock, env...)
}

// startInletsWith serves src as tools.jh with the inlets file text.
func startInletsWith(t *testing.T, src, file string, clock inlets.Clock, env ...string) (*server, error) {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "tools.jh"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "inlets.json"), []byte(file), 0o644); err != nil {
		t.Fatal(err)
	}
	environ := append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "JAIPH_KEY_DIR=" + keyDir(t), "JAIPH_SERVE_TOKEN=" + testToken}, env...)
	return tryStart(t, Config{Host: "127.0.0.1", Paths: []string{"tools.jh"}, Dir: dir, Environ: environ, Home: dir, UI: ui.FS,
		Inlets: "inlets.json", Clock: clock})
}

var secrets = []string{"GH_HOOK_SECRET=" + hookSecret, "GENERIC_SECRET=" + hookSecret}

// deliver posts body to the webhook signed (sig "": with the secret) as
// GitHub does.
func (s *server) deliver(hook, event, delivery, body, sig string, headers ...string) (int, []byte) {
	s.t.Helper()
	if sig == "" {
		sig = "sha256=" + hex.EncodeToString(inlets.Sign([]byte(hookSecret), []byte(body)))
	}
	h := append([]string{"X-GitHub-Event", event, "X-GitHub-Delivery", delivery, "X-Hub-Signature-256", sig}, headers...)
	code, _, b := s.do("POST", "/hooks/"+hook, "-", body, h...)
	return code, b
}

func (s *server) runCount() int {
	s.t.Helper()
	_, _, b := s.do("GET", "/v1/runs", "", "")
	return decode[struct{ Total int }](s.t, b).Total
}

func TestWebhookGitHub(t *testing.T) {
	s, err := startInlets(t, inletsJSON, nil, secrets...)
	if err != nil {
		t.Fatal(err)
	}
	hostile := "$(touch pwned)"
	payload, _ := json.Marshal(map[string]any{"action": "closed", "pull_request": map[string]any{"head": map[string]any{"ref": hostile}}})
	code, b := s.deliver("github", "pull_request", "d-1", string(payload), "")
	if code != 202 {
		t.Fatalf("delivery: %d %s", code, b)
	}
	started := decode[struct {
		Status string
		Run    Run
	}](t, b)
	r := s.waitTerminal(started.Run.RunID)
	if r.Status != statusSucceeded || r.Principal != "inlet:github" || r.CorrelationID != "d-1" || r.ResultText != "hi "+hostile {
		t.Errorf("run: %+v", r)
	}
	if _, err := os.Stat(filepath.Join(s.dir, "pwned")); err == nil {
		t.Error("the payload ran as code")
	}
	// GitHub redelivers: the same delivery id does nothing.
	code, b = s.deliver("github", "pull_request", "d-1", string(payload), "")
	if code != 200 || !strings.Contains(string(b), `"status":"duplicate"`) || s.runCount() != 1 {
		t.Errorf("redelivery: %d %s, %d runs", code, b, s.runCount())
	}
	// Ignored, refused, sent to no run: nothing starts.
	code, b = s.deliver("github", "pull_request", "d-2", `{"action":"opened"}`, "")
	if code != 200 || !strings.Contains(string(b), `"status":"ignored"`) || !strings.Contains(string(b), `"rule":3`) {
		t.Errorf("ignored: %d %s", code, b)
	}
	code, b = s.deliver("github", "pull_request", "d-3", string(payload), "sha256="+strings.Repeat("ab", 32))
	wantError(t, "bad signature", code, b, 401, codeBadSignature)
	code, _, b = s.do("POST", "/hooks/github", "-", string(payload), "X-GitHub-Event", "pull_request", "X-GitHub-Delivery", "d-4")
	wantError(t, "no signature", code, b, 401, codeBadSignature)
	code, b = s.deliver("github", "pull_request", "d-5", `{"action":"closed"}`, "")
	wantError(t, "no argument in the payload", code, b, 422, codeBadPayload)
	code, b = s.deliver("github", "issue_comment", "d-6", `{"issue":{"number":5}}`, "")
	if code != 200 || !strings.Contains(string(b), `"status":"no_waiting_run"`) {
		t.Errorf("send with no run waiting: %d %s", code, b)
	}
	code, b = s.deliver("github", "pull_request", "d-7", `{"action":`, "")
	wantError(t, "malformed JSON", code, b, 400, codeBadPayload)
	code, b = s.deliver("nope", "pull_request", "d-8", `{}`, "")
	wantError(t, "unknown inlet", code, b, 404, codeNotFound)
	code, b = s.deliver("github", "pull_request", "d-9", `{}`, "", "Content-Type", "application/x-www-form-urlencoded")
	wantError(t, "form-encoded", code, b, 415, codeUnsupportedMedia)
	big := `{"x":"` + strings.Repeat("a", maxBody) + `"}`
	code, b = s.deliver("github", "pull_request", "d-10", big, "")
	wantError(t, "oversize", code, b, 413, codeTooLarge)
	// A delivery refused as unprocessable may come again, fixed.
	code, b = s.deliver("github", "pull_request", "d-5", string(payload), "")
	if code != 202 {
		t.Errorf("retried delivery: %d %s", code, b)
	}
	if n := s.runCount(); n != 2 {
		t.Errorf("%d runs, want 2", n)
	}
	log := s.log.String()
	for _, want := range []string{"outcome=accepted rule=1 workflow=greet", "delivery=d-1 outcome=duplicate", "delivery=d-2 outcome=ignored",
		"delivery=d-3 outcome=refused", "POST /hooks/github 202"} {
		if !strings.Contains(log, want) {
			t.Errorf("log lacks %q", want)
		}
	}
	if strings.Contains(log, hookSecret) {
		t.Error("the log holds the secret")
	}
}

func TestWebhookReplay(t *testing.T) {
	s, err := startInlets(t, inletsJSON, nil, secrets...)
	if err != nil {
		t.Fatal(err)
	}
	body := `{"action":"closed","pull_request":{"head":{"ref":"feature/x"}}}`
	code, _, b := s.do("POST", "/hooks/github/replay", "-", body, "X-GitHub-Event", "pull_request")
	wantError(t, "replay without a token", code, b, 401, codeUnauthorized)
	code, _, b = s.do("POST", "/hooks/github/replay", "", body, "X-GitHub-Event", "pull_request")
	v := decode[inlets.Verdict](t, b)
	if code != 200 || v.Action != "start" || v.Rule != 1 || v.Workflow != "greet" || v.Args["name"] != "feature/x" || v.RuleAt != "inlets.json:7:9" {
		t.Errorf("replay: %d %s", code, b)
	}
	_, _, b = s.do("POST", "/hooks/github/replay", "", `{"action":"opened"}`, "X-GitHub-Event", "pull_request")
	if v := decode[inlets.Verdict](t, b); v.Action != "ignore" || v.Rule != 3 {
		t.Errorf("replay ignored: %s", b)
	}
	if n := s.runCount(); n != 0 {
		t.Errorf("replay started %d runs", n)
	}
}

func TestWebhookGenericAndSecretHidden(t *testing.T) {
	s, err := startInlets(t, inletsJSON, nil, secrets...)
	if err != nil {
		t.Fatal(err)
	}
	body := `{}`
	sig := hex.EncodeToString(inlets.Sign([]byte(hookSecret), []byte(body)))
	code, _, b := s.do("POST", "/hooks/generic", "-", body, "X-Signature", sig, "X-Delivery", "g-1")
	if code != 202 {
		t.Fatalf("generic: %d %s", code, b)
	}
	run := decode[struct{ Run Run }](t, b).Run
	r := s.waitTerminal(run.RunID)
	env, err := os.ReadFile(filepath.Join(r.RunDir, "artifacts", "env.txt"))
	if err != nil || strings.Contains(string(env), hookSecret) || strings.Contains(string(env), "GENERIC_SECRET") {
		t.Errorf("the run sees the webhook's secret: %v", err)
	}
	code, _, b = s.do("POST", "/hooks/generic", "-", body, "X-Signature", "sha256="+sig, "X-Delivery", "g-1")
	if code != 200 || !strings.Contains(string(b), "duplicate") {
		t.Errorf("generic redelivery: %d %s", code, b)
	}
}

func TestInletsRefused(t *testing.T) {
	if _, err := startInlets(t, inletsJSON, nil, "GH_HOOK_SECRET="+hookSecret); err == nil || !strings.Contains(err.Error(), "GENERIC_SECRET is unset or empty") {
		t.Errorf("no secret: %v", err)
	}
	bad := strings.Replace(inletsJSON, `"workflow": "greet"`, `"workflow": "nosuch"`, 1)
	if _, err := startInlets(t, bad, nil, secrets...); err == nil || !strings.Contains(err.Error(), `inlets.json:7:9: workflow "nosuch" is not served`) {
		t.Errorf("workflow not served: %v", err)
	}
	bad = strings.Replace(inletsJSON, `"tz": "Europe/Berlin", `, ``, 1)
	if _, err := startInlets(t, bad, nil, secrets...); err == nil || !strings.Contains(err.Error(), `schedule "sleeper" has no time zone`) {
		t.Errorf("no time zone: %v", err)
	}
}

// stepClock is the schedules' clock, moved by the test: each After is a
// channel the test fires.
type stepClock struct {
	mu    sync.Mutex
	now   time.Time
	waits chan chan time.Time
}

func (c *stepClock) Now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.now }
func (c *stepClock) After(time.Duration) <-chan time.Time {
	ch := make(chan time.Time, 1)
	c.waits <- ch
	return ch
}

func TestScheduleFires(t *testing.T) {
	clock := &stepClock{now: time.Date(2027, 1, 1, 3, 1, 0, 0, time.UTC), waits: make(chan chan time.Time)}
	s, err := startInlets(t, inletsJSON, clock, secrets...)
	if err != nil {
		t.Fatal(err)
	}
	// next is the scheduler's wait for its next tick (it waits once the
	// tick before was handled); fire moves the clock 5 minutes, to that
	// tick, and fires it.
	next := func() chan time.Time {
		t.Helper()
		select {
		case ch := <-clock.waits:
			return ch
		case <-time.After(10 * time.Second):
			t.Fatal("the scheduler does not wait for a tick")
			return nil
		}
	}
	fire := func(ch chan time.Time) {
		clock.mu.Lock()
		clock.now = clock.now.Add(5 * time.Minute)
		now := clock.now
		clock.mu.Unlock()
		ch <- now
	}
	fire(next()) // 03:05: starts slow
	fire(next()) // 03:10: slow still going: skipped
	w := next()
	_, _, b := s.do("GET", "/v1/runs", "", "")
	list := decode[struct{ Runs []Run }](t, b).Runs
	if len(list) != 1 || list[0].Principal != "schedule:sleeper" || list[0].CorrelationID != "sched:sleeper:2027-01-01T03:05:00Z" || list[0].Workflow != "slow" {
		t.Fatalf("runs after two ticks: %+v", list)
	}
	if log := s.log.String(); !strings.Contains(log, "audit schedule=sleeper tick=2027-01-01T03:10:00Z skipped") {
		t.Errorf("no skip logged:\n%s", log)
	}
	s.do("POST", "/v1/runs/"+list[0].RunID+"/cancel", "", "")
	s.waitTerminal(list[0].RunID)
	fire(w) // 03:15: the run ended: starts again
	next()
	if n := s.runCount(); n != 2 {
		t.Errorf("%d runs after the third tick, want 2", n)
	}
}

// TestHookSendsToWaitingRun: a signed delivery routed by a send rule
// reaches the run waiting on the channel with the key taken from the
// payload, and no other; its body is the message, as data.
func TestHookSendsToWaitingRun(t *testing.T) {
	src := "channel comments\n\nexport workflow review {\n  pr=\"$1\"\n  c = <- comments key \"$pr\"\n  return \"comment: $c\"\n}\n"
	file := `{"webhooks": {"github": {"secret_env": "GH_HOOK_SECRET", "scheme": "github", "rules": [
        {"match": {"headers": {"X-GitHub-Event": "pull_request"}}, "action": "ignore"},
        {"match": {"headers": {"X-GitHub-Event": "issue_comment"}}, "action": "send", "channel": "comments", "key": "/issue/number"}]}}}`
	s, err := startInletsWith(t, src, file, nil, secrets...)
	if err != nil {
		t.Fatal(err)
	}
	ids := map[string]string{}
	for _, pr := range []string{"5", "6"} {
		code, _, b := s.do("POST", "/v1/workflows/review/runs", "", `{"pr":"`+pr+`"}`)
		if code != 202 {
			t.Fatalf("start: %d %s", code, b)
		}
		ids[pr] = decode[Run](t, b).RunID
	}
	for _, id := range ids {
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
			_, _, b := s.do("GET", "/v1/runs/"+id, "", "")
			if decode[Run](t, b).Waiting != nil {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("run %s never waited", id)
			}
		}
	}
	body := `{"issue":{"number":5},"comment":{"body":"LGTM $(touch pwned)"}}`
	code, b := s.deliver("github", "issue_comment", "c-1", body, "")
	if code != 202 || !strings.Contains(string(b), `"status":"sent"`) || !strings.Contains(string(b), ids["5"]) || strings.Contains(string(b), ids["6"]) {
		t.Fatalf("send: %d %s", code, b)
	}
	if r := s.waitTerminal(ids["5"]); r.Status != statusSucceeded || r.ResultText != "comment: "+body {
		t.Fatalf("run 5: %+v", r)
	}
	_, _, b = s.do("GET", "/v1/runs/"+ids["6"], "", "")
	if r := decode[Run](t, b); r.Status != statusRunning || r.Waiting == nil {
		t.Errorf("run 6 should still wait: %+v", r)
	}
	if !strings.Contains(s.log.String(), "outcome=accepted rule=2 channel=comments key=\"5\" run_ids="+ids["5"]) {
		t.Errorf("no audit line:\n%s", s.log.String())
	}
}
