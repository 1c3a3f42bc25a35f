package interp_test

import "testing"

// TestJaiphOilsDbracketBangParen: with extglob off when the text is parsed,
// bash reads a word-initial `!(` in a [[ ]] operand as `!` and a
// parenthesised test; extglob on at parse time (eval, source after
// `shopt -s extglob`) makes it an extended pattern, a non-empty word. The
// right of == / != is a pattern either way. (Oils' extglob-match spec.)
func TestJaiphOilsDbracketBangParen(t *testing.T) {
	runCases(t, []string{
		`e=; q=x; [[ !($e) ]] && echo a; [[ !($q) ]] || echo b`,
		`q=x; [[ y && !($q) ]] || echo c; [[ ! !($q) ]] && echo d; [[ ( !($q) ) ]] || echo e`,
		`q=x; [[ x == !($q) ]] || echo f; [[ z == !($q) ]] && echo g; [[ z != !($q) ]] || echo h`,
		`f() { shopt -s extglob; q=x; [[ !($q) ]] || echo i; eval '[[ !($q) ]] && echo j'; }; f`,
		`f() { shopt -s extglob; q=x; echo '[[ !($q) ]] && echo k' > s.sh; source ./s.sh; shopt -u extglob; eval '[[ !($q) ]] || echo l'; }; f`,
	})
}

// TestJaiphOilsEmptyExtglob: inside [[ ]] an extended pattern with an empty
// list, `@()`, is a pattern matching the empty string (bash); the parser
// took `@()` for the start of a function definition. (Oils' extglob-match
// spec.)
func TestJaiphOilsEmptyExtglob(t *testing.T) {
	runCases(t, []string{
		`[[ '' == @() ]] && echo a; [[ z == @() ]] || echo b; [[ ab == a@()b ]] && echo c`,
		`[[ '' == *() ]] && echo d; [[ '' == ?() ]] && echo e; [[ x == !() ]] && echo f; [[ '' != +() ]] || echo g`,
	})
}

// TestJaiphOilsNocasematchPatsub: bash's nocasematch also folds case in
// ${x/pattern/s} (every form: /, //, /#, /%, brackets, extended patterns),
// but not in ${x#…}/${x%…} or case modification. (Oils'
// nocasematch-match spec.)
func TestJaiphOilsNocasematchPatsub(t *testing.T) {
	runCases(t, []string{
		`shopt -s nocasematch; u=QaQ; echo "${u/q/x}" "${u//q/x}" "${u/#q/x}" "${u/%q/x}" "${u//[q]/x}" "${u/A/-}"`,
		`shopt -s nocasematch; u=QaQ; echo "${u#q}" "${u%q}" "${u^^q}" "${u,,a}"; a=(Qz zq); echo "${a[@]/Q/x}"`,
		`shopt -s nocasematch extglob; u=QQaq; echo "${u//+(q)/x}" "${u/!(q)/y}"; shopt -u nocasematch; echo "${u//q/x}"`,
	})
}

// TestJaiphOilsShellopts: SHELLOPTS and BASHOPTS are bash's readonly lists
// of the set -o and shopt options that are on, sorted and joined by ':'.
// (Oils' sh-options-bash spec.)
func TestJaiphOilsShellopts(t *testing.T) {
	runCases(t, []string{
		`echo "$SHELLOPTS"; echo "$BASHOPTS"`,
		`set -euf -o pipefail; set -C; echo "$SHELLOPTS"; set +euf +C +o pipefail; echo "$SHELLOPTS"`,
		`set -x; echo "$SHELLOPTS" 2>/dev/null; set +x 2>/dev/null; echo "$SHELLOPTS"`,
		`shopt -s extglob nullglob failglob; shopt -u globskipdots; echo "$BASHOPTS"`,
		`SHELLOPTS=x; echo "st $?"; BASHOPTS=y; echo "st $?"; test -v SHELLOPTS && test -v BASHOPTS && echo set`,
		`f() { local SHELLOPTS=q; echo "st $?"; }; f; unset BASHOPTS; echo "st $?"; declare -p SHELLOPTS`,
	})
}
