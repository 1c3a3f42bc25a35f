package runtime

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jaiph-go/jaiph/codegen"
	"github.com/jaiph-go/jaiph/lowered"
	"github.com/jaiph-go/jaiph/validate"
)

// runSource runs main.jh (src) in a fresh workspace and returns the status
// and the run directory's artifacts by name.
func runSource(t *testing.T, src string, mock PromptMock, extraEnv ...string) (int, map[string]string) {
	t.Helper()
	ws := t.TempDir()
	if err := os.Mkdir(filepath.Join(ws, ".jaiph"), 0o755); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(ws, "main.jh")
	if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, err := validate.LoadEntry(path)
	if err != nil {
		t.Fatal(err)
	}
	mods := codegen.LowerProgram(prog.Modules, codegen.RootOf(path), prog.Loader.Resolved)
	var entry *lowered.Module
	for _, m := range mods {
		if m.Path == prog.Entry.Path {
			entry = m
		}
	}
	base := append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + ws}, extraEnv...)
	env, locals, err := PrepareEnv(context.Background(), base, entry, mods, ws, "main.jh", nil)
	if err != nil {
		t.Fatal(err)
	}
	rt := New(Options{Modules: mods, Entry: entry, Workspace: ws, SourceFile: "main.jh",
		Env: env.List(), Stdin: strings.NewReader(""), Locals: locals, PromptMock: mock, TestMode: true})
	defer rt.Close()
	status, err := rt.Run(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	arts := map[string]string{}
	entries, _ := os.ReadDir(rt.RunDir())
	for _, e := range entries {
		b, _ := os.ReadFile(filepath.Join(rt.RunDir(), e.Name()))
		arts[e.Name()] = string(b)
	}
	return status, arts
}

// The test-mode seam: a mock answers without an agent; its transcript is
// exactly the answer; plain captures and typed prompts read it.
func TestPromptMock(t *testing.T) {
	var seen []string
	mock := func(text string) (string, bool, error) {
		seen = append(seen, text)
		switch {
		case strings.HasPrefix(text, "Rate"):
			return `{"score": 2.50}`, true, nil
		case strings.HasPrefix(text, "Name"):
			return "Ada\n\n", true, nil
		}
		return "hello from the mock", true, nil
	}
	status, arts := runSource(t, `local who = "world"
workflow default {
  prompt "Greet the $who"
  name = prompt "Name someone"
  echo "name=[$name]"
  r = prompt "Rate it" returns '{ score: number }'
  echo "score=$r_score raw=$r"
}
`, mock)
	if status != 0 {
		t.Fatalf("status %d, artifacts %v", status, arts)
	}
	suffix := "\n\nRespond with exactly one line of valid JSON (no markdown, no explanation) matching this schema: {\"score\":\"number\"}"
	if want := []string{"Greet the world", "Name someone", "Rate it" + suffix}; strings.Join(seen, "|") != strings.Join(want, "|") {
		t.Errorf("mock saw %q", seen)
	}
	if got := arts["000002-jaiph__prompt.out"]; got != "hello from the mock" {
		t.Errorf("plain transcript %q", got)
	}
	if got := arts["000003-jaiph__prompt.out"]; got != "Ada\n\n" {
		t.Errorf("capture transcript %q", got)
	}
	want := "hello from the mockname=[Ada]\n" + `{"score": 2.50}` + "score=2.5 raw={\"score\": 2.50}\n"
	if got := arts["000001-main__default.out"]; got != want {
		t.Errorf("workflow output %q, want %q", got, want)
	}
}

// A mock error fails the prompt step with its text on the step's stderr;
// handled=false falls through to the real backend.
func TestPromptMockErrorAndFallThrough(t *testing.T) {
	status, arts := runSource(t, "workflow default {\n  prompt \"anything\"\n}\n",
		func(string) (string, bool, error) { return "", false, errors.New("jaiph: no mock matched prompt") })
	if status != 1 || arts["000002-jaiph__prompt.err"] != "jaiph: no mock matched prompt\n" {
		t.Errorf("status %d artifacts %q", status, arts)
	}
	status, arts = runSource(t, "workflow default {\n  prompt \"anything\"\n}\n",
		func(string) (string, bool, error) { return "", false, nil },
		"JAIPH_AGENT_COMMAND=jaiph-test-no-such-agent")
	if status != 127 || !strings.HasPrefix(arts["000002-jaiph__prompt.err"], `jaiph: agent.backend is "cursor" but its command (jaiph-test-no-such-agent) was not found in PATH.`) {
		t.Errorf("status %d artifacts %q", status, arts)
	}
	if !strings.HasPrefix(arts["000002-jaiph__prompt.out"], "Command:\njaiph-test-no-such-agent --print ") {
		t.Errorf("transcript %q", arts["000002-jaiph__prompt.out"])
	}
}
