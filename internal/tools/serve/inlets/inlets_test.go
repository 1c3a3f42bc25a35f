package inlets

import (
	"context"
	"encoding/hex"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

const goodFile = `{
  "webhooks": {
    "github": {
      "secret_env": "GH_SECRET",
      "scheme": "github",
      "rules": [
        {"match": {"headers": {"x-github-event": "pull_request"}, "payload": {"/action": "closed", "/pull_request/merged": true}},
         "action": "start", "workflow": "cleanup", "args": {"branch": "/pull_request/head/ref", "number": "/number"}},
        {"match": {"headers": {"X-GitHub-Event": "issue_comment"}}, "action": "send", "channel": "comments", "key": "/issue/number"},
        {"action": "ignore"}
      ]
    }
  },
  "schedules": {
    "nightly": {"cron": "0 3 * * *", "tz": "Europe/Berlin", "workflow": "sweep", "args": {"scope": "all"}},
    "hourly": {"cron": "CRON_TZ=UTC 0 * * * *", "workflow": "sweep", "concurrency": 0}
  }
}`

func TestParseGood(t *testing.T) {
	c, err := Parse("in.json", []byte(goodFile))
	if err != nil {
		t.Fatal(err)
	}
	w := c.Webhooks[0]
	if w.Header != "X-Hub-Signature-256" || w.DeliveryHeader != "X-Github-Delivery" || w.Window != DefaultWindow || len(w.Rules) != 3 {
		t.Errorf("webhook: %+v", w)
	}
	if r := w.Rules[0]; r.Headers["X-Github-Event"] != "pull_request" || r.Args["branch"] != "/pull_request/head/ref" || r.Pos != "in.json:7:9" {
		t.Errorf("rule: %+v", r)
	}
	if s := c.Schedules[0]; s.Location.String() != "Europe/Berlin" || s.Concurrency != 1 || s.Args["scope"] != "all" {
		t.Errorf("schedule: %+v", s)
	}
	if s := c.Schedules[1]; s.Location.String() != "UTC" || s.Concurrency != 0 {
		t.Errorf("schedule: %+v", s)
	}
	if got := c.Variables(); len(got) != 1 || got[0] != "GH_SECRET" {
		t.Errorf("Variables: %v", got)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ file, want string }{
		{`{"webhooks": {"a": {"secret_env": "S", "scheme": "github", "rules": [{"action": "ignore"}], "colour": 1}}}`,
			`f.json:1:93: unknown key "colour" in webhook "a": remove it (known: dedup_window, delivery_header, header, rules, scheme, secret_env)`},
		{"{\n  \"webhooks\": {\"a\": {\"scheme\": \"github\", \"rules\": [{\"action\": \"ignore\"}]}}}", `f.json:2:21: webhook "a" has no secret_env`},
		{`{"webhooks": {"a": {"secret_env": "S", "scheme": "md5", "rules": [{"action": "ignore"}]}}}`, `unknown scheme "md5"`},
		{`{"webhooks": {"a": {"secret_env": "S", "scheme": "github", "rules": []}}}`, `rules must be a non-empty array`},
		{`{"webhooks": {"a": {"secret_env": "S", "scheme": "github", "rules": [{"action": "start"}]}}}`, `a start rule names its workflow`},
		{`{"webhooks": {"a": {"secret_env": "S", "scheme": "github", "rules": [{"action": "send", "channel": "c"}]}}}`, `add "channel" and "key"`},
		{`{"webhooks": {"a": {"secret_env": "S", "scheme": "github", "rules": [{"action": "start", "workflow": "w", "args": {"x": "a/b"}}]}}}`, `a JSON Pointer begins with "/"`},
		{`{"webhooks": {"a": {"secret_env": "S", "scheme": "github", "rules": [{"action": "jump"}]}}}`, `unknown action "jump"`},
		{`{"webhooks": {"a": {"secret_env": "S", "scheme": "github", "dedup_window": "soon", "rules": [{"action": "ignore"}]}}}`, `dedup_window "soon"`},
		{`{"webhooks": {"a b": {}}}`, `"a b" is not a name`},
		{`{"schedules": {"s": {"cron": "0 3 * * *", "workflow": "w"}}}`, `f.json:1:30: schedule "s" has no time zone`},
		{`{"schedules": {"s": {"cron": "0 3 * *", "tz": "UTC", "workflow": "w"}}}`, `schedule "s": expected 5 to 6 fields`},
		{`{"schedules": {"s": {"cron": "0 3 * * *", "tz": "Mars/Olympus", "workflow": "w"}}}`, `Mars/Olympus`},
		{`{"schedules": {"s": {"cron": "@every 1h", "tz": "UTC", "workflow": "w"}}}`, `replicas would not agree`},
		{`{"schedules": {"s": {"cron": "CRON_TZ=UTC 0 3 * * *", "tz": "UTC", "workflow": "w"}}}`, `given twice`},
		{`{"schedules": {"s": {"cron": "0 3 * * *", "tz": "UTC", "workflow": "w", "concurrency": -1}}}`, `concurrency must be a whole number`},
		{`{"schedules": {"s": {"tz": "UTC", "workflow": "w"}}}`, `has no cron expression`},
		{"{\n\"schedules\": {\n", `f.json:3:1: the file ends inside a value`},
		{`{"schedules": {"s": {"cron": 3}}}`, `f.json:1:30: cron must be a non-empty string`},
		{`[]`, `the inlets file must be an object`},
		{`{} {}`, `more than one JSON value`},
		{`{"x": 1}`, `unknown key "x" in the inlets file`},
	} {
		_, err := Parse("f.json", []byte(tc.file))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\n got %v\nwant %s", tc.file, err, tc.want)
		}
	}
}

func TestSecretsAndWorkflows(t *testing.T) {
	c, err := Parse("in.json", []byte(goodFile))
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Secrets(func(string) string { return "" }); err == nil || !strings.Contains(err.Error(), "GH_SECRET is unset or empty") {
		t.Errorf("Secrets: %v", err)
	}
	err = c.CheckWorkflows(func(w string) ([]string, bool) { return []string{"branch"}, w == "cleanup" })
	for _, want := range []string{`workflow "sweep" is not served`, `workflow "cleanup" takes no argument "number"`} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("CheckWorkflows: %v, want %s", err, want)
		}
	}
}

func TestVerify(t *testing.T) {
	body := []byte(`{"a":1}`)
	secret := []byte("It's a Secret to Everybody")
	good := hex.EncodeToString(Sign(secret, body))
	gh := &Webhook{Scheme: SchemeGitHub, Header: "X-Hub-Signature-256", secret: secret}
	hm := &Webhook{Scheme: SchemeHMAC, Header: "X-Signature", secret: secret}
	for _, tc := range []struct {
		w     *Webhook
		value string
		ok    bool
	}{
		{gh, "sha256=" + good, true},
		{gh, good, false}, // GitHub's has the prefix
		{gh, "", false},
		{gh, "sha256=" + strings.Repeat("0", 64), false},
		{gh, "sha256=zz", false},
		{hm, good, true},
		{hm, "sha256=" + good, true},
		{hm, "sha256=" + hex.EncodeToString(Sign([]byte("other"), body)), false},
		{&Webhook{Scheme: SchemeHMAC, Header: "X-Signature"}, good, false}, // no secret: nothing verifies
	} {
		err := tc.w.Verify(func(h string) string {
			if h == tc.w.Header {
				return tc.value
			}
			return ""
		}, body)
		if (err == nil) != tc.ok {
			t.Errorf("%s %q: %v", tc.w.Scheme, tc.value, err)
		}
	}
	// The known vector of GitHub's documentation.
	if got := hex.EncodeToString(Sign(secret, []byte("Hello, World!"))); got != "757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17" {
		t.Errorf("Sign: %s", got)
	}
}

func TestPointer(t *testing.T) {
	doc, err := ParsePayload([]byte(`{"a": {"b/c": [10, "x"], "m~n": 1.50, "t": true, "z": null}, "": "empty"}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		p, want string
		ok      bool
	}{
		{"/a/b~1c/0", "10", true},
		{"/a/b~1c/1", "x", true},
		{"/a/m~0n", "1.50", true},
		{"/", "empty", true},
		{"/a/b~1c/2", "", false},
		{"/a/b~1c/01", "", false},
		{"/a/b~1c/-1", "", false},
		{"/a/t", "", false}, // a boolean is no argument
		{"/a/z", "", false},
		{"/a", "", false},
		{"/nope/x", "", false},
	} {
		v, found := lookup(doc, tc.p)
		s, ok := text(v)
		if found && ok != tc.ok || ok && s != tc.want || !found && tc.ok {
			t.Errorf("%s: %q %v %v", tc.p, s, found, ok)
		}
	}
	for _, bad := range []string{"a", "/a~", "/a~2"} {
		if checkPointer(bad) == nil {
			t.Errorf("checkPointer(%q): nil", bad)
		}
	}
}

func TestRoute(t *testing.T) {
	c, err := Parse("in.json", []byte(goodFile))
	if err != nil {
		t.Fatal(err)
	}
	w := c.Webhooks[0]
	hdr := func(event string) func(string) string {
		return func(h string) string {
			if h == "X-Github-Event" {
				return event
			}
			return ""
		}
	}
	route := func(event, payload string) Verdict {
		doc, err := ParsePayload([]byte(payload))
		if err != nil {
			t.Fatal(err)
		}
		return w.Route(doc, hdr(event))
	}
	v := route("pull_request", `{"action": "closed", "number": 7, "pull_request": {"merged": true, "head": {"ref": "$(touch pwned)"}}}`)
	if v.Action != ActionStart || v.Rule != 1 || v.Workflow != "cleanup" || v.Args["branch"] != "$(touch pwned)" || v.Args["number"] != "7" {
		t.Errorf("start: %+v", v)
	}
	v = route("pull_request", `{"action": "closed", "number": 7, "pull_request": {"merged": true, "head": {}}}`)
	if !v.Unprocessable || !strings.Contains(v.Reason, `argument "branch"`) {
		t.Errorf("missing argument: %+v", v)
	}
	v = route("pull_request", `{"action": "opened"}`)
	if v.Action != ActionIgnore || v.Rule != 3 {
		t.Errorf("ignored: %+v", v)
	}
	v = route("issue_comment", `{"issue": {"number": 12}}`)
	if v.Action != ActionSend || v.Channel != "comments" || v.Key != "12" {
		t.Errorf("send: %+v", v)
	}
	w.Rules = w.Rules[:2]
	v = route("push", `{}`)
	if v.Action != "none" || !strings.Contains(v.Reason, "no rule matches") {
		t.Errorf("none: %+v", v)
	}
}

func TestMemorySeen(t *testing.T) {
	now := time.Unix(1e9, 0)
	m := &Memory{Window: time.Hour, Now: func() time.Time { return now }}
	ctx := context.Background()
	for i, tc := range []struct {
		id    string
		after time.Duration
		want  bool
	}{{"a", 0, false}, {"a", time.Minute, true}, {"b", 0, false}, {"a", 2 * time.Hour, false}, {"a", 0, true}} {
		now = now.Add(tc.after)
		if got, _ := m.Seen(ctx, tc.id); got != tc.want {
			t.Errorf("%d %s: %v", i, tc.id, got)
		}
	}
	m.Forget(ctx, "a")
	if got, _ := m.Seen(ctx, "a"); got {
		t.Error("forgotten id seen")
	}
}

func TestNextAndTickKey(t *testing.T) {
	c, err := Parse("in.json", []byte(goodFile))
	if err != nil {
		t.Fatal(err)
	}
	s := c.Schedules[0]
	// Across the change to summer time in Berlin (2027-03-28).
	from := time.Date(2027, 3, 26, 12, 0, 0, 0, time.UTC)
	var got []string
	for t := from; len(got) < 3; {
		t = s.Next(t)
		got = append(got, t.Format("2006-01-02 15:04 MST")+" "+t.UTC().Format(time.RFC3339))
	}
	want := []string{"2027-03-27 03:00 CET 2027-03-27T02:00:00Z", "2027-03-28 03:00 CEST 2027-03-28T01:00:00Z", "2027-03-29 03:00 CEST 2027-03-29T01:00:00Z"}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("Next:\n got %v\nwant %v", got, want)
	}
	tick := time.Date(2027, 3, 28, 3, 0, 0, 0, s.Location)
	if k := TickKey("nightly", tick); k != "sched:nightly:2027-03-28T01:00:00Z" {
		t.Errorf("TickKey: %s", k)
	}
}

// fakeRuns records starts; runs go on until ended.
type fakeRuns struct {
	mu      sync.Mutex
	keys    map[string]string // key → run id: a key starts one run
	running map[string]bool
}

func (f *fakeRuns) Start(_ context.Context, s *Schedule, key string) (string, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if id, ok := f.keys[key]; ok {
		return id, nil
	}
	id := fmt.Sprintf("run%d", len(f.keys)+1)
	f.keys[key], f.running[id] = id, true
	return id, nil
}

func (f *fakeRuns) Running(_ context.Context, id string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.running[id]
}

func TestSchedulerCap(t *testing.T) {
	runs := &fakeRuns{keys: map[string]string{}, running: map[string]bool{}}
	var log []string
	s := &Scheduler{Runs: runs, Log: func(f string, a ...any) { log = append(log, fmt.Sprintf(f, a...)) }}
	sc := &Schedule{Name: "n", Concurrency: 1}
	ctx := context.Background()
	t0 := time.Date(2027, 1, 1, 3, 0, 0, 0, time.UTC)
	if id, _ := s.Fire(ctx, sc, t0); id != "run1" {
		t.Fatalf("first tick: %q", id)
	}
	if id, _ := s.Fire(ctx, sc, t0.Add(time.Hour)); id != "" || len(log) != 1 || !strings.Contains(log[0], "skipped: 1 run(s) of it still going") {
		t.Fatalf("overlapping tick: %q %v", id, log)
	}
	runs.running["run1"] = false
	if id, _ := s.Fire(ctx, sc, t0.Add(2*time.Hour)); id != "run2" {
		t.Fatalf("tick after the run ended: %q", id)
	}
	// Two schedulers (replicas) firing the same tick start one run.
	other := &Scheduler{Runs: runs}
	runs.running["run2"] = false
	a, _ := s.Fire(ctx, sc, t0.Add(3*time.Hour))
	b, _ := other.Fire(ctx, sc, t0.Add(3*time.Hour))
	if a != "run3" || b != "run3" || len(runs.keys) != 3 {
		t.Errorf("replicas: %q %q %v", a, b, runs.keys)
	}
	// No cap: overlapping runs.
	free := &Schedule{Name: "free"}
	x, _ := s.Fire(ctx, free, t0)
	y, _ := s.Fire(ctx, free, t0.Add(time.Minute))
	if x == "" || y == "" || x == y {
		t.Errorf("no cap: %q %q", x, y)
	}
}

// stepClock is a clock the test moves: After's channel fires when the
// test sends the time.
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

func TestSchedulerLoop(t *testing.T) {
	runs := &fakeRuns{keys: map[string]string{}, running: map[string]bool{}}
	c, _ := Parse("in.json", []byte(`{"schedules": {"s": {"cron": "*/5 * * * *", "tz": "UTC", "workflow": "w", "concurrency": 0}}}`))
	clock := &stepClock{now: time.Date(2027, 1, 1, 3, 1, 0, 0, time.UTC), waits: make(chan chan time.Time)}
	s := &Scheduler{Schedules: c.Schedules, Runs: runs, Clock: clock}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); s.Run(ctx) }()
	for i := range 3 {
		ch := <-clock.waits // the loop waits for its next tick
		clock.mu.Lock()
		clock.now = clock.now.Add(5 * time.Minute)
		clock.mu.Unlock()
		ch <- clock.now
		_ = i
	}
	<-clock.waits // the fourth wait: three ticks fired
	cancel()
	<-done
	want := []string{"sched:s:2027-01-01T03:05:00Z", "sched:s:2027-01-01T03:10:00Z", "sched:s:2027-01-01T03:15:00Z"}
	for _, k := range want {
		if _, ok := runs.keys[k]; !ok {
			t.Errorf("no start for %s: %v", k, runs.keys)
		}
	}
	if len(runs.keys) != 3 {
		t.Errorf("starts: %v", runs.keys)
	}
}
