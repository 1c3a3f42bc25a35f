package interp_test

import "testing"

// TestJaiphUnsetDeclaredLocal: unset removes a variable declared without a
// value too (`local w`, `local -i w`): from a called function it uncovers
// what the caller's local shadowed, as bash's makunbound finds the cell
// (Oils' spec/ble-features).
func TestJaiphUnsetDeclaredLocal(t *testing.T) {
	runCases(t, []string{
		`drop() { unset -v "$1"; }; k() { local w; ( drop w; echo "sub ${w-unset}" ); drop w; echo "main ${w-unset}"; }; w=G; k`,
		`drop() { unset -v "$1"; }; k() { local -i w; drop w; echo "${w-unset}"; unset w; echo "${w-unset}"; }; w=G; k; echo "$w"`,
		`k() { local w; unset w; echo "${w-unset}"; w=1; }; w=G; k; echo "$w"`,
		`f() { echo fn; }; k() { local f; unset f; f; }; k`,
	})
}

// TestJaiphCallBindingScope: a function call's prefix binding shares the
// function's variable context, as bash's: a `local` of the same name starts
// with its value, also in a function called further down with no scope
// holding the name in between, and a caller's unset of that local removes
// the binding with it (Oils' spec/ble-features).
func TestJaiphCallBindingScope(t *testing.T) {
	runCases(t, []string{
		`k1() { local w; echo "${w-unset}"; }; k2() { k1; }; k3() { local w=L; k1; }; w=G; k1; w=T k1; w=T k2; k3; w=T k3; (export w=X; k2)`,
		`drop() { unset -v "$1"; }; k() { local w=L; drop w; echo "${w-unset}"; }; w=G; w=T k; k`,
		`drop() { unset -v "$1"; }; k() { local w; ( drop w; echo "sub ${w-unset}" ); ( unset w; echo "sub ${w-unset}" ); drop w; echo "${w-unset}"; }; w=G; w=T k; echo "$w"`,
		`drop() { unset -v "$1"; }; k() { drop w; echo "${w-unset}"; drop w; echo "${w-unset}"; }; w=G; w=T k; echo "$w"`,
	})
}
