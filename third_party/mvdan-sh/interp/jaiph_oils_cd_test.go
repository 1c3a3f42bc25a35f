// Differential tests (against /usr/bin/bash, see compareWithBash) for the cd
// and pwd patches found restating Oils' spec/builtin-cd.test.sh (jaiph-go's
// testdata/bashcompat/oils_builtin_cd.txtar).
package interp_test

import "testing"

// TestJaiphCdArguments: cd's words as bash's cd_builtin reads them: "--",
// an invalid option, no word with HOME unset or empty, "-" with OLDPWD unset,
// an empty name (the current directory).
func TestJaiphCdArguments(t *testing.T) {
	runCases(t, []string{
		"cd \"\"; echo \"st=$?\"; HOME=; cd; echo \"st=$?\"; cd -Z; echo \"st=$?\"; cd -- /; echo \"st=$? $PWD\"; cd --; echo \"st=$?\"",
		"unset OLDPWD; cd -; echo \"st=$?\"; unset HOME; cd; echo \"st=$?\"",
		"mkdir -p d; cd d; cd -- - | sed \"s,^$(dirname \"$PWD\"),D,\"; echo \"st=$?\"",
	})
}

// TestJaiphCdDotDotCheck: as bash's sh_canonpath (PATH_CHECKDOTDOT), the part
// of a path before a ".." must be a directory.
func TestJaiphCdDotDotCheck(t *testing.T) {
	runCases(t, []string{
		"cd nonexistent_ZZ/..; echo \"st=$?\"; touch f; cd f/..; echo \"st=$?\"; mkdir -p d; cd d/../d/..; echo \"st=$?\"",
		"mkdir -p t/sub; ln -s t/sub lnk; s=$PWD; cd lnk/..; echo \"st=$? [${PWD#$s}]\"",
	})
}

// TestJaiphCdPath: a relative name not starting with ./ or ../ is looked for
// in CDPATH's entries (an empty one is the current directory), the new
// directory printed when a non-empty entry found it; then as it is.
func TestJaiphCdPath(t *testing.T) {
	runCases(t, []string{
		"s=$PWD; mkdir -p spam/foo eggs/foo eggs/bar; CDPATH=\"$s/spam:$s/eggs\"\ncd foo | sed \"s,^$s,S,\"; cd foo >/dev/null; echo \"st=$? ${PWD#$s}\"\ncd bar | sed \"s,^$s,S,\"; cd \"$s\"; cd ./foo; echo \"st=$?\"",
		"s=$PWD; mkdir -p foo eggs/foo; CDPATH=:$s/eggs; cd foo; echo \"${PWD#$s}\"; cd \"$s\"; CDPATH=.; cd foo | sed \"s,^$s,S,\"; cd zz; echo \"st=$?\"",
	})
}

// TestJaiphPwdOwnRecord: pwd prints the shell's own record of the working
// directory whatever PWD was set to, ignores words that are no options and
// reports an unknown option as bash does.
func TestJaiphPwdOwnRecord(t *testing.T) {
	runCases(t, []string{
		"mkdir -p here; cd here; w=$(pwd); PWD=foo; [ \"$(pwd)\" = \"$w\" ] && echo same; unset PWD; [ \"$(pwd)\" = \"$w\" ] && echo same; echo \"${PWD-unset}\"",
		"pwd / >/dev/null; echo \"st=$?\"; pwd -Z; echo \"st=$?\"; pwd -- >/dev/null; echo \"st=$?\"",
	})
}
