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
		// a syntax error in the file is status 2
		"echo 'echo >' > f.sh\n. ./f.sh 2>/dev/null; echo \"st=$?\"",
		// a directory is reported by the name given
		"mkdir -p d\n. ./d/; echo \"st=$?\"\nsource d; echo \"st=$?\"",
	})
}

func TestJaiphUnsetScalarElement(t *testing.T) {
	runCases(t, []string{
		// a subscript of a scalar (set or only declared) that is 0 unsets
		// the variable, any other is `not an array variable`, status 1
		`s=x; unset 's[1]'; echo $? ${s-U}; unset 's[0]'; echo $? ${s-U}`,
		`f() { declare u; unset 'u[1]'; echo $?; unset 'u["k"]'; echo $?; declare -p u; }; f`,
		`s=x; unset -v 's[2-2]'; echo $? ${s-U}; n=5; unset 'n[n]'; echo $? $n`,
	})
}

func TestJaiphExportCallerLocal(t *testing.T) {
	runCases(t, []string{
		// export of a name without a value exports the variable the name
		// resolves to, a caller's local included
		`f(){ local p=P; g; echo "f $p"; declare -p p; }; g(){ export p; echo "g $p"; declare -p p; printenv p; }; f; declare -p p`,
		`p=G; f(){ local p; g; echo "f $p"; }; g(){ export p=2; }; f; echo $p; printenv p || echo none`,
		`f(){ local q=1; g; printenv q; }; g(){ readonly q; declare -p q; }; f; declare -p q`,
	})
}

func TestJaiphSetLonePlus(t *testing.T) {
	runCases(t, []string{
		// a lone + is a flag word without flags; a lone - ends the
		// options and sets the parameters only if words follow
		"set a b; set +; echo \"[$*]\"; set - +; echo \"[$*]\"; set + -; echo \"[$*]\"; set -C + -u x y; echo \"[$*] $-\"; set +u",
		"set a b; set -; echo \"[$*]\"; set - -; echo \"[$*]\"; set + -- p; echo \"[$*]\"",
	})
}

func TestJaiphCommandVLookup(t *testing.T) {
	runCases(t, []string{
		// keywords are found; the status is 0 when any name was found
		`f() { :; }; command -v for; echo $?; command -v echo f NOPE_ZZ for; echo $?; command -v NOPE_ZZ ''; echo $?`,
		// a name with a slash is printed as given when executable; PATH
		// is searched as bash's find_user_command: directories skipped,
		// relative elements kept, a non-executable file as a last resort
		"mkdir -p t/cat; touch t/plain t/run; chmod +x t/run; PATH=\"t:$PATH\"\ncommand -v t/run; echo $?; command -v t/plain; echo $?; command -v t/cat; echo $?\ncommand -v run; command -v plain; echo $?; command -v cat",
		`command -V echo NOPE_ZZ; echo $?; command -V NOPE_ZZ; echo $?`,
		// builtin: -- is dropped, a name that is no builtin is reported
		`builtin; echo $?; builtin --; echo $?; builtin -- false; echo $?; builtin ls; echo $?`,
	})
}

func TestJaiphExportN(t *testing.T) {
	runCases(t, []string{
		// export -n takes the attribute away and keeps the value; with a
		// value it assigns it; an undefined name is no error
		"export E=1; export -n E; echo \"[$E]\"; printenv E || echo none; declare -p E",
		"v=old; export v; export -n v=new; echo \"st=$? v=$v\"; printenv v || echo none; declare -p v",
		"export -n never_set_q; echo \"st=$?\"; declare -p never_set_q; echo \"st=$?\"",
		"f() { local L=1; export L; printenv L; export -n L; printenv L || echo none; declare -p L; }; f",
		"declare -rx R=1; export -n R; echo \"st=$?\"; declare -p R; export -n R=2; echo \"st=$? $R\"",
		"export A=1 B=2; export -n A B; printenv A B || echo none; declare -p A B",
	})
}

func TestJaiphCommandP(t *testing.T) {
	runCases(t, []string{
		// command -p looks the command up in the standard PATH (the
		// program still sees the shell's PATH), -pv and -pV too
		"mkdir -p bin; printf '#!/bin/sh\\necho impostor\\n' > bin/tr; chmod +x bin/tr; PATH=\"$PWD/bin:$PATH\"\necho aaa | tr a b; echo aaa | command -p tr a b; command -pv tr; command -p -V tr",
		"PATH=/nowhere; command -p ls -d /; echo st=$?; command -p sh -c 'echo \"$PATH\"'; command -pv ls; command -p nosuch_zz; echo st=$?",
		"mkdir -p bin; printf '#!/bin/sh\\necho hi\\n' > bin/only_here; chmod +x bin/only_here; PATH=$PWD/bin; only_here; command -p only_here; echo st=$?; command -p echo builtin",
	})
}
