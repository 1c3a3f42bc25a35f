package runtime_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jaiph-go/jaiph/codegen"
	"github.com/jaiph-go/jaiph/internal/event"
	"github.com/jaiph-go/jaiph/lowered"
	"github.com/jaiph-go/jaiph/runtime"
	"github.com/jaiph-go/jaiph/validate"
)

// recorder keeps the events of a run.
type recorder struct {
	mu     sync.Mutex
	events []event.Event
}

func (r *recorder) Event(e *event.Event) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, *e)
}

// startRun prepares the default workflow of src as `jaiph run` does.
func startRun(t *testing.T, src string) (*runtime.Runtime, *recorder, string) {
	t.Helper()
	dir := t.TempDir()
	file := filepath.Join(dir, "flow.jh")
	if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	prog, err := validate.LoadEntry(file)
	if err != nil {
		t.Fatal(err)
	}
	mods := codegen.LowerProgram(prog.Modules, dir, prog.Loader.Resolved)
	var entry *lowered.Module
	for _, m := range mods {
		if m.Path == prog.Entry.Path {
			entry = m
		}
	}
	env, locals, err := runtime.PrepareEnv(context.Background(), os.Environ(), entry, mods, dir, "flow.jh", nil)
	if err != nil {
		t.Fatal(err)
	}
	rec := &recorder{}
	rt := runtime.New(runtime.Options{Modules: mods, Entry: entry, Workspace: dir, SourceFile: "flow.jh",
		Env: env.List(), Observer: rec, Locals: locals, KeyDir: filepath.Join(dir, "keys")})
	t.Cleanup(rt.Close)
	return rt, rec, dir
}

// TestInterruptWithBackgroundJobs interrupts a run while background managed
// calls print (under -race this is where a body's artifacts were closed
// while its jobs still wrote): the run returns 130, and every step it
// started is closed, the jobs' ones included.
func TestInterruptWithBackgroundJobs(t *testing.T) {
	rt, rec, dir := startRun(t, `function chatty {
  while :; do echo "line $1"; echo "err $1" >&2; sleep 0.01; done
}
workflow default {
  run chatty 1 &
  run chatty 2 &
  (while :; do echo sub; sleep 0.01; done) &
  echo ready > ready
  wait
}
`)
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		for {
			if _, err := os.Stat(filepath.Join(dir, "ready")); err == nil {
				break
			}
			time.Sleep(5 * time.Millisecond)
		}
		time.Sleep(100 * time.Millisecond)
		cancel(&runtime.Interrupted{Signal: syscall.SIGINT})
	}()
	status, _ := rt.Run(ctx, nil)
	if status != 130 {
		t.Errorf("status %d, want 130", status)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	open := map[string]bool{}
	for _, e := range rec.events {
		switch e.Type {
		case event.StepStart:
			open[e.ID] = true
		case event.StepEnd:
			delete(open, e.ID)
		}
	}
	if len(open) != 0 {
		t.Errorf("%d steps never closed", len(open))
	}
	if n := len(rec.events); n < 6 {
		t.Errorf("only %d events: the background calls never started", n)
	}
}

// TestUnwaitedJobsFinish: jobs a body never waited for finish and write
// their output, and their steps close, before the run returns (bash leaves
// them running; the reference's run ends when they let go of its output).
func TestUnwaitedJobsFinish(t *testing.T) {
	rt, rec, dir := startRun(t, `function late {
  sleep 0.2
  echo "late $1" >> out.txt
}
workflow default {
  run late 1 &
  run late 2 &
  (sleep 0.3; echo sub >> out.txt) &
}
`)
	if status, err := rt.Run(context.Background(), nil); status != 0 || err != nil {
		t.Fatalf("status %d, err %v", status, err)
	}
	data, _ := os.ReadFile(filepath.Join(dir, "out.txt"))
	if len(data) != len("late 1\nlate 2\nsub\n") {
		t.Errorf("out.txt = %q, want the three late writes", data)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	ends := 0
	for _, e := range rec.events {
		if e.Type == event.StepEnd {
			ends++
		}
	}
	if ends != 3 {
		t.Errorf("%d steps closed, want 3", ends)
	}
}

// TestUnwaitedJobOfForwardedCall: a callee whose stdout is forwarded into
// its caller's (the caller was itself redirected) leaves a job that writes
// after both returned; the caller's artifact stays open until that job
// ends, so the line lands there too (frame.callees).
func TestUnwaitedJobOfForwardedCall(t *testing.T) {
	rt, rec, _ := startRun(t, `function inner {
  (sleep 0.2; echo late-line) &
}
workflow mid {
  echo mid
  run inner
}
workflow default {
  run mid > mid.txt
}
`)
	if status, err := rt.Run(context.Background(), nil); status != 0 || err != nil {
		t.Fatalf("status %d, err %v", status, err)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, e := range rec.events {
		if e.Type == event.StepStart && e.Name == "mid" {
			out, _ := filepath.Glob(filepath.Join(rt.RunDir(), fmt.Sprintf("%06d-*mid.out", e.Seq)))
			if len(out) != 1 {
				t.Fatalf("mid's artifact: %v", out)
			}
			data, _ := os.ReadFile(out[0])
			if string(data) != "mid\nlate-line\n" {
				t.Errorf("mid's .out = %q, want the callee's job's late line", data)
			}
			return
		}
	}
	t.Fatal("no step for mid")
}
