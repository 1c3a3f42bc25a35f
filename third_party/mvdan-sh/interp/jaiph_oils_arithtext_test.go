package interp_test

import "testing"

// TestJaiphArithExpandFirst: bash expands the words of an arithmetic
// expression before it parses the text they make and evaluates it (Oils'
// spec/arith-dynamic): a value holding operators joins the expression
// around it, the expansions all happen before any assignment in the
// expression, and a substitution behind && or || still runs.
func TestJaiphArithExpandFirst(t *testing.T) {
	runCases(t, []string{
		`e='2 + 3'; echo $(( $e * 4 )) $(( "$e" * 4 )) $(( ${e} * 4 )) $(( "2+3" * 4 ))`,
		`v='2 + 3'; echo $(( v * 4 )); w='v * 2'; echo $(( w + 1 ))`,
		`x=1; echo $(( x = 5, $x )) $x`,
		`i=1; echo $(( i++ + $(echo $i) )) $i`,
		`echo $(( 0 && $(echo ran >&2; echo 1) )) $(( 1 || $(echo ran too >&2; echo 0) ))`,
		`n=-3; echo $(( 2-$n )) $(( 2*$n )) $(( $n ** 2 )); p=+4; echo $(( 1-$p ))`,
		`a=(10 20 30); k=1; echo $(( a[$k] + ${a[2]} )); (( a[$k] += 1 )); echo ${a[@]}`,
		`s='1 || 0'; (( $s )) && echo yes; t='3 > 4'; (( $t )) || echo no; (( 0 || $s )) && echo yes`,
		`x=; echo $(( $x )) $(( $x + 1 )); echo $(( 2 * $x )); echo after`,
		`e='1 +'; let "z = $e 6"; echo $z; let "z = 2 * $e 6"; echo $z`,
		`e='2 + 3'; a=(a b c d e f g); echo ${a[$e * 1]} ${a[ $e ]}`,
		`e='7 - 2'; for (( i = $e; i > 3; i-- )); do echo $i; done`,
		`set -u; echo $(( ${nope:-2} + 1 )); echo $(( $nope + 1 )); echo after`,
	})
}
