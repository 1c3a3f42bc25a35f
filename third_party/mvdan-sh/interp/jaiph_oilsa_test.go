// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// patches found by restating Oils' spec tests array-assoc, redirect,
// builtin-read and builtin-printf (testdata/bashcompat/oils_* in jaiph-go).
package interp_test

import "testing"

func TestJaiphUnsetAssocKeyExpanded(t *testing.T) {
	runCases(t, []string{
		// the key of unset 'm[…]' is expanded: quotes removed, $k, $(…)
		`declare -A h=(["a b"]=1 [x]=2 ['$k']=3 [y]=4 [z]=5); k=x; unset 'h[a b]'; declare -p h; unset 'h[$k]'; declare -p h; unset 'h[\$k]'; declare -p h; unset 'h["y"]' "h['z']"; declare -p h`,
		`declare -A h=([Z]=1 [W]=2); unset -v 'h[$(echo Z)]'; echo ${#h[@]} ${!h[@]}; a=(1 2 3); i=1; unset 'a[$i]' 'a[i+1]'; echo ${a[@]}`,
	})
}

func TestJaiphNamerefToElement(t *testing.T) {
	runCases(t, []string{
		// reading, assigning, appending and unsetting through a nameref
		// to an element; ${#r} stays 0 as in bash
		`a=(1 2 3); declare -n r='a[1]'; echo ${#r} ${r:-d} ${r/2/X} ${!r}; r+=5; echo ${a[@]}; echo "${r}"; r=7; echo ${a[@]}`,
		`declare -A m=([k]=v); declare -n q='m[k]'; q+=w; echo ${m[k]} $q; declare -n z='m["new"]'; z=n; echo ${m[new]}; unset q; declare -p m`,
		`a=(x y); f() { local -n lr='a[0]'; lr=L; echo $lr; }; f; echo ${a[@]}; k=1; declare -n d='a[$k]'; echo $d; d=D; echo ${a[@]}`,
	})
}

func TestJaiphDupRedirects(t *testing.T) {
	runCases(t, []string{
		// N>&M dups whatever M is open for; N>&N changes nothing
		`echo alpha 1>&2 2>/dev/null; echo beta 1<&2; : 3>&3; echo st=$?; : 3>&3-; echo st=$?; exec 4>&4; echo st=$?`,
		`exec 3>f; exec 3>&3-; echo x >&3; cat f; rm f`,
		// the error names the word as written, or N for a move
		`fd=9; echo a >&$fd; echo st=$?; echo b >&"$fd"; echo c 2>&$fd-; echo d 1>&7; exec 5>&5-; echo e >&5; echo st=$?`,
		// 1>&word is &>word, as >&word
		`f() { echo out; echo err >&2; }; f 1>&dupfile; cat dupfile; rm dupfile`,
	})
}

func TestJaiphRedirWordGlob(t *testing.T) {
	runCases(t, []string{
		// the word after >& is globbed; a failglob failure is reported
		// once (no "ambiguous redirect")
		`d=$(mktemp -d); cd $d; touch 10; exec 10>&1; echo via-glob >& 1*; echo stdout; rm 10; cd /; rm -r $d`,
		`d=$(mktemp -d); cd $d; shopt -s failglob; echo hi > zq-*-w; echo st=$?; echo hi >& zq*; echo st=$?; cd /; rm -r $d`,
	})
}

func TestJaiphReadOils(t *testing.T) {
	runCases(t, []string{
		// a backslash-newline is a continuation whatever the delimiter
		`printf '%s\n' 'p q\' 'r s' | (read -d , ; printf '<%s>' "$REPLY"; echo); printf '%s\n' 'p q\' 'r s' | (read -d , v w; printf '<%s>' "$v" "$w"; echo); printf 'a\\\nb:' | (read -d : -a v; printf '<%s>' "${v[@]}"; echo)`,
		// a failed read is reported, naming the descriptor
		`d=$(mktemp -d); read x < $d; echo st=$?; read -n 3 x < $d; echo st=$?; read -u 3 x 3< $d; echo st=$?; rmdir $d`,
		// -t -0.5 is 0.5 (bash loses the sign of a zero integer part)
		`read -t -0.5 < /dev/null; echo $?; read -t -0 <<< x; echo $? $REPLY; read -t -1 < /dev/null; echo $?`,
	})
}

func TestJaiphReadEscapedTrailingSpace(t *testing.T) {
	runCases(t, []string{
		// the last name's rest loses escaped IFS whitespace too; a rest
		// of only that keeps bash's CTLESC (one \x01 byte)
		`IFS='x '; echo 'x\  \ ' | (read a b; echo "[$a][$b]" | od -c); echo 'xp q\ \ ' | (read a b; echo "[$a][$b]"); IFS=' '; read v <<< 'p q\ '; echo "[$v]"; read v w <<< 'p q\ '; echo "[$v][$w]"`,
		`read v <<< '\  \ '; echo "[$v]" | od -c; read v <<< 'p\	'; echo "[$v]"; IFS=:; read a b <<< 'p:q\ '; echo "[$a][$b]"; read -a arr <<< 'p:q\ :'; echo "${#arr[@]} [${arr[1]}]"`,
	})
}

func TestJaiphDupFileRestoresStderr(t *testing.T) {
	runCases(t, []string{
		// >&WORD naming a file sends stdout and stderr there for the
		// command only, whatever the word's form
		`echo hi >&"x y"; echo oops >&2; f=out; echo a >&$f; echo b 1>&"$f"; echo oops2 >&2; n=2; echo to-err >&$n; cat "x y" out`,
	})
}
