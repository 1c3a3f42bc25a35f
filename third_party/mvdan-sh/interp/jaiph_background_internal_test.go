// jaiph-go: tests of signals a job sends to its shell whose bash side ends
// by the signal (see jaiph_background_test.go for the differential ones).

package interp

import (
	"context"
	"testing"
)

// TestJaiphUntrappedSignalFromJobEndsShell: bash dies of an untrapped
// signal a job or subshell sends to $$ (no status for compareWithBash);
// the interpreter's shell ends with 128+signal, its commands after the
// signal not run, its EXIT trap run.
func TestJaiphUntrappedSignalFromJobEndsShell(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want result
	}{
		{"(trap 'echo sub' TERM; kill $$; echo $?)", result{"0\n", "", 143}},
		{"( kill -USR1 $$ )\necho never", result{"", "", 138}},
		{"trap 'echo exit' EXIT\n( sleep 0.5; kill -USR2 $$ ) &\nsleep 5 &\nwait $!\necho never", result{"exit\n", "", 140}},
	} {
		got := runInterp(t, context.Background(), tc.src, nil, t.TempDir())
		compare(t, tc.src, got, tc.want)
	}
}

// TestJaiphJobSpecUnknownText: a job spec by name whose match would
// depend on the part of bash's command text jaiph does not print (a loop's
// body, a command substitution) fails with a jaiph error.
func TestJaiphJobSpecUnknownText(t *testing.T) {
	for _, tc := range []struct {
		src  string
		want result
	}{
		{"for i in 1; do :; done &\nwait %?done; echo $?", result{"127\n", "wait: %?done: jaiph cannot match a job spec by name against this job's command; use %N or $!\n", 0}},
		{"echo $(echo hi) >/dev/null &\nkill '%echo $(echo'; echo $?\nwait", result{"1\n", "kill: %echo $(echo: jaiph cannot match a job spec by name against this job's command; use %N or $!\n", 0}},
		// a match before the unknown part, or a mismatch, is certain
		{"for i in 1; do :; done &\nwait %for; echo $?\nfor i in 2; do :; done &\nwait %while; echo $?", result{"0\n127\n", "wait: %while: no such job\n", 0}},
	} {
		got := runInterp(t, context.Background(), tc.src, nil, t.TempDir())
		compare(t, tc.src, got, tc.want)
	}
}
