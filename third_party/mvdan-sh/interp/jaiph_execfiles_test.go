// jaiph-go: the files a shell opened and dropped are closed then, as a
// process's descriptors are: a reader of a FIFO sees its end of file when
// the writer's descriptor goes, not when Go's collector runs.

package interp

import (
	"context"
	"os"
	"testing"
)

// TestJaiphDroppedFilesClosed: each snippet starts a reader of a FIFO that
// ends only at its end of file, then opens the FIFO for writing and drops
// the descriptor (a subshell's end, `exec N>&-`, a second redirection of the
// same descriptor): bash's close lets the reader end; a file left open makes
// `wait` wait for ever (bounded here by the context). A job that started
// holding the descriptor keeps its own copy, as a forked process does: the
// shell closing its descriptor leaves the job's writes working.
func TestJaiphDroppedFilesClosed(t *testing.T) {
	if _, err := os.Stat(jobsTestBash); err != nil {
		t.Fatalf("bash is needed: %v", err)
	}
	for _, src := range []string{
		// A {var} descriptor outlives its command, and dies with the
		// subshell (a command substitution) that opened it.
		`mkfifo p; cat p > out & ( exec {fd}>p; echo hi >&$fd ); wait; cat out`,
		`mkfifo p; cat p > out & x=$(exec {fd}>p; echo hi >&$fd); wait; cat out`,
		`mkfifo p; cat p > out & ( : {fd}>p; echo hi >&$fd ); wait; cat out`,
		`mkfifo p; cat p > out & f() { : {fd}>p; echo hi >&$fd; }; ( f ); wait; cat out`,
		// exec N>&- inside a subshell closes what the subshell opened.
		`mkfifo p; ( cat p > out & exec 3>p; echo hi >&3; exec 3>&-; wait; echo waited ); cat out`,
		`mkfifo p; ( cat p > out & exec {fd}>p; echo hi >&$fd; exec {fd}>&-; wait; echo waited ); cat out`,
		`mkfifo p; cat p > out & exec 3>p; echo hi >&3; exec 3>&-; wait; cat out`,
		// A {var} descriptor of a function call that the function closes.
		"mkfifo p; ( cat p > out & g() { echo hi >&$fd; exec {fd}>&-; wait; echo waited; }; g {fd}>p ); cat out",
		"mkfifo p; cat p > out & g() { echo hi >&$fd; exec {fd}>&-; wait; echo waited; }; g {fd}>p; cat out",
		// The second redirection of one exec replaces the first's file.
		`mkfifo p; ( cat p > out & exec 3>p 3>f2; echo hi >&3; wait; echo waited ); cat out; cat f2`,
		`mkfifo p; cat p > out & exec 3>p 3>f2; echo hi >&3; wait; cat out; cat f2`,
		// A job holding the descriptor writes after the shell closed its own.
		`mkfifo q; exec 3>f; { read -r _ < q; echo x >&3; } & exec 3>&-; echo go > q; wait; cat f`,
		`mkfifo q; ( exec 3>f; { read -r _ < q; echo x >&3; } & exec 3>&-; echo go > q; wait ); cat f`,
		`mkfifo q; ( exec {fd}>f; { read -r _ < q; echo x >&$fd; } & exec {fd}>&-; echo go > q; wait ); cat f`,
		`mkfifo q; exec 4>f; { read -r _ < q; echo x >&4; } & exec 4>f2; echo go > q; wait; cat f`,
		`mkfifo q; exec 5<<< "doc"; { read -r _ < q; cat <&5; } & exec 5<&-; echo go > q; wait`,
		`mkfifo q; exec >f; { read -r _ < q; echo x; } & exec >/dev/null; echo go > q; wait; cat f >&2`,
		// A file another descriptor still refers to stays open.
		`exec 3>f2; exec 4>&3; exec 3>&-; echo still >&4; exec 4>&-; cat f2`,
		`( exec 3>f2; exec 4>&3; exec 3>&-; echo still >&4 ); cat f2`,
		`exec 3<<< "a"; exec 4<&3; exec 3<&-; cat <&4`,
		`( exec 3<<< "a"; exec 4<&3; exec 3<&-; cat <&4 )`,
	} {
		t.Run(src, func(t *testing.T) {
			dirB, dirI := t.TempDir(), t.TempDir()
			want := runBash(t, src, nil, dirB, 0, 0)
			ctx, cancel := context.WithTimeout(context.Background(), bashDeadline)
			defer cancel()
			got := runInterp(t, ctx, src, nil, dirI)
			if ctx.Err() != nil {
				t.Fatalf("the interpreter waited until its deadline (%v): a dropped file was left open", bashDeadline)
			}
			compare(t, src, got, want)
		})
	}
}
