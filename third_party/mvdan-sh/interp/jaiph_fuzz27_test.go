// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// patches found by the differential fuzzer's soak in the session of
// 2026-11-30, second stop (jaiph-go issue 36).
package interp_test

import "testing"

// TestJaiphIntegerElementSubscriptErrorFirst: an element of a declare -i
// array assigned with a subscript whose arithmetic fails reports that
// error alone: the value, which would be evaluated as arithmetic too, is
// not (bash ends the command at the subscript).
func TestJaiphIntegerElementSubscriptErrorFirst(t *testing.T) {
	runCases(t, []string{
		`v='a/b/c.d'; declare -i A1=3; A1['!x']="$v"; echo after`,
		`(v='1/0' s='2+'; declare -ai A=(1); A[$s]=$v; echo in); echo "st=$?"; (declare -ai A; A[0]=1/0; echo in2); echo "st=$?"`,
		`f() { local -i n; local s='x y'; n[$s]='1/0'; echo in; }; f; echo "st=$?"`,
	})
}

// TestJaiphNamerefDefaultWithList: "${r:-"$@"}" of a nameref chooses its
// word by what the nameref names, an array element too (declare -n
// r='a[1]': it took the element for unset and gave "$@").
func TestJaiphNamerefDefaultWithList(t *testing.T) {
	runCases(t, []string{
		`set -- one 'two words'; a1=(1 'two words' three); declare -n v2='a1[1]'; printf '<%s>' "${v2:-"$@"}" "${v2+"$@"}"; echo`,
		`set -- p q; a1=(1 'two words' three) s=str e=''; declare -n r1='a1[1]' r2=s r3=e r4='a1[7]' r5=nosuch r6=a1; for r in r1 r2 r3 r4 r5 r6; do declare -n x=$r; printf '%s:' "$r"; printf '<%s>' "${x:-"$@"}" "${x-"$@"}" "${x:+"$@"}" "${x+"$@"}"; echo; done`,
	})
}

// TestJaiphConvertArrayKindMessageBeforeRedirect: declare -a NAME=(…) of
// an associative array in the same scope says "NAME: cannot convert …"
// as its words expand, before its redirections (where stderr was), and
// the builtin's own message under them.
func TestJaiphConvertArrayKindMessageBeforeRedirect(t *testing.T) {
	runCases(t, []string{
		`f() { declare -Ai a1; declare -a a1=([2]="$(echo e1 >&2)" [0]=x) 2>f2; echo "st=$?"; sed 's/^.*declare: /declare: /' f2; }; f`,
		`f() { declare -a a1=(1); declare -A a1=([k]=v) 2>f2; echo "st=$?"; sed 's/^.*declare: /declare: /' f2; declare -p a1; }; f`,
	})
}
