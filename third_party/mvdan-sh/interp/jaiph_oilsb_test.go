// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// patches found by restating Oils' spec tests func-parsing, var-num,
// dbracket, glob, brace-expansion, assign, background and builtin-trap
// (testdata/bashcompat/oils_* in jaiph-go).
package interp_test

import "testing"

func TestJaiphTildeQuotedAndEmptyHome(t *testing.T) {
	runCases(t, []string{
		// a tilde's expansion is quoted: a pattern or regex takes it
		// literally
		`HOME='^q$'; [[ $HOME =~ ~ ]]; echo $?; [[ q =~ ~ ]]; echo $?; HOME='*'; [[ x == ~ ]]; echo $?; [[ '*' == ~ ]]; echo $?; case ab in ~) echo m;; *) echo nm;; esac`,
		// a set but empty HOME expands to nothing
		`HOME=; [[ ~ ]]; echo $?; [[ -n ~ ]]; echo $?; [[ ~/x == /x ]]; echo $?; x=~; y=a:~; echo "[$x] [$y]"; printf '<%s>' ~ ~/z; echo`,
	})
}

func TestJaiphGlobSkipDots(t *testing.T) {
	runCases(t, []string{
		// off, a pattern starting with "." matches "." and ".." too
		`mkdir -p gd/sub; touch gd/.h gd/sub/.k; cd gd; shopt -u globskipdots; echo .* .? ..* sub/.* */.?; shopt -s dotglob; echo * .*; shopt -u dotglob; shopt -s globskipdots; echo .* sub/.*; shopt globskipdots; shopt -p globskipdots`,
	})
}

func TestJaiphBraceJoinsNames(t *testing.T) {
	runCases(t, []string{
		// bash expands braces in the text: a $name the expansion puts
		// before name characters takes them into the name
		`v=V; va=A; v_r=R; echo 1 $v{a,b}; echo 2 {$v,w}x; echo 3 {x,$v}_; echo 4 {$v,w}{1,2}; echo 6 {$v,w}"x"; echo 8 {$v,w}_{r,s}; echo 9 $v{,}; echo 10 {$v,}'q'; echo 12 {$v,w}é {$v,w}-`,
		`set -- P; v=V; echo {$1,w}x {$@,w}x {${v},w}x {$#,w}x {$v,w}{x..z}; for x in {$v,w}_r; do echo "[$x]"; done`,
	})
}
