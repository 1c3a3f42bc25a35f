// jaiph-go: differential tests of traps, signals and jobs against bash 5.2.

package interp

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/syntax"
)

const jobsTestBash = "/usr/bin/bash"

// A test started with a signal ignored (under nohup, or as a background job
// of a non-interactive shell, which ignores SIGINT and SIGQUIT) passes the
// ignoring on to the bash it compares with, and bash cannot trap a signal
// ignored on entry: its trap tests would wait for a signal that never
// comes. Handling those signals here gives the children the default
// disposition again (exec resets handled signals, never ignored ones).
func init() {
	for _, sig := range []os.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGQUIT, syscall.SIGTERM} {
		if signal.Ignored(sig) {
			signal.Notify(make(chan os.Signal, 1), sig)
		}
	}
}

// bashDeadline bounds a bash run: a script that should have ended is
// killed, and the test fails, instead of waiting for the test timeout.
const bashDeadline = 60 * time.Second

var bashPrefix = regexp.MustCompile(`(?m)^bash: (line \d+: )?`)

type result struct {
	stdout, stderr string
	status         int
}

// runInterp runs script as a File with params (e.g. -e) and args; ctx may be
// cancelled by the caller.
func runInterp(t *testing.T, ctx context.Context, script string, params []string, dir string) result {
	t.Helper()
	file, err := syntax.NewParser().Parse(strings.NewReader(script), "")
	if err != nil {
		t.Fatalf("parse: %v", err)
	}
	// background jobs write concurrently, as to a file
	var out, errb lockedBuffer
	devnull, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	// not closed: a disowned job may still read it
	r, err := New(Params(params...), Dir(dir), StdIO(devnull, &out, &errb))
	if err != nil {
		t.Fatal(err)
	}
	err = r.Run(ctx, file)
	// Like bash's output pipe, the output is complete once the jobs the
	// script left running are done (jaiph waits for them too).
	r.WaitBackground()
	status := 0
	if err != nil {
		st, ok := err.(ExitStatus)
		if !ok {
			t.Fatalf("Run: %v", err)
		}
		status = int(st)
	}
	return result{out.String(), errb.String(), status}
}

// runBash runs script as a bash script file with args (as jaiph-go's
// bodies are: a script keeps finished jobs in its job table until wait
// reports them, where `bash -c` drops them after the next command); if sig
// is non-zero, it is sent to bash's process group after delay.
func runBash(t *testing.T, script string, args []string, dir string, sig syscall.Signal, delay time.Duration) result {
	t.Helper()
	file := filepath.Join(t.TempDir(), "bash")
	if err := os.WriteFile(file, []byte(script+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(jobsTestBash, append([]string{file}, args...)...)
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	if sig != 0 {
		time.AfterFunc(delay, func() { syscall.Kill(-cmd.Process.Pid, sig) })
	}
	watchdog := time.AfterFunc(bashDeadline, func() { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) })
	err := cmd.Wait()
	if !watchdog.Stop() {
		t.Fatalf("bash ran for more than %v: killed\n%s", bashDeadline, script)
	}
	status := 0
	if ee, ok := err.(*exec.ExitError); ok {
		status = ee.ExitCode()
		if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			status = 128 + int(ws.Signal()) // as a calling shell's $? shows it
		}
	} else if err != nil {
		t.Fatal(err)
	}
	stderr := strings.ReplaceAll(errb.String(), file+": ", "bash: ")
	return result{out.String(), bashPrefix.ReplaceAllString(stderr, ""), status}
}

type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func compare(t *testing.T, name string, got, want result) {
	t.Helper()
	if got != want {
		t.Errorf("%s:\n got: stdout %q stderr %q status %d\nwant: stdout %q stderr %q status %d",
			name, got.stdout, got.stderr, got.status, want.stdout, want.stderr, want.status)
	}
}

// jobSnippets run under interp and bash -c without errexit.
var jobSnippets = []string{
	// trap
	`trap 'echo t' INT TERM; trap -p`,
	`trap 'echo t' SIGINT sigterm 1; trap -p; trap - 2; trap -p; trap`,
	`trap "echo \"it's\"" EXIT; trap -p EXIT`,
	`trap '' TERM; trap -p TERM; trap -p INT`,
	`trap 'echo x' FOO; echo $?; trap 'echo x' 99; echo $?; trap -p FOO; echo $?`,
	`trap -l`,
	`trap -x; echo $?`,
	`trap 'echo a; exit 3; echo b' EXIT; echo body`,
	`trap 'echo a; exit 3' EXIT; exit 1`,
	`trap 'echo "in exit $?"' EXIT; (exit 4)`,
	`trap 'echo err $?' ERR; false; echo after`,
	`f() { trap 'echo caught; exit 9' ERR; false; echo never; }; f; echo never`,
	`trap 'echo x' INT; (trap -p); trap -p INT`,
	`trap '' TERM; (trap -p; trap 'echo y' TERM; trap -p)`,
	`trap 'echo x' INT; (trap 'echo sub' EXIT; echo in); echo out`,
	`x=$(trap 'echo bye' EXIT; echo hi); echo "[$x]"`,
	`trap 'echo usr1' USR1; kill -USR1 $$; echo after`,
	`trap 'echo t' TERM; kill $$; echo after $?`,
	`trap 'echo e' EXIT; kill -TERM $$; echo no`,
	`trap 'echo e; exit 5' TERM; kill $$; echo no`,
	`trap '' USR2; kill -USR2 $$; echo ignored`,
	`trap 'echo t' 0; trap -p`,
	`trap "echo x" TERM; { trap -p; } & wait`,
	`trap "echo x" TERM; trap "" QUIT; ( trap -p; ); echo; (trap "echo y" INT; trap -p)`,
	`trap "echo x" TERM; { sleep 0.1; trap -p; } & trap 'echo z' INT; wait`,
	`trap 'echo t' INT TERM; trap 2; trap -p; trap 15 INT; trap -p`,
	`trap -- 'echo a' EXIT; trap -p; trap -- - EXIT; trap -p`,
	`trap 'echo x' EXIT; trap 'echo y' EXIT; exit 2`,
	`f() { trap 'echo in trap; return 3' USR1; kill -USR1 $$; echo after $?; }; f; echo $?`,
	`trap 'echo e' ERR; set -e; false; echo no`,
	`kill -l 0; kill -l 64 65; echo $?`,
	`trap - CHLD; echo $?; trap -p PIPE; echo $?`,
	`kill -0; echo $?; kill -- ; echo $?`,
	// kill
	`kill -l`,
	`kill -l 15; kill -l 143; kill -l TERM; kill -l SIGterm; kill -l 99; echo $?`,
	`kill %3; echo $?; kill 999999; echo $?; kill; echo $?`,
	`kill -s FOO 1; echo $?; kill -FOO 1; echo $?; kill -n 99 1; echo $?; kill -s; echo $?`,
	`kill -0 $$; echo $?; kill abc; echo $?`,
	`sleep 5 & kill $!; wait $!; echo $?`,
	`sleep 5 & sleep 0.1; kill -INT %1; kill -QUIT %1; wait %1; echo $?`,
	`sleep 5 & kill -s TERM %%; wait; echo $?`,
	`sleep 5 & kill -n 15 $!; wait $!; echo $?`,
	`{ sleep 5; echo no; } & kill $!; wait $!; echo $?`,
	`sleep 5 & p=$!; kill -0 $p; echo $?; kill $p; wait $p; echo $?; kill $p 2>/dev/null; echo $?`,
	`(exit 3) & p=$!; for i in $(seq 500); do kill -0 $p 2>/dev/null || break; sleep 0.01; done; kill -0 $p 2>/dev/null; echo $?; wait $p; echo $?`,
	`rm -f ready; { trap 'echo job got term; exit 9' TERM; : > ready; while :; do sleep 0.05; done; } & until [ -e ready ]; do sleep 0.01; done; kill $!; wait $!; echo $?`,
	// $!, wait
	`true & case $! in *[!0-9]*) echo notnum;; *) echo num;; esac`,
	`sleep 0.1 & a=$!; sleep 0.1 & b=$!; [ $a -ne $b ] && echo distinct; wait $a $b; echo $?`,
	`(exit 4) & sleep 0.1; wait $!; echo $?; wait $!; echo $?`,
	`wait 12345; echo $?; wait %2; echo $?; wait -n; echo $?`,
	`sleep 3 & (sleep 0.1; exit 3) & wait -n; echo $?; wait -n; echo $?; wait -n; echo $?`,
	`(exit 6) & p=$!; sleep 0.3 & wait -n $p; echo $?`,
	`sleep 0.1 & wait -n -p v; echo $? $(( v == $! ))`, `{ trap -p; } & wait`,
	`wait -x; echo $?; wait abc; echo $?`,
	`(exit 3) & sleep 0.1; wait %1; echo $?; kill %1; echo $?; jobs -p | wc -l; wait -n; echo $?`,
	`(exit 3) & wait %1; echo $?`,
	`true & wait $!; sleep 5 & kill %1; wait $!; echo $?`,
	`sleep 5 & sleep 5 & p=$!; kill %2; wait $p; sleep 5 & kill %1 %2; wait; echo $?`,
	// disown, jobs -p
	`sleep 0.3 & disown; wait; echo $?; disown %1; echo $?; disown 12; echo $?`,
	`sleep 0.2 & p=$!; disown $p; wait $p; echo $?`,
	`disown; echo $?; disown -x; echo $?`,
	`sleep 0.2 & sleep 0.2 & disown -a; wait; echo $?; jobs -p | wc -l`,
	`sleep 0.2 & jobs -p >f; [ "$(cat f)" = "$!" ] && echo same; wait`,
}

func TestJaiphJobs(t *testing.T) {
	if _, err := os.Stat(jobsTestBash); err != nil {
		t.Fatalf("bash is needed: %v", err)
	}
	for _, src := range jobSnippets {
		t.Run(src, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			got := runInterp(t, context.Background(), src, nil, dir)
			want := runBash(t, src, nil, dir, 0, 0)
			compare(t, src, got, want)
		})
	}
}

type sigCause struct{ s syscall.Signal }

func (c sigCause) Error() string          { return "signal" }
func (c sigCause) CauseSignal() os.Signal { return c.s }

func runInterpSignal(t *testing.T, src string, sig syscall.Signal, delay time.Duration) result {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	time.AfterFunc(delay, func() { cancel(sigCause{sig}) })
	return runInterp(t, ctx, src, nil, t.TempDir())
}

// TestJaiphSignalTraps interrupts a running body through its context, as
// jaiph does on Ctrl-C, and compares with bash whose process group gets the
// signal, when the trap exits (bash then ends as well).
func TestJaiphSignalTraps(t *testing.T) {
	for _, tc := range []struct {
		src string
		sig syscall.Signal
	}{
		{`trap 'echo int; exit 7' INT; trap 'echo "exit $?"' EXIT; sleep 5; echo no`, syscall.SIGINT},
		{`trap 'echo term; exit' TERM; sleep 5; echo no`, syscall.SIGTERM},
		{`trap 'echo exit' EXIT; sleep 5; echo no`, syscall.SIGTERM},
		{`trap 'echo hup; exit 1' HUP INT; while :; do sleep 0.05; done`, syscall.SIGHUP},
	} {
		t.Run(tc.src, func(t *testing.T) {
			t.Parallel()
			got := runInterpSignal(t, tc.src, tc.sig, 200*time.Millisecond)
			want := runBash(t, tc.src, nil, t.TempDir(), tc.sig, 200*time.Millisecond)
			if tc.sig != syscall.SIGINT {
				// bash reports its foreground child killed by the
				// signal ("Terminated"); jaiph does not (differences.md).
				got.stderr, want.stderr = "", ""
			}
			compare(t, tc.src, got, want)
		})
	}
}

// TestJaiphSignalTrapEndsBody checks the documented difference: after a
// signal trap that does not exit, the body ends with 128+signal (bash would
// go on), the EXIT trap runs, and the traps are bounded by TrapTimeout.
func TestJaiphSignalTrapEndsBody(t *testing.T) {
	got := runInterpSignal(t, `trap 'echo int $?' INT; trap 'echo exit $?' EXIT; sleep 5; echo no`, syscall.SIGINT, 100*time.Millisecond)
	compare(t, "trap continues", got, result{"int 130\nexit 130\n", "", 130})

	start := time.Now()
	got = runInterpSignal(t, `trap 'echo int; sleep 10; echo late' INT; sleep 5`, syscall.SIGINT, 100*time.Millisecond)
	if d := time.Since(start); d > TrapTimeout+time.Second {
		t.Errorf("traps ran for %v, want at most %v", d, TrapTimeout)
	}
	compare(t, "trap bounded", got, result{"int\n", "", 130})

	// Without traps, the status is still 128+signal.
	got = runInterpSignal(t, `sleep 5; echo no`, syscall.SIGTERM, 100*time.Millisecond)
	compare(t, "no trap", got, result{"", "", 143})
}

// TestJaiphBashCompatCorpus runs jaiph-go's corpus groups owned by this patch
// as function-like bodies: set -eo pipefail, arguments one 'two words'
// three, an empty working directory, stdin /dev/null.
func TestJaiphBashCompatCorpus(t *testing.T) {
	for _, group := range []string{"traps", "jobs"} {
		path := filepath.Join("..", "..", "..", "testdata", "bashcompat", group+".txtar")
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		files := parseTxtar(string(data))
		if len(files) < 25 {
			t.Errorf("%s: %d snippets, want at least 25", path, len(files))
		}
		args := []string{"one", "two words", "three"}
		for _, f := range files {
			t.Run(group+"/"+f.name, func(t *testing.T) {
				t.Parallel()
				dir := t.TempDir()
				// Both run it inside a function, as a jaiph body is one: bash
				// cleans its job table only between top-level commands, and
				// a RETURN trap the body sets runs when it returns.
				got := runInterp(t, context.Background(), "f() {\n"+f.data+"\n}\nf \"$@\"", append([]string{"-e", "-o", "pipefail", "--"}, args...), dir)
				want := runBash(t, "set -eo pipefail\nf() {\n"+f.data+"\n}\nf \"$@\"", args, dir, 0, 0)
				compare(t, f.name, got, want)
			})
		}
	}
}

type txtarFile struct{ name, data string }

// parseTxtar reads the txtar format: "-- name --" lines start files.
func parseTxtar(s string) []txtarFile {
	var files []txtarFile
	for _, line := range strings.SplitAfter(s, "\n") {
		trimmed := strings.TrimRight(line, "\n")
		if strings.HasPrefix(trimmed, "-- ") && strings.HasSuffix(trimmed, " --") && len(trimmed) > 6 {
			files = append(files, txtarFile{name: strings.TrimSpace(trimmed[3 : len(trimmed)-3])})
			continue
		}
		if len(files) > 0 {
			files[len(files)-1].data += line
		}
	}
	return files
}

// TestJaiphRefusals checks what jaiph refuses rather than running
// differently from bash (docs/differences.md).
func TestJaiphRefusals(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want result
	}{
		{`trap 'echo t' DEBUG; echo $?`, result{"2\n", "trap: DEBUG: jaiph does not support DEBUG traps\n", 0}},
		{`trap 'echo t' CHLD; echo $?`, result{"2\n", "trap: CHLD: jaiph traps only EXIT, ERR, HUP, INT, QUIT, TERM, USR1 and USR2\n", 0}},
		{`(trap 'echo sub' TERM; kill -STOP $$; echo $?)`, result{"1\n", "kill: SIGSTOP: jaiph does not stop the shell\n", 0}},
		{`kill 0; echo $?; kill -TERM -- -1; echo $?`, result{"1\n1\n", "kill: (0) - jaiph does not signal process groups\nkill: (-1) - jaiph does not signal process groups\n", 0}},
		{`kill -STOP $$; echo $?`, result{"1\n", "kill: SIGSTOP: jaiph does not stop the shell\n", 0}},
		{`jobs; echo $?`, result{"2\n", "jobs: jaiph supports only jobs -p\n", 0}},
	} {
		got := runInterp(t, context.Background(), tc.src, nil, t.TempDir())
		got.stderr = strings.ReplaceAll(got.stderr, strconv.Itoa(os.Getpid()), "PID")
		compare(t, tc.src, got, tc.want)
	}
}

// TestWaitBackground: after Run returns, jobs the script never waited for
// (also those of subshells) are still running; WaitBackground returns once
// they have all written their output, which is what bash's output file
// shows after its jobs end. The jobs wait for a gate file the test creates
// once Run returned, so no timing is involved.
func TestWaitBackground(t *testing.T) {
	dir := t.TempDir()
	script := `gate() { until [ -e gate ]; do sleep 0.01; done; }
{ gate; echo job; } &
( { gate; sleep 0.05; echo nested; } & )
cat <(echo procsub) >/dev/null
disown
echo main`
	file, err := syntax.NewParser().Parse(strings.NewReader(script), "")
	if err != nil {
		t.Fatal(err)
	}
	var out lockedBuffer
	r, err := New(Dir(dir), StdIO(nil, &out, &out))
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Run(context.Background(), file); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != "main\n" {
		t.Fatalf("output when Run returned: %q, want only main (the jobs still run)", got)
	}
	if !r.BackgroundRunning() {
		t.Error("BackgroundRunning false while the jobs wait for the gate")
	}
	if err := os.WriteFile(filepath.Join(dir, "gate"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	r.WaitBackground()
	if r.BackgroundRunning() {
		t.Error("BackgroundRunning true after WaitBackground")
	}
	if got, want := out.String(), "main\njob\nnested\n"; got != want {
		t.Fatalf("output after WaitBackground: %q, want %q", got, want)
	}
}

// TestJobKeepsStatementRedirect: a job started inside a redirected
// statement keeps writing to the statement's file after the statement
// ended, as in bash, where the forked job holds its own descriptor.
func TestJobKeepsStatementRedirect(t *testing.T) {
	script := `{ (sleep 0.2; echo x; echo y; : > x.done) & } > f.txt
{ sleep 0.1; echo z; } > g.txt &
wait
for i in $(seq 500); do [ -e x.done ] && break; sleep 0.01; done
cat f.txt g.txt
echo done`
	dir := t.TempDir()
	want := runBash(t, script, nil, dir, 0, 0)
	got := runInterp(t, context.Background(), script, nil, t.TempDir())
	if got != want {
		t.Fatalf("interp: %+v\nbash:   %+v", got, want)
	}
}

// TestNestedJobOutlivesItsJob: a job started by a job goes on when the
// outer job ends, as in bash, where the inner job is a process of its own.
func TestNestedJobOutlivesItsJob(t *testing.T) {
	script := `{ (sleep 0.2; echo inner; : > inner.done) & echo outer; } &
( (sleep 0.1; echo sub-inner; : > sub.done) & )
wait
for i in $(seq 500); do [ -e inner.done ] && [ -e sub.done ] && break; sleep 0.01; done
echo done`
	want := runBash(t, script, nil, t.TempDir(), 0, 0)
	got := runInterp(t, context.Background(), script, nil, t.TempDir())
	if got != want {
		t.Fatalf("interp: %+v\nbash:   %+v", got, want)
	}
}
