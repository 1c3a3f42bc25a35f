package interp_test

import "testing"

// A declaration's list value is expanded with its other words, before the
// redirections: associative lists and lists with subscripts too.
func TestJaiphDeclListsBeforeRedirs(t *testing.T) {
	runCases(t, []string{
		`declare -A m=([a]=$(echo x >&2)) 2>/dev/null; declare -a b=([1]=$(echo y >&2) [0]=$(echo z >&2)) 2>/dev/null; declare -A n=(k $(echo w >&2)) 2>/dev/null; declare -p m b n`,
		`i=0; declare -a q=([i++]=a [i++]=b); echo $i; declare -p q`,
		`i=0; a=([i++]=$i [i++]=$i); declare -p a; i=0; declare -a b=([i++]=$i [i++]=$i); declare -p b`,
		`i=0; c=([$((i++))]=$i [$((i++))]=$i); declare -p c; i=0; declare -A m=([$((i++))]=$i [$((i++))]=$i); declare -p m`,
		`a1=([-1]='[ab]' ${u1:?}); echo not here`,
		`declare -a d=([-1]=x) 2>/dev/null; echo "st=$?"; declare -a e=([1/0]=x) 2>/dev/null; echo "st=$?"`,
		`set -x; i=1; a=(1 2); declare -a a+=([i+1]=x [-1]=y z) 2>/dev/null; declare -p a`,
		`k=1; declare -A m=([$k]="x y" [k]=$k); declare -p m; declare -A m+=([j]=2); declare -p m`,
	})
}

// A negative subscript before the start of the list leaves its element
// out with bash's message naming it; the status stays 0 and the list goes on.
func TestJaiphListBadSubscript(t *testing.T) {
	runCases(t, []string{
		`declare -a d=([-1]=x); echo $?; declare -p d; a=(1 2); declare -a a=([-1]=z); declare -p a`,
		`d=([-1]=x); echo "st=$?"; declare -p d; i=-2; e=(a [$i]=y); echo st=$?; declare -p e`,
		`i=-2; declare -a g=(a [$i]=y b); echo st=$?; declare -p g; f() { local -a h=([-1]="a b"); echo st=$?; }; f`,
		`a=(1 2 3); a=([-1]=x); declare -p a; b=(1 2); b+=([-1]=y); declare -p b`,
		`set -e; trap 'echo "exit $?"' EXIT; d=([-1]=x y); echo "not here"`,
	})
}

// A word without a subscript among ones with, in an associative list, is
// left out with bash's warning; a new variable's list is indexed whatever
// its subscripts look like.
func TestJaiphListKinds(t *testing.T) {
	runCases(t, []string{
		`k=1; declare -A z=([k]=v $(echo w) "a b" [j]=2); declare -p z; declare -A q; q=([a]=1 b); declare -p q`,
		`declare x=([k]=v); declare -p x; declare y=(["k"]=v); declare -p y; y2=(["k"]=v); declare -p y2; y3=(['k']=v [1]=w); declare -p y3`,
		`declare -A m; m=(["k"]=v); declare -p m`,
		`set -e; trap 'echo "exit $?"' EXIT; declare -A z=([k]=v w); echo "not here"`,
		`declare -A z=([k]="$(echo e1 >&2)" w [j]=$(echo e2 >&2)) 2>f; echo "st=$?"; declare -p z; cat f`,
	})
}

// "${r[@]}" of a nameref to an element of an unset array is no field.
func TestJaiphNamerefElemList(t *testing.T) {
	runCases(t, []string{
		`declare -n r='a[1]'; printf '<%s>' "${r[@]}" "${r[*]}"; echo "n=${#r[@]} ${!r[@]}"`,
		`a=(x); declare -n r='a[1]'; printf '<%s>' "${r[@]}" "${r[*]}"; echo "n=${#r[@]} ${!r[@]}"`,
		`a=(x y); declare -n r='a[1]'; printf '<%s>' "${r[@]}" "${r[*]}"; echo "n=${#r[@]} ${!r[@]}"`,
		`declare -n r=u; printf '<%s>' "${r[@]}" "${r[*]}" "${r[@]:-d}"; echo "n=${#r[@]}"`,
		`declare -n r='a[1]'; printf '<%s>' "${r[@]:-d}" "${r[@]:+e}"; echo`,
	})
}

// A simple command's prefix assignments are expanded before its
// redirections, which see the variables as they were.
func TestJaiphPrefixBeforeRedirs(t *testing.T) {
	runCases(t, []string{
		`x=$(echo a >&2) true 2>/dev/null; x=$(echo b >&2) /bin/true 2>/dev/null; f() { :; }; x=$(echo c >&2) f 2>/dev/null; echo done`,
		`trap 'echo trap' EXIT; x=$((2/0)) echo hi > f | cat; echo after`,
		`x=out; x=1 echo hi > $x; x=out2; x=2 /bin/echo hi > $x; f() { echo "f x=$x"; }; x=3 f > $x; cat out out2; echo "x=$x"`,
		`readonly r=1; r=2 echo hi 2>/dev/null > f; cat f; echo end`,
		`x=1 echo hi > /nonexistent/f; echo "st=$? x=$x"; f() { echo "in f x=$x"; }; x=2 f > /nonexistent/g; echo "st=$? x=$x"`,
		`set -e; trap 'echo "trap x=$x"' EXIT; x=1 echo hi > /nonexistent/f`,
		`x=0; x=$((x+1)) y=$x env > e; grep -E '^(x|y)=' e | sort; echo "x=$x"`,
	})
}

// xtrace prints prefix assignments, empty values, subscripts, += and the
// expanded word of an assignment, and a declaration's list values, as bash.
func TestJaiphXtraceAssignments(t *testing.T) {
	runCases(t, []string{
		`f() { set -x; declare a=(1 "x y" "" "it's") b; declare -A m=([k]=v [j]="1 2"); local -a c=($(echo p q)); declare -n n=v; export e=(1); a=(3 4); m[z]=1; a+=(5); }; f`,
		`set -x; i=1; declare -a d=([i+1]=a [$i]="x y" c); declare -a d+=(z); declare -A m=([$i]=v); declare -A m+=([q]=1); declare e=(); declare -a g=(~ "*")`,
		`set -x; R=; S=''; T="a'b"; P=1 Q=2 true; P=a; P+=b true; Q="x y" R= true; f() { :; }; S=1 f; T=$(echo z) echo`,
		`set -x; a=1; f() { :; }; declare -p a; declare -f f >/dev/null; declare -F f`,
		`set -x; declare -A m; k=z; m[$k]=1; i=1; a[i+1]=x; a[$i]+=y; s=1; s+=2; declare -i n=1; n+=3+1`,
	})
}
