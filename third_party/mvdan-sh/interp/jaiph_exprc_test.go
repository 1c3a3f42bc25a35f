package interp_test

import "testing"

// Arithmetic text (a variable's value, a let argument, a declare -i value)
// is evaluated as bash's expr.c evaluates it, reading and evaluating
// together: a name is evaluated as it is read, after a peek at the token
// behind it, so the error bash reports, and the token it names, is the
// first one met in that order (jaiph-go patch, bashexpr.go).
func TestJaiphArithTextAsExprC(t *testing.T) {
	runCases(t, []string{
		// the peek past a name meets the bad operator before the
		// operator in front of the name is applied
		`n='A B C.D'; echo $((7/n)); echo st=$?`,
		`v='b/c.d'; declare -i v="$v"; echo st=$?`,
		`v1=a/b/c.d; declare -i r="${v1/\//}"; echo st=$?`,
		`declare -i v="1 two words three [ab]"; echo st=$?`,
		`v1=42 v2=' x y  z'; declare -i v1; v1='v1 v2'; echo st=$?`,
		`x='1 + + + 2 )'; let "y = x"; echo st=$? y=$y`,
		// errors raised where nothing is evaluated
		`let "(x=4) || ((0) ** (0 - 8))"; echo st=$? x=$x`,
		`let "0 && 2 ** -1"; echo st=$?; let "0 && 1/0"; echo st=$?`,
		`let "1 ? 5 : 08"; echo st=$?; let "1 ? 5 : 3#4"; echo st=$?`,
		// the recursion limit names the text and the name it read
		`y='1+z' z='y*2'; echo $((y))`,
		`x=-x; let x; echo st=$?`,
		// an element's subscript is evaluated once, for reading and
		// writing; a bad subscript is reported and reads as empty
		`a=(1 2 3); i=0; let "a[i++]+=5" "a[i++]=7" "a[i++]++"; echo ${a[@]} i=$i`,
		`a=(1 2); let "x=a[-5]+3"; echo st=$? x=$x; let "x=a[@]+3"; echo st=$? x=$x`,
		`a=(1 2); let "x=a[-1]*10"; echo $x; s=abc; let "s[1]+=4"; declare -p s`,
		`declare -A m=([k]=3); let "x=m[k]+1" "m[j]=9"; echo $x ${m[j]}`,
		`declare -A m; k=x; let "m[a+b]=3" "m[$k]+=2" "m[k]++"; declare -p m`,
		`let "a[1"; echo st=$?`,
		`a=(1 2); let "a[-5]=3" "u[-1]=4" "a[-5]+=1"; echo st=$? ${a[@]} ${u[@]}`,
		"a=(5 6); let \"x=a['x']\"; echo notreached",
		"a=(5 6); let \"a['x']=3\"; echo notreached",
		// nounset: a name unset, an array's name (not its element)
		`set -u; a=(); let "x=a+1" "y=a[3]+1"; echo $x $y; let "z=q[0]"; echo notreached`,
		// an assignment's target is not read; ++ and -- read it
		`set -u; let "n=5" "m+=1"; echo $n $m`,
		`let "x = 3" "x++ + ++x" "y = x-- - --x"; echo $x $y`,
		`let "--x=7"; echo st=$?; let "x++=7"; echo st=$?; let "5++"; echo st=$?`,
	})
}

// $((…)), ((…)) and an unquoted let argument are evaluated as bash does
// them too: their text expanded first, then evaluated by the same port,
// so an assignment to a non-variable is found where bash's parser meets
// it, before a name behind it is read (set -u: no "unbound variable"
// first), and a bad constant's error shows the text up to its end
// (jaiph-go patch; found by a soak of seed 92).
func TestJaiphArithExpansionAsExprC(t *testing.T) {
	runCases(t, []string{
		`set -u; n=2; (( (-n && x=4) )) || echo "st=$?"; echo "${v:-$((n < x=4))}"`,
		`set -u; echo $(((x=4 * x=4 == 0 + (1/0) * !n - (n?2:5 ** i))))`,
		`set -u; n=2; (( (((n + 010) + x=4 < 3 < n++ < (((((0 ** 1))) << a1[0]+=1 << n)))) )); echo "st=$? n=$n"`,
		`echo $(( 1 + 02#1 )); echo notreached`,
		`(( 08 + 1 )); echo "st=$?"; (( x = 1 ? 5 : 2 ** -1 )); echo "st=$? x=$x"`,
		`x='2 + 3'; echo $(( $x * 4 )) $(( x * 4 )); y=5; echo $(( y = 7, $y ))`,
		`k='\'; declare -A H; (( H["$k"] = 9 )); echo "${!H[@]} ${H[@]}"; i=1; a=(5 6 7); (( a[$i+1] += 1, a[i]++ )); echo "${a[@]}"`,
		"echo $(( LINENO > 0 )); (( '3' + 1 )); echo \"st=$?\"; let \"x='3' + 1\"; echo \"st=$? x=$x\"",
		`echo $(( 1[2] )); echo notreached`,
	})
}
