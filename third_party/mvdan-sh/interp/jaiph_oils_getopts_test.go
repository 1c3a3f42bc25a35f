// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// getopts patches found restating Oils' spec/builtin-getopts.test.sh
// (jaiph-go's testdata/bashcompat/oils_builtin_getopts.txtar).
package interp_test

import "testing"

// TestJaiphGetoptsOptindClamp: an OPTIND left past the arguments (by a loop
// over a longer list) is brought back to $#+1 by the next getopts, as bash's
// sh_getopt sets sh_optind to argc.
func TestJaiphGetoptsOptindClamp(t *testing.T) {
	runCases(t, []string{
		"set -- -a -b -c\nwhile getopts abc o; do :; done; echo $OPTIND\nset --\ngetopts abc o; echo \"st=$? o=$o OPTIND=$OPTIND\"",
		"set -- -c -d -e v\nwhile getopts cde: o; do echo $o; done; echo $OPTIND\nset -- -f\nwhile getopts f: o; do echo $o; done; echo \"OPTIND=$OPTIND\"",
		"OPTIND=9; getopts x o a b; echo \"st=$? OPTIND=$OPTIND o=$o\"",
		"f() { OPTIND=7; getopts x o \"$@\"; echo \"st=$? OPTIND=$OPTIND\"; }; f -x; f",
	})
}

// TestJaiphGetoptsDoubleDashWord: only a lone "--" ends the options; a word
// such as "--x" is read, as bash does, as the option letters "-" and "x".
func TestJaiphGetoptsDoubleDashWord(t *testing.T) {
	runCases(t, []string{
		"set -- --x; getopts ab o; echo \"st=$? o=$o OPTIND=$OPTIND\"",
		"set -- -a --x; while getopts a- o; do echo \"o=$o OPTIND=$OPTIND\"; done 2>/dev/null; echo \"end $OPTIND\"",
		"set -- --verbose p; while getopts :v o; do echo \"o=$o arg=${OPTARG-}\"; done; shift $((OPTIND-1)); echo \"rest $*\"",
		"set -- -- -a; getopts a o; echo \"st=$? OPTIND=$OPTIND\"",
	})
}

// TestJaiphGetoptsInvalidName: an invalid variable name is bash's
// `NAME': not a valid identifier, reported when getopts binds it, after the
// options were read (OPTIND and OPTARG move on), with status 1.
func TestJaiphGetoptsInvalidName(t *testing.T) {
	runCases(t, []string{
		"set -- -c val -h\ngetopts 'hc:' opt-; echo \"st=$? OPTARG=$OPTARG OPTIND=$OPTIND\"\ngetopts 'hc:' opt-; echo \"st=$? OPTARG=${OPTARG-unset} OPTIND=$OPTIND\"",
		"set -- -z\ngetopts 'a' 1x 2>err; echo \"st=$? OPTIND=$OPTIND\"\nsed 's/^.*\\(illegal\\|getopts:\\)/\\1/' err",
		"set --\ngetopts 'a' 'a b'; echo \"st=$? OPTIND=$OPTIND\"",
	})
}
