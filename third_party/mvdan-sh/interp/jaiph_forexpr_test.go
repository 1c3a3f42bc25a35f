package interp_test

import "testing"

func TestJaiphForArithErrors(t *testing.T) {
	runCases(t, []string{
		`for ((j = '1'; j < 3; j++)); do echo "i $j"; done; echo "st=$?"`,
		`f() { set -e; for ((j = 1; j < '3'; j++)); do echo "c $j"; done; echo "st=$?"; for ((j = 1; j < 3; j+='1')); do echo "s $j"; done; echo "st=$?"; echo end; }; f; echo "f=$?"`,
		`f() { for ((j = 1/0; j < 3; j++)); do echo "z $j"; done; echo "st=$?"; }; f; echo "f=$?"`,
		`readonly r=1; for ((r = 2; r < 3; r++)); do echo "r $r"; done; echo "st=$?"`,
		`for ((k = 0; k < 5; k += (k == 2 ? 1/0 : 1))); do echo "k $k"; done; echo "st=$?"`,
		`for ((k = 0; k < 2; k++)); do false; done; echo "st=$?"; for ((k = 0; k < 2; k++)); do :; done; echo "st=$?"`,
		`trap 'echo "err trap $?"' ERR; for ((j = '1'; j < 3; j++)); do :; done; echo "st=$?"`,
	})
}

func TestJaiphArithAnsiCQuoted(t *testing.T) {
	runCases(t, []string{
		`(( $'1' + 1 )); echo "st=$?"`,
		`echo $(( $'1' + 1 )); echo not here`,
		`for ((j = $'1'; j < 3; j++)); do echo "j $j"; done; echo "st=$?"`,
		`echo $(( $"3" + 1 )); x=$'2'; echo $((x + 1))`,
	})
}

func TestJaiphArithCarriageReturn(t *testing.T) {
	runCases(t, []string{
		`t=$'\t42\t'; echo $(( t + 1 )); n=$'\n7\n'; echo $(( n + 1 ))`,
		`c=$'\r42\r'; echo $(( c + 1 )); echo not here`,
		`c=$'42\r'; echo $(( c + 1 )); echo not here`,
		`c=$'1 +\r2'; (( c )) || echo "st=$?"`,
		`c=$'\v42'; (( x = c )) || echo "st=$?"; c=$'4\f2'; let "x = c" || echo "st=$?"`,
	})
}
