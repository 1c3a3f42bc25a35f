// Differential tests (against /usr/bin/bash, see compareWithBash) for the
// port of bash's pattern matcher used for patterns with extended groups
// (internal/gmatch.go, internal/patsub.go).
package interp_test

import "testing"

// every prints, for each string and pattern, [[ ]] and case and each
// parameter operation that takes a pattern, so one snippet checks the
// matcher and bash's searches around it.
const every = `every() {
  local s p
  for p in "${pats[@]}"; do
    for s in "${strs[@]}"; do
      [[ $s == $p ]] && r=1 || r=0
      case $s in $p) c=1;; *) c=0;; esac
      printf '%s|%s|%s%s|%s|%s|%s|%s\n' "$s" "$p" $r $c "${s#$p}" "${s##$p}" "${s%$p}" "${s%%$p}"
      printf '  %s|%s|%s|%s\n' "${s/$p/Y}" "${s//$p/Y}" "${s/#$p/Y}" "${s/%$p/Y}"
    done
  done
}
shopt -s extglob
`

// TestJaiphGmatchStar: bash's * tries the rest of the pattern only where a
// character of the string starts, never on the empty rest (a !(…) group
// at the string's end aside), and tries a *(…) group right after it only
// where characters start: *@(|x) does not match "ab", where a regular
// expression would.
func TestJaiphGmatchStar(t *testing.T) {
	runCases(t, []string{
		every + `strs=("" a ab ba xab aab x)
pats=('*@(|x)' '*?(x)' '**(x)' '*!(x)' 'a*@(|b)' '*a*@(|x)' '*+(b)' '*!(a)b' '*!(*b)' '*@(a|)b' '?*@(|x)' '*?*(x)')
every`,
	})
}

// TestJaiphGmatchGroups: the groups themselves, nested, next to each
// other, with brackets and escapes inside, as bash's extmatch tries them.
func TestJaiphGmatchGroups(t *testing.T) {
	runCases(t, []string{
		every + `strs=("" a b ab abab aab ba "a|b" "a)")
pats=('@(a|ab)*' '+(a|ab)' '*(a)b' '!(a)*' '?(a)*(b)' '@(*)' '!(*)' 'a!(b)' '!(@(a|b))' '+(!(a)|b)' '@([ab]|x)+([!a])' '@([a|b])' '@(a\|b)' '@(a\))' '!(+(ab))' '?(a|)?(b|)')
every`,
	})
}

// TestJaiphGmatchMalformed: a group with no closing parenthesis is
// compared with the string as text, the escaped operator is a plain
// character, and a '[' that does not close is one too.
func TestJaiphGmatchMalformed(t *testing.T) {
	runCases(t, []string{
		every + `strs=("" a "@(a" "x@(a" "[a" "*@(a" "@(x)")
pats=('@(a' '*@(a' '\@(x)' '@([a)' 'x@(a' '[a@(|b)' '@(x)\')
every`,
	})
}

// TestJaiphGmatchNoCaseAndMultibyte: shopt -s nocasematch folds case in
// [[ ]], case and ${v/…/…} (never in ${v#…}); characters beyond ASCII are
// single characters to ?, brackets and classes, as in a UTF-8 locale.
func TestJaiphGmatchNoCaseAndMultibyte(t *testing.T) {
	runCases(t, []string{
		every + `shopt -s nocasematch
strs=(AB aB Ab "" BA)
pats=('@(a|b)*' '*@(B|)' '+([a-b])' '!(A)*')
every`,
		"LC_ALL=C.UTF-8\n" + every + `strs=(é éa aé ééx "" x)
pats=('@(?)' '+(é)' '*@(|é)' '@([[:alpha:]])*' '!(é)' '?(é)a' '@([à-ê])*')
every`,
	})
}

// TestJaiphGmatchCaseModify: ${v^^pat} and the like match each character
// against the pattern, extended groups included even with extglob off
// (bash's sh_modcase always matches with FNM_EXTMATCH).
func TestJaiphGmatchCaseModify(t *testing.T) {
	runCases(t, []string{
		`v=abcab; echo "${v^^@(a|b)}"; shopt -s extglob; echo "${v^^@(a|b)}" "${v^@(a|b)}" "${v^^!(a)}"; V=ABCAB; echo "${V,,+(A|C)}" "${V,*(B)}"`,
	})
}

// TestJaiphCaseExtglobOff: a case pattern's groups are extended only with
// shopt -s extglob; [[ ]] matches them whatever the option, and ${v#…} and
// ${v/…/…} take them literally without it.
func TestJaiphCaseExtglobOff(t *testing.T) {
	runCases(t, []string{
		`p="@(a|b)"; v=abab; for s in a '@(a|b)'; do case $s in $p) echo "case $s";; esac; [[ $s == $p ]] && echo "test $s"; done; echo "${v#$p}" "${v/$p/Y}"; shopt -s extglob; case a in $p) echo on;; esac; echo "${v#$p}" "${v/$p/Y}"`,
	})
}

// TestJaiphUnicodeClasses: in a UTF-8 locale bash's character classes know
// every character (glibc's, from Unicode's properties): é is alpha and
// lower, a no-break space is graph and punct but no space, an em space
// is space and blank, an Arabic-Indic digit alpha but not digit. A pattern
// with a class is matched by the port of bash's matcher for it.
func TestJaiphUnicodeClasses(t *testing.T) {
	runCases(t, []string{
		"LC_ALL=C.UTF-8\nfor c in é É ß $'\\u00a0' $'\\u2003' $'\\u0663' $'\\u00aa' $'\\u2168' $'\\u00ad' $'\\u2028' x 5 _; do o=; for k in alpha upper lower digit alnum space blank punct print graph cntrl word; do [[ $c == [[:$k:]] ]] && o+=1 || o+=0; done; echo \"$o\"; done",
		"LC_ALL=C.UTF-8\nv='héllo wörld ٣'; echo \"${v//[[:alpha:]]/x}\" \"${v##*[![:alpha:]]}\" \"${v%%[[:space:]]*}\"; case é in [[:lower:]]) echo lower;; esac; touch é ö x; echo [[:alpha:]]; echo [![:ascii:]]",
		"LC_ALL=C.UTF-8\ntouch é.txt a.txt b.log; GLOBIGNORE='[[:alpha:]].txt'; echo *; GLOBIGNORE='[![:ascii:]]*'; echo *; shopt -s extglob; GLOBIGNORE='*@(|x).log'; echo *",
	})
}

// TestJaiphUnicodeClassesInRegex: [[ =~ ]]'s bracket classes hold the
// characters beyond ASCII bash's do, negated ones too.
func TestJaiphUnicodeClassesInRegex(t *testing.T) {
	runCases(t, []string{
		"LC_ALL=C.UTF-8\n[[ é =~ ^[[:alpha:]]$ ]] && echo alpha; [[ é =~ ^[^[:alpha:]]$ ]] || echo 'not non-alpha'; [[ 'a\u2003b' =~ a([[:space:]])b ]] && echo \"space ${#BASH_REMATCH[1]}\"; [[ 'x٣y' =~ [[:digit:]] ]] || echo 'no digit'; [[ É =~ [[:upper:][:punct:]] ]] && echo upper; [[ ab =~ [[:alpha:]]+ ]] && echo \"${BASH_REMATCH[0]}\"",
	})
}

// TestJaiphGmatchCollatingAndSearchStar: [[.name.]] names a character,
// [[=c=]] is c; ${v/(/s} with extglob on finds nothing, as bash's search
// first matches *(…* (its * before the pattern makes a group).
func TestJaiphGmatchCollatingAndSearchStar(t *testing.T) {
	runCases(t, []string{
		every + `strs=(- a '(' '*(]|' ']' x-)
pats=('[[.hyphen.]]' '[[=a=]]' '*[[.hyphen.]]' '[[.right-square-bracket.]]' '(' '(*' '[!]]' '[]a]')
every`,
		every + `shopt -u extglob; strs=('(' 'a(b' '*(' '')
pats=('(' '(*' '*(' '@(a')
every`,
	})
}

// TestJaiphPatternsOnInvalidUTF8: a string or pattern that is no valid
// UTF-8 is matched byte by byte, as bash's byte matcher does: ? takes one
// byte, a byte beyond ASCII is in no class and folds to nothing.
func TestJaiphPatternsOnInvalidUTF8(t *testing.T) {
	runCases(t, []string{
		"LC_ALL=C.UTF-8\nshopt -s extglob; for s in $'\\xe9' $'a\\xff' $'é\\xff'; do for p in '[[:alpha:]]' '?' '??' '@([[:alpha:]])' '+([[:print:]])' '*@(|a)'; do [[ $s == $p ]] && echo \"$p 1\" || echo \"$p 0\"; done; done",
		"LC_ALL=C.UTF-8\nv=$'\\xe9a\\xff\\xe9b'; echo \"${v//?/x}\" \"${v#?}\" \"${v%%[ab]*}\" \"${v/#?/Y}\" \"${v/%?/Y}\" \"${v//$'\\xff'/F}\" | od -An -c; shopt -s nocasematch; [[ $'\\xc9' == $'\\xe9' ]] && echo fold; case $'\\xff' in ?) echo one;; esac",
	})
}
