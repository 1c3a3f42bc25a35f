package interp_test

import "testing"

// The word of ${!r+word} / ${!r-word} holding "${a[@]}" keeps the list's
// fields when chosen, as bash (Oils' spec/nix-idioms: nixpkgs' hooks idiom
// ${!hooksSlice+"${!hooksSlice}"}).
func TestJaiphIndirectOpWordFields(t *testing.T) {
	runCases(t, []string{
		`a=('foo bar' baz); r='a[@]'; printf '<%s>' ${!r+"${!r}"}; echo; printf '<%s>' ${!r+"${a[@]}"}; echo`,
		`a=('foo bar' baz); r='a'; printf '<%s>' ${!r+"${a[@]}"}; echo; e=''; r='e'; printf '<%s>' ${!r:+"${a[@]}"} ${!r+"${a[@]}"}; echo`,
		`a=('foo bar' baz); r='a[@]'; printf '<%s>' "${!r+"${a[@]}"}"; echo; printf '<%s>' "${!r-"${a[@]}"}" ${!r-"${a[@]}"}; echo`,
		`a=('foo bar' baz); r='nope'; printf '<%s>' "${!r-"${a[@]}"}"; echo; printf '<%s>' ${!r-"${a[@]}"} ${!r:-"${a[@]}"}; echo`,
		`set -- 'x y' z; v=1; r=v; printf '<%s>' ${!r+"$@"} "${!r+"$@"}"; echo; p=(); r='p[@]'; printf '<%s>' ${!r+"${!r}"}; echo`,
	})
}

// Under set -u, ${!r} whose target is unset (a variable, an element) is
// bash's "!r: unbound variable".
func TestJaiphIndirectNounset(t *testing.T) {
	runCases(t, []string{
		`set -u; r=nope; echo ${!r}; echo end`,
		`set -u; r=nope; echo "${!r-d}" ${!r+x} "${!r:-e}"; r='b[@]'; echo "[${!r}]"; echo end`,
		`set -u; a=(x); r='a[5]'; echo "${!r}"; echo end`,
		`set -u; declare -A m; r='m[k]'; echo "${!r}"; echo end`,
		`set -u; r=3; echo "${!r}"; echo end`,
		`set -u; r=nope; f() { echo "${!r}"; }; f || echo "st $?"; echo end`,
	})
}
