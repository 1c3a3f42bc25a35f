// Differential tests (against /usr/bin/bash, see compareWithBash) for the kill
// patches found restating Oils' spec/builtin-kill.test.sh (jaiph-go's
// testdata/bashcompat/oils_builtin_kill.txtar).
package interp_test

import "testing"

// TestJaiphKillExitName: bash's decode_signal finds EXIT (any case, no SIG
// prefix) as signal 0 for kill too: kill -l EXIT prints 0, kill -s EXIT
// checks the process exists; kill -l numbers bash's pseudo-signals DEBUG,
// ERR and RETURN after the real ones.
func TestJaiphKillExitName(t *testing.T) {
	runCases(t, []string{
		"kill -l 0 INT; kill -l EXIT; echo \"st=$?\"; kill -l exit; kill -l SIGEXIT; echo \"st=$?\"",
		"kill -l DEBUG err Return; echo \"st=$?\"",
		"kill -s EXIT $$; echo \"st=$?\"; kill -EXIT $$; echo \"st=$?\"; kill -exit $$; echo \"st=$?\"",
		"sleep 5 & kill -s EXIT $!; echo \"st=$?\"; kill $!; wait $!; echo \"st=$?\"",
	})
}
