// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// patches found by restating Oils' spec tests (testdata/bashcompat/oils_*
// in jaiph-go): constructs that ran, but not as bash 5.2.
package interp_test

import "testing"

func TestJaiphUnquotedListJoin(t *testing.T) {
	runCases(t, []string{
		// the elements are joined with IFS's first character, then split
		`p() { printf '<%s>' "$@"; echo " $#"; }; set -- a '' b; IFS=:; p $* $@; IFS=': '; p $*; IFS=' :'; p $*; IFS=; p $* $@; unset IFS; p $*`,
		`p() { printf '<%s>' "$@"; echo " $#"; }; set -- "" "" ""; IFS=w; p +$@+ +$*+; p $*; set -- 'aw' b; p $@; a=(x '' y); p ${a[@]} ${a[*]} ${a[@]:1}`,
		// the name lists ${!prefix@}, ${!name[@]} are fields too
		`p() { printf '<%s>' "$@"; echo " $#"; }; a=(x y z); zq_a=1; zq_b=2; for IFS in '' : ' ' 'w:'; do p ${!a[@]} ${!a[*]} ${!zq_@} ${!zq_*} "${!zq_*}" "${!a[*]}"; done`,
		`p() { printf '<%s>' "$@"; echo " $#"; }; declare -A m=([k]=1); s=v; unset u; IFS=:; p ${!m[@]} ${!s[@]} ${!u[@]} ${!nomatch_@}; IFS=; p ${!m[*]} ${!s[*]} ${!u[*]} ${!nomatch_*}`,
	})
}

func TestJaiphIndirectKeysUnset(t *testing.T) {
	runCases(t, []string{
		// the keys of an unset variable are none; ${!ref} of an unset
		// ref is bash's fatal error naming it
		`unset u; echo "[${!u[@]}] [${!u[*]}]"; echo ${!u[@]} end; declare -n nr=s; s=1; echo "[${!nr[@]}] [${!nr}]"`,
		`echo "[${!u}]"; echo "not reached $?"`,
		`set +e; (echo "[${!u}]"; echo "not reached"); echo "sub $?"`,
		// set -u: name lists are never unbound; zero names are zero fields
		`set -u; a1=x; echo ${!a*} "${!a@}" "[${!zz*}]" "${!zz@}" "${!u[@]}" ${!u[*]} end; echo "${!u}"`,
	})
}

func TestJaiphPatsubFixedLength(t *testing.T) {
	runCases(t, []string{
		// bash's ${x/pat/s} tries matches of MATCHLEN characters only; it
		// counts [^]] and [!]] as two, so they never match there
		`s='ab^cd^'; p='[^]]'; echo ${s//$p/z} ${s//[^]]/z} ${s/[!]]/z} ${s/#[^]]/z} ${s/%[^]]/z}; case a in $p) echo case;; esac; echo ${s#[^]]}`,
		`s='ab^cd^'; echo ${s//[^a]/z} ${s//[]^]/z} ${s//[[:alpha:]]/z} ${s//[[:alpha:]]?/z} ${s/c?/Z} ${s//[a/z}; t='a]b]'; echo ${t//[^]]]/Q} ${t//[]]/Q} ${t//\]/Q}`,
		`v='xxabc'; echo ${v/#x/Y} ${v/%c/Y} ${v/%bc/Y} ${v//x/Y} ${v/[xa]b/Q} "${v/#/<}" "${v/%/>}" ${v/#xxabcd/N} ${v/%xxabc/all}`,
		`w='[q]bar[]'; echo ${w/[q]/R} ${w/"[q]"/R} ${w//[[]/R} ${w//[[.].]]/S} ${w//[[=q=]]/E}; a=(x1 y1 z2); echo ${a[@]/%[12]/N} ${a[@]/#[^x]/-}`,
	})
}

func TestJaiphCollatingSymbols(t *testing.T) {
	runCases(t, []string{
		// [.c.] and [=c=] of one character are that character
		`w='[q]bar[]-'; echo ${w/[q]/R} ${w//[[.].]]/S} ${w//[[=q=]]/E} ${w//[[.-.]a]/H} ${w//[a[.-.]]/H}`,
		`case ']' in [[.].]]) echo c1;; esac; case q in [![=q=]]) echo no;; *) echo c2;; esac; [[ - == [[.-.]] ]] && echo c3; touch ab; echo a[[.b.]]`,
	})
}

func TestJaiphListDefaultInWord(t *testing.T) {
	runCases(t, []string{
		// the text around "${a[@]+w}" is kept (a nested expansion wrote
		// over it)
		`arr=(p q); echo /"${arr[@]+bar}"/ x"${arr[@]:+bar}"y "<${arr[@]:-d}>"; set -- a b; echo x"${@+bar}"y`,
	})
}

func TestJaiphListSetAndNull(t *testing.T) {
	runCases(t, []string{
		// a list is set when it has elements; null when joined empty
		`set --; echo "${@-m}" ${@-m} ${@+p} ${@:-m} ${@:+p}; e=(); echo ${e[@]-m} ${e[@]+p} ${e[*]-m} "[${e[*]-m}]" "[${e[*]+p}]"; declare -A n=(); echo ${n[@]-m} ${n[@]+p}`,
		`set -- "" ""; IFS=; echo "a=${*-m}" "b=${*+p}" "c=${*:-m}" "d=${*:+p}"; echo a=${*-m} b=${*+p} c=${*:-m} d=${*:+p}; v=("" ""); printf '<%s>' ${v[*]:-e}; echo; IFS=:; echo "e=${*:-m}"`,
	})
}

func TestJaiphIndirectWithOperator(t *testing.T) {
	runCases(t, []string{
		// the operator applies to the parameter the reference names
		`ham=hello; r=ham; echo "${!r#h}" "${!r/l/L}" "${!r:1:2}" "${!r^^}" "${!r@Q}" "${!r%o}"; a=(x y z); r='a[@]'; echo "${!r/x/X}" "${!r:1}"; r='a[1]'; echo "${!r:-d}" "${!r/y/Y}"`,
		`r=nope; echo "[${!r:-d}] [${!r-e}] [${!r:+f}] [${!r+g}]"; r=ham; ham=; echo "[${!r:-d}] [${!r-e}] [${!r:+f}] [${!r+g}]"; unset ham; echo "[${!r=set}] $ham"; set -- x y; r=2; echo "${!r/y/Y}"`,
		// through a reference, a list with elements is never null
		`r='v[@]'; s='v[*]'; v=(); echo "[${!r-n}] [${!r:-c}] [${!s-n}] [${!s:-c}]"; v=(""); echo "[${!r-n}] [${!r:-c}] [${!s:-c}]"; IFS=; v=("" ""); echo "[${!r:-c}] [${!s:-c}]"`,
	})
}

func TestJaiphQuotedDefaultWord(t *testing.T) {
	runCases(t, []string{
		// inside double quotes, '…' in the word is literal quotes around
		// expanded text; a backslash before } is removed
		`unset u; val='p q r'; x=X; printf '<%s>' "${u:-'$val'}" "${u:-'$val $x'y}" "${u:-'$(echo hi)'}" "${u:+'$val'}" "${u-'a\$b'}" "${u-'a\\b'}"; echo`,
		`unset u; echo "${u-\}}" "${u-\\}}" "${u-a\}b}" "${u-\\\}}" ${u-\}} "${u-\$}" "${u-\q}"; u=set; echo "${u:+\}}"`,
	})
}

func TestJaiphDollarLineContinuation(t *testing.T) {
	runCases(t, []string{
		// a backslash-newline right after $ is removed first, as bash
		"echo $\\\n?; x=5; echo $\\\nx ${\\\nx} \"$\\\nx\" $\\\n(echo s) $\\\n((1+2)) $\\\n\\\n{x}; echo end$\\\n",
	})
}

func TestJaiphDollarQuoteControlChars(t *testing.T) {
	runCases(t, []string{
		// \cX in $'…' is a control character
		`echo -n $'\c0\c9-\cb\cY\c?\c\\x\c' | od -An -tx1; echo -n $'\\c\x41\cA' | od -An -tx1`,
	})
}

func TestJaiphCompoundIgnoredFailure(t *testing.T) {
	var cases []string
	for _, c := range []string{
		// a compound command failing with a failure errexit ignored
		// goes on; a subshell or function does not
		"{ false && true; }", "if true; then false && true; fi", "case x in x) false && true;; esac",
		"{ { false && true; }; }", "{ false && true; } > /dev/null", "for i in 1 2; do false && true; done",
		"for ((i=0;i<1;i++)); do false && true; done", "until false; do false && true; break; done",
		"f() { false && true; }; f", "( false && true )", "for i in 1; do false || false; done",
		"f() { false && true; }; f && echo ok; f; echo x", "trap 'echo ERR' ERR; { false && true; }; echo a; { false; }",
	} {
		cases = append(cases, "set -e; "+c+"; echo continued $?")
	}
	runCases(t, cases)
}

func TestJaiphTimeFormat(t *testing.T) {
	runCases(t, []string{
		// TIMEFORMAT shapes the report of time (only its literal parts
		// are deterministic)
		`TIMEFORMAT=timed; time false; echo $?; TIMEFORMAT='a%%b'; time true; TIMEFORMAT=; time true; TIMEFORMAT='[%x]'; time true; echo st=$?; TIMEFORMAT='%'; time true; TIMEFORMAT='z%l'; time true; f() { local TIMEFORMAT=in; time :; }; f`,
		`TIMEFORMAT=x; { time -p true; } 2>&1 | sed 's/[0-9]/N/g'`,
	})
}

func TestJaiphArithmOils(t *testing.T) {
	var cases []string
	// bash's token for a negative exponent is the one after the exponent
	for _, e := range []string{"2**-1", "2**-1 * 5", "2 ** -1 + 1", "2**(-1)", "x=1, 2**-x", "2**-1*5", "5/0 + 1", "(2**-1)", "2**-1**2", "y=-2, 3**y", "3**y--, 1"} {
		cases = append(cases, "y=-1; echo $(( "+e+" ))")
	}
	// a base with a leading 0 is an invalid number
	for _, e := range []string{"02#0101", "0#1", "010#1", "0x2#1", "1#1", "1 + 02#1", "x"} {
		cases = append(cases, "x=02#1; echo $(( "+e+" ))", "let 'y = "+e+"'; echo $? $y", "(( "+e+" )); echo $?")
	}
	// a single-quoted operand is no operand
	for _, e := range []string{"'3' + 2", "2 + '3'", `"3" + 2`, "a['k']", "1 + (('2'))"} {
		cases = append(cases, "declare -A a=([k]=4); echo $(( "+e+" ))", "declare -A a=([k]=4); (( "+e+" )); echo $?")
	}
	runCases(t, cases)
}

func TestJaiphArithmNounsetAndAssoc(t *testing.T) {
	runCases(t, []string{
		// set -u: an operator reading an unset name before writing it
		`set -u; (( nv1++ )); echo x`, `set -u; echo $(( nv1++ )); echo x`, `set -u; (( ++nv2 )); echo x`,
		`set -u; (( nv3 += 1 )); echo x`, `set -u; (( nv4 = 1 )); echo $nv4`, `set -u; i=0; while (( i++ < 2 )); do echo l; done; while (( j1++ < 2 )); do echo m; done`,
		// $m of an associative array is ${m[0]}
		`declare -A m=([0]=x [k]=y); echo "[$m] [${m}] [${#m}] [${m:0:1}] [${m/x/z}]"; declare -A n=([k]=1); echo "[$n]"; declare -A q=([0]=40); echo $((q + 5))`,
	})
}

func TestJaiphArithmDigitIndex(t *testing.T) {
	var cases []string
	// 1[2] is the number 1 and an invalid operator, not an element of $1
	for _, e := range []string{"1[2] = 3", "1[2]", "x + 1[2]", "1[2]++", "12[0] += 1"} {
		cases = append(cases, "set -- a b; echo $(( "+e+" )); echo n", "set -- a b; (( "+e+" )); echo $?")
	}
	runCases(t, cases)
}

func TestJaiphBadSubscriptErrexit(t *testing.T) {
	runCases(t, []string{
		// under errexit a bad subscript ends the shell even where errexit
		// is ignored; unset's is status 1 with bash's text
		`set -e; a=(1); echo ${a[-5]} && echo x; echo after`,
		`set -e; a=(1); if echo ${a[-5]}; then echo x; fi; echo after`,
		`set -e; e=(); if [[ -v e[-1] ]]; then echo x; fi; echo after`,
		`e=(); [[ -v e[-1] ]] && echo x; echo after $?`,
		`set -e; a=(1); unset -v "a[-2]" && echo x; echo after`,
		`a=(1); unset -v "a[-2]"; echo st=$?; unset "a[-3]" "a[0]"; echo $? ${#a[@]}; b=(1 2); unset "b[-1]"; echo ${#b[@]}`,
	})
}

func TestJaiphSliceLengthText(t *testing.T) {
	var cases []string
	// bash quotes the length expression as written
	for _, e := range []string{"a[@]:1:n", "a[@]: 1: -3", "a[@]:1:  -3 ", "s:1: -9", "s:1:n-9", "s: 1 : -9", "@:1:-5", "a[@]:1:(-3)", "s::-9"} {
		cases = append(cases, "n=-3; a=(1 2 3); s=abcdef; set -- x y; echo \"${"+e+"}\"; echo st=$?")
	}
	runCases(t, cases)
}

func TestJaiphEmptySliceParts(t *testing.T) {
	runCases(t, []string{
		// an offset of blanks and an empty length are 0, as bash
		`arr=(1 2 3); printf '<%s>' space ${arr[@]: }; echo; s=123; printf '<%s>' space ${s: } "${s:  }"; echo`,
		`arr=(1 2 3); printf '<%s>' ${arr[@]::}; echo; printf '<%s>' ${arr[@]:0:}; echo; set -- 1 2 3; printf '<%s>' ${@::} ${@:0:} x; echo; s=abc; echo "[${s::}] [${s:1:}] [${s: :2}]"`,
		`f() { echo "${a[@]::} ${s: } ${s:1:}"; }; declare -f f`,
	})
}

func TestJaiphTildeColon(t *testing.T) {
	runCases(t, []string{
		// a tilde prefix ends at a colon; in an assignment (its default
		// words too) each :~ expands
		`HOME=/home/ann; v=~:bar; echo $v; v=~root:~:~; echo $v; v=~/x:~; echo $v; v=~nouserqq:~; echo $v; v='~':~; echo $v; v=\~:~; echo $v; x=1; v=$x:~; echo $v`,
		`HOME=/home/ann; vv=~root:~:~ env | grep vv=; vv=~:~ env | grep vv=`,
		`HOME=/home/ann; echo ~:x ${u-~:x} ${u-~:~} ${u-~/a:~} "${u-~:x}" ${u-a:~} ~root:x ~nouserqq:x ~: ~:/ x~:y; case ~:x in /home/ann:x) echo c;; esac; [[ ~:q == /home/ann:q ]] && echo t`,
		`HOME=/home/ann; v=$(echo ${u-~:~}); echo $v; v="$(echo ${u-~:~})"; echo $v; v=${u-$(echo ${w-~:~})}; echo $v; v=${u-"~:~"}; echo $v; v="${u-~:~}"; echo $v; a=(${u-~:~}); echo ${a[@]}; declare d=${u-~:~}; echo $d`,
		`HOME=/home/ann; v=~:${nope-~:~}; echo $v; v=${nope-~:~}; echo $v; v=${nope:-~/a:~/b}; echo $v; local_test() { local w=~:q; echo $w; }; local_test`,
	})
}

func TestJaiphDeclAppend(t *testing.T) {
	runCases(t, []string{
		// in a function, declare/local name+=(…) of a non-array assigns
		// the list; a computed "name+=v" appends
		`f(){ typeset s=abc; typeset s+=(d e); declare -p s; }; f`,
		`f(){ s=abc; typeset s+=(d e); declare -p s; }; f; declare -p s`,
		`f(){ local s=abc; s+=(d e); declare -p s; }; f`,
		`f(){ local s=abc; local s+=(d e); declare -p s; }; f`,
		`f(){ local -a s=(abc); local s+=(d e); declare -p s; }; f`,
		`f(){ local s=abc; local s+=de; declare -p s; }; f`,
		`f(){ declare -A m=([k]=v); declare m+=([j]=w); declare -p m; }; f`,
		`typeset s=abc; typeset s+=(d e); declare -p s; export e+=(x y); declare -p e`,
		`s=abc; f(){ declare -g s+=(d e); }; f; declare -p s`,
		`f(){ dyn=x; typeset s${dyn}+=bar; typeset s${dyn}+=baz; echo $sx; local "q+=1" "q+=2"; echo $q; }; f`,
	})
}

func TestJaiphAssocKeyZero(t *testing.T) {
	var cases []string
	// ${m[@]:0:n} starts at the first value with the whole length
	for _, sl := range []string{"0:3", "1:3", "2:3", "5:3", "6:1", "0", "1", "0:9", " -2:1"} {
		cases = append(cases, "declare -A m; m[xx]=1; m[yy]=2; m[zz]=3; m[aa]=4; m[bb]=5; printf '<%s>' ${m[@]:"+sl+"}; echo; printf '<%s>' \"${m[*]:"+sl+"}\"; echo")
	}
	// m=v and m+=v set the key "0"
	cases = append(cases, `declare -A m=([k]=v); m=s; declare -p m; m+=t; declare -p m; declare -A n; n+=u; declare -p n`)
	runCases(t, cases)
}
