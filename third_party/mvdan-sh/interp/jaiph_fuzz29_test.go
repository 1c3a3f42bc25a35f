// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// patches of the session of 2026-11-30, fourth stop (jaiph-go issue 36):
// behaviours bash's own test files and the soak found still different.
package interp_test

import "testing"

// TestJaiphBraceSequenceThatFails: bash 5.2 takes a brace as an expansion
// when a ".." between it and its "}" is not right before the "}"; when the
// text is no sequence, a comma anywhere inside (nested braces, quotes,
// expansions) makes it a list of one element, so the braces go and what is
// inside expands; without one the text stays as written, nested braces too.
func TestJaiphBraceSequenceThatFails(t *testing.T) {
	runCases(t, []string{
		`echo {{1,2,3}..{7,8,9}}`,
		`echo {1..{a,b}} {{a,b}..3} {a..{1,2}..b}`,
		`echo {{1..2}..3} {{x}..5} {{1..2}..{3..4}..x}`,
		`echo {a,b}{{1..2}..3}c {{1..2}..3}{a,b}`,
		`v=a,b; echo {"a,b"..c} {${v//,/x}..b} {$(echo a,b)..c} {'x,'..y}`,
		`v=Ab; echo {${v,}..b} {${v,,}..}`,
		`echo {x\,y..3} {{a..c}..{1..3}} {"{a,b}"..c} {'{1..3}'..x}`,
		`echo a{{1,2}..}b x{{1,2}..y} {{1,2}...} {,{1,2}..3}`,
		`echo {1..3}{{a,b}..{c,d}}`,
		`echo {a..} {..a} {1..2} {..} {a..b..} {1..2..x}`,
	})
}

// TestJaiphHeredocStopIsAWholeLine: bash compares each whole line of an
// unquoted here-document's source with the stop word once its
// backslash-newlines are joined: a line whose text after an expansion is
// the stop word goes on (${x}EOF), a stop word split by a backslash-newline
// ends the body (EO\<newline>F), a line joined onto the one before does
// not (foo\<newline>EOF); a quoted stop word keeps the backslash-newlines.
func TestJaiphHeredocStopIsAWholeLine(t *testing.T) {
	runCases(t, []string{
		"x=1\ncat <<EOF\n${x}EOF\nmid\nEOF\necho after",
		"x=1\ncat <<EOF\n$x\nEOF",
		"cat <<EOF\n`echo a`EOF\nEOF",
		"cat <<EOF\na\nEO\\\nF\necho mid\ncat <<EOF\nb\nEOF",
		"cat <<EOF\na\nE\\\nO\\\nF\necho after",
		"cat <<EOF\nfoo\\\nEOF\nbar\nEOF",
		"cat <<EOF\n\\\nEOF\necho after",
		"cat <<EOF\nEO\\\nFX\nEOF",
		"cat <<'EOF'\nhello\nEO\\\nF\nEOF",
		"x=1\ncat <<-EOF\n\t${x}\tb\n\tEOF",
		"cat <<-EOF\n\tEO\\\nF\necho after",
	})
}

// TestJaiphSubshellOwnLocals: in a subshell of a function, as in the
// function itself, a declaration reaches the function's own local — one
// the subshell declared, or, in a background subshell (a pipeline part),
// one the function had — keeping its attributes (declare -i m=1; declare
// m=2+2 gives 4), while a calling function's local is shadowed by a new
// one (local v starts unset).
func TestJaiphSubshellOwnLocals(t *testing.T) {
	runCases(t, []string{
		`f() { ( declare -i m=1; declare m=2+2; echo "$m" ); }; f`,
		`f() { { declare -i m=1; declare m=3+3; echo "$m"; } | cat; }; f`,
		`f() { local -i n=1; { declare n=5+5; echo "$n"; } | cat; }; f`,
		`f() { ( declare -l s=AB; local s=CD; echo "$s" ); }; f`,
		`f() { ( declare -i r1=1; declare r1=x; echo "st=$? $r1" ); }; f`,
		`f() { ( ( declare -i q=1; ( declare q=2+3; echo "$q" ) ) ); }; f`,
		`outer() { local -i c=1; local v=x; inner; echo "c=$c v=$v"; }
inner() {
  ( declare c=2+2; declare -p c )
  { declare c=3+3; declare -p c; } | cat
  ( local v; echo "[${v-unset}]" )
  { local v; echo "[${v-unset}]"; } | cat
  ( v=y; local v=z; declare -p v )
  { c=7; declare c=1+1; echo "$c"; } | cat
}
outer`,
		`f() { local -r ro=1; { declare ro=2; echo "st=$?"; } | cat; }; f`,
	})
}

// TestJaiphGetoptsMessagesName0: getopts prefixes its messages with $0,
// as bash's sh_getopt does (the comparison gives bash's the interpreter's
// $0), with operands given or from the positional parameters.
func TestJaiphGetoptsMessagesName0(t *testing.T) {
	runCases(t, []string{
		`OPTIND=1; while getopts a: o -x -a; do echo "$o ${OPTARG-unset}"; done; echo "ind=$OPTIND"`,
		`set -- -q; getopts ab o; echo "$o st=$?"`,
		`f() { getopts b: o -b; echo "$o"; }; f`,
		`OPTERR=0; getopts a o -z; echo "$o"`,
	})
}

// TestJaiphArithErrorNamesStaleCommand: a declare -i value's arithmetic
// error while a command's words expand names bash's this_command_name:
// `((` or `[[` after one ran (through && lists, groups, subshells,
// pipelines, a case word and a for list), the function or eval running,
// nothing after any other simple command or in a prefix assignment.
func TestJaiphArithErrorNamesStaleCommand(t *testing.T) {
	runCases(t, []string{
		`declare -i v; (( 1 )); echo ${v:=1/0}; echo after`,
		`declare -i v; [[ 1 ]]; : ${v:=1/0}`,
		`declare -i v; (( 1 )); x=${v:=1/0}; echo "st=$?"`,
		`declare -i v; (( 1 )); x=${v:=1/0} true; echo "st=$?"`,
		`declare -i v; (( 1 )); case ${v:=1/0} in *) ;; esac`,
		`declare -i v; (( 1 )); for x in ${v:=1/0}; do :; done`,
		`declare -i v; for ((k=0;k<1;k++)); do :; done; echo ${v:=1/0}`,
		`declare -i v; for ((;;)); do break; done; echo ${v:=1/0}`,
		`declare -i v; (( 0 )) || echo ${v:=1/0}`,
		`declare -i v; (( 1 )); ( echo ${v:=1/0} ); echo "st=$?"`,
		`declare -i v; (( 1 )); echo ${v:=1/0} | cat; echo "st=$?"`,
		`declare -i v; f() { echo ${v:=1/0}; }; f`,
		`declare -i v; f() { :; echo ${v:=1/0}; }; f`,
		`declare -i v; eval 'echo ${v:=1/0}'`,
		`declare -i v; h() { (( 1 )); }; h; echo ${v:=1/0}`,
		`declare -i v; if (( 1 )); then :; fi; echo ${v:=1/0}`,
	})
}

// TestJaiphArithTextBackslashes: bash expands arithmetic text as in double
// quotes, so its error shows $((1 + \$x)) as "1 + $x" (a backslash before
// $, `, " or \ goes, before others it stays); a let argument is a plain
// word, every backslash removed.
func TestJaiphArithTextBackslashes(t *testing.T) {
	runCases(t, []string{
		`x=1; ( echo $(( 1 + \$x )) ); echo "st=$?"`,
		`( echo $(( \"1\" + 2 )) ); ( echo $(( \\ )) ); ( echo $(( 1 + \` + "`x\\`" + ` )) )`,
		`x=1; (( 1 + \$x )); echo "st=$?"; ( echo $[ 1 + \$x ] )`,
		`( echo $(( 80\'s )) ); (( 80\'s )); echo "st=$?"`,
		`x=1; let 1+\$x; echo "st=$?"; let "1+\$x"; echo "st=$?"; let 'a=\\'; echo "st=$?"`,
		`x=1; ( echo $(( \\\$x )) ); ( echo $(( 1 + \' )) )`,
	})
}

// TestJaiphBracketLeadingDash: a '-' first in a bracket expression (after
// [ or [!) is itself, in file names, case, [[ ]] and ${v/…} patterns alike.
func TestJaiphBracketLeadingDash(t *testing.T) {
	runCases(t, []string{
		`touch a.b a,b a:b a-b 'a;b' 'a b' a_b; echo a[-.,:\;\ _]b; echo a[-.,]b a[-\;]b a[-\ _]b`,
		`[[ a.b == a[-.,]b ]] && echo m1; case a.b in a[-.,]b) echo m2;; esac; x=a.b; echo ${x/a[-.,]b/R}`,
		`for s in - a b ']' '!' '^'; do case $s in [-a]) echo "1 $s";; esac; case $s in [!-a]) echo "2 $s";; esac; case $s in []-a]) echo "3 $s";; esac; case $s in [^-]) echo "4 $s";; esac; case $s in [--a]) echo "6 $s";; esac; done`,
	})
}

// TestJaiphUnsetAllElementsAndStarSubscripts: as bash 5.2, unset a[@] (or
// a[*]) empties an indexed array and keeps it declared, unsets the key @
// (or *) of an associative one, is "not an array variable" for a scalar;
// an element of a readonly variable cannot be unset (status 1, before the
// subscript is read); an indexed list skips a [*]=v or [@]=v element with
// bash's report_error; declare -p quotes the key @ as it does *.
func TestJaiphUnsetAllElementsAndStarSubscripts(t *testing.T) {
	runCases(t, []string{
		`a=(1 2); unset 'a[@]'; declare -p a; echo "${#a[@]} ${a+set}"; b=(1 2); unset 'b[*]'; declare -p b`,
		`declare -A m=([a]=1 ['*']=2 ['@']=3); unset 'm[*]'; declare -p m; unset 'm[@]'; declare -p m`,
		`s=str; unset 's[@]'; echo "st=$?"; declare -p s; unset 'nosuch[@]'; echo "st=$?"`,
		`f() { local -a l=(1 2); unset 'l[@]'; declare -p l; }; f`,
		`readonly -a r=(1 2); unset 'r[0]'; echo "st=$?"; unset 'r[@]'; echo "st=$?"; declare -p r`,
		`readonly -A q=([a]=1); unset 'q[a]'; echo "st=$?"; readonly s=1; unset 's[0]'; echo "st=$?"; unset 's[@]'; echo "st=$?"`,
		`v=x; d=([0]=a [*]=$v [1]=b); echo "st=$?"; declare -p d; d=([@]="$v y"); declare -p d`,
		`set -e; d=([*]=z); echo after`,
		`declare -A m=(['@']=3 ['*']=4 [a@b]=5 ['a*']=6); declare -p m; echo "${m[@]@A}"`,
	})
}

// TestJaiphDeclareFRedirections: declare -f prints a simple command's
// redirections as bash's print_redirection, after its words: a blank
// before the file, the descriptor unless it is the operator's default,
// always for a duplication or a close (1>&2, 0<&3, 1>&-, 0>&- for <&-),
// <> with its 0; compound commands' redirections the same way.
func TestJaiphDeclareFRedirections(t *testing.T) {
	runCases(t, []string{
		`f() { echo a >f1; echo a 2>f1; echo a >>f1 2>>f2; echo a >|f1; echo a <f1 3<f1; }; declare -f f`,
		`f() { echo a >&2; echo a 2>&1; echo a 1>&2; echo a <&3; echo a 3<&0; echo a >&-; echo a 3>&-; echo a <&-; }; declare -f f`,
		`f() { echo a &>f1; echo a &>>f1; echo a >&f1; echo a <>f1; echo a 3<>f1; echo >f1 a b; }; declare -f f`,
		`f() { cat <<<"abc"; cat <<< 'x y'; cat 3<<<x; echo a >"$v"; echo a 2>&"$fd"; echo a {fd}>f1; echo a >${v}x; }; declare -f f`,
		`f() { { echo g; } >&2; ( pwd ) <>f1; while :; do break; done 3>&-; }; declare -f f`,
	})
}

// TestJaiphDeclareFHeredocs: declare -f prints a simple command's
// here-documents as bash: the operators and words in place, the bodies (a
// <<- one without its leading tabs) and delimiters after the connector
// that follows, whose ";" is not printed, nor the next one's.
func TestJaiphDeclareFHeredocs(t *testing.T) {
	runCases(t, []string{
		"f() {\n  cat <<EOF\na $x\nEOF\n}\ndeclare -f f",
		"g() {\n  cat <<'E1' >f1; echo mid\none\nE1\n  cat <<-E2 3<<E3\n\ttwo\n\tE2\nthree\nE3\n  if true; then cat <<X1\nin if\nX1\n  fi\n}\ndeclare -f g",
		"h() {\n  cat <<E\nx\nE\n  echo a\n  echo b\n}\nk() {\n  if true; then\n    cat <<E\nx\nE\n    echo a\n  fi\n  echo c\n}\ndeclare -f h k",
		"f() {\n  echo x\n  cat <<'E1' >f1; echo mid\none\nE1\n  echo last\n}\ndeclare -f f",
		"f() {\n  if :; then\n  echo x\n  cat <<E\ny\nE\n  fi\n  echo after\n}\ndeclare -f f",
		"f() {\n  while :; do cat <<E\ny\nE\n  break; done; echo z\n}\ndeclare -f f",
	})
}

// TestJaiphPathsNotCleaned: a redirection's file and a test's operand go
// to the system joined to the working directory, not cleaned, as bash
// hands them over: a trailing slash asks for a directory and ".." goes
// through a symlink.
func TestJaiphPathsNotCleaned(t *testing.T) {
	runCases(t, []string{
		`v1=// v3=x; v1=$v3 true v1 > "f$v1"; echo "st=$?"; ls`,
		`: > file; mkdir -p d; [ -e file/ ] && echo e1; [ -f file/ ] && echo f1; [ -d d/ ] && echo d1; [[ -e file/ ]] && echo e2; test -r file/ && echo r1; true`,
		`mkdir -p d; echo x > d/ ; echo "st=$?"; : > file; cat < file/ ; echo "st=$?"; echo y > d/../out; cat out`,
		`mkdir -p a/b; ln -s a/b l; echo z > l/../f; ls a; [ -e l/../f ] && echo via-link`,
	})
}

// TestJaiphPositionalLeadingZeros: a positional parameter's number may have
// leading zeros, as bash reads it with atoi: ${01} is $1, ${000} is $0, and
// so are ${!v} of v=01 and v=000, [[ -v 01 ]] and ${#01}.
func TestJaiphPositionalLeadingZeros(t *testing.T) {
	runCases(t, []string{
		`set -- a b; echo "[${01}] [${002}] [${010}]"; [[ ${000} == "$0" && ${00} == "$0" ]] && echo zero`,
		`set -- a b; for v in 01 1 2 002 10; do echo "[$v=${!v-unset}]"; done; v=000; [[ ${!v} == "$0" ]] && echo zero`,
		`set -- a; [[ -v 01 ]] && echo v1; [[ -v 000 ]] && echo v0; [[ -v 02 ]] || echo no2; echo "${#01}"`,
	})
}

// TestJaiphLengthOfUnsetElementDiscards: under set -u, ${#a[@]} or
// ${#a[0]} of an unset a is bash's expansion error, not its fatal one: an
// eval (or sourced file) holding it fails with 1 and the shell goes on;
// ${#a} and $a stay fatal.
func TestJaiphLengthOfUnsetElementDiscards(t *testing.T) {
	runCases(t, []string{
		`set -u; eval "echo \${#a1[@]}"; echo "after $?"`,
		`set -u; eval "echo \${#nosuch[0]}"; echo "after $?"; eval 'echo "${#x[*]}"'; echo "after $?"`,
		`set -u; eval "echo \"\${#a1}\""; echo "after $?"`,
		`set -u; eval 'echo $nosuch'; echo "after $?"`,
		`set -u; f() { echo ${#a1[*]}; echo inf; }; f; echo "after $?"`,
		`set -eu; eval "echo \${#a1[@]}"; echo "after $?"`,
	})
}

// TestJaiphDeclareFLists: declare -f prints a list or pipeline of simple
// commands with each command's redirections as bash's, and |& as 2>&1 |.
func TestJaiphDeclareFLists(t *testing.T) {
	runCases(t, []string{
		"f() {\n  echo a | cat - >/dev/null\n  echo b >&2 && echo c 2>/dev/null || echo d >f1\n  ! echo e | grep -q x 2>/dev/null\n  echo f |& cat >f2\n  x=1 echo g >f3 | tr a b\n  echo h >&2 &\n}\ndeclare -f f",
	})
}

// TestJaiphPathUpFromRemovedDir: a path going up from a working directory
// removed meanwhile still reaches its parent, as bash's open from the
// process's directory does.
func TestJaiphPathUpFromRemovedDir(t *testing.T) {
	runCases(t, []string{
		`mkdir -p sub; cd sub; rmdir ../sub; echo x > ../log.txt; echo "st=$?"; read -r l < ../log.txt; echo "$l"; [ -e ../log.txt ] && echo exists`,
	})
}

// TestJaiphAssignDefaultArrayAttrs: ${a=word} of an array with -i, -u or
// -l expands to element 0 as the attributes made it, as a scalar's does.
func TestJaiphAssignDefaultArrayAttrs(t *testing.T) {
	runCases(t, []string{
		`declare -i n; echo "${n=1+2}"; declare -u u; echo "${u=abc}"; declare -Ai m; echo "${m=hi}"; declare -p m`,
		`declare -ai a; echo "${a=2*3}"; declare -p a; declare -al l; echo "${l:=ABC}"; declare -Au q; echo "${q=abc}"`,
		`declare -Ai v2; echo $(echo "${v2="$(echo hi)"}")`,
	})
}

// TestJaiphChildRedirErrorRunsNoTrap: a fatal expansion error in an
// external command's redirection (a here-document's body, < $unset under
// set -u) ends bash's child for it only: the command fails with 1 and the
// shell's EXIT trap does not run, also where errexit is ignored.
func TestJaiphChildRedirErrorRunsNoTrap(t *testing.T) {
	runCases(t, []string{
		"set -e; f() { trap 'echo bye $?' EXIT; set -u; cat <<-E1\n${v2// /_} and\nE1\necho \"after $?\"; trap - EXIT; }; f || true",
		"set -e; f() { trap 'echo bye $?' EXIT; set -u; cat < $v2; echo \"after $?\"; trap - EXIT; }; f || true",
		"set -e; f() { trap 'echo bye $?' EXIT; set -u; echo hi > $v2; echo after; trap - EXIT; }; f || true",
	})
}

// TestJaiphAssocListArithSubscript: a list assigned to a variable declared
// associative elsewhere keys its elements with the subscripts' text, also
// where the parser read them as arithmetic (a1=([-1]=x) panicked).
func TestJaiphAssocListArithSubscript(t *testing.T) {
	runCases(t, []string{
		`declare -Ai a1; a1=([-1]=a/b/c [-2]=x); declare -p a1`,
		`declare -A m; m=([-1]=a [x+1]=b ["q"]=d [$((1+1))]=e); declare -p m`,
	})
}
