// Differential tests (against /usr/bin/bash, see compareWithBash) for
// [[ =~ ]]'s regular expressions read as glibc's regcomp reads them
// (internal/ere.go).
package interp_test

import (
	"strings"
	"testing"
)

const ereShow = `t() { if [[ $1 =~ $2 ]]; then printf '<%s>' "${BASH_REMATCH[@]}"; echo; else echo "no $?"; fi; }; `

// TestJaiphERELeftmostLongest: the match is the leftmost, longest one (Go's
// first one took the first alternative: abab gave ab), and its groups are
// glibc's choice among the ways to it, an empty first alternative coming
// after the second.
func TestJaiphERELeftmostLongest(t *testing.T) {
	runCases(t, []string{
		ereShow + `t abab '(ab|a)(bab)?'; t foobar '(fo|foo)(obar|bar)'; t xyz '(x|xy)(z|yz)'; t ab '(a|ab)(b?)'; t aaa '(a*)(a)'`,
		ereShow + `t a '(|a)a*'; t b '(|a|b)b*'; t b '(|b|a)b*'; t a '(||a)a*'; t a '(a{0}|a)a*'; t a '(|(a))a*'; t ab '((a)|(ab))((b)|)'`,
		ereShow + `t aaa '(a|aa)*'; t aaa '(aa|a)*'; t ab '(a|b)*'; t a '(a?)*'; t abcd '(a|ab)(c|bcd)(d*)'`,
	})
}

// TestJaiphEREGlibcSyntax: what glibc's extended syntax says where Go's
// differs: GNU's \w \W \s \S \` \' (in a variable: a backslash in the
// [[ ]] word is the shell's quote); \d \n \t are letters; . and [^a] match
// a newline; a repetition repeats a repetition, never lazily; an
// unmatched ) and a } are characters; {,m} is {0,m}; a backslash in a
// bracket expression is itself; ] first in a list, - first or last.
func TestJaiphEREGlibcSyntax(t *testing.T) {
	runCases(t, []string{
		ereShow + `r='\w+\W\s\S'; t 'a_1 .x' "$r"; r='\d\n\t'; t 'dnt' "$r"; t 'x9' "$r"; r='\` + "`" + `a'; t ab "$r"; t ba "$r"; r="b\\'"; t ab "$r"; t ba "$r"`,
		ereShow + `t $'a\nb' 'a.b'; t $'a\nb' 'a[^x]b'; t aaa 'a**'; t aaa 'a+?'; t aaa 'a*?'; t aa 'a?*'; t 'a)' 'a)'; t 'a}' 'a}'; t aaa 'a{,2}'`,
		ereShow + `r='[\]'; t 'a\b' "$r"; t ']' '[]a]'; t b '[^]a]'; t - '[a-]'; t - '[-a]'; t - '[[.-.]]'; t a '[[=a=]]'; t '%' '[%--]'; t x '\{'`,
		ereShow + `r='a\{2\}'; t 'a{2}' "$r"; r='(a)\|b'; t 'a|b' "$r"; r='a\.b'; t 'a.b' "$r"; t axb "$r"; t aab 'a{2}b{0}'; t ab 'a{1,}b{1}'`,
	})
}

// TestJaiphEREAnchors: ^ and $ at the edges are the string's; inside an
// expression without groups glibc takes a newline the expression matched
// for a line's end ($.b matches "\nb", .^c "\nc"); with groups it does not.
func TestJaiphEREAnchors(t *testing.T) {
	runCases(t, []string{
		ereShow + `t $'b\n' '$.'; t $'x\nb' '$.b'; t $'x\nb' 'y|$.b'; t $'b\nc' '.^c'; t $'b\nc' '^c'; t $'b\nc' 'b$'; t $'bx' '$x'; t $'a\nb' 'x|^b'`,
		ereShow + `t 'a,x,b' '(^|,)x($|,)'; t x '(^|,)x($|,)'; t $'a\nx' '(^|,)x($|,)'; t 'k=v' '^([^=]+)=(.*)$'; t $'k=v\n' '^([^=]+)=(.*)$'; t ab 'a$|^b'`,
	})
}

// TestJaiphEREErrors: what glibc's regcomp refuses has status 2 and
// leaves BASH_REMATCH as it was: nothing to repeat (at the start, after
// ( | or an anchor), a bad interval, a reversed range, an unknown class,
// a - inside a list, a count past 32767, an unclosed group or list, a
// backslash at the end, a collating name, a back-reference to an open
// group; glibc's error wins over what jaiph cannot run (no message).
func TestJaiphEREErrors(t *testing.T) {
	runCases(t, []string{
		ereShow + `[[ a =~ (a) ]]; for r in '*a' '+a' 'a|*b' '(*a)' '^*' 'a{x' 'a{2,1}' 'a{1' 'a{' '{1}a' '[z-a]' '[[:foo:]]' '[a-c-e]' 'a{99999}'; do t a "$r"; done; echo "${BASH_REMATCH[@]}"`,
		ereShow + `for r in '(' '(a' '[a' '[' '[^' 'a\' '[[.hyphen.]]' '[[:alpha:' '(a\1)' 'a{,}' '()*+' '(a)\1[' 'a{1001}[' '\<a('; do t a "$r"; done`,
	})
}

// TestJaiphERELocale: in a UTF-8 locale the classes hold characters
// beyond ASCII, and a range with a multibyte end is glibc's error (C.UTF-8
// has no collation sequence for it); nocasematch folds, [[:upper:]] is
// [[:alpha:]] then.
func TestJaiphERELocale(t *testing.T) {
	runCases(t, []string{
		"LC_ALL=C.UTF-8\n" + ereShow + `t é '[[:alpha:]]'; t 'éa' '\w+'; t é '[a-é]'; t b '[a-é]'; t é '[é]'; t é '[[=é=]]'; t 'xéy' 'x.y'; t 'é' '^.$'`,
		ereShow + `shopt -s nocasematch; t ab '[[:upper:]]+'; t AB '[[:lower:]]+'; t aB 'Ab'; shopt -u nocasematch; t ab '[[:upper:]]+'`,
	})
}

// TestJaiphEREUnsupported: what glibc accepts and Go's regexp cannot say
// (a back-reference, \< and \>, a count above 1000, \b or \B on a string
// with characters beyond ASCII, an anchor reached both with and without
// something matched before it in an expression that can match a newline,
// glibc's registers of an empty group repeated by an interval, an anchor
// in a group repeated by an interval) is not run differently: [[ ]] fails
// with status 2 and says why.
func TestJaiphEREUnsupported(t *testing.T) {
	for _, tc := range []struct{ src, stderr string }{
		{`r='(a)\1'; [[ aa =~ $r ]]; echo "st=$?"`, `[[: regular expression: the back-reference \1 is not supported`},
		{`r='\<a'; [[ a =~ $r ]]; echo "st=$?"`, `[[: regular expression: the word anchor \< is not supported`},
		{`[[ a =~ a{1001} ]]; echo "st=$?"`, `[[: regular expression: a repetition count above 1000 ({1001}) is not supported`},
		{`r='\ba'; [[ é =~ $r ]]; echo "st=$?"`, `[[: regular expression: \b on a string with characters beyond ASCII is not supported`},
		{`[[ a =~ .?^a ]]; echo "st=$?"`, `[[: regular expression: ^ inside an expression that can match a newline is not supported`},
		{`[[ a =~ (x)|a$.b ]]; echo "st=$?"`, `[[: regular expression: $ inside an expression that can match a newline is not supported`},
		{`[[ a =~ (a|){1,2} ]]; echo "st=$?"`, `[[: regular expression: a group that can match nothing, repeated {1,2} is not supported`},
		{`[[ ba =~ b(^a){0,2} ]]; echo "st=$?"`, `[[: regular expression: an anchor inside a group repeated {0,2} is not supported`},
	} {
		got := runInterp(t, t.TempDir(), tc.src)
		if got.stdout != "st=2\n" || strings.TrimSpace(got.stderr) != tc.stderr {
			t.Errorf("%s: got %q %q, want %q %q", tc.src, got.stdout, got.stderr, "st=2\n", tc.stderr)
		}
	}
}
