// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// patches found restating Oils' spec array-literal, array-assign,
// array-basic and array-compat files (testdata/bashcompat/oils_array_*.txtar).
package interp_test

import "testing"

func TestJaiphDeclareArrayKindKept(t *testing.T) {
	runCases(t, []string{
		// declare -A on an indexed array of its scope, -a on an
		// associative one: refused, status 1, the variable unchanged
		"declare -a b=(5 6 7)\ndeclare -A b || echo \"st $?\"\ndeclare -p b\ndeclare -A h=([p]=1)\ndeclare -a h || echo \"st $?\"\ndeclare -p h",
		"f() { local -a l=(1 2); declare -A l || echo \"st $?\"; local -A l || echo \"st $?\"; typeset -A l || echo \"st $?\"; declare -p l; }; f",
		// the same kind again, or a new local over an outer array, is fine
		"declare -a b=(1); declare -a b; declare -A h=([k]=v); declare -A h; declare -p b h\nf() { declare -a h=(1 2); declare -p h; }; f",
		// at the top level too
		"g=(1 2)\ndeclare -A g || echo \"st $?\"\ndeclare -p g",
	})
}

func TestJaiphBadSubscriptDiscards(t *testing.T) {
	runCases(t, []string{
		// an element assignment before the start of an indexed array
		// discards the command, as a readonly one: eval goes on with
		// its next line, a subshell and a command substitution end
		"h[7]=x\neval 'h[-9]=E; echo same\necho next'; echo \"after $?\"\n(h[-9]=E; echo sub); echo \"sub $?\"\nx=$(h[-9]=E; echo cs); echo \"cs $? $x\"\ndeclare -p h",
		"eval 'z[-1]=1' || echo \"st $?\"\ndeclare -p z || echo \"st $?\"",
		// in a function the whole call goes
		"f() { h[-9]=E; echo no; }\nf\necho not",
		// under errexit the shell exits unless a condition ignores it
		"set -e\neval 'h[-9]=E; echo same\necho next' || echo \"st $?\"\nif eval 'h[-9]=E\necho next'; then echo yes; fi\neval 'h[-9]=E\necho next'\necho not",
		"set -e\nx=1; readonly x\neval 'x=2; echo same\necho next'\necho not",
		// an empty key of an associative array too
		"declare -A m\neval 'm[\"\"]=x; echo same\necho next'; echo \"after $?\"\n(m[\"\"]=y; echo sub); echo \"sub $?\"",
	})
}

func TestJaiphElemSubscriptOnce(t *testing.T) {
	runCases(t, []string{
		// an assignment inside an element's subscript stays: the
		// element goes into the array as the subscript left it
		"q[q[0]=2]=P\ndeclare -p q\nq[ q[3]=4 ]=Q\ndeclare -p q\nq[ q[0]+=1 ]+=R\ndeclare -p q",
		// a[i]+=v: the value first, then the subscript, evaluated once
		"i=0\na[i++]+=$i\ndeclare -p a i\ndeclare -A m\nm[$((n+=1))]+=x\ndeclare -p m n\nq[ q[0]+=1 ]+=R\ndeclare -p q",
		// a negative one counts from the end; before the start it is
		// bash's error naming the element as written
		"set +e\nb=(x y z)\nb[-1]+=w\neval 'b[-4]+=v' || echo \"st $?\"\ndeclare -p b\nu[-1]+=x\necho no",
	})
}

func TestJaiphDeclareElement(t *testing.T) {
	runCases(t, []string{
		// declare NAME[SUB]=v sets an element (+= appends to it); in a
		// function over an outer variable it is a new local array
		"h=(a b)\ndeclare h[3]=E\ndeclare -p h\ndeclare k[2]=x\ndeclare -a k[-1]+=y\ndeclare -p k\ndeclare -A m[p]=1\ndeclare m[q]=2\ndeclare -p m\ndeclare -i n[1]=2+3\ndeclare -p n",
		"h=(a b); s=str\nf() { declare h[3]=E; local h[1]=F; declare s[2]=t; declare -g G[1]=g; declare -p h s G; }\nf\ndeclare -p h s G",
		// before the start: bash's error, status 1; under errexit the
		// shell ends even in a condition
		"declare h[-9]=E || echo \"st $?\"\necho after\nset -e\ndeclare h[-9]=E || echo \"st $?\"\necho not",
	})
}

func TestJaiphListTildes(t *testing.T) {
	runCases(t, []string{
		// an indexed list's [k]=v is expanded as an assignment (each
		// ':~'), its plain words as words (x=~ is no assignment)
		"HOME=/H\nb=(~:x:~ [3]=~:~ a=~:~ x=${u-~} ~root)\ndeclare -p b\ndeclare -a d=(x=~ [3]=~:~)\ndeclare -p d\nf() { local -a c=(~ x=~:~ [4]=~:~); declare -p c; }; f",
		// bash 5.2 expands no tilde in an associative list's keys and
		// values, but does in nested words
		"HOME=/H\ndeclare -A h=(k ~ j ~:~)\ndeclare -p h\nh=([a]=~ [b]=~/x [c]=${u-~} [d]=a${u-~})\ndeclare -p h\nh+=([z]=~)\ndeclare -p h\nh[y]=~\necho \"${h[y]}\"",
	})
}

func TestJaiphListSubscriptSeesEarlier(t *testing.T) {
	runCases(t, []string{
		// each subscript is evaluated when its element is placed,
		// reading the array as the list has left it so far (emptied
		// first unless appending); values are all expanded before
		"b=([0]=2*3 [b[0]]=x [b[6]]=y)\ndeclare -p b",
		"b=(p q r)\np=11 q=12 r=13\ns=31 t=32 u=33\nb+=([0]=s [1]=t [2]=u [4]=\"${b[2]}\" [b[0]]=\"${b[0]}\" [b[1]]=\"${b[1]}\")\ndeclare -p b",
		"c=(1 2); c=([c[1]]=x)\ndeclare -p c\nd=(1 5); d=(z [d[1]+1]=w)\ndeclare -p d\ni=0; e=([i++]=$i [i++]=$i [e[0]+5]=v)\ndeclare -p e i",
	})
}

func TestJaiphDeclareNewLocalArray(t *testing.T) {
	runCases(t, []string{
		// in a function, declare -a/-A NAME over an outer variable is a
		// new, unset local array
		"g=(1 2)\ndeclare -A G=([k]=v)\nf() { declare -A g; declare -p g; declare -A G; declare -p G; declare -a g2; declare -p g2; g[x]=1; declare -p g; }\nf\ndeclare -p g G",
		"declare -A G=([k]=v)\nf() { local -A G; declare -p G; }\ng() { f; declare -p G; local -a G; declare -p G; }\ng\ndeclare -p G",
		// a prefix binding's value is still where a bare local starts
		"f() { local x; declare -p x; }\nx=v f",
	})
}

func TestJaiphDeclareKindListTwice(t *testing.T) {
	runCases(t, []string{
		// with a list value, bash reports the conversion twice
		"f() { declare -a b=(1); local -A b=([x]=1) || echo \"st $?\"; typeset -A b=(); declare -A b+=([y]=2); declare -p b; declare -A h=([k]=v); declare -a h=(1 2) || echo \"st $?\"; declare -p h; }; f",
	})
}

func TestJaiphListBraceElem(t *testing.T) {
	runCases(t, []string{
		// an indexed list's [k]=v whose value brace-expands to several
		// words is those plain words, [k]= included (bash 5.2);
		// associative lists keep the braces
		"b=([1]=x{1,2}y); declare -p b; c=([k]=a{1,2}); declare -p c; declare -a e=([1]=x{1,2}y); declare -p e; f=([1]=\"x\"{1,2}); declare -p f; declare -A h=([k]=x{1,2}y); declare -p h",
		"i=3; g=([i]=p{1,2} [$i+1]={q,r}\"s t\" [5]=x{a}y [6]=a{1..3} [9]=z); declare -p g",
	})
}

func TestJaiphSubscriptErrorText(t *testing.T) {
	runCases(t, []string{
		// an error found at an operand of a subscript quotes the
		// expression and the token from that operand on
		// (in a function: bash discards the whole call)
		"f() { q['3']=4; echo no; }\nf",
		"f() { q[1+'3']=4; echo no; }\nf",
	})
}

// Under errexit a failed element assignment exits with the status of a
// substitution in its value, as bash's (found by the fuzzer's long run).
func TestJaiphBadSubscriptExitStatus(t *testing.T) {
	runCases(t, []string{
		`f() { set -e; a1=(); a1[-1]="$(exit 3)"; echo after; }; f`,
		`f() { a1=(); a1[-1]="$(exit 3)"; echo "after $?"; }; f`,
		`f() { set -e; a1=(); a1[-1]=x; echo after; }; f`,
	})
}
