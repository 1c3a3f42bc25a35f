// Differential tests (against /usr/bin/bash, see compareWithBash) for a
// function call's prefix bindings as a scope of their own (bash's
// temporary environment) and for unset of a calling function's local.
package interp_test

import "testing"

func TestJaiphPrefixBindingScope(t *testing.T) {
	runCases(t, []string{
		// an unset uncovers what the binding hid; a later assignment
		// reaches the global; changes to a binding go with the call
		`g() { echo "in: $t"; unset t; echo "after: ${t-U}"; t=set-in-g; }; t=global; t=temp g; echo "out: $t"; h() { t=changed; }; t=g; t=temp h; echo $t`,
		// local takes the binding's value; a binding has no attribute
		// but export; nested bindings; a subshell's copy
		`f() { local t; echo "[${t-U}]"; }; t=temp f; declare -i n=5; k() { echo $n; n+=1; echo $n; }; n=2+3 k; echo $n; t=G; inner() { unset t; echo "inner: ${t-U}"; }; outer() { t=two inner; echo "outer: $t"; }; t=one outer; s() { ( unset t; echo "sub: ${t-U}" ); ( t=x; unset t; echo "sub2: ${t-U}" ); echo "s: $t"; }; t=temp s; echo "top: $t"`,
	})
}

func TestJaiphUnsetCallersLocal(t *testing.T) {
	runCases(t, []string{
		// unset of a calling function's local uncovers the global, for
		// the callee and the caller after it; the function's own local
		// stays unset, shadowing
		`t=global; h() { local t=loc; k; echo "h: ${t-U}"; }; k() { unset t; echo "k: ${t-U}"; }; h; echo "top: $t"; o() { local t=L; unset t; echo "o: ${t-U}"; ( unset t; echo "o sub: ${t-U}" ); }; o`,
		// in a subshell of the callee: the subshell's copy only
		`t=G; h() { local t=L; k; echo "h: $t"; }; k() { ( unset t; echo "sub: ${t-U}" ); ( t=x; unset t; echo "sub2: ${t-U}" ); echo "k: $t"; }; h; r() { local -r t=R; q; echo "r: $t"; }; q() { unset t 2>/dev/null || echo "st=$?"; }; r`,
	})
}
