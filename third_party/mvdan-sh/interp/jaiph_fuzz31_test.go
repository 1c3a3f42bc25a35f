// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// patches of the session of 2026-11-30, sixth stop (jaiph-go issue 36):
// smoosh's shell tests (github.com/mgree/smoosh, tests/shell) run as
// bodies.
package interp_test

import "testing"

// TestJaiphKillBadPid: kill names an empty argument as no pid or job spec
// and reads a number as bash's legal_number does (blanks around it); one
// too large for a pid is no process ID.
func TestJaiphKillBadPid(t *testing.T) {
	runCases(t, []string{
		`kill ''; echo "s=$?"`,
		`kill -s 0 -- -; echo "s=$?"`,
		`kill -0 ' 999999 '; echo "s=$?"`,
		`kill 99999999999; echo "s=$?"`,
		`kill -s 0 abc ''; echo "s=$?"`,
	})
}

// TestJaiphBuiltinWriteError: the builtins bash ends with sh_chkwrite say
// "write error" and fail when their standard output cannot be written;
// pushd, popd and the listing of every function say it and keep their
// status; the others lose what they wrote and succeed.
func TestJaiphBuiltinWriteError(t *testing.T) {
	runCases(t, []string{
		`pwd >/dev/full; echo "s=$?"; times >/dev/full; echo "s=$?"; type echo >/dev/full; echo "s=$?"`,
		`alias a=b; alias >/dev/full; echo "s=$?"; alias a >/dev/full; echo "s=$?"; alias -p >/dev/full; echo "s=$?"`,
		`declare -p PWD >/dev/full; echo "s=$?"; set -o >/dev/full; echo "s=$?"; shopt nullglob >/dev/full; echo "s=$?"`,
		`trap 'echo x' USR1; trap >/dev/full; echo "s=$?"; trap -p >/dev/full; echo "s=$?"; trap -l >/dev/full; echo "s=$?"`,
		`kill -l >/dev/full; echo "s=$?"; command -v echo >/dev/full; echo "s=$?"; command -V echo >/dev/full; echo "s=$?"`,
		`dirs >/dev/full; echo "s=$?"; pushd /tmp >/dev/full; echo "s=$?"; popd >/dev/full; echo "s=$?"`,
		`cd /tmp >/dev/full; echo "s=$?"; cd - >/dev/full; echo "s=$?"`,
		`f() { :; }; declare -f >/dev/full; echo "s=$?"; declare -F >/dev/full; echo "s=$?"; declare -f f >/dev/full; echo "s=$?"`,
		`builtin pwd >/dev/full; echo "s=$?"; command pwd >/dev/full; echo "s=$?"; eval pwd >/dev/full; echo "s=$?"`,
	})
}

// TestJaiphCommandIgnoresErrexit: where errexit is ignored (a function
// called before ||), `command` runs its builtin as eval does, with
// exit_immediately_on_error off: a readonly assignment's error does not
// end the shell there, while a bare readonly (or builtin readonly) does.
func TestJaiphCommandIgnoresErrexit(t *testing.T) {
	cases := []string{}
	for _, pre := range []string{"", "command ", "builtin ", "eval "} {
		for _, b := range []string{"readonly", "export", "declare"} {
			cases = append(cases, `( g() { set -e; readonly x=foo; `+pre+b+` x=bar; echo cont; }; g || echo or; echo end ); echo "s=$?"`)
		}
	}
	runCases(t, cases)
}

// TestJaiphHeredocFailsFirst: a fatal expansion error in a here-document
// stops the redirections where it is: the ones after it are not performed
// (no file created by `cat <<EOF >f`).
func TestJaiphHeredocFailsFirst(t *testing.T) {
	runCases(t, []string{
		"unset x\ncat <<EOF > f\n${x?z}\nEOF\necho \"s=$?\"; ls f 2>&1",
		"unset x\ncat > f <<EOF\n${x?z}\nEOF\necho \"s=$?\"; ls f",
		"unset x\ncat <<EOF 2>e >f\n${x?z}\nEOF\necho \"s=$?\"; ls e f 2>&1",
	})
}

// TestJaiphSignalTrapErrexit: a signal's trap runs its commands afresh,
// with errexit in force even where the interrupted command ignores it; a
// subshell's kill of its own BASHPID signals that subshell.
func TestJaiphSignalTrapErrexit(t *testing.T) {
	runCases(t, []string{
		`g() { set -e; trap "false; echo BUG" USR1; kill -s USR1 $$; echo after; }; g || echo or; echo end`,
		`g() { set -e; trap 'set -o bad@option' INT; kill -s INT $$ && echo HUH; }; g || echo or`,
		`( g() { set -e; trap "false; echo T" USR1; kill -s USR1 $BASHPID; echo after; }; g || echo or; echo end ); echo "s=$?"`,
		`( trap 'echo got' USR1; kill -USR1 $BASHPID; echo after; kill -0 $BASHPID; echo "s=$?" )`,
		`( trap 'echo T; exit 3' TERM; kill $BASHPID; echo not ); echo "s=$?"`,
	})
}
