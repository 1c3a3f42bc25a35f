// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// patches of the session of 2026-11-30, seventh stop (jaiph-go issue 36):
// busybox's shell tests (github.com/mirror/busybox, shell/ash_test) run as
// bodies.
package interp_test

import "testing"

// TestJaiphExitInExitTrap: `exit` without a status in the EXIT trap exits
// with $? from before the trap ran (bash's exit_or_logout), also from a
// function the trap calls; in any other trap it is the last command's.
func TestJaiphExitInExitTrap(t *testing.T) {
	runCases(t, []string{
		`(trap 'echo T; exit' EXIT; (exit 3)); echo "s=$?"`,
		`(trap 'false; exit' EXIT; true); echo "s=$?"`,
		`(f() { false; exit; }; trap f EXIT; (exit 4)); echo "s=$?"`,
		`(trap 'false; exit' USR1; kill -USR1 $BASHPID; echo after); echo "s=$?"`,
		`(trap 'false; exit 5' EXIT; true); echo "s=$?"`,
		`(trap '(false; exit); echo "in $?"' EXIT; (exit 6)); echo "s=$?"`,
	})
}

// TestJaiphAltWordLeadingBlank: an unquoted ${x:+ ""} is one empty field:
// the word's leading IFS blank delimits nothing.
func TestJaiphAltWordLeadingBlank(t *testing.T) {
	runCases(t, []string{
		`f() { printf '<%s>' "$@"; echo " $#"; }; x=a; f ${x:+ ''}; f ${x:+ '' }; f ${x:+'' }; f ${x:+ ""}`,
		`f() { printf '<%s>' "$@"; echo " $#"; }; x=a; f ${x:+ $e''}; f ${x:+ a''}; f ${x:+ ''a}; f ${u:- ''}; f ${x:+ "$e"}`,
		`f() { printf '<%s>' "$@"; echo " $#"; }; x=a; IFS=:; f ${x:+:''}; f ${x:+ ''}; f ${x:+''  :}`,
		`f() { printf '<%s>' "$@"; echo " $#"; }; x=a; HOME=; f ${x:+ ~}; f ~ ${x:+~ ""}`,
	})
}

// TestJaiphOctalEscapeDigits: an octal escape reads only the digits 0 to
// 7, so $'\608' is "0" then "8", in $'…' and printf's format.
func TestJaiphOctalEscapeDigits(t *testing.T) {
	runCases(t, []string{
		`echo $'a\80b' $'c\608b' $'e\0633f' $'\18' | od -c`,
		`printf 'a\608b\n\19x\n\777\n' | od -c`,
		`printf '%b\n' 'a\0608b' '\18' '\608' | od -c`,
		`printf '\x9g \xAB\n' | od -c; echo $'\x9g \xAB' | od -c`,
	})
}

// TestJaiphDevFdReopen: a redirection to /dev/stdout, /dev/fd/N or
// /proc/self/fd/N opens the path as bash on Linux does: a regular file is
// opened afresh (truncated by >, read from its start by <), a pipe is the
// same pipe, a closed descriptor is no such file.
func TestJaiphDevFdReopen(t *testing.T) {
	runCases(t, []string{
		`exec 3>&1; exec >f; echo aaa; echo b >/dev/stdout; exec >&3; od -c f`,
		`exec 4>g; echo xyz >&4; echo q >/dev/fd/4; od -c g; exec 5>h; echo xyz >&5; echo q >/proc/self/fd/5; od -c h`,
		`exec 7>k; echo 1 >&7; echo 2 >>/dev/fd/7; echo 3 >&7; cat k`,
		`echo hi >/proc/self/fd/1 | cat; x=$(echo sub >/dev/stdout; echo two >/proc/self/fd/1); echo "[$x]"`,
		`printf 'l1\nl2\n' >g; exec 6<g; read l <&6; cat </dev/fd/6; echo "$l"`,
		`echo nope >/dev/fd/9; echo "s=$?"; cat </dev/fd/9; echo "s=$?"`,
		`exec >f; set -C; echo c >/dev/stdout; echo "s=$?" >&2; set +C`,
		`{ echo in-group >/dev/stderr; } 2>&1 | cat; echo x >>/dev/stdout`,
	})
}

// TestJaiphAltWordNewline: the blanks in the word of an unquoted ${x+…}
// (a newline too) split the fields around it: A${x:+ b }C is three.
func TestJaiphAltWordNewline(t *testing.T) {
	runCases(t, []string{
		"echo Unquoted: H${$+\n}H; echo Quoted: \"H${$+\n}H\"",
		"x=a; printf '<%s>' A${x:+\n}B A${x:+ \n }B A${u:-\nc}B; echo",
		`x=a; printf '<%s>' A${x:+ b }C A${x:+b }C A${x:+ b}C ${x:+~/q} ${x:+ ~/q} A${x:+"" }B A${x:+~/q} ${x:+a=~/b}; echo`,
		`x=a; y='1 2'; IFS=': '; printf '<%s>' A${x:+:b: }C ${x:+$y:}D ${x:+ "$y" $y}E ${u-:}F ${u-"" :}; echo`,
		`x=a; set -- p 'q r'; printf '<%s>' A${x:+ "$@" }B A${x:+"$@"}B ${x:+$@}; echo`,
		`x=a; set -- p "q r"; arr=(m "n o"); printf "<%s>" A${x:+ $@ }B A${x:+ "$*" }B A${x:+ "${arr[@]}" }B A${x:+ c"$@"d }B A${x:+ "$@" e }B A${x:+ "$1" }B; echo`,
		`x=a; set --; printf "<%s>" A${x:+ "$@" }B A${x:+ e "$@" }B; echo`,
	})
}

// TestJaiphEscNewlineDoubleParen: a backslash-newline between the two
// parens of $(( or (( is removed before they are read, as bash's reader
// does: arithmetic, not a command substitution holding a subshell.
func TestJaiphEscNewlineDoubleParen(t *testing.T) {
	runCases(t, []string{
		"echo Forty two:$\\\n(\\\n(\\\n42\\\n)\\\n)",
		"echo \"Forty two:$\\\n(\\\n(\\\n42\\\n)\\\n)\"",
		"(\\\n(x=3+4)); echo $x; echo $(\\\n(1+2)); echo $(\\\n(echo sub) )",
		"echo $\\\n(echo Ok\\\n)",
	})
}

// TestJaiphExecFileClosed: a file an exec redirection opened is closed
// when the descriptor is redirected again (nothing else refers to it) and
// when the shell ends, so a process substitution reading it sees its end
// of file (it waited for ever, and so did the shell's embedder).
func TestJaiphExecFileClosed(t *testing.T) {
	runCases(t, []string{
		"exec 3>&1; exec > >(tr a-z A-Z); echo shout; exec >&3 3>&-; wait $!; echo \"done $?\"",
		"exec 4>&2; exec 2> >(tee err >/dev/null); echo e >&2; exec 2>&4; wait $!; cat err",
		"exec 5> >(cat >f5); echo five >&5; exec 5>&-; wait $!; cat f5",
		"exec 3>&1; exec > >(sed s/^/out:/); echo one; ( echo sub ) ; exec >&-; wait $!; echo after >&3",
	})
}

// TestJaiphSignalDeathNegated: a program a signal killed is reported
// under `!` too (the negation changed its status, and dropped the report).
func TestJaiphSignalDeathNegated(t *testing.T) {
	runCases(t, []string{
		`! sh -c 'kill $$'; echo "s=$?"; ! sh -c 'kill $$' | cat; echo "s=$?"`,
		`trap 'echo hup' HUP; ! sh -c 'kill -HUP $$'; echo "s=$?"; if ! sh -c 'kill $$'; then echo then; fi`,
		`{ ! sh -c 'kill -9 $$'; } 2>f; echo "s=$?"; sed 's/.*Killed/Killed/' f`,
	})
}
