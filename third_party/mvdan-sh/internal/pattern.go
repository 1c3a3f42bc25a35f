// Copyright (c) 2026, Daniel Martí <mvdan@mvdan.cc>
// See LICENSE for licensing information

package internal

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	"github.com/jaiph-go/jaiph/third_party/mvdan-sh/pattern"
)

// ExtendedPatternMatcher returns a [regexp.Regexp.MatchString]-like function
// to support !(pattern-list) extended patterns where possible.
// It can be used instead of [pattern.Regexp] for narrow use cases.
func ExtendedPatternMatcher(pat string, mode pattern.Mode) (func(string) bool, error) {
	if mode&pattern.ExtendedOperators != 0 && mode&pattern.EntireString == 0 {
		// In the future we could try to support !(pattern) without matching
		// the entire input, ensuring we add enough test cases.
		panic("ExtendedOperators is only supported with EntireString")
	}

	// Extended pattern matching operators are always on outside of pathname expansion.
	expr, err := pattern.Regexp(pat, mode)
	if err != nil {
		// Handle !(pattern-list) negation: when Regexp returns NegExtglobError,
		// match the inner pattern and negate the result.
		negErr, ok := errors.AsType[*pattern.NegExtGlobError](err)
		if !ok {
			return nil, err
		}
		m, err := extNegatedMatcher(pat, negErr.Groups)
		if err != nil {
			// jaiph-go patch: any other use of !(…) (several groups,
			// patterns around it, nesting) goes to a backtracking
			// matcher with bash's extmatch semantics.
			return extBacktrackMatcher(pat, mode)
		}
		return m, nil
	}
	rx := regexp.MustCompile(expr)
	return rx.MatchString, nil
}

// extNegatedMatcher handles !(pattern-list) extglob negation.
// Only a single !(...) group with fixed-string prefix and suffix is supported.
func extNegatedMatcher(pat string, groups []pattern.NegExtGlobGroup) (func(string) bool, error) {
	if len(groups) != 1 {
		return nil, fmt.Errorf("multiple extglob !(...) groups are not supported yet")
	}
	g := groups[0]
	prefix := pat[:g.Start]
	suffix := pat[g.End:]

	if pattern.HasMeta(prefix, pattern.ExtendedOperators) || pattern.HasMeta(suffix, pattern.ExtendedOperators) || strings.ContainsAny(prefix+suffix, "()|") {
		return nil, fmt.Errorf("extglob !(...) is only supported with a fixed prefix and suffix")
	}

	// Use @(inner) to compile the pattern list, then negate the match.
	inner := pat[g.Start+len("!(") : g.End-len(")")]
	expr, err := pattern.Regexp("@("+inner+")", pattern.EntireString|pattern.ExtendedOperators)
	if err != nil {
		return nil, err
	}
	rx := regexp.MustCompile(expr)

	return func(name string) bool {
		if !strings.HasPrefix(name, prefix) {
			return false
		}
		if !strings.HasSuffix(name, suffix) {
			return false
		}
		end := len(name) - len(suffix)
		if end < len(prefix) {
			return false // prefix and suffix overlap in name
		}
		middle := name[len(prefix):end]

		return !rx.MatchString(middle)
	}, nil
}

// extBacktrackMatcher matches a whole string against pat as bash's
// extmatch does (lib/glob/sm_loop.c), trying every split of the string
// (jaiph-go patch). Single characters, bracket expressions and runs of
// ordinary text are matched through [pattern.Regexp] with the caller's
// mode; ?(…) *(…) +(…) @(…) !(…) and * are matched here.
func extBacktrackMatcher(pat string, mode pattern.Mode) (func(string) bool, error) {
	m := &extMatcher{mode: mode &^ pattern.EntireString, cache: map[string]*regexp.Regexp{}}
	if _, err := m.one(`x`); err != nil {
		return nil, err
	}
	return func(name string) bool { return m.match(pat, name) }, nil
}

type extMatcher struct {
	mode  pattern.Mode
	cache map[string]*regexp.Regexp
}

// one compiles a piece of pattern without extended groups, anchored.
func (m *extMatcher) one(piece string) (*regexp.Regexp, error) {
	if rx, ok := m.cache[piece]; ok {
		return rx, nil
	}
	expr, err := pattern.Regexp(piece, m.mode|pattern.EntireString)
	if err != nil {
		return nil, err
	}
	rx, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	m.cache[piece] = rx
	return rx, nil
}

// groupEnd returns the index just past the ')' closing the group whose
// '(' is at open, and the group's alternatives; -1 when it is not closed.
func groupEnd(pat string, open int) (int, []string) {
	depth := 0
	var alts []string
	start := open + 1
	for i := open; i < len(pat); i++ {
		switch pat[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				return i + 1, append(alts, pat[start:i])
			}
		case '|':
			if depth == 1 {
				alts = append(alts, pat[start:i])
				start = i + 1
			}
		}
	}
	return -1, nil
}

// match reports whether all of s matches pat.
func (m *extMatcher) match(pat, s string) bool {
	// The literal head up to the first *, extended group or end is
	// matched at once.
	i := 0
	for i < len(pat) {
		c := pat[i]
		if c == '\\' {
			i += 2
			continue
		}
		if c == '*' && (i+1 >= len(pat) || pat[i+1] != '(') {
			break
		}
		if strings.IndexByte("?*+@!", c) >= 0 && i+1 < len(pat) && pat[i+1] == '(' {
			if end, _ := groupEnd(pat, i+1); end > 0 {
				break
			}
		}
		i++
	}
	i = min(i, len(pat))
	head, rest := pat[:i], pat[i:]
	if head != "" {
		rx, err := m.one(head)
		if err != nil {
			return false
		}
		if rest == "" {
			return rx.MatchString(s)
		}
		for _, j := range splits(s) {
			if rx.MatchString(s[:j]) && m.match(rest, s[j:]) {
				return true
			}
		}
		return false
	}
	if rest == "" {
		return s == ""
	}
	if rest[0] == '*' && (len(rest) == 1 || rest[1] != '(') {
		// bash's * (sm_loop.c): a run of them is one; the pattern after
		// it is tried where the string's characters start, never on the
		// empty rest, except that at the string's end a !(…) group
		// matches whatever follows it (bash's quirk). A ?(…) or *(…)
		// group after it goes through bash's own loop, approximated by
		// every split.
		r := rest[1:]
		for len(r) > 0 && r[0] == '*' && (len(r) == 1 || r[1] != '(') {
			r = r[1:]
		}
		if r == "" {
			return true
		}
		if s == "" && strings.HasPrefix(r, "!(") {
			return true
		}
		last := len(s) - 1 // the empty rest is not tried
		if strings.HasPrefix(r, "?(") || strings.HasPrefix(r, "*(") {
			last = len(s)
		}
		for _, j := range splits(s) {
			if j > last {
				break
			}
			if m.match(r, s[j:]) {
				return true
			}
		}
		return false
	}
	op := rest[0]
	end, alts := groupEnd(rest, 1)
	after := rest[end:]
	anyAlt := func(t string) bool {
		for _, a := range alts {
			if m.match(a, t) {
				return true
			}
		}
		return false
	}
	switch op {
	case '!':
		for _, j := range splits(s) {
			if !anyAlt(s[:j]) && m.match(after, s[j:]) {
				return true
			}
		}
		return false
	case '?', '@':
		if op == '?' && m.match(after, s) {
			return true
		}
		for _, j := range splits(s) {
			if anyAlt(s[:j]) && m.match(after, s[j:]) {
				return true
			}
		}
		return false
	default: // '*', '+'
		if op == '*' && m.match(after, s) {
			return true
		}
		star := "*(" + rest[2:end-1] + ")" + after
		for _, j := range splits(s) {
			if j > 0 && anyAlt(s[:j]) && m.match(star, s[j:]) {
				return true
			}
		}
		return false
	}
}

// splits are the character boundaries of s, 0 and len(s) included.
func splits(s string) []int {
	out := make([]int, 0, len(s)+1)
	for i := range s {
		out = append(out, i)
	}
	return append(out, len(s))
}
