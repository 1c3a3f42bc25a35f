package pattern

import (
	"regexp"
	"testing"
)

// QuoteMeta's text matches itself literally also inside a bracket
// expression (jaiph-go patch): bash's [\!], ["^"], [a"-"c] and [a"]"] are
// sets of the quoted characters, not a negation, a range or an early close.
func TestJaiphQuoteMetaInBrackets(t *testing.T) {
	for _, tc := range []struct {
		quoted         string
		match, nomatch string
	}{
		{"!", "!", "ab"},
		{"^", "^", "ab"},
		{"]", "]", "ab["},
		{"a-c", "a-c", "b"},
		{"!a", "!a", "bc"},
		{"^-", "^-", "a]"},
		{`\`, `\`, "a"},
		{"*?[", "*?[", "a]"},
	} {
		pat := "[" + QuoteMeta(tc.quoted, 0) + "]"
		expr, err := Regexp(pat, EntireString)
		if err != nil {
			t.Errorf("%q: %v", pat, err)
			continue
		}
		rx := regexp.MustCompile(expr)
		for _, c := range tc.match {
			if !rx.MatchString(string(c)) {
				t.Errorf("%q (regexp %q) does not match %q", pat, expr, c)
			}
		}
		for _, c := range tc.nomatch {
			if rx.MatchString(string(c)) {
				t.Errorf("%q (regexp %q) matches %q", pat, expr, c)
			}
		}
	}
	// Outside brackets the escapes change nothing.
	for _, s := range []string{"a-b", "!x", "^y]", `p\q`} {
		expr, err := Regexp(QuoteMeta(s, 0), EntireString)
		if err != nil || !regexp.MustCompile(expr).MatchString(s) {
			t.Errorf("QuoteMeta(%q) as a pattern (%q, %v) does not match itself", s, expr, err)
		}
	}
	// Invalid UTF-8 is kept byte for byte.
	if got := QuoteMeta("a\xff-", 0); got != "a\xff\\-" {
		t.Errorf("QuoteMeta of invalid UTF-8: %q", got)
	}
}
