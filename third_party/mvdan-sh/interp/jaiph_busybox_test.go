// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// patches of the session of 2026-11-30, seventh stop (jaiph-go issue 36):
// busybox's, mksh's and ksh93's shell tests (github.com/mirror/busybox
// shell/ash_test, github.com/MirBSD/mksh check.t, github.com/ksh93/ksh
// src/cmd/ksh93/tests) run as bodies, bash's own test files again, and
// the soak's finds; each test names where its case came from.
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
// parens of $((, (( or the )) of $(( is removed before they are read, as
// bash's reader does: arithmetic, not a command substitution holding a
// subshell; between the )) of the (( command it is bash's syntax error (jaiph
// check refuses it).
func TestJaiphEscNewlineDoubleParen(t *testing.T) {
	runCases(t, []string{
		"echo Forty two:$\\\n(\\\n(\\\n42\\\n)\\\n)",
		"echo \"Forty two:$\\\n(\\\n(\\\n42\\\n)\\\n)\"",
		"(\\\n(x=3+4)); echo $x; echo $(\\\n(1+2)); echo $(\\\n(echo sub) )",
		"echo $\\\n(echo Ok\\\n)",
		"i=1\n(\\\n(i=i+2))\necho a $i\necho $((1+2)\\\n)",
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
		"set -e\nexec\necho reached; a=a; a=b exec; echo $a",
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

// TestJaiphQuotedEmptyList: double quotes holding a "$@" (or
// "${a[@]}") of no elements and nothing else but empty expansions make no
// field ("$e$@", "$*$@", "${@:-}$@"), as in bash; an empty string quoted
// on its own ("$@""") or an operator's empty word alone ("${@:-}") does.
func TestJaiphQuotedEmptyList(t *testing.T) {
	runCases(t, []string{
		`f() { echo -n "$# "; }; set --; e=; f "$@"""; f "$@"''; f """$@"; f "$e$@"; f "$@$e"; f "$*$@"; f "$@"$e; f $e"$@"; f "${e}$@x"; f "$@" ""; f "${@}${@}"; f "${@:-}$@"; a=(); f "${a[@]}$@"; f "${a[@]}"""; echo`,
		`f() { echo -n "$# "; }; set --; e=; f "${@:-}"; f "${@:-}x"; f "${@:-y}$@"; f "${@:-$e}"; f "${@-}"; f "${@:-}${@:-}"; f "$e${@:-}"; echo`,
		`f() { echo -n "$# "; }; set -- ""; e=; f "$@$e"; f "$e$@"; set -- "" ""; f "$@$e"; a=(""); f "${a[@]}$e"; set -- a; f "$@$@"; echo`,
	})
}

// TestJaiphCommentBackslashNewline: a comment ends at its newline even
// after a backslash; the next line is a command of its own.
func TestJaiphCommentBackslashNewline(t *testing.T) {
	runCases(t, []string{
		"echo hi #there \\\necho folks",
		"f() { # a \\\necho in; }; f\n# c \\\necho after",
		"x=1 # \\\\\\\necho $x",
	})
}

// TestJaiphANSICNonPrintable: declare -p, ${x@Q} and xtrace write a value
// in $'…' when it holds a character that is not printable in a UTF-8
// locale (U+FFFE, an unassigned one, a C1 control) or a byte that is no
// UTF-8, each byte of it in octal; printable characters stay as they are
// (mksh's duffs-device test).
func TestJaiphANSICNonPrintable(t *testing.T) {
	runCases(t, []string{
		"LC_ALL=C.UTF-8\ns=$'a\\xEF\\xBF\\xBEb'; declare -p s; echo \"${s@Q}\"; t=$'c\\xffd'; declare -p t; echo \"${t@Q}\"",
		"LC_ALL=C.UTF-8\nu=$'\\u00a0x\\u200by\\u00adz\\ue000é€'; declare -p u; echo \"${u@Q}\"; w=$'\\u0378q\\U0001F600\\u0085'; declare -p w; echo \"${w@Q}\"",
		"LC_ALL=C.UTF-8\ns=$'a\\xEF\\xBF\\xBEb'; t=$'c\\xffd'; set -x; : \"$s\" \"$t\" $'\\u2028'; set +x",
		"LC_ALL=C.UTF-8\ndeclare -A m=([$'k\\xEF\\xBF\\xBE']=1); declare -p m",
	})
}

// TestJaiphLinenoUnset: once unset, LINENO is an ordinary variable: empty,
// then what is assigned, in functions and subshells too (mksh's
// lineno-unset tests); before, it is the line, in arithmetic too.
func TestJaiphLinenoUnset(t *testing.T) {
	runCases(t, []string{
		"echo A $LINENO $((LINENO))\nunset LINENO\necho B $LINENO $((LINENO+1))\nf() {\n echo f $LINENO\n}\nf\n( echo sub \"[$LINENO]\" )\nLINENO=3\necho C $LINENO\necho D $LINENO ${!LINENO} $((LINENO))",
		"x=LINENO; echo ${!x}\nunset LINENO; echo \"[${!x}]\"",
	})
}

// TestJaiphEvalLineno: the lines of an eval string are numbered from the
// line the eval command ends on (mksh's lineno-eval-alias).
func TestJaiphEvalLineno(t *testing.T) {
	runCases(t, []string{
		"echo $LINENO\neval 'echo e1 $LINENO'\neval '\necho e2 $LINENO\necho e3 $LINENO'\nf() { eval 'echo e4 $LINENO'; }\n\nf",
		"eval 'echo a $LINENO' \\\n  ; eval \"f() {\n echo in \\$LINENO\n}\"; f",
	})
}

// TestJaiphHeredocDollarStar: a here-document's $* joins the positional
// parameters with spaces whatever IFS (an array's ${a[*]} with IFS's
// first character), as bash 5.2 does (mksh's heredoc-12).
func TestJaiphHeredocDollarStar(t *testing.T) {
	runCases(t, []string{
		"set -- a b; a=(x y); IFS=:\ncat <<EOF\n1 $* \"$*\" ${a[*]} \"${a[*]}\" $@ \"$@\" ${*} ${a[@]}\nEOF\nIFS=\ncat <<EOF\n2 $* \"$*\" ${a[*]} ${*:1} ${a[*]/x/X}\nEOF\ncat <<<\"$*\"; x=\"$*\"; echo \"$x\"",
	})
}

// TestJaiphReversedRange: a bracket's reversed range (z-a) matches nothing
// and the rest of the bracket still counts, in globs, case, [[ ]] and
// ${x#…} (mksh's glob-range-5).
func TestJaiphReversedRange(t *testing.T) {
	runCases(t, []string{
		"touch -- abc bbc -bc @bc zbc; echo [a--@]*; echo [z-a]* '|' [z-ab]* '|' [c-a@]* '|' [!z-a]bc",
		"case @ in [a--@]) echo m1;; *) echo n1;; esac; case b in [z-ab]) echo m2;; *) echo n2;; esac; case q in [!z-a]) echo m3;; esac",
		"[[ - == [a--@] ]] && echo m3 || echo n3; x=zb; echo ${x#[z-a]} ${x#[z-az]} ${x/[y-ab]/Q}",
	})
}

// TestJaiphEmptyParamSubscript: a subscript made of parameters that
// expand to nothing is bash's empty subscript where bash expands the text
// first: in arithmetic (reported, the element reads 0, nothing assigned)
// and in declare (a bad subscript, status 1, the variable made an array);
// an assignment a[$k]=v is element 0 (bash's quotearray tests).
func TestJaiphEmptyParamSubscript(t *testing.T) {
	runCases(t, []string{
		`unset k; echo $((a[$k])) "s=$?"; ((a[$k]=5)); echo "s=$?"; ((a[$k]++)); echo "s=$?"; ((++a["$k"])); echo "s=$?"; declare -p a`,
		`unset k; declare -A m; echo $((m[$k])); ((m[$k]=1)); echo "s=$?"; declare -p m; a=(1 2); echo $((a[$k] + 1)) ${a[$k]}; a[$k]=9; declare -p a`,
		`unset k; declare A[$k]=4; echo "s=$?"; declare -p A; B=(1); declare B[$k]=5; declare -p B; declare -A M; declare M[$k]=1; echo "m=$?"; declare -p M`,
		`unset k; c=; echo $((a[c])) $((a[$c+1])); x=1; echo $((a[${k}]))`,
	})
}

// TestJaiphDefaultWordAtList: an unquoted $@ or ${a[@]} in the word of
// ${v:-…} is its elements joined with spaces and not split when IFS holds
// no space (mksh's IFS-subst-4-5p); with a space in IFS, or IFS empty, as
// elsewhere.
func TestJaiphDefaultWordAtList(t *testing.T) {
	runCases(t, []string{
		`f() { printf "<%s>" "$@"; echo; }; set -- "a b" "c,d" e; arr=("p q" "r,s"); IFS=,; f ${v:-$@}; f ${v:-x$@y}; f ${v:-${arr[@]}}; f ${v:-$*}; f $@; f ${v-$@}; e=1; f ${e:+$@}`,
		`f() { printf "<%s>" "$@"; echo; }; set -- "a b" "c,d" e; IFS=" "; f ${v:-$@}; f ${v:-x$@y}; IFS=; f ${v:-$@}; f ${v:-$*}; f ${v:-x$@y}; IFS=$'\t'; f ${v:-$@}; IFS=" ,"; f ${v:-$@}; set --; IFS=,; f ${v:-$@} ${v:-x$@}`,
	})
}

// TestJaiphCdDoubleSlash: a directory path starting with exactly two
// slashes keeps them in PWD, as bash's canonicalization (mksh's
// realpath-2); three are one.
func TestJaiphCdDoubleSlash(t *testing.T) {
	runCases(t, []string{
		`cd //usr/bin; pwd; echo "$PWD"; cd ../lib; pwd; cd ///usr; pwd; cd //; pwd; echo "$OLDPWD"; cd /; cd //tmp/../usr; pwd`,
	})
}

// TestJaiphCatSubstFailsErrexit: under set -e a $(<file) whose file does
// not open ends the shell with 1, where errexit is ignored too (mksh's
// regression-39); without it the command goes on.
func TestJaiphCatSubstFailsErrexit(t *testing.T) {
	runCases(t, []string{
		`(set -e; echo a $(<nofile); echo after $?); echo "s=$?"; (echo a $(<nofile); echo after $?); echo "s=$?"`,
		`(set -e; x=$(<nofile); echo after $?); echo "s=$?"; (set -e; f() { echo a $(<nofile); echo in; }; f || echo or; echo after); echo "s=$?"`,
		"(set -e; echo `false; echo hi` $(<nofile); echo $?); echo \"s=$?\"; (set -e; trap 'echo exit $?' EXIT; : $(<nofile); echo no)",
	})
}

// TestJaiphNamerefIsNoBuiltin: bash has no nameref builtin (mksh does): a
// command of that name is not found (mksh's test-varset-1).
func TestJaiphNamerefIsNoBuiltin(t *testing.T) {
	runCases(t, []string{
		`nameref b=a; echo "s=$?"; type nameref; echo "s=$?"; declare -n c=a; a=1; echo "$c"`,
	})
}

// TestJaiphPrefixBindingAssigned: a prefix binding that a later binding's
// expansion assigns to (X= Y=${X:=b} cmd) takes the value and so does the
// shell's variable, which keeps it after the command, as bash's
// bind_variable with a temporary environment (mksh's
// xxx-multi-assignment-posix-subassign).
func TestJaiphPrefixBindingAssigned(t *testing.T) {
	runCases(t, []string{
		`unset X Y Z; Z=a Y=${X:=b} sh -c 'echo +$X+ +$Y+ +$Z+'; echo /$X/; unset X Y; X= Y=${X:=b} sh -c 'echo +$X+ +$Y+'; echo /$X/`,
		`unset X; X= Y=${X:=b} true; echo "1/$X/"; unset X; f() { echo "in $X $Y"; }; X= Y=${X:=c} f; echo "2/$X/"; unset X; X=1 Y=$((X=5)) sh -c 'echo +$X+'; echo "3/$X/"`,
		`unset X; X=q Y=${X:=r} env | grep "^X="; echo "4/$X/"; unset X; Y=${X:=s} X=t sh -c 'echo +$X+'; echo "5/$X/"; X=g; X=h Y=${X:=z} true; echo "6/$X/"`,
	})
}

// TestJaiphOperatorWordExpandedOnce: the pattern of ${v#…} and ${v%…} is
// expanded once, and only when the value is not empty (a list: has
// elements); that of ${v^…} when v is set; the pattern and replacement of
// ${v/…/…} whenever v is set, matching or not; none for an empty list
// (mksh's xxx-substitution-eval-order).
func TestJaiphOperatorWordExpandedOnce(t *testing.T) {
	runCases(t, []string{
		`v=abc; echo ${v#$(echo >&2 once)} ${v%%$(echo >&2 twice)}; i=0; echo ${v#${u[i++]}} $i; echo ${v^$(echo >&2 up)}`,
		`unset v; echo "[${v#$(echo >&2 hi1)}]"; v=; echo "[${v#$(echo >&2 hi2)}]"; unset v; echo "[${v/$(echo >&2 hi5)/x}]"; v=; echo "[${v//$(echo >&2 hi7)/$(echo >&2 hi8)}]"; arr=(); echo "[${arr[@]#$(echo >&2 hi9)}]"`,
		`v=abc; echo ${v/zz/$(echo >&2 rep1)}; v=; echo "[${v/zz/$(echo >&2 rep3)}]" "[${v^$(echo >&2 up1)}]"; unset v; echo "[${v^$(echo >&2 up2)}]"; a=(); echo "[${a[@]/q/$(echo >&2 rep5)}]"`,
		`a=(""); echo "[${a[@]#$(echo >&2 h1)}]"; a=(); echo "[${a[@]^$(echo >&2 h3)}]"; set --; echo "[${@#$(echo >&2 h6)}]"; set -- ""; echo "[${@#$(echo >&2 h7)}]" "[${*#$(echo >&2 h8)}]"; i=0; echo ${u[i=5]#${u[j=7]}} $i $j`,
	})
}

// TestJaiphDeclareLocalNamerefReadonly: declare of a function's local
// nameref to a readonly variable names the variable; at the top level,
// or through a global nameref, the name as written (soak seed 171).
func TestJaiphDeclareLocalNamerefReadonly(t *testing.T) {
	runCases(t, []string{
		"declare -n v2=v1\nreadonly v1=x\ndeclare -i v2=ok\necho s=$?",
		"f() {\ndeclare -n v2=v1\nreadonly v1=x\ndeclare -i v2=ok\necho s=$?\ndeclare v2=q\ntypeset v2=z\n}\nf",
		"declare -n w2=w1; readonly w1=x; g() { declare w2=ok; echo s=$?; }; g; h() { declare -n w3=w1; local w3=q; echo l=$?; }; h",
	})
}

// TestJaiphTimeDoubleDash: `time --` and `time -p --` end time's options
// and ask for POSIX's report, as bash's TIMEIGN (bash's posixpipe tests;
// the figures are not compared).
func TestJaiphTimeDoubleDash(t *testing.T) {
	runCases(t, []string{
		`{ time -p -- echo a; } 2>/dev/null; { time -- echo b; } 2>/dev/null; echo "s=$?"`,
		`{ time -p -- true; } 2>&1 | grep -c '^real '; { time -- true; } 2>&1 | grep -c '^real '`,
	})
}

// TestJaiphPushdNoCDRotation: pushd -n +N rotates the stack and prints
// nothing (bash's dstack tests); pushd -n DIR still prints.
func TestJaiphPushdNoCDRotation(t *testing.T) {
	runCases(t, []string{
		`cd /tmp; echo a; pushd -n /usr; echo b; pushd -n +0; echo c; pushd +0; echo d; pushd -n +1; echo e; dirs; popd -n; echo f; dirs`,
	})
}

// TestJaiphBuiltinOptions: builtin takes no option: -X is bash's invalid
// option with the usage line (status 2), -- ends nothing more, a lone -
// is a name (ksh93's builtins tests).
func TestJaiphBuiltinOptions(t *testing.T) {
	runCases(t, []string{
		`builtin -d x; echo "s=$?"; builtin -- echo hi; echo "s=$?"; builtin - echo; echo "s=$?"; builtin -e; echo "s=$?"`,
	})
}

// TestJaiphBuiltinAssignsPrefixBound: a builtin that assigns with bash's
// bind_variable (cd's PWD, printf -v, let, getopts) changes the shell's
// variable too when the command's prefix bound it, and the value stays
// after the command; read, mapfile and others bind for the command alone
// (ksh93's builtins tests: PWD=/bin cd /dev).
func TestJaiphBuiltinAssignsPrefixBound(t *testing.T) {
	runCases(t, []string{
		`cd /tmp; PWD=/bin cd /dev; echo "0 $PWD"; unset m; m=1 mapfile m <<< q; echo "1 [${m[*]}]"; unset t; t=1 true; echo "5 [${t-unset}]"`,
		`unset g; g=1 getopts a g -a; echo "8 [$g]"; unset o; o=1 read -r o <<< z; echo "10 [${o-unset}]"; v=0 let v=9; echo "12 $v"; OPTIND=1 getopts a o -a; echo "13 $o $OPTIND"`,
	})
}

// TestJaiphLetAsCommand: let run as a command (builtin let, command let,
// a prefix binding before it) evaluates its arguments as let does.
func TestJaiphLetAsCommand(t *testing.T) {
	runCases(t, []string{
		`builtin let 'x=1+2' y=x*2; echo "s=$? $x $y"; command let 0; echo "s=$?"; q=1 let 'w=q+1'; echo "$w"; builtin let; echo "s=$?"; builtin let 1/0; echo "s=$?"`,
	})
}

// TestJaiphExitTrapExpansionError: an expansion error that jumps to bash's
// top level inside the EXIT trap (set -u, ${v:?} without errexit, an
// arithmetic error) ends the trap and the shell exits with the status
// from before it; under errexit set -u's error is 1 (soak seed 173).
func TestJaiphExitTrapExpansionError(t *testing.T) {
	runCases(t, []string{
		`(trap 'echo "[$v1]"' EXIT; set -u); echo "s=$?"; (trap 'echo "[$v1]"; echo after' EXIT; set -u; exit 3); echo "s=$?"`,
		`(trap 'x=${v1:?boom}; echo after' EXIT; true); echo "s=$?"; (set -eu; trap 'echo "[$v1]"' EXIT; true); echo "s=$?"`,
		`(set -e; trap 'echo $((1/0))' EXIT; true); echo "s=$?"; (trap 'echo $((1/0)); echo after' EXIT; (exit 4)); echo "s=$?"; (set -e; trap 'false; echo after' EXIT; true); echo "s=$?"`,
		"f() {\ntrap 'echo \"[$v1]\"' EXIT\nset -u\n}\n(f); echo \"s=$?\"",
	})
}

// TestJaiphReadonlyElementSubscriptFirst: an element assigned to a
// readonly indexed variable has its value and subscript expanded first,
// so the subscript's error is reported (soak seed 174); mapfile through a
// nameref to a readonly array names the nameref.
func TestJaiphReadonlyElementSubscriptFirst(t *testing.T) {
	runCases(t, []string{
		`readonly A1=1; A1['x y']=q; echo "s=$?"`,
		`readonly A1=1; A1[1+1]=q; echo "s=$?"`,
		`readonly A1=1; i=0; (A1[i++]=$(echo v >&2); echo "s=$?"); echo "sub $? $i"`,
		`readonly v1=x; declare -n v2=v1; mapfile -t v2 <<< "hi"; echo "s=$?"; read v2 <<< "hi"; echo "s=$?"`,
	})
}

// TestJaiphBracketParenExpected: `[ ( a = b ]` names the "]" bash's
// arguments still hold past their end (bash's test.tests); test does not.
func TestJaiphBracketParenExpected(t *testing.T) {
	runCases(t, []string{
		`[ \( a = b ]; echo "s=$?"; [ \( a = b c ]; echo "s=$?"; test \( a = b; echo "s=$?"; [ \( a ]; echo "s=$?"; [ \( \( a = a \) ]; echo "s=$?"; [ ! \( -n x ]; echo "s=$?"`,
	})
}

// TestJaiphUnboundPositionalBraced: set -u's report names ${9} "9" and $9
// "$9", as bash (bash's new-exp tests).
func TestJaiphUnboundPositionalBraced(t *testing.T) {
	runCases(t, []string{
		`set -u; (echo $9); (echo ${9}); (echo ${10}); (echo ${#9}); (f() { echo $3; }; f a); (echo "${9}x"); echo end`,
	})
}

// TestJaiphDeclareThroughNamerefToArray: export, readonly and declare of
// a plain value through a nameref to an array set its element (key) 0, as
// bash's bind_variable; the array stays (soak seed 176).
func TestJaiphDeclareThroughNamerefToArray(t *testing.T) {
	runCases(t, []string{
		`a=(1 2 3); declare -n r=a; export r=x; declare -p a; b=(1 2); declare -n s=b; readonly s=y; declare -p b`,
		`a=(1 2); declare -n r=a; declare r=x; declare -p a; f() { local b=(1 2); declare -n s=b; declare s=y; declare -p b; local c=(1 2); local -n t=c; export t=z; declare -p c; }; f; declare -A m=([k]=v); declare -n u=m; export u=w; declare -p m`,
		`v1='a/b/c.d' a1=(1 'two words' three); declare -n v2=a1; export v2=${v3@A}; echo "${a1[@]:1:2}"`,
	})
}

// TestJaiphExportReadonlyElementLocal: in a function, a declaration
// through a nameref to an array element makes a local named as the
// element ("a1[1]"); export and readonly through the nameref then assign
// and mark that local, with no error, as bash's find_variable finds it
// (they assigned the element and refused; soak seeds 174 and 175).
func TestJaiphExportReadonlyElementLocal(t *testing.T) {
	runCases(t, []string{
		`f() { a1=(1 'two words' three); declare -n v2='a1[1]'; declare -l v2=ABC; readonly v2=X; echo "st=$? [$v2]"; v2=Y; echo "st=$? [$v2]"; declare -p a1; }; f`,
		`f() { a1=(1 2); declare -n v2='a1[1]'; declare v2=5; export v2; printenv 'a1[1]'; export v2=Q; printenv 'a1[1]'; declare -p a1; }; f`,
		`f() { a1=(1 2); declare -n v2='a1[1]'; declare -i v2=4; export v2=3+4; echo "[$v2]"; export v2=a/b; echo "not reached"; }; f; echo "st=$?"`,
	})
}

// TestJaiphPrefixElementLocal: in a function, the local named as the
// element ("a1[1]") that a declaration through a nameref to an element
// made is what a prefix assignment through the nameref binds for the
// command (bash's assign_in_env finds it: `v2=QQ printenv 'a1[1]'`
// prints QQ, printenv v2 nothing), and declare -p shows it by that name
// (soak seed 180).
func TestJaiphPrefixElementLocal(t *testing.T) {
	runCases(t, []string{
		`f() { a1=(1 2); declare -n v2='a1[1]'; declare -l v2=ABC; v2=QQ printenv v2; echo "st=$?"; v2=QQ printenv 'a1[1]'; v2+=QQ printenv 'a1[1]'; echo "[$v2] ${a1[*]}"; }; f`,
		`f() { a1=(1 2); declare -n v2='a1[1]'; declare -l v2=ABC; declare -p 'a1[1]'; v2=QQ declare -p 'a1[1]'; declare -p 'a1[0]'; echo "st=$?"; }; f`,
		`f() { a1=(1 2); declare -n v2='a1[1]'; declare -i v2=3+4; g() { printenv 'a1[1]'; echo "g[$v2]"; }; v2=1+1 g; echo "[$v2]"; }; f`,
	})
}

// TestJaiphArrayElementLocal: in a function, `declare -a`/`-A` without a
// value through a nameref to an element makes an (unset) array local
// named as the element, as the other declarations do; r[i]=v, r=(…),
// mapfile and read -a through the nameref then assign it, [[ -v r ]]
// tests its element 0, and unset 'a1[1]' is still the element of a1
// (bash's find_variable finds the local through the nameref only).
func TestJaiphArrayElementLocal(t *testing.T) {
	runCases(t, []string{
		`f() { a1=(1 2 3); declare -n v2='a1[1]'; declare -a v2; declare -p 'a1[1]'; v2[2]=x; v2+=(p); declare -p 'a1[1]' a1; [[ -v v2 ]]; echo "v=$?"; }; f`,
		`f() { a1=(1 2 3); declare -n v2='a1[1]'; declare -A v2; v2[k]=x; declare -p 'a1[1]'; declare -a v2; echo "st=$?"; }; f`,
		`f() { a1=(1 2 3); declare -n v2='a1[1]'; declare -ai v2; mapfile -t v2 <<< "1+1"; declare -p 'a1[1]'; read -ra v2 <<< "2+2 3"; declare -p 'a1[1]'; }; f`,
		`f() { a1=(1 2 3); declare -n v2='a1[1]'; declare v2=5; unset 'a1[1]'; declare -p a1 'a1[1]'; unset v2; declare -p a1 'a1[1]'; }; f`,
	})
}

// TestJaiphArrayKindThroughNameref: declare -a/-A with a value through a
// nameref of the same scope to an array of the other kind is refused
// (status 1, the array as it was; in a function, as jaiph's bodies
// are: at the top level bash discards the command, as the interpreter
// does not for a plain name either), and the report names the nameref as
// written, as for the naked form; mapfile's "not an indexed array" and
// read -a's readonly report name the nameref too (bash reports the word
// it was given).
func TestJaiphArrayKindThroughNameref(t *testing.T) {
	runCases(t, []string{
		`f() { declare -n r=A; declare -a A=(1 2); declare -A r=([k]=v); echo $?; declare -p A; declare -A r; echo $?; }; f; echo "f=$?"`,
		`f() { declare -n r=A; declare -A A=([j]=1); declare -a r=(x y); echo $?; declare -a r=x; echo $?; declare -p A; }; f`,
		`f() { declare -n r=A; declare -a A=(1); local -A r=([a]=b); echo $?; declare -p A; }; f`,
		// an outer target gets a new local of the declared kind
		`A=(1 2); g() { declare -n r=A; declare -A r=([k]=v); echo "g $?"; declare -p A; }; g; declare -p A`,
		`declare -A C=([x]=1); k() { declare -n s=C; declare -a s=(p); echo "k $?"; declare -p C; }; k; declare -p C`,
		`declare -n r=A; declare -A A; mapfile r <<< "a"; echo $?; declare -n q=B; declare -ar B; read -ra q <<< "a b"; echo $?`,
	})
}

// TestJaiphScalarToArrayKeeps: a declared, unset scalar made an array by
// declare -a keeps its attributes (declare -l x; declare -a x is
// declare -al x), and mapfile -O of a set scalar keeps its value as
// element 0 (bash's convert_var_to_array).
func TestJaiphScalarToArrayKeeps(t *testing.T) {
	runCases(t, []string{
		`declare -l y; declare -a y; declare -p y; declare -x y7; declare -a y7; declare -p y7`,
		`f() { local y6; local -a y6; declare -p y6; declare -l x=X; mapfile -O 3 -t x <<< "a b"; declare -p x; }; f`,
		`x3=G; f() { mapfile -O 2 -t x3 <<< "a"; declare -p x3; }; f; declare -l x2; mapfile -O 3 -t x2 <<< "a b"; declare -p x2`,
	})
}

// TestJaiphTopLevelArrayKindDiscard: outside a function, a declaration
// with a list value that cannot convert the array's kind (declare -A of
// an indexed array, -a of an associative one, through a nameref too) is
// bash's failed internal declaration: one report, the command discarded
// (a subshell ends, a group's or if's line goes), status 1, errexit or
// not; in a function it is not fatal.
func TestJaiphTopLevelArrayKindDiscard(t *testing.T) {
	runCases(t, []string{`declare -a B=(1)
( declare -A B=([k]=v); echo sub $? ); echo subst $?
{ declare -A B=([k]=v); echo grp $?; }; echo g2 $?
if true; then declare -A B=([k]=v); echo inif; fi; echo if2 $?
x=$(declare -A B=([k]=v); echo cs $?); echo "cs2 $x $?"
eval "declare -A B=([k]=v); echo ev \$?"; echo ev2 $?
declare -A C=([j]=1)
declare -a C=(x y); echo same $?
echo next $?
declare -n r=C
declare -a r=(p); echo same2 $?
echo next2 $?
declare -p B C
f() { declare -gA B=([k]=v); echo "inf $?"; }
f; echo "after $?"
set -e
declare -A B=([k]=v) || echo or
echo notreached $?
trap 'echo EXIT $?' EXIT
declare -A B=([k]=v)
echo end $?`})
}

// TestJaiphListDeclThroughNameref: a list declared in a function through
// a nameref. A calling scope's nameref is not followed: the list is a new
// local's of the name (declare -ai r=(1+1) is (2), even where r names an
// associative local; a subscript's arithmetic reads no array made through
// it). Through the function's own nameref to a calling scope's variable
// the list makes a new local of that variable's name, taking nothing of
// the outer one (kind, -i, elements); to its own local array, += appends.
func TestJaiphListDeclThroughNameref(t *testing.T) {
	runCases(t, []string{
		`declare -n r=A; g() { local -A A=([j]=1); declare -ai r=(1+1 2+2); declare -p r A; }; g`,
		`n=1; declare -A A=([j]=1); f() { declare -n r=A; g; }; g() { declare -ai r=([n]=2); declare -p A r; }; f; declare -p A`,
		`declare -A A=([j]=1); g() { declare -n r=A; declare r=(x 1+1); declare -p A; }; g; declare -p A`,
		`declare -i A=3; g() { declare -n r=A; local r=(x 1+1); declare -p A; }; g; declare -p A`,
		`A=(1 2); g() { declare -n r=A; declare -ai r+=(1+1); declare -p A; }; g; declare -p A`,
		`g() { local A=(1 2); declare -n r=A; declare -ai r+=(1+1); declare -a r+=(q); declare -p A; }; g`,
	})
}
