// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// exit and exec patches found restating Oils' spec/builtin-process.test.sh
// (jaiph-go's testdata/bashcompat/oils_builtin_process.txtar).
package interp_test

import "testing"

// TestJaiphExitArguments: exit reads its status as bash's get_exitstat: a
// leading "--" is dropped, blanks around the number and a sign are taken, a
// word that is no number is "numeric argument required" and the shell exits
// with 2; a second word is "too many arguments", which discards the
// top-level command (status 1, the next line runs; a subshell ends).
func TestJaiphExitArguments(t *testing.T) {
	runCases(t, []string{
		"( exit -- 3 ); echo \"st=$?\"; ( exit ' 4 ' ); echo \"st=$?\"; ( exit -1 ); echo \"st=$?\"; ( exit +5 ); echo \"st=$?\"; ( exit -- ); echo \"st=$?\"",
		"( exit nope; echo after ); echo \"st=$?\"; ( exit 3x ); echo \"st=$?\"; ( exit '' ); echo \"st=$?\"; ( exit 99999999999999999999 ); echo \"st=$?\"; ( exit -x ); echo \"st=$?\"",
		"exit nope\necho not reached",
		"f() { exit nope; echo in f; }\nf\necho not reached",
		"exit 7 8 9\necho \"st=$?\"\nf() { exit 7 8 9; echo in f; }\nf; echo same line\necho \"next line st=$?\"",
		"f() { exit 7 8 9; echo in f; }\n( f; echo in subshell ); echo \"st=$?\"\nx=$(f; echo in substitution); echo \"x=$x\"",
		"trap 'echo trap $?' EXIT\nexit bad",
	})
}

// TestJaiphExecOptions: exec takes "--" before the command (or before
// redirections alone), reports an unknown option as bash's invalid option
// with its usage line (status 2), and a command not found in PATH (or a
// function or builtin: exec runs only files) as "exec: NAME: not found",
// exiting with 127.
func TestJaiphExecOptions(t *testing.T) {
	runCases(t, []string{
		"exec -- echo hi; echo not reached",
		"exec -- 3>&1; echo three >&3",
		"exec -z true; echo \"st=$?\"; exec -cz true; echo \"st=$?\"",
		"(exec -- -x); echo \"st=$?\"; (exec -); echo \"st=$?\"",
		"(exec nosuch_zz); echo \"st=$?\"\nf() { echo fn; }; (exec f); echo \"st=$?\"; (exec cd /); echo \"st=$?\"",
		"trap 'echo trap' EXIT; exec nosuch_zz; echo after",
	})
}
