package sandbox

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/jaiph-go/jaiph/internal/event"
)

func getenv(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

func TestResolvePrecedence(t *testing.T) {
	file := map[string]string{"runtime.docker_enabled": "true", "runtime.docker_network": "none", "runtime.docker_timeout": "7"}
	c, err := Resolve(getenv(nil), file, "/ws")
	if err != nil || !c.Enabled || c.Network != "none" || c.Timeout != 7*time.Second || c.Image != "" {
		t.Fatalf("file settings: %+v %v", c, err)
	}
	c, err = Resolve(getenv(map[string]string{"JAIPH_DOCKER_ENABLED": "false"}), file, "/ws")
	if err != nil || c.Enabled {
		t.Fatalf("JAIPH_DOCKER_ENABLED=false must win: %+v %v", c, err)
	}
	env := map[string]string{"JAIPH_DOCKER_ENABLED": "true", "JAIPH_DOCKER_NETWORK": "host", "JAIPH_DOCKER_TIMEOUT": "0",
		"JAIPH_DOCKER_IMAGE": "img:1"}
	c, err = Resolve(getenv(env), map[string]string{"runtime.docker_image": "file:1", "runtime.docker_network": "host"}, "/ws")
	if err != nil || c.Network != "host" || c.Timeout != 0 || c.Image != "img:1" {
		t.Fatalf("the environment may set what the file may not: %+v %v", c, err)
	}
	c, err = Resolve(getenv(map[string]string{"JAIPH_DOCKER_ENABLED": "true"}), nil, "/ws")
	if err != nil || c.Network != DefaultNetwork || c.Timeout != DefaultTimeout {
		t.Fatalf("defaults: %+v %v", c, err)
	}
}

func TestResolveRefusals(t *testing.T) {
	on := getenv(map[string]string{"JAIPH_DOCKER_ENABLED": "true"})
	for _, tc := range []struct {
		file map[string]string
		code string
	}{
		{map[string]string{"runtime.docker_image": "evil:latest"}, "E_DOCKER_IMAGE "},
		{map[string]string{"runtime.docker_network": "host"}, "E_DOCKER_NETWORK "},
		{map[string]string{"runtime.docker_network": "container:db"}, "E_DOCKER_NETWORK "},
		{map[string]string{"runtime.docker_timeout": "-1"}, "E_DOCKER_TIMEOUT "},
		{map[string]string{"runtime.workspace": "/etc:/etc:ro"}, "E_DOCKER_MOUNT "},
		{map[string]string{"runtime.workspace": "../up:/up"}, "E_DOCKER_MOUNT "},
		{map[string]string{"runtime.workspace": "sub:relative"}, "E_DOCKER_MOUNT "},
		{map[string]string{"runtime.workspace": "sub:/x:rwx"}, "E_DOCKER_MOUNT "},
	} {
		if _, err := Resolve(on, tc.file, "/ws"); err == nil || !strings.HasPrefix(err.Error(), tc.code) {
			t.Errorf("%v: got %v, want %s…", tc.file, err, tc.code)
		}
	}
	// Disabled, nothing is checked.
	if _, err := Resolve(getenv(nil), map[string]string{"runtime.docker_image": "x"}, "/ws"); err != nil {
		t.Errorf("disabled: %v", err)
	}
	c, err := Resolve(on, map[string]string{"runtime.workspace": ".:/jaiph/workspace:ro\nsub/dir:/data"}, "/ws")
	if err != nil || len(c.Mounts) != 2 || c.Mounts[0] != (Mount{"/ws", ContainerWorkspace, true}) ||
		c.Mounts[1] != (Mount{"/ws/sub/dir", "/data", false}) {
		t.Fatalf("mounts: %+v %v", c.Mounts, err)
	}
}

func TestForwarded(t *testing.T) {
	for k, want := range map[string]bool{
		"JAIPH_AGENT_MODEL": true, "JAIPH_DEBUG": true, "ANTHROPIC_API_KEY": true, "CURSOR_API_KEY": true,
		"NO_COLOR": true, "LC_ALL": true, "TZ": true,
		"PATH": false, "HOME": false, "AWS_SECRET_ACCESS_KEY": false, "SSH_AUTH_SOCK": false, "DOCKER_HOST": false,
		"JAIPH_DOCKER_ENABLED": true, "JAIPH_RUN_DIR": false, "JAIPH_WORKSPACE": false, "BASH_ENV": false,
	} {
		if Forwarded(k) != want {
			t.Errorf("Forwarded(%s) = %v, want %v", k, !want, want)
		}
	}
}

func TestDenied(t *testing.T) {
	for _, p := range []string{"/", "/proc/1/root", "/var/run/docker.sock", "/run/docker.sock", "/sys", "/dev/sda"} {
		if denied(p) == nil {
			t.Errorf("%s must be refused", p)
		}
	}
	if err := denied("/home/u/project"); err != nil {
		t.Error(err)
	}
}

func TestReason(t *testing.T) {
	err := errors.New("Error response from daemon: pull access denied for x, repository does not exist")
	if got := reason(err); got != "pull access denied for x, repository does not exist" {
		t.Errorf("reason: %q", got)
	}
}

// The protocol round trip: what a Reporter writes, read dispatches; a line
// that is no record is stray text.
func TestProtocol(t *testing.T) {
	var buf bytes.Buffer
	r := NewReporter(&buf)
	st := 0
	ms := int64(5)
	r.Event(&event.Event{Type: event.StepEnd, Func: "main::default", Kind: "workflow", Name: "default",
		Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Status: &st, ElapsedMS: &ms, ID: "r:1:1", RunID: "r"})
	r.Write([]byte("stray text\n"))
	buf.WriteString("not a record\n")
	r.Outcome(Outcome{Status: 0, RunDir: "/ws/.jaiph/runs/x", ExitStatus: 0})
	var events []*event.Event
	var stray bytes.Buffer
	var res Result
	firsts := 0
	read(&buf, Job{Event: func(e *event.Event) { events = append(events, e) }, Stray: &stray}, &res, func() { firsts++ })
	if firsts != 1 {
		t.Fatalf("first called %d times", firsts)
	}
	if len(events) != 1 || events[0].Func != "main::default" || *events[0].Status != 0 {
		t.Fatalf("events: %+v", events)
	}
	if stray.String() != "stray text\nnot a record\n" {
		t.Fatalf("stray: %q", stray.String())
	}
	if res.Outcome == nil || res.Outcome.RunDir != "/ws/.jaiph/runs/x" {
		t.Fatalf("outcome: %+v", res.Outcome)
	}
}
