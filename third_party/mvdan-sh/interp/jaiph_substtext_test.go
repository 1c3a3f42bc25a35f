// jaiph-go: a word holding a command substitution is named in bash's
// messages with the commands reprinted as bash's parser keeps them.

package interp

import (
	"context"
	"os"
	"testing"
)

// TestJaiphSubstText: each command is put in a $(…) of a word bash names in
// an error message (an associative list's key that expands to nothing, an
// element's subscript, a redirection's word that is ambiguous); the message
// must name it as bash does. Found by the soak (seed 195):
// `a1+=("$(cat f1 2>/dev/null)")` of an associative a1 named the key
// `"$(cat f1 2>/dev/null)"`, bash `"$(cat f1 2> /dev/null)"`.
func TestJaiphSubstText(t *testing.T) {
	if _, err := os.Stat(jobsTestBash); err != nil {
		t.Fatalf("bash is needed: %v", err)
	}
	commands := []string{
		"cat f1 2>/dev/null",
		"true  2>/dev/null;echo  ",
		"true  2>/dev/null|cat",
		"true&&false||:",
		"echo >&2",
		"echo 2>&1 <f >>g <<<x 3<&- 4<>f >|f &>f &>>f 5>&4- 6<&$x 7>&$x",
		"echo {fd}>f {fd}<&-",
		"echo a &",
		"echo a & echo b",
		"echo a &\n",
		"! echo a",
		"echo a |& cat",
		"echo a | cat | cat",
		"echo a && echo b || echo c; echo d",
		" (echo a) ",
		" (echo a; echo b) >f ",
		"{ echo a; }",
		"{ echo a; echo b; } 2>f",
		"{ echo a & }",
		"echo a; { echo b; } ",
		"echo a | { cat; }",
		"x=1 y=2",
		`echo "$(echo  a)"`,
		"echo 'a  b' \"c  d\" \\$x",
		"echo a;\necho b\n",
		"echo a # comment\n",
		"\necho a\n",
		"echo a;",
		"echo $((1+ 2)) ${x:-a  b} `echo  x`",
		"echo <(echo  a) >(cat)",
		"x=$(echo  a) y=`echo  b`",
		"echo a\\\nb",
		"cat <<E\nx\nE\n",
		"if true; then echo a; echo b; elif false; then :; else echo c; fi",
		"if true; then { echo a; }; fi",
		"while false; do echo a; done",
		"until false; do echo a; done > f",
		"for x in 1  2; do echo a; done",
		"for x; do echo a; done",
		"if true; then for x in a; do while :; do break; done; done; fi",
		"case x in a|b) echo a;; *) ;; esac",
		"case x in a) echo a; echo b;; esac",
		"case x in (a) echo a;& b) echo b;;& esac",
		"if :; then case $x in *) echo \"$(echo  a)\";; esac; fi",
		"for ((i=0;i<2;i++)); do echo a; echo b; done",
		"[[ -n x && y ]]",
		"[[ $a == b* || ! -f x ]]",
		" ((  1+2 )) ",
		"f() { echo a; }",
		"f() { echo a; echo b; }",
		"function f { echo a; } ",
		"f() ( echo a ) ",
		"time echo a",
		"time -p echo a",
		"> f",
		"2>f <g",
		"select x in a b; do break; done",
		"while :; do echo a & done",
		"cat <<-E\n\tx\n\tE\n",
		"cat <<'E'\n$x\nE\n",
		"",
		" ",
		"# only a comment\n",
		"echo a; # c\n echo b",
		"! { echo a; } | cat",
		"echo a >&2 | cat 2>&1",
		"for x in a; do case $x in a) ;; esac; done",
		"echo <( (echo  a) ) >(cat  -n)",
		" (echo a) | cat ",
		"echo $'a\\tb'  \"$(echo  \"x  y\")\" $'it\\'s' $'\\x41'",
	}
	for _, cmd := range commands {
		for _, src := range []string{
			"declare -A b\nb+=(\"${u:+$(" + cmd + ")}\")",
			"declare -A b\nb[${u:+$(" + cmd + ")}]=1",
			"echo x > ${u:+$(" + cmd + ")}",
		} {
			t.Run(src, func(t *testing.T) {
				dirB, dirI := t.TempDir(), t.TempDir()
				want := runBash(t, src, nil, dirB, 0, 0)
				ctx, cancel := context.WithTimeout(context.Background(), bashDeadline)
				defer cancel()
				got := runInterp(t, ctx, src, nil, dirI)
				compare(t, src, got, want)
			})
		}
	}
	// A backquoted substitution is named as written.
	for _, src := range []string{
		"declare -A b\nb+=(\"`true  2>/dev/null`\")",
		"declare -A b\nb+=(\"${u:+`echo  a;  echo b`}\" x)",
		"echo x > ${u:+`echo  b`}",
	} {
		t.Run(src, func(t *testing.T) {
			want := runBash(t, src, nil, t.TempDir(), 0, 0)
			got := runInterp(t, context.Background(), src, nil, t.TempDir())
			compare(t, src, got, want)
		})
	}
}

// TestJaiphAssocEmptyKey: an associative list's [key]=value whose key
// expands to nothing is bash's bad array subscript naming the element as
// written; the element is left out, its value not expanded, and errexit
// ends the shell there. An element read with an empty key, in an expansion
// or in arithmetic, is bash's bad array subscript too (it read the key "").
func TestJaiphAssocEmptyKey(t *testing.T) {
	for _, src := range []string{
		`declare -A b; b=([${u}]=$(echo side >&2) [x]=2); echo "$? ${#b[@]}"`,
		`declare -A b; b=([""]=1 [$(true 2>/dev/null)]=2 [y]=3); echo "$? ${!b[@]}"`,
		`declare -A b=([k]=v); b+=([$u]=1); echo "$? ${!b[@]}"`,
		`declare -A b; b=( [$u]=  1 ); echo "$? ${#b[@]}"`,
		`set -e; declare -A b; b=([$u]=1 [x]=2); echo never`,
		// read with an empty key: said, the element unset
		`declare -A m=([k]=v); echo "1<${m[""]+x}> 2<${m[""]:-d}> 6<${m[$u]@Q}> 7<${m["$u"]#a}>"; echo "st=$?"`,
		`declare -A m=([k]=v); [[ -v m[""] ]]; echo "3 $?"; echo "4<${#m[""]}>"; echo "st=$?"; declare -A e; echo "8<${#e[""]}>"`,
		`set -e; declare -A m=([k]=v); echo "<${m[$u]}>"; echo never`,
		// and in arithmetic: "" is removed from the text (m[]), an
		// escaped one stays (the key is empty), an assignment is not made
		`declare -A m=([k]=1); echo $(( m[""]+1 )) $(( m[$u] )) $(( m[""] )); (( m[""]+1 )); echo "st=$?"`,
		`declare -A m=([k]=1); let "m[""]++"; echo "st=$?"; let "m[""]=1"; echo "st=$? ${!m[@]}"; (( m[$u]=3 )); echo "st=$? ${!m[@]}"; k=""; (( m[$k]+=2 )); echo "st=$? ${!m[@]}"`,
	} {
		t.Run(src, func(t *testing.T) {
			want := runBash(t, src, nil, t.TempDir(), 0, 0)
			got := runInterp(t, context.Background(), src, nil, t.TempDir())
			compare(t, src, got, want)
		})
	}
}
