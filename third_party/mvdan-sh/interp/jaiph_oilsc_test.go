// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// patches that close the divergences left out of jaiph-go's
// testdata/bashcompat/oils_assign.txtar (Oils' spec assign), and those found
// restating Oils' spec background and builtin-trap files.
package interp_test

import "testing"

func TestJaiphReadonlyAssignDiscards(t *testing.T) {
	runCases(t, []string{
		// an assignment to a readonly variable discards the command: eval
		// and source go on with their next line, returning 1 if none
		"a=(1 2 3); readonly a\neval 'a+=(4)'; echo \"st=$?\"; declare -p a\neval 'a=(4)\necho next'; echo \"st=$?\"\nx=1; readonly x\neval 'x=2; echo same'; echo \"st=$?\"",
		"x=1; readonly x\nprintf '%s\\n' 'x=2; echo same' 'echo next' > s.sh\n. ./s.sh 2>/dev/null; echo \"st=$?\"\nf() { eval 'x=2\necho in'; echo \"f $?\"; }; f\neval 'eval \"x=2; echo no\"; echo e1 $?\necho e2'",
		// in a subshell it ends the subshell, eval or not
		"x=1; readonly x\n( eval 'x=2\necho no'; echo no ); echo \"sub $?\"\necho \"[$(eval 'x=2\necho no')]\"\n{ eval 'x=2\necho no'; echo no; } | cat; echo \"pipe $?\"",
		// through a nameref (bash names the target for a plain value,
		// the nameref for a list or a subscript)
		"a=(1 2 3); readonly -a a\ndeclare -n r=a\neval 'r+=(4); echo no'; echo \"st=$?\"\neval 'r=5; echo no'; echo \"st=$?\"\neval 'r[1]=5; echo no'; echo \"st=$?\"\nr=6; echo no\necho next",
		// FUNCNEST's discard too
		"f() { f; }\nFUNCNEST=3\neval 'f; echo no\necho next'; echo \"st=$?\"",
		// outside eval the rest of the line goes, the next line runs
		"g() { x=2; echo no; }\nx=1; readonly x\ng; echo no\necho next $?",
	})
}

func TestJaiphExportReadonlyArrayFlags(t *testing.T) {
	runCases(t, []string{
		// readonly and export give a name without a value their own
		// attribute only, not -a or -A
		`readonly -a ra; declare -p ra; readonly -A rA; declare -p rA; export -a ea; declare -p ea; export -A eA; declare -p eA; a=(1 2); readonly -A a; declare -p a; s=1; export -a s; declare -p s`,
		// declare -a x=v (and readonly/export -a) sets element 0
		`readonly -a rf=x; declare -p rf; declare -a df=x; declare -p df; export -a ef=x; declare -p ef; readonly -A rg=x; declare -p rg; b=(1 2); declare -a b=x; declare -p b; declare -A m=([k]=v); declare -A m=x; declare -p m; declare -ai n=1+2; declare -p n; f() { local -a l=x; local -A l2=y; declare -p l l2; }; f`,
	})
}

func TestJaiphDeclBuiltinAsCall(t *testing.T) {
	runCases(t, []string{
		// behind a prefix binding, after builtin/command, named by an
		// expansion (its words split), a declaration builtin runs
		`P=1 readonly r=v; echo "$r $?"; declare -p r; e=export; $e x=1; printenv x; e='readonly y=2 z=3'; $e; declare -p y z; P=2 export q=3; printenv q P; echo "P=${P-unset}"; P=2 declare d=4; echo "${P-unset}" $d`,
		`f() { P=3 local l=5; echo "${P-unset}" $l; declare -p l; }; f; echo "${l-unset}"; words='a b c'; e=export; rr=readonly; $e ex=$words; $rr ro=$words; printf '<%s>' "$ex" "$ro"; echo; builtin declare bd=1; command export ce=2; printenv ce; echo $bd; P=1 declare -i n=1+2; echo $n; P=1 local zz=1; echo "st=$?"`,
		`e=export; set -x; $e x2=1 y; builtin readonly w=2; set +x`,
	})
}

func TestJaiphDeclWordsBeforeRedirs(t *testing.T) {
	runCases(t, []string{
		// every word is expanded before the redirections and the
		// assignments
		`both() { echo to-out; echo to-err >&2; }; readonly x=$(both) 2>/dev/null; echo "x=$x"; export y=$(both) 2>/dev/null; echo "y=$y"; declare z=$(both) 2>/dev/null; echo "z=$z"; h() { local v=$(echo hi; echo e >&2) 2>/dev/null; echo "$v"; }; h`,
		`x1=1; declare x1=2 y1=$x1; echo $y1; i=0; declare a=$((i+=1)) b=$i; echo $a $b; f(){ local q=1 r=$q; echo "[$r]"; }; f; local l 2>/dev/null; echo "st=$?"; declare -p nope 2>/dev/null; echo "st=$?"; declare -p x1 > out.txt; cat out.txt`,
	})
}

func TestJaiphDeclInvalidName(t *testing.T) {
	runCases(t, []string{
		// bash names the builtin and the word as written, goes on with
		// the other names and returns 1
		"declare /root x=1; echo \"st=$? x=$x\"; e=9; export $e=1 y=2; echo \"st=$? y=$y\"; readonly -- -x; echo \"st=$?\"; declare \"a b\"=1; echo \"st=$?\"; typeset =v; echo \"st=$?\"",
		"f() { local a-b c=3; echo \"local st=$? c=$c\"; }; f; n=x; declare \"$n-y\"+=2; echo \"st=$?\"",
	})
}

func TestJaiphDeclQuotedCompound(t *testing.T) {
	runCases(t, []string{
		// with -a or -A a value expanding to "(…)" is a compound
		// assignment; without, a string
		`declare 'a=(1 2)'; declare -p a; declare -a c='(3 4)'; declare -p c; declare -A m='([k]=v)'; declare -p m; x='(7 8)'; declare -a e=$x; declare -p e; declare -a g='(1'; declare -p g`,
		`f(){ local -a l='(p q)'; declare -p l; }; f; typeset -a t='( a\ b c )'; declare -p t; declare -a u='(1 2)' v=3; declare -p u v; declare -a w=(0); declare -a w+='(9)'; declare -p w`,
	})
}

func TestJaiphDeclListBeforeRedirs(t *testing.T) {
	runCases(t, []string{
		// an indexed list value's words are expanded before the
		// redirections, each field an element
		`f() { echo err >&2; echo 1 2; }; declare -a a=($(f)) 2>/dev/null; declare -p a; g() { local -a l=(x $(f) "y z") 2>/dev/null; declare -p l; }; g; readonly -a r=($(f)) 2>/dev/null; declare -p r; declare -a w=(0); declare -a w+=(9 $(f)) 2>/dev/null; declare -p w`,
		// an associative one's words are not split
		`x="a b"; declare -A m=($x); declare -p m; declare -A n; declare n=(k v); declare -p n`,
	})
}
