// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// patches of the session of 2026-11-30, fifth stop (jaiph-go issue 36):
// the soak's "still different" list of the stop before.
package interp_test

import "testing"

// TestJaiphNamerefDropsCaseAttrs: turning the nameref attribute on
// (declare -n NAME of an existing variable) turns -i, -l and -u off, as
// ksh93 does, while a -l or -u given with -n stays; a variable whose
// value names no variable (a number, an empty string) or that is readonly
// cannot become a nameref (status 1, bash's message).
func TestJaiphNamerefDropsCaseAttrs(t *testing.T) {
	runCases(t, []string{
		`declare -l a=ABC; declare -n a; declare -p a`,
		`declare -u b=x; declare -n b=c; declare -p b`,
		`f() { local -l x=Q; local -n x; declare -p x; }; f`,
		`declare -l q=A; declare -nu q; declare -p q`,
		`declare -i n=3; declare -n n; echo $?; declare -p n`,
		`e=""; declare -n e; echo $?; declare -p e`,
		`readonly w=v; declare -n w; echo $?; declare -p w`,
		`g=a[1]; declare -n g; declare -p g`,
		`f() { local -i k=5; local -n k; echo $?; declare -p k; local -u m=a[0]; local -n m; declare -p m; }; f`,
	})
}

// TestJaiphNamerefToElementUnset: through a nameref to an array element
// (declare -n r='a[1]'), under set -u, bash's ${r…} of an unset element
// (or of a[@] of an empty or unset array) is unbound and names the
// nameref, while a bare $r is empty; ${r:?w} names it too; ${#r} is 0
// without set -u (bash looks for a variable named a[1]) and the length of
// "$r" with it.
func TestJaiphNamerefToElementUnset(t *testing.T) {
	cases := []string{
		`declare -a a1; declare -n v2=a1[1]; set -u; echo "[${v2}]"`,
		`declare -n v2=a1[1]; set -u; echo "[$v2]"`,
		`a1=(x); declare -n v2=a1[1]; set -u; echo "[${v2%x}]"`,
		`a1=(x); declare -n v2=a1[1]; set -u; echo "[${v2:0}]"`,
		`a1=(x); declare -n v2=a1[1]; set -u; echo "[${v2@Q}]"`,
		`a1=(x); declare -n v2=a1[1]; set -u; echo "[${v2:-d}]"`,
		`a1=(); declare -n v2=a1[@]; set -u; echo "[$v2]"`,
		`a1=(); declare -n v2=a1[@]; set -u; echo "[${v2%x}]"`,
		`declare -A m; declare -n v2=m[k]; set -u; echo "[${v2#x}]"`,
		`declare -A m=([j]=1); declare -n v2=m[k]; set -u; echo "[$v2]"`,
		`declare -n v2=a1[1]; echo ${v2:?oops}`,
		`a1=(x); declare -n v2=a1[@]; set -u; echo "[${v2}]"`,
		`declare -A m=([k]=); declare -n v2=m[@]; set -u; echo "[${v2}]"`,
		`a1=x; declare -n v2=a1[@]; set -u; echo "[${v2}]"`,
		`a1=(x yy); declare -n v2=a1[1]; echo "${#v2}"; set -u; echo "${#v2}"`,
		`a1=(x yy); declare -n v2=a1[@]; echo "${#v2}"; set -u; echo "${#v2}"`,
		`declare -n v2=a1[1]; set -u; echo "${#v2}"`,
	}
	for i, c := range cases {
		cases[i] = "( " + c + " ); echo \"s=$?\""
	}
	runCases(t, cases)
}

// TestJaiphDeclareGlobalUnderSubshellLocal: in a subshell of a function,
// declare -g NAME=v of a name the subshell itself declared local sets the
// global (the subshell's copy), not the local; where that global is an
// indexed array, bash's bind_array_variable sets element 0 of the visible
// local instead (an integer local's error named after the builtin), also
// when the global was assigned in the same subshell.
func TestJaiphDeclareGlobalUnderSubshellLocal(t *testing.T) {
	cases := []string{
		`f() { ( declare -ai c1; declare -g c1=/X; echo "s=$?"; declare -p c1 ); }; f`,
		`f() { ( declare -ai b1; declare -g b1=/X; echo "s=$?" ); }; f`,
		`f() { ( a1=(1 2); declare -ai a1; declare -g a1=/X; declare -p a1 ); }; f`,
		`f() { ( a1=(1 2); declare -ai a1; declare -g a1=5; declare -p a1 ); }; f`,
		`f() { ( a1=x; declare -ai a1; declare -g a1=5; declare -p a1 ); }; f`,
		`a1=(1 2); f() { declare -ai a1; declare -g a1=/X; }; f`,
		`v1='a/b/c.d' a1=(1 'two words' three); f() { declare -ai a1; declare -g a1=${v1/*//X}; }; f`,
	}
	for i, c := range cases {
		cases[i] = "( " + c + " ); echo \"s=$?\""
	}
	runCases(t, cases)
}

// TestJaiphDeclareElemArithNamesBuiltin: the arithmetic of an element a
// declaration assigns (declare NAME[SUB]=v of an integer array, -g too,
// local) names the builtin in its error as bash's this_command_name; +=
// of an integer evaluates the old value and the word apart, so the error
// shows the word (1/0, not (0)+(1/0)).
func TestJaiphDeclareElemArithNamesBuiltin(t *testing.T) {
	cases := []string{
		`declare -gai b1; declare -g b1[1]=/X`,
		`declare -ai b1; declare b1[1]=/X`,
		`f() { declare -gai b1; declare -g b1[1]=/X; }; f`,
		`f() { local -ai b; local b[2]=1/0; }; f`,
		`declare -Ai m; declare m[k]=1/0`,
		`declare -ai b; declare b[1]+=1/0`,
		`declare -ai b=(4); declare b[0]+=2; declare -p b`,
		`declare -ai b; declare b[1/0]=3`,
		`a=(1 2); f() { local -i a=3; declare -g a+=1/0; }; f`,
	}
	for i, c := range cases {
		cases[i] = "( " + c + " ); echo \"s=$?\""
	}
	runCases(t, cases)
}

// TestJaiphDeclThroughElemNameref: in a function, a declaration with a
// value through a nameref to an array element (declare -n r='a1[1]';
// declare r=X) makes, as bash's make_local_variable, a local literally
// named a1[1]: the array is untouched, and what goes through the nameref
// afterwards — $r, ${#r}, r=v, prefix assignments, read, printf -v,
// arithmetic, [[ -v ]], unset, readonly — reaches that variable.
func TestJaiphDeclThroughElemNameref(t *testing.T) {
	cases := []string{
		`f(){ declare -n v2=a1[1]; declare v2=X; v2=Y; echo "[$v2] [${a1[1]}]"; declare -p a1; }; f`,
		`f(){ declare -n v2=a1[1]; declare -r v2=X; v2=Y; echo "s=$? [$v2]"; }; f`,
		`f(){ declare -n v2=a1[1]; declare -r v2=X; v2=Z echo hi; echo "s=$?"; }; f`,
		`f(){ declare -n v2=a1[1]; declare -r v2=X; unset v2; echo "s=$? [$v2]"; }; f`,
		`f(){ declare -n v2=a1[1]; local v2=X; echo "[$v2] [${#v2}] [${v2/X/Q}]"; declare -p v2; }; f`,
		`a1=(p q); f(){ declare -n v2=a1[1]; declare v2=X; echo "[$v2] [${a1[1]}]"; }; f`,
		`g(){ echo "g[$v2]"; }; f(){ declare -n v2=a1[1]; declare v2=X; g; }; f`,
		`f(){ declare -n v2=a1[1]; declare v2=X; declare v2=Y; echo "[$v2]"; declare v2+=Z; echo "[$v2]"; }; f`,
		`f(){ declare -n v2=a1[1]; declare v2=X; unset v2; echo "[$v2] [${v2-u}]"; v2=Q; echo "[$v2]"; declare -p a1; }; f`,
		`f(){ declare -n v2=a1[1]; declare -i v2=1+2; echo "[$v2]"; v2+=3; echo "[$v2]"; v2=x+1; echo "[$v2]"; }; f`,
		`f(){ declare -n v2=a1[1]; local -u v2=abc; echo "[$v2]"; g(){ echo "[$v2]"; v2=zz; }; g; echo "[$v2]"; }; f`,
		`f(){ declare -n v2=a1[1]; declare v2=X; echo "${!v2} ${v2@A}"; [[ -v v2 ]]; echo $?; }; f`,
		`f(){ declare -n v2=a1[1]; declare v2=X; read v2 <<< hi; echo "[$v2]"; declare -p a1; }; f`,
		`f(){ declare -n v2=a1[1]; declare v2=X; (( v2 = 7 )); echo "[$v2] $(( v2 + 1 ))"; declare -p a1; }; f`,
		`f(){ declare -n v2=a1[1]; v2=X; echo "[$v2]"; declare -p a1; }; f`,
	}
	for i, c := range cases {
		cases[i] = "( " + c + " ); echo \"s=$?\""
	}
	runCases(t, cases)
}

// TestJaiphComsubTailNoFork: bash runs the last simple command of a
// command substitution, and of a function that substitution calls last,
// without forking (an exec): an EXIT trap the function set before that
// command, when it is an external one, never runs. Bash decides as the
// substitution's command or the function starts, with no trap set but an
// ignored signal or RETURN; && and || bind tighter than ;, so a function
// ending `a; b || c` ends in a list and is not optimized.
func TestJaiphComsubTailNoFork(t *testing.T) {
	defs := `h(){ trap "echo T" EXIT; /bin/echo a; }; `
	cases := []string{
		`f(){ trap "echo T" EXIT; echo a; }; x=$(f); echo "[$x]"`,
		`g(){ trap "echo T" EXIT; wc -l /dev/null; }; x=$(g); echo "[$x]"`,
		defs + `x=$(h); echo "[$x]"`,
		`i(){ trap "echo T" EXIT; /bin/echo a; echo b; }; x=$(i); echo "[$x]"`,
		`x=$(trap "echo T" EXIT; /bin/echo a); echo "[$x]"`,
		defs + `x=$(echo z; h); echo "[$x]"`,
		defs + `x=$(echo z && h); echo "[$x]"`,
		defs + `x=$(h > /dev/stdout); echo "[$x]"`,
		defs + `x=$(! h); echo "[$x]"`,
		defs + `x=$(trap "" INT; h); echo "[$x]"`,
		defs + `x=$(trap "echo I" INT; h); echo "[$x]"`,
		`j(){ trap "echo T" EXIT; true && wc -c < /dev/null; }; x=$(j); echo "[$x]"`,
		defs + `k(){ trap "echo T" EXIT; h; }; x=$(k); echo "[$x]"`,
		defs + `l(){ h; }; x=$(l); echo "[$x]"`,
		`m(){ trap "echo T" EXIT; false || /bin/false; }; x=$(m); echo "[$x] $?"`,
		`m(){ true && /bin/echo a; }; trap - EXIT; x=$(m); echo "[$x] $?"`,
		`m(){ false || /bin/echo a; trap "echo T" EXIT; /bin/false; }; x=$(m); echo "[$x] $?"`,
		"m(){ trap 'echo T' EXIT\ntrue && /bin/echo a; }; x=$(m); echo \"[$x] $?\"",
		`n(){ trap "echo T" EXIT; nosuchcmd_zz 2>/dev/null; }; x=$(n); echo "[$x] $?"`,
		`o(){ trap "echo T" EXIT; /bin/echo a | cat; }; x=$(o); echo "[$x]"`,
		`q(){ trap "echo E" ERR; /bin/false; }; x=$(q); echo "[$x] $?"`,
		`r(){ trap "echo T" EXIT; cat <<< hi; }; x=$(r); echo "[$x]"`,
		`s() ( trap "echo T" EXIT; /bin/echo a ); x=$(s); echo "[$x]"`,
		"x=$(trap 'echo T' EXIT\ntrue && /bin/echo a); echo \"[$x]\"",
		defs + "x=$(true\ntrue && h); echo \"[$x]\"",
		defs + `x=$(true; true && h); echo "[$x]"`,
		defs + `x=$(true & h); echo "[$x]"`,
		defs + `echo "<$(h)>"`,
	}
	runCases(t, cases)
}

// TestJaiphAssocSubscriptBlanks: bash keys an associative array with a
// subscript's text as written, blanks included — in a list, assigned
// apart from its declaration or not, in ${m[ k ]}, m[ k ]=v and +=, in
// arithmetic, let, unset, read, printf -v, test -v — its words expanded
// and quotes removed; declare -p shows a key with a control character in
// $'…', and declare -f prints a subscript as written.
func TestJaiphAssocSubscriptBlanks(t *testing.T) {
	runCases(t, []string{
		`declare -A m; x=Q; m=([ k ]=c [k2 ]=d [ "k3" ]=e [ $x ]=f [1 + 2]=h); declare -p m; declare -A n=([ k ]=c); declare -p n`,
		`declare -A m=([" k "]=1 [k]=2 ["1 + 2"]=3 ["1+2"]=4); echo "${m[ k ]} ${m[k]} ${m[1 + 2]} ${m[1+2]} ${#m[ k ]} ${m[ k ]:-d} ${m[ k ]/1/x}"`,
		`declare -A m=([" k "]=1); m[ k ]+=9; m[ q ]=2; declare -p m; unset "m[ k ]"; declare -p m`,
		`declare -A m; (( m[ k ]=7 )); echo $(( m[ k ] + 1 )); let 'm[ k ]=4'; echo "${m[ k ]}"; declare -p m`,
		`declare -A m; read 'm[ z ]' <<< hi; [ -v 'm[ z ]' ]; echo $?; declare -p m`,
		"declare -A n; n=([\t\"t\"\t]=2 [ a[1] ]=3); declare -p n",
		`a=(1 2 3); echo "${a[ 1 ]} ${a[ 1 + 1 ]}"; a[ 2 ]=z; declare -p a`,
		`f(){ local -A l=([ x ]=1); declare -p l; echo "${l[ x ]}"; }; f`,
		`f(){ echo "${m[ k ]}"; m[ k ]=1; a=([ x ]=2); (( m[ k ] + 1 )); }; declare -f f`,
	})
}

// TestJaiphNamerefElemAssignDefault: ${r=w} and ${r:=w} through a nameref
// to an element of an indexed array assign the element and, as bash's
// bind_variable returns the array, expand to its element 0 (a scalar's
// value); nothing assigned, the element's value.
func TestJaiphNamerefElemAssignDefault(t *testing.T) {
	runCases(t, []string{
		`a1=(4); declare -n v2=a1[1]; echo "[${v2=x}]"; declare -p a1`,
		`a1=s; declare -n v2=a1[1]; echo "[${v2=x}]"; declare -p a1`,
		`a1=(4 5); declare -n v2=a1[1]; echo "[${v2=x}]"`,
		`a1=(4); declare -n v2=a1[1]; echo "[${v2:=x}]" "[${v2:=y}]"`,
		`a1=("" 5); declare -n v2=a1[0]; echo "[${v2:=x}]"`,
		`a1=(4 ""); declare -n v2=a1[1]; echo "[${v2:=x}]" "[${v2=q}]"`,
	})
}

// TestJaiphNakedDeclThroughElemNameref: a declaration without a value
// through a nameref to an element, in a function, makes the local named
// as the element too (unset, with the declaration's attributes).
func TestJaiphNakedDeclThroughElemNameref(t *testing.T) {
	runCases(t, []string{
		`f(){ declare -n v2=a1[1]; declare -u v2; v2=x; echo "[$v2] [${a1[1]}]"; }; f; echo "[${a1[1]}]"`,
		`f(){ declare -n v2=a1[1]; local v2; v2=x; echo "[$v2] [${a1[1]}]"; }; f`,
		`f(){ declare -n v2=a1[1]; declare -i v2; v2=1+1; echo "[$v2] [${a1[1]}]"; }; f`,
		`f(){ declare -n v2=a1[1]; declare v2; echo "[${v2-unset}]"; }; f`,
		`f(){ for i in 1 2; do declare -u v2; declare -n v2='a1[1]'; done; v2=$?; echo "[${a1[1]}] [$v2]"; }; f`,
	})
}

// TestJaiphElemExitTrapErrTrap: a fatal expansion error in a pipeline's
// element that is a simple command, inside a function, is a jump to
// bash's top level in the element's child: the functions' unwinding gives
// back the ERR trap they took away, so a command failing in the EXIT trap
// the child then runs runs the ERR trap, also where the function was
// called with errexit ignored.
func TestJaiphElemExitTrapErrTrap(t *testing.T) {
	runCases(t, []string{
		`trap "false" EXIT; trap "echo err \$?" ERR; f1() { echo $((1/0)) | cat; }; f1; trap - EXIT`,
		`trap "false" EXIT; trap "echo err \$?" ERR; f1() { set -u; echo $u | cat; }; f1; trap - EXIT`,
		`trap "false" EXIT; trap "echo err \$?" ERR; f1() { echo $((1/0)) | cat; }; f1 || echo or; trap - EXIT`,
		`trap "false" EXIT; f1() { trap "echo err \$?" ERR; g; }; g() { echo $((1/0)) | cat; }; f1; trap - EXIT`,
		`f() { v3=x+; trap 'echo exit $BASH_SUBSHELL; false' EXIT; trap 'echo err $? $BASH_SUBSHELL' ERR; printf '%s\n' $((v3)) | sed s/a/b/; trap - EXIT ERR; }; f`,
	})
}

// TestJaiphAssocDeclListIntegerBeforeRedirs: an integer associative
// list's values are evaluated as the declaration's words expand, before
// its redirections, as an indexed list's are: the error goes to the
// shell's stderr (`declare a1=([j]=x+) 2>/dev/null` still shows it).
func TestJaiphAssocDeclListIntegerBeforeRedirs(t *testing.T) {
	cases := []string{
		`declare -Ai a1; declare a1=([j]=x+) 2>/dev/null; declare -p a1`,
		`declare -Ai a1=([j]=x+) 2>/dev/null; declare -p a1`,
		`f(){ local -Ai a1=([j]=x+) 2>/dev/null; declare -p a1; }; f`,
		`declare -Ai a1; declare a1+=([j]=x+) 2>/dev/null; declare -p a1`,
		`declare -Ai a1; declare a1=([n]="$(echo e1 >&2)" [j]=2+3) 2>/dev/null; declare -p a1`,
		`declare -Ai a1=([a]=1+1 [b]=7); declare -p a1`,
		`f() { declare -ai A1; declare -A A1=([k]="  lead  trail " [j]=x); }; f`,
		`A1=(1); f() { declare -Ai A1=([k]=x+); }; f`,
		`A1=s; declare -Ai A1=([k]=x+)`,
	}
	for i, c := range cases {
		cases[i] = "( " + c + " ); echo \"s=$?\""
	}
	runCases(t, cases)
}

// TestJaiphListElemStarNullIFS: with IFS null, an unquoted $* or ${a[*]}
// as the value of an indexed list's [k]=v joins its elements with a space
// (plain, declared, appended or local lists alike), while an associative
// list's value, a scalar assignment and a quoted "$*" join with nothing.
func TestJaiphListElemStarNullIFS(t *testing.T) {
	runCases(t, []string{
		`set -- x y; IFS=""; a1=([1]=$*); declare -p a1; declare -a a2=([1]=$*); declare -p a2; a3+=([1]=$*); declare -p a3`,
		`set -- x y; IFS=""; declare -A m; m=([k]=$*); declare -p m; a5=($*); declare -p a5; a6=([1]=$@); declare -p a6`,
		`f(){ IFS=""; a7=([1]=$*); declare -p a7; local -a l=([0]=$*); declare -p l; }; f x y`,
		`set -- x y; IFS=""; b=(p q); v=$*; echo "[$v]"; v=${b[*]}; echo "[$v]"; a=([1]=${b[*]}x [2]="$*" [3]=${*/x/z} [4]=${*:1}); declare -p a`,
		`set -- x y; IFS=""; b=(p q); declare -A m=([k]=$* [j]=${b[*]}); declare -p m`,
	})
}

// TestJaiphReturnTrapLineno: $LINENO in a RETURN trap counts from the
// line the function's body starts on (its `{`), a line of the trap's text
// after the first one more; after a sourced file, from the line of the
// source command.
func TestJaiphReturnTrapLineno(t *testing.T) {
	runCases(t, []string{
		"echo start\nf() {\n  trap 'echo \"ret $LINENO\"' RETURN\n  echo in\n\n}\n\nf",
		"g()\n{\n  trap 'echo \"retg $LINENO\"\necho \"second $LINENO\"' RETURN\n  :\n}\ng",
		"echo x\nh() { trap 'echo \"reth $LINENO\"' RETURN; return 3; }\n\nh",
		"printf 'echo src\\n' > s.sh\ntrap 'echo \"rt $LINENO\"' RETURN\necho a\nsource ./s.sh\n. ./s.sh\ntrap - RETURN",
	})
}

// TestJaiphSubscriptErrorTrailingBlanks: an arithmetic error in an
// indexed array's subscript shows the subscript's text without its
// leading blanks but with its trailing ones, as bash (`${a[ 1/0 ]}`:
// "1/0 : division by 0 (error token is "0 ")"), in an expansion, an
// assignment, a list and arithmetic.
func TestJaiphSubscriptErrorTrailingBlanks(t *testing.T) {
	cases := []string{
		`a=(1 2); echo "${a[ \$x ]}"`,
		`a=(1 2); echo "${a[ 1/0 ]}"`,
		`a=(1 2); echo "${a[1/0 ]}"`,
		`a=(1 2); a[ 1/0 ]=3`,
		`a=(1 2); a[ 1/0 ]+=3`,
		`a=(1 2); echo $(( a[ 1/0 ] ))`,
		`a=( [ 1/0 ]=3 )`,
		`a=(1 2); echo "${a[	1/0	]}"`,
	}
	for i, c := range cases {
		cases[i] = "( " + c + " ); echo \"s=$?\""
	}
	runCases(t, cases)
}

// TestJaiphDeclareFWordsAsWritten: declare -f and type print an
// arithmetic expansion or command, $[…], and a backquoted command
// substitution as written in the definition (the parser keeps a
// function's source), a $'…' as the single-quoted text it became, and a
// here-document inside a pipeline or list with its body after the
// connector, as bash's print_cmd.c.
func TestJaiphDeclareFWordsAsWritten(t *testing.T) {
	runCases(t, []string{
		"f() {\n  echo $((1+2)) $(( 3 *4 )) `echo bq` $'a\\tb' \"$(echo  x)\" ${v:-$((1+1))}\n  x=$((2+2)); (( y = 3+4 )); ((z=1))\n  echo `echo a \\`echo b\\``\n}\ndeclare -f f",
		"f() { echo $'it\\x27s' $'\\n' $'plain'; echo $[1+2]; x=$(( (1+2) *3 )); echo \"$((1+2))\" \"`echo q`\"; }\ndeclare -f f",
		"g() {\n  h() { echo $((1+1)); }\n  echo `date +%s` | cat\n}\ntype g",
		"f() {\n  cat <<E1 | tr a-z A-Z\nhello\nE1\n  cat <<E2 && echo ok\nx\nE2\n  cat <<-E5 | wc -l\n\tt\n\tE5\n  cat <<E6 |& cat\nq\nE6\n}\ndeclare -f f\nf",
	})
}

// TestJaiphIndirectUnsetPositional: ${!N} of a positional parameter that
// is unset is as an indirection through a variable without a value:
// empty, its operators applied (${!9:-d} is d), under set -u "!9: unbound
// variable"; bash names no invalid indirect expansion.
func TestJaiphIndirectUnsetPositional(t *testing.T) {
	cases := []string{
		`echo "[${!9}]"`,
		`set -u; echo "[${!9:-d}]"`,
		`set -u; echo "[${!9}]"`,
		`echo "[${!3:+a}]"`,
		`set -- y; y=Y; echo "[${!1}]"`,
		`set -- a; echo "[${!1:-d}]"; echo "[${!2-e}]"`,
		`set -- ""; echo "[${!1}]"`,
		`echo "[${!9:=w}]"`,
		`unset x; echo "[${!x:-d}]"`,
	}
	for i, c := range cases {
		cases[i] = "( " + c + " ); echo \"s=$?\""
	}
	runCases(t, cases)
}

// TestJaiphVarFdCloseAndReadonly: {v}>&- of an unset or empty v is an
// ambiguous redirect named after v; of a value that is no number, bash's
// legal_number makes it descriptor 0, which is closed; {v}>file of a
// readonly v opens the file, then fails ("v: readonly variable", "v:
// cannot assign fd to variable").
func TestJaiphVarFdCloseAndReadonly(t *testing.T) {
	cases := []string{
		`unset v; exec {v}>&-; echo "s=$?"`,
		`v=; exec {v}>&-; echo "s=$?"`,
		`v=99; exec {v}>&-; echo "s=$?"`,
		`v=abc; exec {v}>&-; read x; echo "s=$? x=$x"`,
		`v=" 12 "; exec {v}>&-; echo "s=$?"`,
		`readonly v=42; exec {v}>/dev/null; echo "s=$?"`,
		`readonly v=42; : {v}>newf; echo "s=$?"; ls newf`,
	}
	for i, c := range cases {
		cases[i] = "( " + c + " ) < /dev/null; echo \"s=$?\""
	}
	runCases(t, cases)
}

// TestJaiphArithSingleQuotes: bash expands arithmetic text as in double
// quotes, so single quotes stay (no operand: an error) and the $
// expansions inside them are made, as the error's text shows.
func TestJaiphArithSingleQuotes(t *testing.T) {
	cases := []string{
		`key=k; (( 'a[$key]++' ))`,
		`declare -A assoc; (( 'assoc[$key]++' )); declare -p assoc`,
		`x=3; echo $(( '$x' + 1 ))`,
		`x=3; (( y = 'x' ))`,
		`x=3; echo $(( x + '1' ))`,
	}
	for i, c := range cases {
		cases[i] = "( " + c + " ); echo \"s=$?\""
	}
	runCases(t, cases)
}

// TestJaiphTimeTime: `time time cmd` reports once, in the -p format when
// either time has -p, as bash's one flag on the pipeline.
func TestJaiphTimeTime(t *testing.T) {
	runCases(t, []string{
		`TIMEFORMAT=T; time time echo a`,
		// the reports go through grep: their figures depend on load
		`{ time -p time echo b; } 2>&1 | grep -c real`,
		`{ time time -p echo c; } 2>&1 | grep -c real`,
		`{ time -p time echo d; } 2>&1 | sed 's/[0-9]/N/g'`,
	})
}

// TestJaiphBadSubscriptUnnamed: a bad subscript in what printf -v, read
// or mapfile assign is named after no builtin, as bash (its assignment
// error); mapfile's invalid array name is bash's text, status 1; a fatal
// error expanding an integer's += value ends it before the += is
// evaluated.
func TestJaiphBadSubscriptUnnamed(t *testing.T) {
	cases := []string{
		`a1=(1); read "a1[-5]" <<< x`,
		`a1=(1); mapfile -t "a1[-5]" <<< x`,
		`mapfile -t "a b" <<< x; echo s=$?; readarray a[1] <<< x`,
		`v2=" x y  z"; f(){ declare -gi v2; v2+="${u1:?}"; }; f`,
		`v2=" x y  z"; f(){ declare -gi v2; v2+="$((1/0))"; }; f`,
	}
	for i, c := range cases {
		cases[i] = "( " + c + " ); echo \"s=$?\""
	}
	runCases(t, cases)
}

// TestJaiphTildePlusMinus: ~+ is $PWD, ~- is $OLDPWD (unset: as
// written), ~N and ~+N the directory stack's Nth entry, ~-N from its
// bottom; an entry that is not there leaves the word as written.
func TestJaiphTildePlusMinus(t *testing.T) {
	runCases(t, []string{
		`cd /usr; cd /tmp; echo ~- ~+ ~-/x ~+/y x=~+:~-`,
		`unset OLDPWD; echo ~-`,
		`cd /; echo ~+0 ~-0 ~1 ~0`,
		`cd /; pushd /usr >/dev/null; pushd /tmp >/dev/null; echo ~+0 ~+1 ~-0 ~-1 ~1 ~2 ~3 ~+3 ~-x ~+x ~+- ~12a`,
		`cd /usr; cd /tmp; a=~+; echo $a; b=(~- ~+); echo ${b[@]}`,
	})
}

// TestJaiphShoptQuerySetOptions: shopt -o and shopt -p -o show any of
// bash's -o options, those the interpreter does not run too (history,
// verbose, physical: off, status 1), as set -o lists them.
func TestJaiphShoptQuerySetOptions(t *testing.T) {
	runCases(t, []string{
		`shopt -p -o history; echo s=$?; shopt -p -o verbose; echo s=$?; shopt -o physical; echo s=$?`,
		`shopt -o braceexpand; echo s=$?; shopt -po hashall keyword; echo s=$?; shopt -o nosuch; echo s=$?`,
	})
}

// TestJaiphDeclareFLayout: declare -f joins a command ended by & with the
// next one on its line (no ";" after a last one), prints ((…)) as written
// in a while or if condition too, a [[ ]] leaf of a list with bash's
// redirections, and a lone word in [[ ]] as the -n test it is (( -n $c )
// in parentheses).
func TestJaiphDeclareFLayout(t *testing.T) {
	runCases(t, []string{
		"f() { echo a & echo b; echo c & }; declare -f f",
		"g() { echo a &\necho b\n}; declare -f g",
		"h() { { echo x; } & echo y; }; declare -f h",
		"k() { while (( i < 3 )); do ((i++)); done; if (( 7 > 40 )) ; then :; fi; }; declare -f k",
		"f() { [[ -r /dev/null ]] || echo oops > /dev/null; (( 1 )) && [[ a == b ]] || echo x 2>&1 >/dev/null; }; declare -f f",
		"f() { [[ $x ]]; [[ ! $y ]]; [[ a && $b ]]; [[ ( $c ) ]]; [[ -f /x || $a == b* ]]; [[ $a -eq 1 ]]; [[ -n $q ]]; [[ a =~ ^b ]]; [[ ! -z $r ]]; }; declare -f f",
	})
}

// TestJaiphPrefixBindingEmptyNameref: a prefix assignment to a nameref
// naming nothing (declare -n r) binds a plain variable of the command's
// environment holding the value, as bash's assign_in_env; the nameref is
// as it was after.
func TestJaiphPrefixBindingEmptyNameref(t *testing.T) {
	runCases(t, []string{
		`f(){ declare -n r; r=two eval 'echo "[$r]"'; declare -p r; r=x; declare -p r; }; f`,
		`g(){ declare -n q; q=one printenv q; }; g`,
		`foo=bar; h(){ typeset -n foo; foo=two printf "%s\n" $foo; foo=two eval 'printf "%s\n" $foo'; }; h`,
	})
}

// TestJaiphLengthParamTransform: ${#@Q} is ${#} with the @Q
// transformation, as bash reads it (the parser refused it); ${#@} is
// still the number of positional parameters.
func TestJaiphLengthParamTransform(t *testing.T) {
	runCases(t, []string{
		`set -- a bb ccc; echo ${#@Q} ${#@} ${#@U} ${#*} ${#?} "${#@Q}" ${#@a}`,
		`set --; echo "${#@Q}" "${#@}"`,
	})
}

// TestJaiphSoak161: under nocasematch glibc folds the string's characters
// but not an escaped one in =~, so an escaped lowercase letter matches
// nothing (\D matches d and D); ${r@A} and ${r@a} through a nameref to
// an element are empty (bash looks for a variable named as the element);
// a prefix assignment's readonly error names the nameref as written.
func TestJaiphSoak161(t *testing.T) {
	runCases(t, []string{
		`for p in '\d' '\w' '\x' '\a' '\D' 'd'; do for s in d D x a; do shopt -s nocasematch; r1=$p; [[ $s =~ $r1 ]] && printf Y || printf n; shopt -u nocasematch; [[ $s =~ $r1 ]] && printf Y || printf n; printf " "; done; echo; done`,
		`a1=(1 "two words"); f(){ declare -n v2="a1[1]"; echo "[${v2@A}] [${v2@a}] [${v2@Q}] [${v2@U}]"; }; f`,
		`( declare -n v2=A1; readonly v2=x; v2=$v2 echo v2 ); echo "s=$?"`,
	})
}
