package interp_test

import "testing"

// TestJaiphArithAssignIntegerFatal: an arithmetic error in a value assigned
// to a declare -i variable ends the shell in bash, as the same error in
// $((…)) does (status 1, even left of ||), and the message names the
// builtin that assigned it (declare, local, export, readonly, read; a
// plain assignment names none).
func TestJaiphArithAssignIntegerFatal(t *testing.T) {
	runCases(t, []string{
		`declare -i r1='  lead  trail '; echo "not reached $?"`,
		// set -u in the value's arithmetic is as fatal, without the prefix
		`f() { v1='a/b/c.d'; trap 'echo bye $?' EXIT; set -u; declare -i r1="${!v*}"; echo after; }; f || echo "st=$?"`,
		`f() { set -u; declare -i r1="a"; echo after; }; f || echo "st=$?"`,
		// the status is the one before, as bash discarding the line
		"f() {\nfor i1 in \"$(exit 3)\"; do\ndeclare -i v2=~\ndone\n}\nf",
		"f() { (exit 3); declare -i v2='a b'; echo after; }; f",
		"set -eo pipefail; f() { v1='a/b/c.d'; grep -q a f1 2>/dev/null; declare -i r1=$v1; }; f || exit $?",
		`f() { local -i r='a b'; echo in; }; f; echo after`,
		`declare -i r; export r='a b'; echo after`,
		`declare -i r; readonly r='a b'; echo after`,
		`declare -i r; r='a b'; echo after`,
		`declare -i r; r='a b' || echo or; echo after`,
		`declare -i r='a b' q=1 || echo or; echo after`,
		`declare -i r; declare r='a b' || echo or; echo after`,
		`declare -i r; read r <<< 'a b'; echo after $?`,
		`trap 'echo "trap $?"' EXIT; f() { declare -i r='1 +' || echo or; echo in; }; f || echo "f $?"; echo after`,
		`declare -i r='2 * 3' s=r+1; echo "$r $s"`,
	})
}

// TestJaiphArithErrorToken: the error token of bash's arithmetic messages
// where bash's parser, which evaluates as it reads, stops: at the first
// assignment to a non-variable in the text, even in a branch it does not
// evaluate; at the token after a whole expression inside ( where bash
// expects the `)`.
func TestJaiphArithErrorToken(t *testing.T) {
	runCases(t, []string{
		`n=2; echo $(((n?2:5) && 7/n || (n - n+=3) || -n * n+=3)); echo $?`,
		`n=2; echo $(( (n - n+=3) || -n * n+=3 )); echo $?`,
		`n=2; (( 1 || (n - n+=3) || -n * n+=3 )); echo $? $n`,
		`n=2; let '1 || (n - n+=3) || -n * n+=3'; echo $? $n`,
		`let "((n----n))"; echo $?`,
		`let "(n----n)"; echo $?`,
		`let "n----n"; echo $?`,
		`let "((n-- - -n))"; echo $? $n`,
		`let "((n++++n))"; echo $?`,
		`let "(1 2)"; echo $?`,
		`let "((3)4)"; echo $?`,
	})
}

// TestJaiphArithSubscriptMessage: an arithmetic error in a subscript of an
// indexed array (A1 not declared associative) quotes the subscript as
// written, quotes and all, as bash does.
func TestJaiphArithSubscriptMessage(t *testing.T) {
	runCases(t, []string{
		`A1['x y']="a*b?c"; echo "not reached $?"`,
		`f() { A1['x y']=q; echo in; }; f; echo after`,
		`A1['x y']+=q; echo after`,
		`echo "${A1['x y']}"; echo after`,
		`v3='!AbC'; A1[$v3]=q; echo "after ${A1[*]}"`,
		`A1=(); echo "${#A1['x y']}"; echo after`,
	})
}

// TestJaiphArithEvaluatedBeforeSyntaxError: bash evaluates an expression
// as it parses it, so an error in what comes before a token its parser
// rejects (a division by 0 in A/B/C.D, B being 0) is the one reported,
// its token running to the end of the text; what comes before happens.
func TestJaiphArithEvaluatedBeforeSyntaxError(t *testing.T) {
	runCases(t, []string{
		`n='A/B/C.D-'; echo $(((n))); echo after`,
		`n='A/B/C.D-'; echo $((n)); echo after`,
		`n='a.d-'; echo $((n)); echo after`,
		`n='1/0 +'; echo $((n)); echo after`,
		`n='1/0 2'; echo $((n)); echo after`,
		`n='2/1 2'; echo $((n)); echo after`,
		`let '1/0 +'; echo after`,
		`let '(1/0) 3'; echo after`,
		`n='x-'; echo $((n)); echo after`,
		`declare -i r='5/0 x'; echo after`,
		`n=1; let 'n++ 2'; echo "$? $n"`,
		`n='x\,y'; echo $((n)); echo after`,
		`let 'x\y'; echo "let $?"; let '3\y'; echo "let $?"; let "x'y'"; echo "let $?"`,
		`n=a; a='b/c d'; echo $((n)); echo after`,
	})
}

// Where bash's lexer wants an operand and meets a character none starts
// with, or the end after a lone ++ or --, its error is "operand expected".
func TestJaiphArithOperandExpected(t *testing.T) {
	var cases []string
	for _, e := range []string{"[] x", "--", "-", "++", "[", "]", "@", "1 +", "+", "!", "~", "(", ")", "1 - -", "2 *",
		"-/-/c.d", "1 + )", "! *", "~ ]", "1 * / 2", ".d", ".5", "}", ",", "v1 v2", "v1 + 1 v2", "{a,b}_y", "{a", "----", "+-+", "---", "-+"} {
		cases = append(cases, "f() { v1='a/b/c.d'; declare -i v; v='"+e+"'; echo \"v=$v\"; }; f")
	}
	runCases(t, cases)
}

// -v of an array tests its element (key) 0.
func TestJaiphTestVArray(t *testing.T) {
	runCases(t, []string{
		`a1=([2]=x); [[ -v a1 ]] && echo yes || echo no; [[ -v a1[2] ]] && echo yes2; declare -A m=([k]=v); [[ -v m ]] && echo m || echo nom`,
		`a=(x); [[ -v a ]] && echo a; declare -A m=([0]=z); [[ -v m ]] && echo m; b=(); [[ -v b ]] || echo "no b"`,
		`declare -a a1=([2]=x [-1]=y); declare -p a1`,
	})
}
