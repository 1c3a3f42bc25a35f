// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// HISTFILESIZE patch found restating Oils' spec/builtin-history.test.sh
// (jaiph-go's testdata/bashcompat/oils_builtin_history.txtar).
package interp_test

import "testing"

// TestJaiphHistFileSize: assigning HISTFILESIZE a number truncates the file
// HISTFILE names to its last lines, as bash's sv_histsize does in any shell.
func TestJaiphHistFileSize(t *testing.T) {
	runCases(t, []string{
		"printf 'cmd %s\\n' {1..10} > h; HISTFILE=h; HISTFILESIZE=5; wc -l < h; cat h",
		"printf 'cmd %s\\n' {1..10} > h; HISTFILESIZE=5; wc -l < h; HISTFILE=h; wc -l < h; HISTFILESIZE=3; cat h; HISTFILESIZE=0; wc -c < h",
		"printf 'cmd %s\\n' {1..4} > h; HISTFILE=h; HISTFILESIZE=9; HISTFILESIZE=4; HISTFILESIZE=x; HISTFILESIZE=-1; wc -l < h",
		"printf 'a\\nb\\nc' > h; HISTFILE=h; HISTFILESIZE=1; od -c h",
		"printf '#1700000000\\ncmd 1\\n#1700000001\\ncmd 2\\n' > h; HISTFILE=h; HISTFILESIZE=1; cat h",
		"printf 'cmd %s\\n' {1..6} > h; HISTFILE=h; f() { local HISTFILESIZE=2; }; f; cat h",
	})
}
