// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// patches found restating Oils' spec builtin-eval-source, builtin-vars,
// builtin-set, builtin-meta, builtin-special and command_ files
// (jaiph-go's testdata/bashcompat/oils_builtin_*.txtar, oils_command.txtar).
package interp_test

import "testing"

func TestJaiphEvalSourceOptions(t *testing.T) {
	runCases(t, []string{
		// eval and source take no options: `--` is dropped, a lone `-`
		// is a word, any other dash word is an invalid option (status 2)
		"eval -- echo one; echo \"st=$?\"\neval - ; echo \"st=$?\"\neval -x; echo \"st=$?\"\neval -qz echo; echo \"st=$?\"",
		"echo 'echo in file' > f.sh\nsource -- ./f.sh; echo \"st=$?\"\n. -- f.sh; echo \"st=$?\"\nsource -e f.sh; echo \"st=$?\"\n. -- ; echo \"st=$?\"",
		// no file name: bash's usage texts, naming the builtin as called
		"source; echo \"st=$?\"\n.; echo \"st=$?\"",
		// a directory is reported by the name given
		"mkdir -p d\n. ./d/; echo \"st=$?\"\nsource d; echo \"st=$?\"",
	})
}
