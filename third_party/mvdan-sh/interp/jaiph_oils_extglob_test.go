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

// TestJaiphOilsPS4: xtrace lines start with PS4 expanded as a prompt
// string when the line is written (variables, $?, arithmetic, command
// substitution, with xtrace off meanwhile), its first character repeated
// per command substitution level; unset or empty PS4 prints no prefix.
// (Oils' xtrace spec.)
func TestJaiphOilsPS4(t *testing.T) {
	runCases(t, []string{
		`declare -p PS4; set -x; echo 1; unset PS4; echo 2; PS4=; echo 3`,
		`PS4='+$v:'; set -x; v=1; echo one; v=2; echo two`,
		`PS4='[st=$?] '; set -x; false; echo ok; (exit 4); echo "$(echo in)"`,
		`PS4='-> $((1+2)) $(echo c) '; set -x; echo a; x=$(echo b)`,
		`set -x; f() { local PS4='- '; echo inside; }; f; echo two`,
		`PS4='@@ '; set -x; echo "$(echo "$(echo deep)")"`,
	})
}

// TestJaiphOilsXtraceQuoting: bash 5.2's xtrace writes a word with a
// control character other than tab and newline (or a byte that is no
// UTF-8) as $'…', a lone single quote as \', and checks an assignment's
// value for shell metacharacters first. (Oils' xtrace spec.)
func TestJaiphOilsXtraceQuoting(t *testing.T) {
	runCases(t, []string{
		`set -x; : $'a\x01b' $'a\x03b\004c' $'\a\b\f\r\v\e' $'x\x7f' $'t\tn\nz'`,
		`set -x; : "'" "a'b" '\' $'\x01\'\\' $'\xff' $'ok\xc3'`,
		`set -x; v=$'a\x01b'; w=$'a\x01 b'; u="'"; x=$'\xfe'`,
		`set -x; echo $'\x02' > /dev/null; printf '%s\n' $'q\x1br' >/dev/null`,
	})
}

// TestJaiphOilsDeclareAppendNewLocal: in a function, declare/local
// name+=… of a variable that is not yet a local of that function appends
// to a new, empty local (bash's make_local_variable), for lists and
// strings; a local of the function, or a prefix binding of the call, is
// appended to. (Oils' xtrace spec: declare a+=(v).)
func TestJaiphOilsDeclareAppendNewLocal(t *testing.T) {
	runCases(t, []string{
		`a=(1); s=g; b=(0); f() { declare a+=(2); declare s+=x; local b+=(3); declare -p a s b; }; f; declare -p a s b`,
		`f() { local c=(1); declare c+=(2); declare -p c; g; }; g() { declare c+=(9); declare -p c; }; f`,
		`h() { declare s+=y; echo "$s"; }; s=t h; declare -A m=([k]=v); k() { declare m+=([q]=w); declare -p m; }; k`,
		`a=(1); f() { declare -g a+=(2); }; f; declare -p a`,
	})
}

// TestJaiphOilsDollarQuoteCodePoints: $'\u…' and $'\U…' encode any value
// as bash does in a UTF-8 locale (surrogates, values past U+10FFFF in up
// to six bytes, nothing past 0x7fffffff); they were U+FFFD. (Oils'
// unicode spec; bash's side sets the locale on a line of its own.)
func TestJaiphOilsDollarQuoteCodePoints(t *testing.T) {
	runCases(t, []string{
		"LC_ALL=C.UTF-8\nprintf %s $'\\udc00|\\U0000dc00|\\U00110000|\\U7fffffff|\\U80000000|\\U0010ffff|\\u00fc' | od -An -tx1",
	})
}

// TestJaiphOilsProcSubstCatShortcut: <(<file) gives the file's contents,
// as bash's $(<file) shortcut; with more than the redirection it is an
// ordinary command list (the redirection alone prints nothing). (Oils'
// process-sub spec.)
func TestJaiphOilsProcSubstCatShortcut(t *testing.T) {
	runCases(t, []string{
		`echo WORD > w.txt; tr A-Z a-z < <(<w.txt); cat < <(<w.txt; echo hi); cat <(< w.txt) <(<w.txt)`,
		`cat <(<missing.txt); echo "st $?"`,
	})
}

// TestJaiphOilsNulBytes: bash drops the NUL bytes of a command
// substitution with one warning per substitution, read skips them without
// counting them (unless NUL is the delimiter), and mapfile keeps each line
// only up to its first NUL. (Oils' nul-bytes spec.)
func TestJaiphOilsNulBytes(t *testing.T) {
	runCases(t, []string{
		`s=$(printf '.\000.\000'); echo "${#s}"; t=$(printf 'a\000'; printf '\000b'); echo "$t"; u=$(printf ok); echo "$u"`,
		`printf '.\000.\n' | { read -r s; echo "${#s}"; }; printf 'a\000bc' | { read -r -n 2 s; echo "$s"; }; printf 'a\000b' | { read -r -d '' s; echo "$s"; }`,
		`printf '.\000.\nxy\n.\000\n' | { mapfile L; echo "${#L[@]}"; printf '<%s>' "${L[@]}"; echo; }; printf 'p\000q\n' | { mapfile -t L; printf '<%s>' "${L[@]}"; echo; }`,
		`printf 'a\000b\000c' | { mapfile -d '' L; printf '<%s>' "${L[@]}"; echo; }`,
	})
}

// TestJaiphOilsNegatedExtglobAnywhere: !(…) with patterns around it,
// several groups or nested in another group, in pathname expansion and
// [[ ]], as bash's extmatch. (Oils' extglob-files spec.)
func TestJaiphOilsNegatedExtglobAnywhere(t *testing.T) {
	runCases(t, []string{
		`shopt -s extglob; mkdir d; touch d/{aa,ab,ac,ba,bb,bc,ca,cb,cc}; p1='d/!(b)@(b|c)' p2='d/!(b)?@(b|c)' p3='d/!(b)a@(b|c)'; echo $p1; echo $p2; echo $p3`,
		`shopt -s extglob; mkdir d; touch d/{ab,ac,ad,az,bc,bd}; p1='d/a@(!(c|d))' p2='d/a!(@(ab|b*))' p3='d/!(a*)!(c)'; echo $p1; echo $p2; echo $p3`,
		`for w in xay xy ab ba x.y; do [[ $w == *!(a)y ]] && echo "1 $w"; [[ $w == !(x)@(a|b)* ]] && echo "2 $w"; [[ $w == +(!(a))b ]] && echo "3 $w"; done`,
		`shopt -s extglob; touch .h x1 x2 y1; p='!(x)*'; echo $p; p2='!(y)[0-9]'; echo $p2`,
	})
}

// TestJaiphOilsDeclInvalidOption: an invalid option of declare, typeset,
// local, export or readonly is bash's `NAME: -X: invalid option` and the
// builtin's usage line, status 2. (Oils' extglob-files spec: typeset with
// a pattern for an option.)
func TestJaiphOilsDeclInvalidOption(t *testing.T) {
	runCases(t, []string{
		`declare -@ x; echo "st $?"; typeset -q y; echo "st $?"; f() { local -@ z; echo "st $?"; }; f`,
		`export -@ w; echo "st $?"; readonly -@ v; echo "st $?"; declare -x1 u; echo "st $?"`,
	})
}

// TestJaiphOilsGlobignoreAndGlobstar: GLOBIGNORE's patterns match as
// bash's (FNM_PATHNAME: * does not match a slash; split at colons outside
// bracket expressions), and a glob with several ** lists each path once.
// (Oils' globignore and globstar specs.)
func TestJaiphOilsGlobignoreAndGlobstar(t *testing.T) {
	runCases(t, []string{
		`mkdir w; cd w; touch one.md one.txt; mkdir foo; touch foo/{two.md,two.txt}; GLOBIGNORE=*.txt; echo *.* foo/*.*; GLOBIGNORE='*/*.txt'; echo *.* foo/*.*`,
		`mkdir w; cd w; touch {_t.py,p.toml,2023.log,.env} 'has space.doc'; GLOBIGNORE=[[:alnum:]]*; echo *.*; GLOBIGNORE=[![:alnum:]]*; echo *.*; GLOBIGNORE='*[[:space:]]*:2*'; echo *.*; GLOBIGNORE='[:]x:p*'; echo *.*`,
		`shopt -s globstar; mkdir -p w/c/s; cd w; touch {leaf.md,c/leaf.md,c/s/leaf.md}; echo **/**/*.*`,
	})
}
