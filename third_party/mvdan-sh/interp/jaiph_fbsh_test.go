// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// patches of the session of 2026-11-30, eighth stop (jaiph-go issue 36):
// FreeBSD's sh tests (github.com/freebsd/freebsd-src bin/sh/tests) run
// as bodies; each test names the file its case came from.
package interp_test

import "testing"

// TestJaiphCaseEmptyItemStatus: an item without commands that runs,
// reached by ";&" or ";;&", makes the case's status 0, as bash's
// execute_command of no command (builtins/case17.0).
func TestJaiphCaseEmptyItemStatus(t *testing.T) {
	runCases(t, []string{
		`! case x in x) false ;& y) esac; echo "s=$?"; case x in x) false ;& y) ;; esac; echo "s=$?"`,
		`case x in x) false ;;& x) ;; esac; echo "s=$?"; case x in x) false ;;& y) esac; echo "s=$?"; case x in x) false ;& y) false ;& z) esac; echo "s=$?"`,
		`for i in 1 2; do case x in x) (exit 3); continue ;& y) esac; echo no; done; echo "s=$?"`,
	})
}

// TestJaiphGlobLastLiteralLstat: a glob's last component without pattern
// characters names a file when lstat finds it, as bash's GLOB_TESTNAME: a
// dangling symlink matches, a name longer than the system allows does not
// (it matched every directory the pattern before it did; expansion/
// pathname3.0).
func TestJaiphGlobLastLiteralLstat(t *testing.T) {
	runCases(t, []string{
		`mkdir -p gd/sub; ln -s /nonexistent gd/sub/dang; ln -s loop gd/sub/loop; echo g[d]/sub/dang g[d]/sub/loop g[d]/sub/none; echo g[d]/sub/dang/ g[d]/s*/dang/x`,
		`mkdir -p gd/sub; v=$(printf '%0300d' 0); set -- g*/$v; echo "$#"; set -- /*/$v; echo "$#"; touch gd/f; echo g[d]/f g[d]/f/x`,
	})
}

// TestJaiphParamOperatorLineContinuation: a backslash-newline inside a
// two-character operator of ${…} (`%\<newline>%`, `:\<newline>-`) is
// removed before bash reads the operator (it split it: ${v%%b*} ran as
// ${v%…} with the pattern "%b*"; parser/line-cont10.0).
func TestJaiphParamOperatorLineContinuation(t *testing.T) {
	runCases(t, []string{
		"v=XaaaXbbbX; echo \"${v\\\n#\\\n#\\\n*\\\na}.${v\\\n%\\\n%\\\nb\\\n*}\"; echo ${u:\\\n-d} ${v:\\\n+e} ${v/\\\n/a/b} ${v^\\\n^} ${v,\\\n,}",
	})
}

// TestJaiphSetNolog: bash's nolog option does nothing but is set, unset
// and listed (`set -o nolog` was an invalid option name; builtins/set3.0).
func TestJaiphSetNolog(t *testing.T) {
	runCases(t, []string{
		`a=$(set +o); set -o nolog; echo "s=$?"; b=$(set +o); [ "$a" != "$b" ]; echo "s=$?"; set -o | grep nolog; set +o nolog; shopt -o nolog; shopt -so nolog; shopt -po nolog`,
	})
}

// TestJaiphBinaryFileNotScript: a file the kernel cannot execute is run
// as a script unless bash's check_binary_file finds it binary in its first
// 128 bytes: an ELF header (it ran as a script) or a null byte in the
// first line; bash's report names the reason (execution/shellproc5.0).
func TestJaiphBinaryFileNotScript(t *testing.T) {
	runCases(t, []string{
		`printf '\177ELF\001!!\012\0\0\0\0' > e; printf 'echo hi\n\0\n' > n; printf 'echo hi%0130d\0\n' 0 > l; printf 'ec\0ho\n' > z; chmod +x e n l z; ./e; echo "s=$?"; ./n; echo "s=$?"; ./l | cut -c1-5; ./z; echo "s=$?"`,
	})
}

// TestJaiphIndirectArrayElemZeroUnbound: under set -u, ${!p} of p naming
// an array whose element (key) 0 is unset is bash's "!p: unbound
// variable", as $a of that array is (it expanded to nothing; soak seed
// 179).
func TestJaiphIndirectArrayElemZeroUnbound(t *testing.T) {
	runCases(t, []string{
		`a=([2]=x); p=a; set -u; echo "${!p-d}" ${!p:-e}; (echo ${!p}); echo "s=$?"; declare -A m=([k]=v); q=m; (echo ${!q}); echo "s=$?"; declare -A z=([0]=v); r=z; echo ${!r}`,
	})
}

// TestJaiphAssocPairWordAsWritten: an associative list's key word that
// expands to nothing is reported as written ("${u1}": bad array
// subscript); it was printed as arithmetic, "$u1" (soak seed 179).
func TestJaiphAssocPairWordAsWritten(t *testing.T) {
	runCases(t, []string{
		`declare -A a2; a2=( "${u1}" ); a2=( ${u1} x ); declare -Ai a1; a1=( "${u1}" "${#u1}" ); echo "s=$?"`,
	})
}

// TestJaiphBackquoteEscapedBackslashNewline: inside backquotes, `\\`
// before a newline is the inner command's backslash-newline: kept inside
// its single quotes, a continuation elsewhere (the line was joined even
// in single quotes: sed 's/ /\<newline>/g' lost its newline; bash's
// quote.tests).
func TestJaiphBackquoteEscapedBackslashNewline(t *testing.T) {
	runCases(t, []string{
		"a=`echo 'a b c' | sed 's/ /\\\\\n/g'`; echo \"$a\"; b=`echo a\\\\\nb`; echo \"$b\"; c=`echo \"a\\\\\nb\"`; echo \"$c\"; d=`echo 'x\\\\\ny'`; echo \"$d\"; echo `echo 'p\\\nq'`",
	})
}
